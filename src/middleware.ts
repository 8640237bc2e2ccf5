/**
 * Astro middleware (ARCHITECTURE.md): the handlers of `src/lib/server/middleware/`, in order,
 * with the storefront redirect list read from BigCommerce.
 */
import { getRedirects } from './lib/server/bigcommerce/index.ts';
import { bigcommerce, storefrontHosts } from './lib/server/config.ts';
import { createMiddleware } from './lib/server/middleware/index.ts';

export const onRequest = createMiddleware({
  load: () => getRedirects(bigcommerce()),
  shopHosts: storefrontHosts,
});
