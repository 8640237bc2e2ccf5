/**
 * The product cards of the page were replaced (a listing's filters applied in place,
 * `listing-filters.ts`): a count the card scripts listen to (the wishlist hearts show and mark
 * the new hearts, the add-to-cart buttons take the cart's loading state). Their clicks are
 * delegated and need nothing.
 */
import { atom } from 'nanostores';

export const $shownCards = atom(0);

/** New cards are in the page. */
export function cardsReplaced(): void {
  $shownCards.set($shownCards.get() + 1);
}
