import type { MiddlewareHandler } from 'astro';
import { sequence } from 'astro/middleware';
import { createWithBudget } from './with-budget.ts';
import { getRedirects, getStoreMeta, type BigCommerceClient } from '../bigcommerce/index.ts';
import { parseTrustedProxies } from '../client.ts';
import { createWithCartRedirect, type CartRedirectOptions } from './with-cart-redirect.ts';
import { createWithClient, type ClientOptions } from './with-client.ts';
import { createWithGuards, type GuardsOptions } from './with-guards.ts';
import { createWithProductPath, type ProductPathOptions } from './with-product-path.ts';
import { createWithRedirects, type RedirectList, type RedirectsOptions } from './with-redirects.ts';
import { withTrailingSlash } from './with-trailing-slash.ts';

export {
  createWithCartRedirect,
  createWithClient,
  createWithGuards,
  createWithProductPath,
  createWithRedirects,
  withTrailingSlash,
};
export type {
  CartRedirectOptions,
  ClientOptions,
  GuardsOptions,
  ProductPathOptions,
  RedirectList,
  RedirectsOptions,
};

/**
 * The shop's Astro middleware, top to bottom, within the request's upstream time budget
 * (`with-budget.ts`): the client (`locals.clientInfo`: address, scheme
 * and public origin behind `client.trustedProxies`, trusting none by default) and the
 * cross-site check of unsafe requests to on-demand pages, trailing-slash 301, route guards (spec §2:
 * login-required, cart-authenticated, `/login.php`, `/mot-de-passe`), redirect-to-cart (`?id&token`),
 * storefront redirects, product
 * paths with an outdated slug (listing views are rewritten ahead of Astro: `scripts/serve.ts`,
 * and `dev-server.ts`). `src/middleware.ts` wires it to the config; tests to a sandbox.
 */
export function createMiddleware(
  redirects: RedirectsOptions,
  products?: ProductPathOptions,
  guards?: GuardsOptions,
  cartRedirect?: CartRedirectOptions,
  client: ClientOptions = { trustedProxies: parseTrustedProxies(undefined) },
): MiddlewareHandler {
  const handlers = [createWithClient(client), withTrailingSlash];
  if (guards) handlers.push(createWithGuards(guards));
  if (cartRedirect) handlers.push(createWithCartRedirect(cartRedirect));
  handlers.push(createWithRedirects(redirects));
  if (products) handlers.push(createWithProductPath(products));
  // First: the upstream time budget covers every handler after it and the page.
  return sequence(createWithBudget(), ...handlers);
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
