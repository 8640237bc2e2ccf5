import type { MiddlewareHandler } from 'astro';
import { pagePathDecision } from '../../lib/commerce/page-path.ts';
import { NOT_FOUND_ROUTE } from './with-features.ts';

/**
 * One spelling per page (`commerce/page-path.ts`), before any guard or flag looks at
 * the path: a trailing slash (spec §2), `.html`, `/index.html`, repeated slashes, dot segments,
 * escaped letters answer 301 to the canonical path, query kept; an unreadable path is not
 * found. The storefront server applies the same rule to every request before its static files.
 */
export const withCanonicalPath: MiddlewareHandler = (context, next) => {
  // Pre-rendered pages are built from their canonical paths; `astro dev`: see dev-server.ts.
  if (context.isPrerendered) return next();
  const requested = new URL(context.request.url);
  const decision = pagePathDecision(requested.pathname, requested.search);
  if (decision.kind === 'canonical') return next();
  if (decision.kind === 'not-found') return context.rewrite(NOT_FOUND_ROUTE);
  return new Response(null, { status: 301, headers: { Location: decision.location } });
};
