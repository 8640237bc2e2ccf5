import { cartLinkPath } from '../../lib/commerce/cart-link.ts';
import { listingViewPath } from '../../lib/commerce/listing.ts';
import { pagePathDecision } from '../../lib/commerce/page-path.ts';

interface DevRequest {
  url?: string;
  method?: string;
}
interface DevResponse {
  writeHead(status: number, headers: Record<string, string>): { end(): void };
}
type DevMiddleware = (req: DevRequest, res: DevResponse, next: () => void) => void;

/**
 * What `src/server/serve.ts` does ahead of Astro in production, for `astro dev`, whose router
 * normalises the path and drops the query of pre-rendered routes before Astro middleware runs:
 * one spelling per page (`commerce/page-path.ts`: the trailing-slash 301 of spec §2, `.html`,
 * `//`, escaped letters), cart links (`?id&token`, spec §2 redirect-to-cart) to their
 * on-demand route and the rewrite of listing views (`/c/...?sort=2`) to theirs. Vite's own `/@...`, `/_...` and `/node_modules/` paths are left alone.
 */
export const devServerRequests: DevMiddleware = (req, res, next) => {
  const read = req.method === 'GET' || req.method === 'HEAD';
  const raw = req.url ?? '/';
  if (!read || /^\/(@|_|node_modules\/)/.test(raw)) {
    next();
    return;
  }
  const queryAt = raw.indexOf('?');
  const decision =
    queryAt === -1
      ? pagePathDecision(raw)
      : pagePathDecision(raw.slice(0, queryAt), raw.slice(queryAt));
  if (decision.kind === 'redirect') {
    res.writeHead(301, { Location: decision.location }).end();
    return;
  }
  if (decision.kind === 'not-found') {
    req.url = '/404';
    next();
    return;
  }
  const url = new URL(raw, 'http://localhost');
  const cartLink = cartLinkPath(url.pathname, url.search);
  const view = cartLink ?? listingViewPath(url.pathname, url.search);
  if (view !== null) req.url = view;
  next();
};

/** The Vite plugin that mounts `devServerRequests` in `astro dev` (astro.config.mjs). */
export function devServer(): {
  name: string;
  configureServer(server: { middlewares: { use(fn: DevMiddleware): void } }): void;
} {
  return {
    name: 'shop:dev-server',
    configureServer(server) {
      server.middlewares.use(devServerRequests);
    },
  };
}
