import type { APIContext, MiddlewareHandler } from 'astro';

/** The on-demand route of listing views (`/c/x?query` is rewritten to it). */
export const LISTING_VIEW_ROUTE = '/vue/c/[...slug]';

export interface ListingViewOptions {
  /** The reply of the listing view `context` asks for, when it can be had without a render. */
  assemble(context: APIContext): Promise<Response | null>;
}

/**
 * A shopper's listing view answered without Astro's page pipeline (a never-seen view
 * in a few milliseconds): last in the sequence, after every guard, redirect and the reseller
 * mode, a GET or HEAD of the listing view route asks `assemble` for its reply; none, and the
 * page renders as before. A reseller's view is always rendered (for them, never shared).
 */
export function createWithListingView(options: ListingViewOptions): MiddlewareHandler {
  return async (context, next) => {
    if (
      context.routePattern !== LISTING_VIEW_ROUTE ||
      context.locals.isReseller === true ||
      (context.request.method !== 'GET' && context.request.method !== 'HEAD')
    ) {
      return next();
    }
    return (await options.assemble(context)) ?? next();
  };
}
