import { createWithBudget } from './with-budget.ts';
import {
  getRedirects,
  getStoreMeta,
  type BigCommerceClient,
} from '../connectors/bigcommerce/index.ts';
import { createWithCartRedirect } from './with-cart-redirect.ts';
import { createWithClient } from './with-client.ts';
import { createWithFeatures } from './with-features.ts';
import { createWithGuards } from './with-guards.ts';
import { createWithListingView } from './with-listing-view.ts';
import { createWithProductPath } from './with-product-path.ts';
import { createWithRedirects, type RedirectList } from './with-redirects.ts';
import { createWithReseller } from './with-reseller.ts';
import { createWithShopMode } from './with-shop-mode.ts';
import { withCanonicalPath } from './with-canonical-path.ts';

/**
 * The shop's middleware handlers; `src/shop/middleware/on-request.ts` puts them in order with Astro's
 * `sequence`, tests compose the ones they check.
 */
export {
  createWithBudget,
  createWithCartRedirect,
  createWithClient,
  createWithFeatures,
  createWithGuards,
  createWithListingView,
  createWithProductPath,
  createWithRedirects,
  createWithReseller,
  createWithShopMode,
  withCanonicalPath,
};
export type { RedirectList };

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
