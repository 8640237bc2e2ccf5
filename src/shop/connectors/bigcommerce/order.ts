/**
 * Order connectors (spec §7 "Commerce: orders") over the v2 Orders API: a customer's orders,
 * an order, its products, shipping addresses and shipments. v2 answers a list with no item
 * as 204 with no body: those read as `[]`.
 */
import type {
  Order,
  OrderProduct,
  OrderShippingAddress,
  Shipment,
} from '../../../lib/commerce/types.ts';
import type { BigCommerceClient } from './client.ts';
import { isBigCommerceError } from './errors.ts';
import { MAX_PAGE_SIZE } from './queries.ts';
import {
  OrderListSchema,
  OrderProductListSchema,
  OrderSchema,
  OrderShippingAddressListSchema,
  ShipmentListSchema,
} from './schemas/orders.ts';

// A customer with more orders than this is not a shopper of this shop.
const MAX_ORDER_PAGES = 40;

/** Every order of a customer, newest first (v2 pages of 250 until a short page). */
export async function getCustomerOrders(
  client: BigCommerceClient,
  customerId: number,
): Promise<Order[]> {
  const orders: Order[] = [];
  for (let page = 1; page <= MAX_ORDER_PAGES; page += 1) {
    const items = await client.get('v2/orders', OrderListSchema, {
      customer_id: customerId,
      sort: 'date_created:desc',
      page,
      limit: MAX_PAGE_SIZE,
    });
    // The filter is BigCommerce's; checking it again costs nothing and guards the identity rule.
    orders.push(...items.filter((o) => o.customerId === customerId));
    if (items.length < MAX_PAGE_SIZE) break;
  }
  return orders;
}

/** The orders made from a cart (usually one). */
export async function getOrdersByCart(client: BigCommerceClient, cartId: string): Promise<Order[]> {
  const items = await client.get('v2/orders', OrderListSchema, {
    cart_id: cartId,
    sort: 'date_created:desc',
    limit: MAX_PAGE_SIZE,
  });
  return items.filter((o) => o.cartId === cartId);
}

/** One order, or null when it does not exist. */
export async function getOrder(client: BigCommerceClient, orderId: number): Promise<Order | null> {
  try {
    return await client.get(`v2/orders/${orderId}`, OrderSchema);
  } catch (error) {
    if (isBigCommerceError(error) && error.status === 404) return null;
    throw error;
  }
}

export async function getOrderProducts(
  client: BigCommerceClient,
  orderId: number,
): Promise<OrderProduct[]> {
  return client.get(`v2/orders/${orderId}/products`, OrderProductListSchema, {
    limit: MAX_PAGE_SIZE,
  });
}

export async function getOrderShippingAddresses(
  client: BigCommerceClient,
  orderId: number,
): Promise<OrderShippingAddress[]> {
  return client.get(`v2/orders/${orderId}/shipping_addresses`, OrderShippingAddressListSchema, {
    limit: MAX_PAGE_SIZE,
  });
}

export async function getOrderShipments(
  client: BigCommerceClient,
  orderId: number,
): Promise<Shipment[]> {
  return client.get(`v2/orders/${orderId}/shipments`, ShipmentListSchema, {
    limit: MAX_PAGE_SIZE,
  });
}

/**
 * Writes the order's staff notes (`PUT /v2/orders/{id}` with `staff_notes`: private to the
 * store's staff, never shown to the shopper); the hosted checkout creates the order, so the shop
 * records what it knows of it (a reseller's seller) afterwards.
 */
export async function setOrderStaffNotes(
  client: BigCommerceClient,
  orderId: number,
  staffNotes: string,
): Promise<Order> {
  return client.send('put', `v2/orders/${orderId}`, OrderSchema, {
    json: { staff_notes: staffNotes },
  });
}
