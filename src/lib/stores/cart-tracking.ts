/**
 * The cart lines' quantity changes with their analytics (GA4 `add_to_cart` /
 * `remove_from_cart` of the units that changed): the cart islands call these instead of the
 * cart store's actions, so each change the cart took is pushed once, and a refused one (the
 * action resolved false) not at all.
 */
import { cartItems } from '../commerce/cart.ts';
import { trackCartQuantity } from './analytics.ts';
import { $cart, removeCartItem, updateCartItemQuantity } from './cart.ts';

const lineOf = (itemId: string) => cartItems($cart.get()).find((item) => item.id === itemId);

/**
 * Sets a line's quantity (`updateCartItemQuantity`), then pushes the difference between the
 * line before and what the cart holds after (the cart clamps the quantity).
 */
export async function changeCartLineQuantity(itemId: string, quantity: number): Promise<boolean> {
  const before = lineOf(itemId);
  const changed = await updateCartItemQuantity(itemId, quantity);
  if (changed && before !== undefined) trackCartQuantity(before, lineOf(itemId)?.quantity ?? 0);
  return changed;
}

/** Removes a line (`removeCartItem`), then pushes remove_from_cart of its whole quantity. */
export async function removeCartLine(itemId: string): Promise<boolean> {
  const before = lineOf(itemId);
  const removed = await removeCartItem(itemId);
  if (removed && before !== undefined) trackCartQuantity(before, lineOf(itemId)?.quantity ?? 0);
  return removed;
}
