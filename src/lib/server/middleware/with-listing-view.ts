import type { MiddlewareHandler } from 'astro';
import { listingViewPath } from '../../commerce/listing.ts';

/**
 * A category page `/c/...` asked with listing parameters (page, sort, filters...) is served by
 * its on-demand view (`listingViewPath`): the static page only holds the default listing. The
 * production server rewrites the same way before looking for static files
 * (`scripts/serve.ts`); this covers `astro dev` and any request reaching Astro directly.
 */
export const withListingView: MiddlewareHandler = (context, next) => {
  const view = listingViewPath(context.url.pathname, context.url.search);
  if (view === null) return next();
  return context.rewrite(view);
};
