import { cartLinkPath } from '../../commerce/cart-link.ts';
import { listingViewPath } from '../../commerce/listing.ts';
import { trailingSlashRedirect } from '../../commerce/redirects.ts';

interface DevRequest {
  url?: string;
  method?: string;
}
interface DevResponse {
  writeHead(status: number, headers: Record<string, string>): { end(): void };
}
type DevMiddleware = (req: DevRequest, res: DevResponse, next: () => void) => void;

/**
 * What `scripts/serve.ts` does ahead of Astro in production, for `astro dev`, whose router
 * normalises the path and drops the query of pre-rendered routes before Astro middleware runs:
 * the trailing-slash 301 (spec §2), cart links (`?id&token`, spec §2 redirect-to-cart) to their
 * on-demand route and the rewrite of listing views (`/c/...?sort=2`) to theirs. Vite's own `/@...`, `/_...` and `/node_modules/` paths are left alone.
 */
export const devServerRequests: DevMiddleware = (req, res, next) => {
  const read = req.method === 'GET' || req.method === 'HEAD';
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (!read || /^\/(@|_|node_modules\/)/.test(url.pathname)) {
    next();
    return;
  }
  const target = trailingSlashRedirect(url.pathname, url.search);
  if (target !== null) {
    res.writeHead(301, { Location: target }).end();
    return;
  }
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
