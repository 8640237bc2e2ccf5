import type { MiddlewareHandler } from 'astro';
import { pageEnabled, type Features } from '../../lib/features.ts';

/** The on-demand not-found route (`src/pages/404.astro`): the shop's error page, status 404. */
export const NOT_FOUND_ROUTE = '/404';

/**
 * spec §1, §6 feature flags on on-demand routes: a page of a feature switched off (the cart,
 * checkout, login, registration and account pages without the transactional flag, the reseller
 * area without its flag) does not exist: the not-found page answers, 404. The API's methods are
 * switched off by the API itself (`bigcommerceService`).
 */
export function createWithFeatures(features: Features): MiddlewareHandler {
  return (context, next) => {
    if (context.isPrerendered) return next();
    if (pageEnabled(context.url.pathname, features)) return next();
    return context.rewrite(NOT_FOUND_ROUTE);
  };
}
