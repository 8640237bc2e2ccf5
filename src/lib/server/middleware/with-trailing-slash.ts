import type { MiddlewareHandler } from 'astro';
import { trailingSlashRedirect } from '../../commerce/redirects.ts';

/**
 * spec §2: a path ending with '/' (other than the root) answers 301 to the same path without
 * it, query kept.
 */
export const withTrailingSlash: MiddlewareHandler = (context, next) => {
  // `astro dev` strips the slash before middleware runs: there `devTrailingSlash` answers.
  const requested = new URL(context.request.url);
  const target = trailingSlashRedirect(requested.pathname);
  if (target === null) return next();
  // `//evil.example/` must not become the protocol-relative `//evil.example`.
  const path = `/${target.replace(/^\/+/, '')}`;
  return new Response(null, { status: 301, headers: { Location: path + requested.search } });
};

/**
 * The same 301 for `astro dev`, whose router normalises the path before Astro middleware sees
 * it: a Vite plugin answering ahead of Astro (Vite's own `/@...` and `/_...` paths excluded).
 */
export function devTrailingSlash(): {
  name: string;
  configureServer(server: {
    middlewares: {
      use(
        fn: (
          req: { url?: string; method?: string },
          res: { writeHead(status: number, headers: Record<string, string>): { end(): void } },
          next: () => void,
        ) => void,
      ): void;
    };
  }): void;
} {
  return {
    name: 'shop:dev-trailing-slash',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        const skipped = /^\/(@|_|node_modules\/)/.test(url.pathname);
        const target = skipped ? null : trailingSlashRedirect(url.pathname);
        if (target === null || (req.method !== 'GET' && req.method !== 'HEAD')) {
          next();
          return;
        }
        res.writeHead(301, { Location: `/${target.replace(/^\/+/, '')}${url.search}` }).end();
      });
    },
  };
}
