/**
 * Astro middleware (ARCHITECTURE.md): the handlers of `src/lib/server/middleware/`, in order,
 * with the storefront redirect list read from BigCommerce.
 */
import { bigcommerce, sessions, storefrontHosts } from './lib/server/config.ts';
import { getProductById } from './lib/server/bigcommerce/index.ts';
import { createMiddleware, loadRedirectList } from './lib/server/middleware/index.ts';

export const onRequest = createMiddleware(
  { load: () => loadRedirectList(bigcommerce(), storefrontHosts) },
  { lookup: (id) => getProductById(bigcommerce(), id) },
  // spec §2 guards trust the signed session cookie, not the `authenticated` marker.
  { isLoggedIn: (request) => sessions().read(request).customerId !== null },
);
