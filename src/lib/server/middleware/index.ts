import type { MiddlewareHandler } from 'astro';
import { sequence } from 'astro/middleware';
import { getRedirects, getStoreMeta, type BigCommerceClient } from '../bigcommerce/index.ts';
import { createWithProductPath, type ProductPathOptions } from './with-product-path.ts';
import { createWithRedirects, type RedirectList, type RedirectsOptions } from './with-redirects.ts';
import { withTrailingSlash } from './with-trailing-slash.ts';

export { createWithProductPath, createWithRedirects, withTrailingSlash };
export type { ProductPathOptions, RedirectList, RedirectsOptions };

/**
 * The shop's Astro middleware, top to bottom: trailing-slash 301, storefront redirects, product
 * paths with an outdated slug (listing views are rewritten ahead of Astro: `scripts/serve.ts`,
 * and `dev-server.ts`). `src/middleware.ts` wires it to the config; tests to a sandbox.
 */
export function createMiddleware(
  redirects: RedirectsOptions,
  products?: ProductPathOptions,
): MiddlewareHandler {
  const handlers = [withTrailingSlash, createWithRedirects(redirects)];
  if (products) handlers.push(createWithProductPath(products));
  return sequence(...handlers);
}

/**
 * The BigCommerce redirect list, with the store's own hosts (its `to_url` targets are written
 * on the store domain) plus `extraHosts` (the storefront hosts) as this shop's hosts.
 */
export async function loadRedirectList(
  client: BigCommerceClient,
  extraHosts: readonly string[] = [],
): Promise<RedirectList> {
  const [redirects, store] = await Promise.all([getRedirects(client), getStoreMeta(client)]);
  const storeHosts = [store.domain, hostOf(store.secureUrl)].filter((h) => h !== '');
  return { redirects, shopHosts: [...new Set([...storeHosts, ...extraHosts])] };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
