/**
 * Adding a line from a button (spec §2, §4, §9): the one flow of the product page's button
 * (`islands/AddToCartButton.tsx`), the product cards' (`components/cart/`) and the wishlist's
 * move to cart. Starts the cart load if the shell has not yet, adds, then notifies "Added to
 * cart" with a link to the sidebar and pushes add_to_cart, or notifies the add error. A stock
 * refusal names the item and says how many are left around the spec §8 message ("Oreiller
 * Papillon : La quantité sélectionnée dépasse le stock disponible. Plus que 2 en stock.").
 * Never throws.
 */
import type { AnalyticsItem } from '../analytics/datalayer.ts';
import { OFFLINE_MESSAGE } from '../api/client.ts';
import type { LineItemInput } from '../commerce/cart.ts';
import { track } from './track.ts';
import { $cartErrors, addCartItem, initCart } from './cart.ts';
import { notify } from './notifications.ts';
import { openCartSidebar } from './ui.ts';

/** The French texts of the notifications ('Added to cart', 'cart.viewCart', 'cart.error.add'). */
export interface AddToCartTexts {
  added: string;
  viewCart: string;
  /** Shown when the add failed for another reason than those of `errors`. */
  error: string;
  /** Texts of the add slot's known messages: the stock refusals of spec §8, offline (ADD_ERROR_MESSAGES). */
  errors?: Partial<Record<string, string>>;
  /** The template of what is left, `{{count}}` units ('cart.stock.addLeft'). */
  left?: string;
}

/** Message key of the units left after a refused add (`{{count}}`). */
export const ADD_LEFT_MESSAGE = 'cart.stock.addLeft';

/**
 * The units left of `line` in a refused add's details (`details.lines` of the API's 422:
 * `{ productId, variantId, left }`), or null when the reply does not say (untracked, unread).
 */
export function refusedLineLeft(
  details: Readonly<Record<string, unknown>> | undefined,
  line: Pick<LineItemInput, 'productId' | 'variantId'>,
): number | null {
  const lines = details?.lines;
  if (!Array.isArray(lines)) return null;
  for (const entry of lines as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { productId, variantId, left } = entry as Record<string, unknown>;
    if (productId !== line.productId) continue;
    if (line.variantId !== undefined && variantId !== line.variantId) continue;
    return typeof left === 'number' && Number.isSafeInteger(left) && left >= 0 ? left : null;
  }
  return null;
}

/**
 * The text of a refused add: the item's name before the spec §8 message, and the units left
 * after it when the reply says (a template without `left` leaves it out).
 */
export function refusedAddText(
  name: string,
  reason: string,
  left: number | null,
  leftTemplate: string | undefined,
): string {
  const named = name.trim() === '' ? reason : `${name.trim()} : ${reason}`;
  if (left === null || left === 0 || leftTemplate === undefined) return named;
  return `${named} ${leftTemplate.replace(/\{\{\s*count\s*\}\}/g, String(left))}`;
}

/**
 * Messages a failed add shows as they are: the spec §8 stock dictionary messages of a refused
 * add (naming the item), and the offline message of an add that got no reply offline.
 */
export const ADD_ERROR_MESSAGES = [
  'Out of stock',
  'The selected quantity exceeds available stock.',
  'Currently unavailable',
  OFFLINE_MESSAGE,
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
    // The add slot says why (spec §8): a stock refusal shows its own text, naming the item
    // and what is left of it; an add that got no reply offline says the shopper is offline.
    const failure = $cartErrors.get().add;
    const text = failure === null ? undefined : texts.errors?.[failure.message];
    notify({
      message:
        failure === null || text === undefined
          ? texts.error
          : failure.message === OFFLINE_MESSAGE
            ? text
            : refusedAddText(
                item.item_name,
                text,
                refusedLineLeft(failure.details, line),
                texts.left,
              ),
      type: 'danger',
    });
    return false;
  }
  track('trackAddToCart', item);
  notify({
    message: texts.added,
    type: 'success',
    action: { text: texts.viewCart, onClick: openCartSidebar },
  });
  return true;
}
