/**
 * spec §2 redirect-to-cart: a link `?id={cartId}&token={token}` (a reseller sending a cart to
 * a client) opens that cart when the cart carries a metafield of namespace
 * 'cart-redirection', key 'token' (spec §9) with the same value. The route sets the cart
 * cookie to the id and goes to /panier.
 *
 * Only the shop mints cart-link tokens (against cart fixation): a token is a random nonce and
 * an HMAC of the cart id and nonce under a key derived from SESSION_SECRET, and it counts only
 * in a metafield the shop's own app wrote as `app_only` (BigCommerce shows an app another app's
 * metafield only when it is not `app_only`). The shop API refuses the namespace altogether
 * (`isReservedNamespace`).
 *
 * A token has no expiry of its own: a link works while its cart does (BigCommerce deletes a cart
 * 30 days after its last change, and an order consumes it; `CART_LINK_VALID_DAYS`). A link that
 * opens nothing says why (`explainCartLink`).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CART_REDIRECTION_KEY, CART_REDIRECTION_NAMESPACE } from '../../lib/commerce/cart-link.ts';
import {
  cartLinkProblem,
  type CartLinkProblem,
  type PreparedBy,
  type SentCart,
} from '../../lib/commerce/sent-carts.ts';
import type { CartMetafield } from '../../lib/commerce/types.ts';
import {
  createCartMetafield,
  deleteCartMetafield,
  getCart,
  getCartMetafields,
  type BigCommerceClient,
} from '../connectors/bigcommerce/index.ts';
import { CartIdSchema } from '../connectors/bigcommerce/queries.ts';
import { deriveKey } from '../auth/keys.ts';

export { CART_REDIRECTION_KEY, CART_REDIRECTION_NAMESPACE };

/** The permission set of the shop's token metafields: private to the shop's app. */
export const CART_TOKEN_PERMISSION = 'app_only';

const TOKEN = /^([\w-]{32})\.([\w-]{43})$/;

/** The key cart-link tokens are signed with, from the shop's secret. */
export function cartLinkKey(secret: string): Buffer {
  return deriveKey(secret, 'cart-link');
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const tokenMac = (key: Buffer, cartId: string, nonce: string) =>
  createHmac('sha256', key).update(`cart-link\0${cartId}\0${nonce}`).digest('base64url');

/** A new token for the cart: 192 random bits and their HMAC with the cart id. */
export function mintCartToken(key: Buffer, cartId: string): string {
  const nonce = randomBytes(24).toString('base64url');
  return `${nonce}.${tokenMac(key, cartId, nonce)}`;
}

/** Whether the shop minted this token for this cart (HMAC compared in constant time). */
export function isShopToken(key: Buffer, cartId: string, token: string): boolean {
  const parts = TOKEN.exec(token);
  if (parts === null) return false;
  return sameText(parts[2] ?? '', tokenMac(key, cartId, parts[1] ?? ''));
}

/** A metafield the shop wrote for a cart link: its namespace and key, `app_only`. */
const isTokenField = (field: CartMetafield) =>
  field.namespace === CART_REDIRECTION_NAMESPACE &&
  field.key === CART_REDIRECTION_KEY &&
  field.permissionSet === CART_TOKEN_PERMISSION;

/**
 * The cart id to open for the query's `id` and `token`, or null: both must be non-empty, the
 * token minted by the shop for that cart, the cart a guest cart (an assigned cart stays its
 * customer's) whose shop-written token metafield holds the same token.
 */
export async function resolveCartRedirect(
  client: BigCommerceClient,
  key: Buffer,
  query: { id: string | null; token: string | null },
): Promise<string | null> {
  const { id, token } = query;
  if (id === null || token === null || token === '' || token.length > 512) return null;
  if (!CartIdSchema.safeParse(id).success) return null;
  if (!isShopToken(key, id, token)) return null;
  const cart = await getCart(client, id);
  if (cart?.customerId !== 0) return null;
  const fields = await getCartMetafields(client, id, CART_REDIRECTION_NAMESPACE);
  const match = fields.some((f) => isTokenField(f) && sameText(f.value, token));
  return match ? id : null;
}

/** Why a cart link opened nothing, and who prepared its cart when the link is the shop's. */
export interface CartLinkRefusal {
  problem: CartLinkProblem;
  preparedBy: PreparedBy | null;
}

/**
 * Why a link that `resolveCartRedirect` refused opens nothing: a token the shop did
 * not mint for this id (tampered, cut, another cart's) is `invalid` and names no one, without a
 * read upstream; a shop-minted one is `used` when its cart was paid (the sent cart's record) or
 * taken into a customer account, else `invalid` (expired, emptied, replaced), with who prepared
 * it (the sent cart's record, written by the shop alone).
 */
export async function explainCartLink(
  client: BigCommerceClient,
  key: Buffer,
  query: { id: string; token: string },
  sentCart: (cartId: string) => Promise<Pick<SentCart, 'state' | 'preparedBy'> | null>,
): Promise<CartLinkRefusal> {
  const { id, token } = query;
  if (token.length > 512 || !CartIdSchema.safeParse(id).success || !isShopToken(key, id, token)) {
    return { problem: 'invalid', preparedBy: null };
  }
  const [sent, cart] = await Promise.all([sentCart(id), getCart(client, id)]);
  return {
    problem: cartLinkProblem({ sent, cartCustomerId: cart?.customerId ?? null }),
    preparedBy: sent?.preparedBy ?? null,
  };
}

/**
 * The token of a cart link for this cart: the one its metafield already holds when the shop
 * minted it (a send tried again after a failed e-mail), else a new one stored in the cart's
 * metafield of namespace 'cart-redirection', key 'token', private to the shop's app (the app's
 * own field holding anything else, an old or a planted value, is deleted first).
 */
export async function issueCartToken(
  client: BigCommerceClient,
  key: Buffer,
  cartId: string,
): Promise<string> {
  const fields = await getCartMetafields(client, cartId, CART_REDIRECTION_NAMESPACE);
  // `app_only` fields are the shop app's own (another app's are not shown to it).
  const own = fields.filter(isTokenField);
  const existing = own.find((f) => isShopToken(key, cartId, f.value));
  if (existing) return existing.value;
  for (const field of own) await deleteCartMetafield(client, cartId, field.id);
  const token = mintCartToken(key, cartId);
  await createCartMetafield(client, cartId, {
    namespace: CART_REDIRECTION_NAMESPACE,
    key: CART_REDIRECTION_KEY,
    value: token,
    permissionSet: CART_TOKEN_PERMISSION,
  });
  return token;
}

/** The link that opens the cart (spec §2 redirect-to-cart), on the shop's public origin. */
export function cartLinkUrl(origin: string, cartId: string, token: string): string {
  const url = new URL('/panier', origin);
  url.searchParams.set('id', cartId);
  url.searchParams.set('token', token);
  return url.href;
}
