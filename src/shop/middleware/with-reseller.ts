import type { MiddlewareHandler } from 'astro';
import { isResellerPath } from '../../lib/features.ts';
import { resellerGuard, type ResellerVisitor } from '../../lib/commerce/reseller.ts';
import { guardRedirect } from './with-guards.ts';

export interface ResellerOptions {
  /**
   * Who asks, from the signed session (never the `authenticated` marker): a visitor, a
   * customer, or a reseller (reseller form field 'oui', spec §3).
   */
  visitor(request: Request): Promise<ResellerVisitor>;
}

/**
 * spec §2 reseller-area guard on the area's routes (the flag is checked before, by
 * `with-features.ts`): a logged-in non-reseller goes to the main shop, a visitor to the area's
 * login page (the requested path kept for after login), a reseller on that login page to the
 * area's home.
 */
export function createWithReseller(options: ResellerOptions): MiddlewareHandler {
  return async (context, next) => {
    if (context.isPrerendered || !isResellerPath(context.url.pathname)) return next();
    const decision = resellerGuard(context.url, await options.visitor(context.request));
    if (decision.kind === 'next') return next();
    return guardRedirect(decision, context.locals.clientInfo.secure);
  };
}
