/**
 * spec §7 "a tag manager script receives data pushes (customer and shipping)": the shipping is
 * known once the hosted checkout made the order, so the push is built for its confirmation page
 * (`/paiement?commande={id}`, after `confirmableOrder` said this browser may see it) from the
 * order's lines and shipping address. The page writes it as JSON; the browser pushes it once per
 * order, with the customer's fields when logged in (`trackShippingInfo`).
 */
import { shippingInfoEvent, type ShippingInfoEvent } from '../analytics/datalayer.ts';
import type { Order } from '../commerce/types.ts';
import {
  getOrderProducts,
  getOrderShippingAddresses,
  type BigCommerceClient,
} from './bigcommerce/index.ts';
import { logFailure } from './failures.ts';

/** The order's add_shipping_info event, or null (logged) when its lines cannot be read. */
export async function orderShippingPush(
  client: BigCommerceClient,
  order: Pick<Order, 'id' | 'subtotalIncTax' | 'shippingCostIncTax'>,
): Promise<ShippingInfoEvent | null> {
  try {
    const [lines, addresses] = await Promise.all([
      getOrderProducts(client, order.id),
      getOrderShippingAddresses(client, order.id),
    ]);
    return shippingInfoEvent(order, lines, addresses);
  } catch (error) {
    // The confirmation matters more than its analytics: the page shows without the push.
    logFailure('paiement', `shipping push of order ${order.id}`, error);
    return null;
  }
}
