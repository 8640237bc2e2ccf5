/**
 * The data of the account pages (`/mon-compte/...`, spec §2 "login-required"): what each
 * section shows, read from BigCommerce for the signed-in customer on the request's
 * storefront. An order of another customer is not found, exactly like a missing one
 * (`ownOrder`, the one home of who owns which order).
 */
import type { AccountView } from '../../lib/commerce/account-pages.ts';
import { currentCustomer } from '../api/customer-view.ts';
import { ownOrder } from '../carts/ownership.ts';
import { bigcommerceForHost } from '../config/config.ts';
import { requestHost } from '../config/storefronts.ts';
import {
  getCustomerAddresses,
  getCustomerById,
  getCustomerOrders,
  getOrderProducts,
  getOrderShipments,
  getOrderShippingAddresses,
} from '../connectors/bigcommerce/index.ts';

/** Reads only what `view` shows; the other parts are empty. */
export async function loadAccountPage(request: Request, customerId: number, view: AccountView) {
  const client = bigcommerceForHost(requestHost(request));
  const customerRecord = view.kind === 'profile' ? await getCustomerById(client, customerId) : null;
  const customer = customerRecord === null ? null : currentCustomer(customerRecord);
  const addresses = view.kind === 'addresses' ? await getCustomerAddresses(client, customerId) : [];
  const orders = view.kind === 'orders' ? await getCustomerOrders(client, customerId) : [];
  const order = view.kind === 'order' ? await ownOrder(client, view.orderId, customerId) : null;
  const [orderProducts, shippingAddresses, shipments] =
    order === null
      ? [[], [], []]
      : await Promise.all([
          getOrderProducts(client, order.id),
          getOrderShippingAddresses(client, order.id),
          getOrderShipments(client, order.id),
        ]);
  return { customer, addresses, orders, order, orderProducts, shippingAddresses, shipments };
}
