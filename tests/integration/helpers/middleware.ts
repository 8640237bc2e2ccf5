/**
 * The middleware handlers in the order of `src/shop/middleware/on-request.ts` (which reads the shop's config
 * through `astro:env`, out of reach of these tests), with only the concerns a test gives.
 */
import type { MiddlewareHandler } from 'astro';
import { sequence } from 'astro/middleware';
import type { Features } from '../../../src/lib/features.ts';
import { parseTrustedProxies } from '../../../src/shop/auth/client.ts';
import {
  createWithBudget,
  createWithCartRedirect,
  createWithClient,
  createWithFeatures,
  createWithGuards,
  createWithProductPath,
  createWithRedirects,
  createWithReseller,
  withCanonicalPath,
} from '../../../src/shop/middleware/index.ts';
import { type ResellerOptions } from '../../../src/shop/middleware/with-reseller.ts';
import { type RedirectsOptions } from '../../../src/shop/middleware/with-redirects.ts';
import { type ProductPathOptions } from '../../../src/shop/middleware/with-product-path.ts';
import { type GuardsOptions } from '../../../src/shop/middleware/with-guards.ts';
import { type ClientOptions } from '../../../src/shop/middleware/with-client.ts';
import { type CartRedirectOptions } from '../../../src/shop/middleware/with-cart-redirect.ts';

export interface TestMiddleware {
  redirects: RedirectsOptions;
  products?: ProductPathOptions | undefined;
  guards?: GuardsOptions | undefined;
  cartRedirect?: CartRedirectOptions | undefined;
  client?: ClientOptions | undefined;
  features?: Features | undefined;
  reseller?: ResellerOptions | undefined;
}

export function testMiddleware(concerns: TestMiddleware): MiddlewareHandler {
  const handlers: MiddlewareHandler[] = [
    createWithBudget(),
    createWithClient(concerns.client ?? { trustedProxies: parseTrustedProxies(undefined) }),
    withCanonicalPath,
  ];
  if (concerns.features) handlers.push(createWithFeatures(concerns.features));
  if (concerns.guards) handlers.push(createWithGuards(concerns.guards));
  if (concerns.reseller) handlers.push(createWithReseller(concerns.reseller));
  if (concerns.cartRedirect) handlers.push(createWithCartRedirect(concerns.cartRedirect));
  handlers.push(createWithRedirects(concerns.redirects));
  if (concerns.products) handlers.push(createWithProductPath(concerns.products));
  return sequence(...handlers);
}
