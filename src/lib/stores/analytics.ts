/**
 * The tag-manager pushes of spec §9 from the islands and page scripts: each builds its GA4 event
 * with the pure builders of `src/lib/analytics/datalayer.ts` and, when a customer is logged in,
 * adds their data fields (spec §9 "they carry customer personal data fields").
 *
 * Events wait until the page knows who the shopper is (`$customerSettled`: at once for a
 * visitor, after `getCustomers` for a logged-in shopper), so a listing or product page shown
 * before the customer loaded still sends the customer's fields. Then `user_data` goes first
 * when logged in (spec §4: on each page load while authenticated), and every waiting event
 * once, in the order it happened. No-ops on the server.
 *
 * Consent first: the Consent Mode default leads the data layer (`ensureConsentDefault`), and
 * personal data is pushed only with analytics consent (`consentedEvent`): without it no
 * `user_data`, and events go without the customer's fields. A consent granted later on the
 * page pushes `user_data` then. `userDataReady()` resolves once the page's `user_data` went
 * (or the page knows there is none to send): the tag-manager loader waits for it before the
 * container, so tags firing at its start see the customer.
 */
import {
  addToCartEvent,
  addToWishlistEvent,
  cartQuantityEvent,
  loginEvent,
  podcastPlayEvent,
  pushDataLayer,
  removeFromCartEvent,
  searchEvent,
  selectItemEvent,
  signUpEvent,
  userDataEvent,
  viewCartEvent,
  viewItemEvent,
  viewItemListEvent,
  withCustomer,
  type AnalyticsItem,
  type DataLayerEvent,
  type EcommerceEvent,
  type PurchaseEvent,
  type ShippingInfoEvent,
} from '../analytics/datalayer.ts';
import { consentedEvent } from '../analytics/consent.ts';
import type { CartState } from '../commerce/cart.ts';
import { atom } from 'nanostores';
import { $consent, ensureConsentDefault } from './consent.ts';
import { $customer, $customerSettled, initCustomer } from './customer.ts';

export type { AnalyticsItem } from '../analytics/datalayer.ts';

/** Events waiting for the customer, in the order they happened. */
let waiting: DataLayerEvent[] = [];
let userDataSent = false;
let listening = false;

/**
 * True once this page's `user_data` was pushed, or the page knows it has none to push (a
 * visitor, or no analytics consent yet): what the container waits for.
 */
export const $userDataSettled = atom(false);

/** `user_data` once per page, when logged in and with analytics consent. */
function pushUserData(): void {
  const customer = $customer.get();
  if (customer === null || userDataSent) return;
  const event = consentedEvent(userDataEvent(customer), $consent.get());
  if (event === null) return;
  userDataSent = true;
  pushDataLayer(event);
}

/** Pushes `user_data` (once per page, when allowed), then every waiting event once. */
function flush(): void {
  ensureConsentDefault();
  pushUserData();
  const customer = $customer.get();
  const events = waiting;
  waiting = [];
  for (const event of events) {
    const allowed = consentedEvent(withCustomer(event, customer), $consent.get());
    if (allowed !== null) pushDataLayer(allowed);
  }
  $userDataSettled.set(true);
}

// A consent given on the page: the customer's user_data goes at once (before the container,
// which the loader appends only after this listener, registered first, has run).
if (typeof window !== 'undefined') {
  $consent.listen(() => {
    if ($customerSettled.get()) pushUserData();
  });
}

/** Sends `event` (without customer fields: they are added when it is pushed) once settled. */
function send(event: DataLayerEvent | null): void {
  if (typeof window === 'undefined') return;
  if (event !== null) waiting.push(event);
  if ($customerSettled.get()) {
    flush();
    return;
  }
  if (listening) return;
  listening = true;
  const stop = $customerSettled.listen((settled) => {
    if (!settled) return;
    stop();
    listening = false;
    flush();
  });
  // The shell loads the customer when idle; an event before that starts it (once per page).
  void initCustomer();
}

/**
 * spec §4: user data on each page load while authenticated (the shell calls it once per page;
 * it goes out before any other event of the page, and never twice).
 */
export function trackUserData(): void {
  send(null);
}

/**
 * Resolves once this page's `user_data` was pushed or the page knows there is none to push
 * (starts loading the customer if nobody did yet). The tag-manager loader bounds the wait.
 */
export function userDataReady(): Promise<void> {
  send(null);
  if ($userDataSettled.get()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = $userDataSettled.listen((settled) => {
      if (!settled) return;
      stop();
      resolve();
    });
  });
}

/** A list of products was shown (`items` from `productItem`, in display order). */
export function trackViewItemList(
  listName: string,
  items: readonly AnalyticsItem[],
  listId?: string,
): void {
  if (items.length > 0) send(viewItemListEvent(listName, items, listId));
}

/** A product page was shown. */
export function trackViewItem(item: AnalyticsItem): void {
  send(viewItemEvent(item));
}

/** Items were added to the cart (call after `addCartItem` resolved true). */
export function trackAddToCart(items: AnalyticsItem | readonly AnalyticsItem[]): void {
  send(addToCartEvent(Array.isArray(items) ? items : [items as AnalyticsItem]));
}

/** The cart (sidebar or page) was shown. */
export function trackViewCart(cart: CartState): void {
  send(viewCartEvent(cart));
}

/** A sleep-content entry was first played (spec §9 podcast_play), with the customer's fields. */
export function trackPodcastPlay(entry: Parameters<typeof podcastPlayEvent>[0]): void {
  send(podcastPlayEvent(entry));
}

/** spec §7: the shipping push of an order the hosted checkout made (`shippingInfoEvent`). */
export function trackShippingInfo(event: ShippingInfoEvent): void {
  send(event);
}

/** A card of a list was clicked (`item` with its list's name and place). */
export function trackSelectItem(item: AnalyticsItem): void {
  send(selectItemEvent(item));
}

/** Items left the cart (call after the removal resolved true). */
export function trackRemoveFromCart(items: readonly AnalyticsItem[]): void {
  if (items.length > 0) send(removeFromCartEvent(items));
}

/**
 * A cart line's quantity changed from `line.quantity` to `quantity` (0: removed), once the
 * cart took it: add_to_cart or remove_from_cart of the difference (`cartQuantityEvent`).
 */
export function trackCartQuantity(
  line: Parameters<typeof cartQuantityEvent>[0],
  quantity: number,
): void {
  send(cartQuantityEvent(line, quantity));
}

/** An item was added to the wishlist (call after the add resolved true). */
export function trackAddToWishlist(item: AnalyticsItem): void {
  send(addToWishlistEvent(item));
}

/**
 * The shopper leaves for the hosted checkout: begin_checkout of the cart the server sends there
 * (`beginCheckoutEvent`, written by the checkout page).
 */
export function trackBeginCheckout(event: EcommerceEvent): void {
  if (event.event === 'begin_checkout' && event.ecommerce.items.length > 0) send(event);
}

/** A search's results were shown (nothing for an empty term). */
export function trackSearch(term: string): void {
  send(searchEvent(term));
}

/** The shopper logged in (call once the login succeeded). */
export function trackLogin(): void {
  send(loginEvent());
}

/** The shopper created an account (call once the registration succeeded). */
export function trackSignUp(): void {
  send(signUpEvent());
}

/** GA4's purchase of an order (`purchaseEvent`, built by the server from the order). */
export function trackPurchase(event: PurchaseEvent): void {
  send(event);
}
