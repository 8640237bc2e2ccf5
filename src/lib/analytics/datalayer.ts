/**
 * Tag-manager dataLayer events (spec §9 analytics events), in GA4's recommended ecommerce
 * shape: `{ event, ecommerce: { currency, value, items } }`, currency always EUR, prices in
 * euros. The builders are pure (domain types in, plain objects out); `pushDataLayer` is the
 * one place that touches `window.dataLayer`.
 */
import { displayPrice, effectivePrice } from '../commerce/price.ts';
import { toEuros, type AnalyticsItem } from './page-json.ts';
import type { CartState } from '../commerce/cart.ts';
import { cartItems } from '../commerce/cart.ts';
import { lineVariantLabel, variantLabel } from '../commerce/item-options.ts';
import type { WishlistItemView } from '../commerce/wishlist.ts';
import type {
  CartLineItem,
  CurrentCustomer,
  Order,
  OrderProduct,
  OrderShippingAddress,
  Product,
  Variant,
} from '../commerce/types.ts';

/** spec §9: analytics always in EUR. */
export const ANALYTICS_CURRENCY = 'EUR';

export { lineVariantLabel, toEuros, variantLabel };

export type { AnalyticsItem } from './page-json.ts';

export interface EcommerceData {
  currency: typeof ANALYTICS_CURRENCY;
  value?: number;
  item_list_id?: string;
  item_list_name?: string;
  /** add_shipping_info: the shipping method chosen. */
  shipping_tier?: string;
  /** add_shipping_info, purchase: the shipping cost paid, in euros. */
  shipping?: number;
  /** purchase: the order id. */
  transaction_id?: string;
  /** purchase: the tax included in `value`, in euros. */
  tax?: number;
  items: AnalyticsItem[];
}

/** spec §9: the customer personal data fields events carry when the shopper is logged in. */
export interface CustomerData {
  customer_id: number;
  customer_email: string;
  customer_first_name: string;
  customer_last_name: string;
}

export interface UserDataEvent extends CustomerData {
  event: 'user_data';
}

export type EcommerceEventName =
  | 'view_item_list'
  | 'select_item'
  | 'view_item'
  | 'add_to_cart'
  | 'remove_from_cart'
  | 'add_to_wishlist'
  | 'view_cart'
  | 'begin_checkout'
  | 'add_shipping_info'
  | 'purchase';

export interface EcommerceEvent extends Partial<CustomerData> {
  event: EcommerceEventName;
  ecommerce: EcommerceData;
}

/** GA4's `purchase`, on the order confirmation: the order as the platform recorded it. */
export interface PurchaseEvent extends EcommerceEvent {
  event: 'purchase';
  ecommerce: EcommerceData & {
    transaction_id: string;
    value: number;
    tax: number;
    shipping: number;
  };
}

/** GA4's `search`: the term of a search whose results were shown. */
export interface SearchEvent extends Partial<CustomerData> {
  event: 'search';
  search_term: string;
}

/** GA4's `login` and `sign_up`: how the shopper logged in or registered. */
export interface AuthEvent extends Partial<CustomerData> {
  event: 'login' | 'sign_up';
  method: string;
}

/**
 * spec §7 shipping push, GA4's `add_shipping_info`: the order the hosted checkout made, its
 * shipping method and where it goes (town, postcode and country only: no street, no phone).
 */
export interface ShippingInfoEvent extends EcommerceEvent {
  event: 'add_shipping_info';
  order_id: string;
  shipping_address?: { city: string; postal_code: string; country_code: string };
}

/** spec §9 `podcast_play`: a sleep-content podcast, story or video was first played on its page. */
export interface PodcastPlayEvent extends Partial<CustomerData> {
  event: 'podcast_play';
  podcast_id: string;
  podcast_title: string;
  podcast_episode?: number;
  /** `format` tag name (podcast, histoire, video). */
  podcast_format?: string;
}

export type DataLayerEvent =
  | UserDataEvent
  | EcommerceEvent
  | ShippingInfoEvent
  | PurchaseEvent
  | PodcastPlayEvent
  | SearchEvent
  | AuthEvent;

/** The sign-in method of `login` and `sign_up`: the shop's own e-mail and password form. */
export const AUTH_METHOD = 'email';

/** The longest search term sent (GA4 truncates event parameters at 100 characters). */
export const SEARCH_TERM_MAX = 100;

const sumValue = (items: readonly AnalyticsItem[]): number =>
  toEuros(items.reduce((sum, item) => sum + Math.round(item.price * 100) * item.quantity, 0));

export interface ProductItemOptions {
  variant?: Pick<Variant, 'price' | 'salePrice' | 'optionValues'> | null;
  brand?: string;
  /** The product's main category name. */
  category?: string;
  quantity?: number;
  /** Position in the list, from 0. */
  index?: number;
  listName?: string;
}

/** A product (and chosen variant) as an item: the price the shop shows as paid (spec §5). */
export function productItem(
  product: Pick<Product, 'id' | 'name' | 'price' | 'salePrice' | 'isPriceHidden'>,
  options: ProductItemOptions = {},
): AnalyticsItem {
  const item: AnalyticsItem = {
    item_id: String(product.id),
    item_name: product.name,
    price: toEuros(effectivePrice(displayPrice(product, options.variant))),
    quantity: options.quantity ?? 1,
  };
  if (options.brand) item.item_brand = options.brand;
  if (options.category) item.item_category = options.category;
  const label = variantLabel(options.variant);
  if (label !== undefined) item.item_variant = label;
  if (options.listName !== undefined) item.item_list_name = options.listName;
  if (options.index !== undefined) item.index = options.index;
  return item;
}

/** A wishlist line as an item (its move to the cart): the variant's label and price shown. */
export function wishlistLineItem(
  view: Pick<WishlistItemView, 'line' | 'name' | 'price' | 'variantLabel'>,
): AnalyticsItem {
  const item: AnalyticsItem = {
    item_id: String(view.line.productId),
    item_name: view.name,
    price: toEuros(view.price?.special ?? view.price?.regular ?? 0),
    quantity: 1,
  };
  if (view.variantLabel !== null) item.item_variant = view.variantLabel;
  return item;
}

/** A cart line as an item: unit sale price, its quantity (or `quantity` when given). */
export function cartLineItem(
  line: Pick<CartLineItem, 'productId' | 'name' | 'salePrice' | 'quantity' | 'options'>,
  options: { index?: number; quantity?: number } = {},
): AnalyticsItem {
  const item: AnalyticsItem = {
    item_id: String(line.productId),
    item_name: line.name,
    price: toEuros(line.salePrice),
    quantity: options.quantity ?? line.quantity,
  };
  const label = lineVariantLabel(line.options.map((option) => option.value));
  if (label !== undefined) item.item_variant = label;
  if (options.index !== undefined) item.index = options.index;
  return item;
}

/** The customer fields of spec §9, or none for a visitor. */
export function customerData(
  customer: Pick<CurrentCustomer, 'id' | 'email' | 'firstName' | 'lastName'> | null | undefined,
): CustomerData | Record<string, never> {
  if (!customer) return {};
  return {
    customer_id: customer.id,
    customer_email: customer.email,
    customer_first_name: customer.firstName,
    customer_last_name: customer.lastName,
  };
}

/** spec §9 `podcast_play` of a sleep-content entry (its id, title, episode and format). */
export function podcastPlayEvent(entry: {
  id: string;
  title: string;
  episode?: number | null;
  format?: string | null;
}): PodcastPlayEvent {
  const event: PodcastPlayEvent = {
    event: 'podcast_play',
    podcast_id: entry.id,
    podcast_title: entry.title,
  };
  if (entry.episode !== undefined && entry.episode !== null) event.podcast_episode = entry.episode;
  if (entry.format) event.podcast_format = entry.format;
  return event;
}

/** spec §4: pushed on route change while authenticated. */
export function userDataEvent(
  customer: Pick<CurrentCustomer, 'id' | 'email' | 'firstName' | 'lastName'>,
): UserDataEvent {
  return {
    event: 'user_data',
    customer_id: customer.id,
    customer_email: customer.email,
    customer_first_name: customer.firstName,
    customer_last_name: customer.lastName,
  };
}

/** A product list was shown (category, search, related products). */
export function viewItemListEvent(
  listName: string,
  items: readonly AnalyticsItem[],
  listId?: string,
): EcommerceEvent {
  const ecommerce: EcommerceData = {
    currency: ANALYTICS_CURRENCY,
    item_list_name: listName,
    items: items.map((item, index) => ({
      ...item,
      item_list_name: listName,
      index: item.index ?? index,
    })),
  };
  if (listId !== undefined) ecommerce.item_list_id = listId;
  return { event: 'view_item_list', ecommerce };
}

/** A product page was shown. */
export function viewItemEvent(item: AnalyticsItem): EcommerceEvent {
  return {
    event: 'view_item',
    ecommerce: { currency: ANALYTICS_CURRENCY, value: sumValue([item]), items: [item] },
  };
}

/** Items were added to the cart (value = sum of price × quantity). */
export function addToCartEvent(items: readonly AnalyticsItem[]): EcommerceEvent {
  return {
    event: 'add_to_cart',
    ecommerce: { currency: ANALYTICS_CURRENCY, value: sumValue(items), items: [...items] },
  };
}

/** The cart was shown: its lines, value = what the shopper pays (cart_amount). */
export function viewCartEvent(cart: CartState): EcommerceEvent {
  return {
    event: 'view_cart',
    ecommerce: {
      currency: ANALYTICS_CURRENCY,
      value: toEuros(cart.cartAmount),
      items: cartItems(cart).map((line, index) => cartLineItem(line, { index })),
    },
  };
}

/** A card of a list was clicked: the item with its list's name and its place in it. */
export function selectItemEvent(item: AnalyticsItem): EcommerceEvent {
  const ecommerce: EcommerceData = { currency: ANALYTICS_CURRENCY, items: [item] };
  if (item.item_list_name !== undefined) ecommerce.item_list_name = item.item_list_name;
  return { event: 'select_item', ecommerce };
}

/** Items left the cart (a removed line, a lowered quantity: the quantity removed). */
export function removeFromCartEvent(items: readonly AnalyticsItem[]): EcommerceEvent {
  return {
    event: 'remove_from_cart',
    ecommerce: { currency: ANALYTICS_CURRENCY, value: sumValue(items), items: [...items] },
  };
}

/**
 * A cart line's quantity went from `line.quantity` to `quantity` (0: the line is removed):
 * `add_to_cart` of the units added, `remove_from_cart` of the units removed, null when
 * nothing changed or the new quantity is not a whole number of units.
 */
export function cartQuantityEvent(
  line: Parameters<typeof cartLineItem>[0],
  quantity: number,
): EcommerceEvent | null {
  if (!Number.isSafeInteger(quantity) || quantity < 0) return null;
  const change = quantity - line.quantity;
  if (change === 0) return null;
  const item = cartLineItem(line, { quantity: Math.abs(change) });
  return change > 0 ? addToCartEvent([item]) : removeFromCartEvent([item]);
}

/** An item was added to the wishlist. */
export function addToWishlistEvent(item: AnalyticsItem): EcommerceEvent {
  return {
    event: 'add_to_wishlist',
    ecommerce: { currency: ANALYTICS_CURRENCY, value: sumValue([item]), items: [item] },
  };
}

/** The shopper leaves for the hosted checkout: the cart's lines, value = what they pay. */
export function beginCheckoutEvent(cart: CartState): EcommerceEvent {
  return { ...viewCartEvent(cart), event: 'begin_checkout' };
}

/** A search's results were shown: its term (trimmed, at most `SEARCH_TERM_MAX` characters). */
export function searchEvent(term: string): SearchEvent | null {
  const searchTerm = term.trim().replace(/\s+/g, ' ').slice(0, SEARCH_TERM_MAX).trim();
  return searchTerm === '' ? null : { event: 'search', search_term: searchTerm };
}

/** The shopper logged in with the shop's form. */
export function loginEvent(method: string = AUTH_METHOD): AuthEvent {
  return { event: 'login', method };
}

/** The shopper created an account with the shop's form. */
export function signUpEvent(method: string = AUTH_METHOD): AuthEvent {
  return { event: 'sign_up', method };
}

/** An order line as an item: unit price paid (tax included), its quantity. */
export function orderProductItem(
  line: Pick<OrderProduct, 'productId' | 'name' | 'quantity' | 'totalIncTax' | 'options'>,
  index?: number,
): AnalyticsItem {
  const quantity = Math.max(1, line.quantity);
  const item: AnalyticsItem = {
    item_id: String(line.productId),
    item_name: line.name,
    price: toEuros(Math.round(line.totalIncTax / quantity)),
    quantity: line.quantity,
  };
  const label = lineVariantLabel(line.options.map((option) => option.displayValue));
  if (label !== undefined) item.item_variant = label;
  if (index !== undefined) item.index = index;
  return item;
}

/**
 * spec §7: the shipping push of an order (its confirmation page): value = the goods' total paid
 * (tax included), shipping = its cost, shipping_tier = the first shipping address's method when
 * there is one.
 */
export function shippingInfoEvent(
  order: Pick<Order, 'id' | 'subtotalIncTax' | 'shippingCostIncTax'>,
  lines: readonly Parameters<typeof orderProductItem>[0][],
  addresses: readonly Pick<
    OrderShippingAddress,
    'city' | 'zip' | 'countryIso2' | 'shippingMethod'
  >[],
): ShippingInfoEvent {
  const address = addresses[0];
  const ecommerce: EcommerceData = {
    currency: ANALYTICS_CURRENCY,
    value: toEuros(order.subtotalIncTax),
    shipping: toEuros(order.shippingCostIncTax),
    items: lines.map((line, index) => orderProductItem(line, index)),
  };
  const tier = address?.shippingMethod.trim() ?? '';
  if (tier !== '') ecommerce.shipping_tier = tier;
  const event: ShippingInfoEvent = {
    event: 'add_shipping_info',
    order_id: String(order.id),
    ecommerce,
  };
  if (address) {
    event.shipping_address = {
      city: address.city,
      postal_code: address.zip,
      country_code: address.countryIso2,
    };
  }
  return event;
}

/**
 * GA4's `purchase` of an order (its confirmation page), from the order the platform recorded,
 * never from the browser's cart: transaction_id = the order id, value = what was paid for the
 * goods (the total, tax included, less the shipping), tax = the order's tax, shipping = its
 * cost, items = its lines at the unit price paid.
 */
export function purchaseEvent(
  order: Pick<Order, 'id' | 'totalIncTax' | 'totalTax' | 'shippingCostIncTax'>,
  lines: readonly Parameters<typeof orderProductItem>[0][],
): PurchaseEvent {
  return {
    event: 'purchase',
    ecommerce: {
      currency: ANALYTICS_CURRENCY,
      transaction_id: String(order.id),
      value: toEuros(Math.max(0, order.totalIncTax - order.shippingCostIncTax)),
      tax: toEuros(order.totalTax),
      shipping: toEuros(order.shippingCostIncTax),
      items: lines.map((line, index) => orderProductItem(line, index)),
    },
  };
}

/** The event with the customer fields of a logged-in shopper (spec §9), unchanged otherwise. */
export function withCustomer<E extends DataLayerEvent>(
  event: E,
  customer: Pick<CurrentCustomer, 'id' | 'email' | 'firstName' | 'lastName'> | null | undefined,
): E {
  return { ...event, ...customerData(customer) };
}

interface DataLayerHost {
  dataLayer?: unknown[];
}

/**
 * Pushes `event` onto `window.dataLayer` (created when missing), after `{ ecommerce: null }`
 * for ecommerce events, as GA4 recommends so that one event's items never leak into the next.
 * No-op without a window (server rendering).
 */
export function pushDataLayer(
  event: DataLayerEvent,
  host: DataLayerHost | undefined = typeof window === 'undefined'
    ? undefined
    : (window as DataLayerHost),
): void {
  if (!host) return;
  host.dataLayer ??= [];
  if ('ecommerce' in event) host.dataLayer.push({ ecommerce: null });
  host.dataLayer.push(event);
}
