/**
 * spec §7 "a tag manager script receives data pushes (customer and shipping)": the shipping is
 * known once the hosted checkout made the order, so the push is built for its confirmation page
 * (`/paiement?commande={id}`, after `confirmableOrder` said this browser may see it) from the
 * order's lines and shipping address; GA4's `purchase` of the order is built beside it, from
 * the same lines (never from the browser's cart). The page writes both as JSON; the browser
 * pushes them once per order, with the customer's fields when logged in (ShippingPush.astro).
 */
import {
  purchaseEvent,
  shippingInfoEvent,
  type PurchaseEvent,
  type ShippingInfoEvent,
} from '../../lib/analytics/datalayer.ts';
import type { Order } from '../../lib/commerce/types.ts';
import {
  getOrderProducts,
  getOrderShippingAddresses,
  type BigCommerceClient,
} from '../connectors/bigcommerce/index.ts';
import { logFailure } from '../faults/failures.ts';

/** The order confirmation's pushes: add_shipping_info (spec §7) and purchase (GA4). */
export interface OrderPushes {
  shipping: ShippingInfoEvent;
  purchase: PurchaseEvent;
}

/** The order's pushes, or null (logged) when its lines cannot be read. */
export async function orderPushes(
  client: BigCommerceClient,
  order: Pick<Order, 'id' | 'subtotalIncTax' | 'shippingCostIncTax' | 'totalIncTax' | 'totalTax'>,
): Promise<OrderPushes | null> {
  try {
    const [lines, addresses] = await Promise.all([
      getOrderProducts(client, order.id),
      getOrderShippingAddresses(client, order.id),
    ]);
    return {
      shipping: shippingInfoEvent(order, lines, addresses),
      purchase: purchaseEvent(order, lines),
    };
  } catch (error) {
    // The confirmation matters more than its analytics: the page shows without the pushes.
    logFailure('paiement', `analytics pushes of order ${order.id}`, error);
    return null;
  }
}
