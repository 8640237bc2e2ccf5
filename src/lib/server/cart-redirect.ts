/**
 * spec §2 redirect-to-cart: a link `?id={cartId}&token={token}` (a reseller sending a cart to
 * a client) opens that cart when the cart carries a metafield of namespace
 * 'cart-redirection', key 'token' (spec §9) with the same value. The route sets the cart
 * cookie to the id and goes to /panier.
 */
import { timingSafeEqual } from 'node:crypto';
import { getCart, getCartMetafields, type BigCommerceClient } from './bigcommerce/index.ts';
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
