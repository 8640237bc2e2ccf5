/**
 * spec §2 redirect-to-cart: a link `?id={cartId}&token={token}` (a reseller sending a cart to
 * a client) opens that cart when the cart carries a metafield of namespace
 * 'cart-redirection', key 'token' (spec §9) with the same value. The route sets the cart
 * cookie to the id and goes to /panier.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  createCartMetafield,
  getCart,
  getCartMetafields,
  type BigCommerceClient,
} from './bigcommerce/index.ts';
import { CartIdSchema } from './bigcommerce/queries.ts';

export const CART_REDIRECTION_NAMESPACE = 'cart-redirection';
export const CART_REDIRECTION_KEY = 'token';

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The cart id to open for the query's `id` and `token`, or null: both must be non-empty, the
 * cart a guest cart (an assigned cart stays its customer's) whose token metafield matches.
 */
export async function resolveCartRedirect(
  client: BigCommerceClient,
  query: { id: string | null; token: string | null },
): Promise<string | null> {
  const { id, token } = query;
  if (id === null || token === null || token === '' || token.length > 512) return null;
  if (!CartIdSchema.safeParse(id).success) return null;
  const cart = await getCart(client, id);
  if (cart?.customerId !== 0) return null;
  const fields = await getCartMetafields(client, id, CART_REDIRECTION_NAMESPACE);
  const match = fields.some((f) => f.key === CART_REDIRECTION_KEY && sameText(f.value, token));
  return match ? id : null;
}

/**
 * The token of a cart link for this cart: the one its metafield already holds (a send tried
 * again after a failed e-mail), else a new random one (256 bits) stored in the cart's metafield
 * of namespace 'cart-redirection', key 'token', readable by the app only.
 */
export async function issueCartToken(client: BigCommerceClient, cartId: string): Promise<string> {
  const fields = await getCartMetafields(client, cartId, CART_REDIRECTION_NAMESPACE);
  const existing = fields.find((f) => f.key === CART_REDIRECTION_KEY && f.value.length >= 32);
  if (existing) return existing.value;
  const token = randomBytes(32).toString('base64url');
  await createCartMetafield(client, cartId, {
    namespace: CART_REDIRECTION_NAMESPACE,
    key: CART_REDIRECTION_KEY,
    value: token,
    permissionSet: 'app_only',
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
