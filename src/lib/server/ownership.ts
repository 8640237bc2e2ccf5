/**
 * Which cart, order and wishlist a session may use (spec §6), for the API methods and the pages
 * rendered on request alike. A wishlist is its customer's only (a visitor has none upstream:
 * theirs lives in the browser). A guest cart (customer 0) is anyone's who holds its id; a
 * customer's cart is theirs only. An order is its customer's; an order reached through the cart
 * it was made from is the cart's (a guest order is whoever's holds the cart id); the short
 * confirmation after the hosted checkout is also the browser's whose cart became that order.
 * Anything refused reads exactly like a missing record (null here, 404 at the edges).
 */
import type { Cart, Order, Wishlist } from '../commerce/types.ts';
import {
  getCart,
  getOrder,
  getOrdersByCart,
  getWishlist,
  type BigCommerceClient,
} from './bigcommerce/index.ts';

/** What a request holds: the session's customer (null for a visitor) and its cart cookie. */
export interface Holder {
  customerId: number | null;
  /** The cart id of the browser's cookie, when the rule looks at it. */
  cartId?: string | null;
}

/** Whether the session may use the cart: a guest cart, or the session customer's own. */
export function mayUseCart(cart: Pick<Cart, 'customerId'>, customerId: number | null): boolean {
  return cart.customerId === 0 || cart.customerId === customerId;
}

/** Whether the session may read the order (account pages, order API): its customer only. */
export function mayReadOrder(order: Pick<Order, 'customerId'>, customerId: number | null): boolean {
  return customerId !== null && order.customerId === customerId;
}

/**
 * Whether the holder of a cart id may read the order made from that cart (`getOrderByCart`):
 * the cart's rule, a guest order for the holder, a customer's order for that customer only.
 */
export function mayReadOrderOfCart(
  order: Pick<Order, 'customerId'>,
  customerId: number | null,
): boolean {
  return mayUseCart(order, customerId);
}

/**
 * Whether the order's confirmation (`/paiement?commande=`: number, status, total) may be shown:
 * to its customer, or to the browser whose cart became that order.
 */
export function mayConfirmOrder(
  order: Pick<Order, 'customerId' | 'cartId'>,
  holder: Holder,
): boolean {
  if (mayReadOrder(order, holder.customerId)) return true;
  const cartId = holder.cartId ?? null;
  return cartId !== null && cartId !== '' && order.cartId === cartId;
}

/** Whether the session may read or change the wishlist: its customer only. */
export function mayUseWishlist(
  wishlist: Pick<Wishlist, 'customerId'>,
  customerId: number | null,
): boolean {
  return customerId !== null && customerId > 0 && wishlist.customerId === customerId;
}

/** The session customer's wishlist; null when it is missing or another customer's. */
export async function ownWishlist(
  client: BigCommerceClient,
  wishlistId: number,
  customerId: number | null,
): Promise<Wishlist | null> {
  if (customerId === null) return null;
  const wishlist = await getWishlist(client, wishlistId);
  return wishlist !== null && mayUseWishlist(wishlist, customerId) ? wishlist : null;
}

/** The cart if the session may use it; null when it is missing or someone else's. */
export async function usableCart(
  client: BigCommerceClient,
  cartId: string,
  customerId: number | null,
): Promise<Cart | null> {
  const cart = await getCart(client, cartId);
  return cart !== null && mayUseCart(cart, customerId) ? cart : null;
}

/** The session customer's order; null when it is missing or another customer's. */
export async function ownOrder(
  client: BigCommerceClient,
  orderId: number,
  customerId: number | null,
): Promise<Order | null> {
  if (customerId === null) return null;
  const order = await getOrder(client, orderId);
  return order !== null && mayReadOrder(order, customerId) ? order : null;
}

/** The order whose confirmation the holder may see (`mayConfirmOrder`), else null. */
export async function confirmableOrder(
  client: BigCommerceClient,
  orderId: number,
  holder: Holder,
): Promise<Order | null> {
  const order = await getOrder(client, orderId);
  return order !== null && mayConfirmOrder(order, holder) ? order : null;
}

/** The newest order made from the cart that the holder of its id may read, else null. */
export async function orderOfCart(
  client: BigCommerceClient,
  cartId: string,
  customerId: number | null,
): Promise<Order | null> {
  const orders = await getOrdersByCart(client, cartId);
  return orders.find((order) => mayReadOrderOfCart(order, customerId)) ?? null;
}
