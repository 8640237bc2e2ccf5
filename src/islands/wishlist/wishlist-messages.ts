/**
 * Message keys of the wishlist's items (sidebar and account page), apart from the island so the
 * shell lists them without importing the lazy sidebar.
 */
import { ADD_ERROR_MESSAGES, ADD_LEFT_MESSAGE } from '../../lib/stores/add-to-cart.ts';
import { PRICE_TAG_MESSAGES } from '../ui/PriceTag.tsx';
import { CALL_ERROR_MESSAGES } from '../../lib/api/client.ts';

/** Message keys the items read. */
export const WISHLIST_ITEMS_MESSAGES = [
  // Any call may fail with these (upstream down or slow...): the island shows them in French.
  ...CALL_ERROR_MESSAGES,
  ...PRICE_TAG_MESSAGES,
  ...ADD_ERROR_MESSAGES,
  ADD_LEFT_MESSAGE,
  'wishlist.empty',
  'wishlist.sku',
  'wishlist.color',
  'wishlist.size',
  'wishlist.removeItem',
  'wishlist.moveToCart',
  'wishlist.moveItem',
  'wishlist.error.load',
  'wishlist.error.add',
  'wishlist.error.remove',
  'wishlist.error.clear',
  'wishlist.error.merge',
  'wishlist.error.products',
  'Added to cart',
  'cart.viewCart',
  'cart.error.add',
  'common.loading',
  'stock.inStock',
  'stock.lowStock_one',
  'stock.lowStock_other',
] as const;
