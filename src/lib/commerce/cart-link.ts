/**
 * spec §2 redirect-to-cart on every URL: a link `?id={cartId}&token={token}` (a reseller's cart
 * sent to a client) may name any page, pre-rendered ones included. The server (and
 * `astro dev`) hands such a request to the on-demand route `/vue/lien-panier` with the page
 * asked for, so the middleware's redirect-to-cart (`with-cart-redirect.ts`) sees it; when the
 * token does not match, that route sends the shopper on to the page asked for, without the link's
 * parameters.
 */

/** Paths that are no page: the API, webhooks, Astro's (`/_astro`, `/_image`) and Vite's. */
const NOT_PAGES = /^\/(?:[_@]|(?:api|node_modules|webhooks)(?:\/|$))/;

/** The on-demand route of cart links. */
export const CART_LINK_ROUTE = '/vue/lien-panier';
/** Its query parameter naming the page asked for (path and the rest of the query). */
export const CART_LINK_PAGE_PARAM = 'page';

/**
 * For a GET of a page whose query has non-empty `id` and `token`: the cart-link route's path
 * and query; otherwise null (API, Astro's and Vite's own paths, the route itself).
 */
export function cartLinkPath(pathname: string, search: string): string | null {
  // No query, no link (most requests: checked before anything is parsed).
  if (search === '' || search === '?' || pathname === CART_LINK_ROUTE || NOT_PAGES.test(pathname)) {
    return null;
  }
  const params = new URLSearchParams(search);
  const id = params.get('id') ?? '';
  const token = params.get('token') ?? '';
  if (id.trim() === '' || token.trim() === '') return null;
  params.delete('id');
  params.delete('token');
  const rest = params.toString();
  const page = rest === '' ? pathname : `${pathname}?${rest}`;
  const query = new URLSearchParams({ id, token, [CART_LINK_PAGE_PARAM]: page });
  return `${CART_LINK_ROUTE}?${query.toString()}`;
}

/**
 * spec §9 cart-redirection metadata: the namespace and key of a cart-link token. Only the shop
 * writes them (`sendCartToClient`); the shop API refuses the namespace (`isReservedNamespace`).
 */
export const CART_REDIRECTION_NAMESPACE = 'cart-redirection';
export const CART_REDIRECTION_KEY = 'token';

/**
 * A metafield name as a lenient comparison could read it: compatibility forms and accents
 * folded (NFKD, marks dropped), case folded (upper then lower, so 'ı', 'ſ', 'K' fold too),
 * everything but letters and digits dropped (spaces, dashes of any kind, underscores, invisible
 * format characters). Upstream's collation is not documented: whatever it treats as the same
 * name, this does too, and more.
 */
export function metafieldNameFold(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]/gu, '');
}

const RESERVED_FOLDS: ReadonlySet<string> = new Set([
  metafieldNameFold(CART_REDIRECTION_NAMESPACE),
]);

/**
 * Whether a metafield namespace is the shop's own (cart-link tokens), in any spelling upstream
 * might take for it: the shop API neither reads nor writes such a namespace (against cart
 * fixation).
 */
export function isReservedNamespace(namespace: string): boolean {
  return RESERVED_FOLDS.has(metafieldNameFold(namespace));
}
