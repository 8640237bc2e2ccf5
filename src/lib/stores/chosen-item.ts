/**
 * The GA4 item of the variant chosen on the product page (`chosenVariantItem`), which the
 * variant picker keeps current, so that a script outside the island (the wishlist heart's
 * add_to_wishlist) sends the variant, price and names the page shows.
 */
import { atom } from 'nanostores';
import type { AnalyticsItem } from '../analytics/datalayer.ts';

export interface ChosenItem {
  productId: number;
  variantId: number | null;
  item: AnalyticsItem;
}

export const $chosenItem = atom<ChosenItem | null>(null);

/** The picker's chosen variant and its item. */
export function setChosenItem(chosen: ChosenItem): void {
  $chosenItem.set(chosen);
}
