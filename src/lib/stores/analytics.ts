/**
 * The tag-manager pushes of spec §9 from the islands: each builds its GA4 event with the pure
 * builders of `src/lib/analytics/datalayer.ts` and, when a customer is logged in, adds their
 * data fields (spec §9 "they carry customer personal data fields"). No-ops on the server.
 */
import {
  addToCartEvent,
  podcastPlayEvent,
  pushDataLayer,
  userDataEvent,
  viewCartEvent,
  viewItemEvent,
  viewItemListEvent,
  withCustomer,
  type AnalyticsItem,
  type EcommerceEvent,
} from '../analytics/datalayer.ts';
import type { CartState } from '../commerce/cart.ts';
import type { CurrentCustomer } from '../commerce/types.ts';
import { $customer } from './customer.ts';

export type { AnalyticsItem } from '../analytics/datalayer.ts';

function pushEcommerce(event: EcommerceEvent): void {
  pushDataLayer(withCustomer(event, $customer.get()));
}

/** spec §4: on route change while authenticated (call it on each page load with the customer). */
export function trackUserData(
  customer: Pick<
    CurrentCustomer,
    'id' | 'email' | 'firstName' | 'lastName'
  > | null = $customer.get(),
): void {
  if (customer) pushDataLayer(userDataEvent(customer));
}

/** A list of products was shown (`items` from `productItem`, in display order). */
export function trackViewItemList(
  listName: string,
  items: readonly AnalyticsItem[],
  listId?: string,
): void {
  if (items.length > 0) pushEcommerce(viewItemListEvent(listName, items, listId));
}

/** A product page was shown. */
export function trackViewItem(item: AnalyticsItem): void {
  pushEcommerce(viewItemEvent(item));
}

/** Items were added to the cart (call after `addCartItem` resolved true). */
export function trackAddToCart(items: AnalyticsItem | readonly AnalyticsItem[]): void {
  pushEcommerce(addToCartEvent(Array.isArray(items) ? items : [items as AnalyticsItem]));
}

/** The cart (sidebar or page) was shown. */
export function trackViewCart(cart: CartState): void {
  pushEcommerce(viewCartEvent(cart));
}

/** A sleep-content entry was first played (spec §9 podcast_play), with the customer's fields. */
export function trackPodcastPlay(entry: Parameters<typeof podcastPlayEvent>[0]): void {
  pushDataLayer(withCustomer(podcastPlayEvent(entry), $customer.get()));
}
