/**
 * Adding a line from a button (spec §2, §4, §9): the one flow of the product page's button
 * (`islands/AddToCartButton.tsx`) and of the product cards' (`components/cart/`). Starts the
 * cart load if the shell has not yet, adds, then notifies "Added to cart" with a link to the
 * sidebar and pushes add_to_cart, or notifies the add error. Never throws.
 */
import type { AnalyticsItem } from '../analytics/datalayer.ts';
import type { LineItemInput } from '../commerce/cart.ts';
import { trackAddToCart } from './analytics.ts';
import { $cartErrors, addCartItem, initCart } from './cart.ts';
import { notify } from './notifications.ts';
import { openCartSidebar } from './ui.ts';

/** The French texts of the notifications ('Added to cart', 'cart.viewCart', 'cart.error.add'). */
export interface AddToCartTexts {
  added: string;
  viewCart: string;
  /** Shown when the add failed for another reason than those of `errors`. */
  error: string;
  /** Texts of the add slot's known messages: the stock refusals of spec §8 (ADD_ERROR_MESSAGES). */
  errors?: Partial<Record<string, string>>;
}

/** spec §8 stock dictionary messages a refused add answers with (shown as they are). */
export const ADD_ERROR_MESSAGES = [
  'Out of stock',
  'The selected quantity exceeds available stock.',
  'Currently unavailable',
] as const;

/** True when the line was added; the notification says either way. */
export async function addToCartAndNotify(
  line: LineItemInput,
  item: AnalyticsItem,
  texts: AddToCartTexts,
): Promise<boolean> {
  // The shell loads the cart when idle; a click before that starts the load (once per page).
  void initCart();
  // Store actions do not throw: a failure is `false`, its error in the add slot.
  const added = await addCartItem(line);
  if (!added) {
    // The add slot says why (spec §8): a stock refusal shows its own text.
    const reason = $cartErrors.get().add?.message;
    const text = reason === undefined ? undefined : texts.errors?.[reason];
    notify({ message: text ?? texts.error, type: 'danger' });
    return false;
  }
  trackAddToCart(item);
  notify({
    message: texts.added,
    type: 'success',
    action: { text: texts.viewCart, onClick: openCartSidebar },
  });
  return true;
}
