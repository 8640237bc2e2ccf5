/**
 * Which cart, order and wishlist a session may use (spec §6), for the API methods and the pages
 * rendered on request alike. A wishlist is its customer's only (a visitor has none upstream:
 * theirs lives in the browser). A guest cart (customer 0) is anyone's who holds its id; a
 * customer's cart is theirs only. An order is its customer's; a guest order (customer 0) is the
 * browser's that placed it, the one holding its cart's checkout (`checkout-holder.ts`), never
 * merely whoever holds the cart id (a cart id is no secret from whoever made or sent
 * the cart). A cart a reseller sent is listed in their area only. Anything refused reads
 * exactly like a missing record (null here, 404 at the edges).
 */
import type { Cart, Order, Wishlist } from '../../lib/commerce/types.ts';
import {
  getCart,
  getOrder,
  getOrdersByCart,
  getWishlist,
  type BigCommerceClient,
} from '../connectors/bigcommerce/index.ts';

/** Who asks: the session's customer (null for a visitor) and the browser's checkout id. */
export interface Holder {
  customerId: number | null;
  /** The browser's id of its signed `checkout` cookie (`checkout-holder.ts`), or null. */
  browser?: string | null;
}

/** The browser id holding a cart's checkout (`CheckoutHolders.holderOf`). */
export type PlacedBy = (cartId: string) => Promise<string | null>;

/**
 * Whether a reseller may see a cart they sent to a client in their area: the
 * reseller who sent it only.
 */
export function mayListSentCart(sent: { resellerId: number }, customerId: number | null): boolean {
  return customerId !== null && customerId > 0 && sent.resellerId === customerId;
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
 * Whether the requester may read the order made from a cart (`getOrderByCart`, the
 * `/paiement?commande=` confirmation): a customer's order its customer only; a guest order the
 * browser holding its cart's checkout only (`placedBy`: that browser's id, null when none).
 */
export function mayReadOrderOfCart(
  order: Pick<Order, 'customerId'>,
  holder: Holder,
  placedBy: string | null,
): boolean {
  if (order.customerId !== 0) return mayReadOrder(order, holder.customerId);
  const browser = holder.browser ?? null;
  return browser !== null && placedBy !== null && browser === placedBy;
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

/** The order whose confirmation the holder may see (`mayReadOrderOfCart`), else null. */
export async function confirmableOrder(
  client: BigCommerceClient,
  orderId: number,
  holder: Holder,
  placedBy: PlacedBy,
): Promise<Order | null> {
  const order = await getOrder(client, orderId);
  if (order === null) return null;
  const placer =
    order.customerId === 0 && order.cartId !== '' ? await placedBy(order.cartId) : null;
  return mayReadOrderOfCart(order, holder, placer) ? order : null;
}

/** The newest order made from the cart that the requester may read, else null. */
export async function orderOfCart(
  client: BigCommerceClient,
  cartId: string,
  holder: Holder,
  placedBy: PlacedBy,
): Promise<Order | null> {
  const orders = await getOrdersByCart(client, cartId);
  if (orders.length === 0) return null;
  const placer = orders.some((order) => order.customerId === 0) ? await placedBy(cartId) : null;
  return orders.find((order) => mayReadOrderOfCart(order, holder, placer)) ?? null;
}
