import type { MiddlewareHandler } from 'astro';
import { trailingSlashRedirect } from '../../commerce/redirects.ts';

/**
 * spec §2: a path ending with '/' (other than the root) answers 301 to the same path without
 * it, query kept.
 */
export const withTrailingSlash: MiddlewareHandler = (context, next) => {
  // `astro dev` strips the slash before middleware runs: there `dev-server.ts` answers.
  const requested = new URL(context.request.url);
  const target = trailingSlashRedirect(requested.pathname, requested.search);
  if (target === null) return next();
  return new Response(null, { status: 301, headers: { Location: target } });
};
