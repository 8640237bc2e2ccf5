/**
 * Astro middleware (ARCHITECTURE.md): the handlers of `src/lib/server/middleware/`, in order,
 * with the storefront redirect list read from BigCommerce.
 */
import { resolveCartRedirect } from './lib/server/cart-redirect.ts';
import {
  bigcommerce,
  bigcommerceForHost,
  cartCookieMaxAge,
  sessions,
  storefrontHosts,
  trustedProxies,
} from './lib/server/config.ts';
import { requestHost } from './lib/server/storefronts.ts';
import { getProductById } from './lib/server/bigcommerce/index.ts';
import { createMiddleware, loadRedirectList } from './lib/server/middleware/index.ts';

export const onRequest = createMiddleware(
  { load: () => loadRedirectList(bigcommerce(), storefrontHosts) },
  { lookup: (id) => getProductById(bigcommerce(), id) },
  // spec §2 guards trust the signed session cookie, not the `authenticated` marker.
  { isLoggedIn: async (request) => (await sessions().read(request)).customerId !== null },
  // spec §2 redirect-to-cart, on the channel of the request's storefront.
  {
    resolve: (request, query) =>
      resolveCartRedirect(bigcommerceForHost(requestHost(request)), query),
    cookieMaxAge: cartCookieMaxAge,
  },
  // First of all: the client behind TRUSTED_PROXIES, and the cross-site check.
  { trustedProxies },
);
