/**
 * Tag-manager dataLayer events (spec §9 analytics events), in GA4's recommended ecommerce
 * shape: `{ event, ecommerce: { currency, value, items } }`, currency always EUR, prices in
 * euros. The builders are pure (domain types in, plain objects out); `pushDataLayer` is the
 * one place that touches `window.dataLayer`.
 */
import { displayPrice, effectivePrice } from '../commerce/price.ts';
import type { CartState } from '../commerce/cart.ts';
import { cartItems } from '../commerce/cart.ts';
import type {
  CartLineItem,
  Cents,
  CurrentCustomer,
  Order,
  OrderProduct,
  OrderShippingAddress,
  Product,
  Variant,
} from '../commerce/types.ts';

/** spec §9: analytics always in EUR. */
export const ANALYTICS_CURRENCY = 'EUR';

/** A GA4 ecommerce item. */
export interface AnalyticsItem {
  item_id: string;
  item_name: string;
  item_brand?: string;
  item_variant?: string;
  item_list_name?: string;
  index?: number;
  /** Unit price paid, in euros. */
  price: number;
  quantity: number;
}

export interface EcommerceData {
  currency: typeof ANALYTICS_CURRENCY;
  value?: number;
  item_list_id?: string;
  item_list_name?: string;
  /** add_shipping_info: the shipping method chosen. */
  shipping_tier?: string;
  /** add_shipping_info: the shipping cost paid, in euros. */
  shipping?: number;
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

export interface EcommerceEvent extends Partial<CustomerData> {
  event: 'view_item_list' | 'view_item' | 'add_to_cart' | 'view_cart' | 'add_shipping_info';
  ecommerce: EcommerceData;
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

export type DataLayerEvent = UserDataEvent | EcommerceEvent | ShippingInfoEvent | PodcastPlayEvent;

/** Integer cents to euros with at most 2 decimals (12990 → 129.9). */
export function toEuros(cents: Cents): number {
  return Math.round(cents) / 100;
}

const sumValue = (items: readonly AnalyticsItem[]): number =>
  toEuros(items.reduce((sum, item) => sum + Math.round(item.price * 100) * item.quantity, 0));

export interface ProductItemOptions {
  variant?: Pick<Variant, 'sku' | 'price' | 'salePrice'> | null;
  brand?: string;
  quantity?: number;
  /** Position in the list, from 0. */
  index?: number;
  listName?: string;
}

/** A product (and chosen variant) as an item: the price the shop shows as paid (spec §5). */
export function productItem(
  product: Pick<Product, 'id' | 'name' | 'sku' | 'price' | 'salePrice' | 'isPriceHidden'>,
  options: ProductItemOptions = {},
): AnalyticsItem {
  const item: AnalyticsItem = {
    item_id: String(product.id),
    item_name: product.name,
    price: toEuros(effectivePrice(displayPrice(product, options.variant))),
    quantity: options.quantity ?? 1,
  };
  if (options.brand) item.item_brand = options.brand;
  const variantSku = options.variant?.sku ?? product.sku;
  if (variantSku) item.item_variant = variantSku;
  if (options.listName !== undefined) item.item_list_name = options.listName;
  if (options.index !== undefined) item.index = options.index;
  return item;
}

/**
 * An item of a list of cards as the page writes it (AnalyticsList.astro): `productItem`'s
 * fields but those the list gives (its name, each item's place) and the quantity (one).
 */
export type ListedItem = Omit<AnalyticsItem, 'quantity' | 'item_list_name' | 'index'>;

/** What the page writes of an item of a list. */
export function listedItem(item: AnalyticsItem): ListedItem {
  const listed: ListedItem = {
    item_id: item.item_id,
    item_name: item.item_name,
    price: item.price,
  };
  if (item.item_brand !== undefined) listed.item_brand = item.item_brand;
  if (item.item_variant !== undefined) listed.item_variant = item.item_variant;
  return listed;
}

/** The items of a list read back from the page: one of each, placed from `offset`. */
export function listItems(listed: readonly ListedItem[], offset: number): AnalyticsItem[] {
  return listed.map((item, index) => ({ ...item, quantity: 1, index: offset + index }));
}

/** A cart line as an item: unit sale price, its quantity (or `quantity` when given). */
export function cartLineItem(
  line: Pick<CartLineItem, 'productId' | 'name' | 'sku' | 'salePrice' | 'quantity'>,
  options: { index?: number; quantity?: number } = {},
): AnalyticsItem {
  const item: AnalyticsItem = {
    item_id: String(line.productId),
    item_name: line.name,
    price: toEuros(line.salePrice),
    quantity: options.quantity ?? line.quantity,
  };
  if (line.sku) item.item_variant = line.sku;
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

/** An order line as an item: unit price paid (tax included), its quantity. */
export function orderProductItem(
  line: Pick<OrderProduct, 'productId' | 'name' | 'sku' | 'quantity' | 'totalIncTax'>,
  index?: number,
): AnalyticsItem {
  const quantity = Math.max(1, line.quantity);
  const item: AnalyticsItem = {
    item_id: String(line.productId),
    item_name: line.name,
    price: toEuros(Math.round(line.totalIncTax / quantity)),
    quantity: line.quantity,
  };
  if (line.sku) item.item_variant = line.sku;
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
