/**
 * The checkout pages' pushes read back from the JSON the server wrote (browser): the checkout
 * page's begin_checkout (`parseBeginCheckout`) and the order confirmation's add_shipping_info
 * and purchase, once per order in a browser (`orderPushesOnce`). Apart from `datalayer.ts` so
 * that only those pages load them.
 */
import { parseJson, parsePageItem } from './page-json.ts';
import {
  ANALYTICS_CURRENCY,
  type AnalyticsItem,
  type DataLayerEvent,
  type EcommerceData,
  type EcommerceEvent,
  type PurchaseEvent,
  type ShippingInfoEvent,
} from './datalayer.ts';

/**
 * The checkout page's begin_checkout read back from its JSON (`beginCheckoutEvent` of the cart
 * the server sends to the hosted checkout); null when it is not that event's shape.
 */
export function parseBeginCheckout(raw: string | null | undefined): EcommerceEvent | null {
  const value = parseJson(raw) as Partial<EcommerceEvent> | null | undefined;
  const ecommerce = value?.ecommerce as Partial<EcommerceData> | undefined;
  if (value?.event !== 'begin_checkout' || ecommerce?.currency !== ANALYTICS_CURRENCY) return null;
  const amount = ecommerce.value;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return null;
  if (!Array.isArray(ecommerce.items) || ecommerce.items.length === 0) return null;
  const items: AnalyticsItem[] = [];
  for (const entry of ecommerce.items as unknown[]) {
    const item = parsePageItem(JSON.stringify(entry));
    if (item === null) return null;
    const index = (entry as { index?: unknown }).index;
    if (Number.isSafeInteger(index)) item.index = index as number;
    items.push(item);
  }
  return {
    event: 'begin_checkout',
    ecommerce: { currency: ANALYTICS_CURRENCY, value: amount, items },
  };
}

/** Where a browser records the orders whose pushes it sent (`localStorage`). */
export interface PushRecord {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/**
 * The order confirmation's pushes (ShippingPush.astro's JSON) this browser has not sent yet,
 * each recorded as sent in `record` (`analytics:{event}:{order id}`): the first view of a
 * confirmation sends add_shipping_info and purchase, a reload neither. Without a record (no
 * storage) both go out on each view. Null when the JSON is not the pushes' shape.
 */
export function orderPushesOnce(
  raw: string | null | undefined,
  record: PushRecord | null,
): { shipping: ShippingInfoEvent | null; purchase: PurchaseEvent | null } | null {
  const value = parseJson(raw) as
    { shipping?: Partial<ShippingInfoEvent>; purchase?: Partial<PurchaseEvent> } | null | undefined;
  const shipping = value?.shipping;
  const purchase = value?.purchase;
  if (
    shipping?.event !== 'add_shipping_info' ||
    typeof shipping.order_id !== 'string' ||
    purchase?.event !== 'purchase' ||
    purchase.ecommerce?.transaction_id !== shipping.order_id
  ) {
    return null;
  }
  const once = <E extends DataLayerEvent>(event: E, orderId: string): E | null => {
    const key = `analytics:${event.event}:${orderId}`;
    try {
      const seen = record?.getItem(key);
      if (seen !== null && seen !== undefined) return null;
      record?.setItem(key, '1');
    } catch {
      // Storage refused (full, private mode): sent, as without storage.
    }
    return event;
  };
  return {
    shipping: once(shipping as ShippingInfoEvent, shipping.order_id),
    purchase: once(purchase as PurchaseEvent, shipping.order_id),
  };
}
