/**
 * Order replies of the v2 orders API (`../order.ts`): orders, their products, shipping
 * addresses and shipments. v2 lists are bare arrays, or an empty 204 reply when there is none.
 */
import { z } from 'zod';
import type {
  Order,
  OrderAddress,
  OrderProduct,
  OrderShippingAddress,
  Shipment,
} from '../../../../lib/commerce/types.ts';
import { id, text, count, list, decimalCents } from './common.ts';

const OrderAddressFields = {
  first_name: text,
  last_name: text,
  company: text,
  street_1: text,
  street_2: text,
  city: text,
  state: text,
  zip: text,
  country: text,
  country_iso2: text,
  phone: text,
  email: text,
};

type RawOrderAddress = { [K in keyof typeof OrderAddressFields]: string };

function toOrderAddress(a: RawOrderAddress): OrderAddress {
  return {
    firstName: a.first_name,
    lastName: a.last_name,
    company: a.company,
    street1: a.street_1,
    street2: a.street_2,
    city: a.city,
    state: a.state,
    zip: a.zip,
    country: a.country,
    countryIso2: a.country_iso2,
    phone: a.phone,
    email: a.email,
  };
}

const EMPTY_ORDER_ADDRESS: RawOrderAddress = Object.fromEntries(
  Object.keys(OrderAddressFields).map((k) => [k, '']),
) as RawOrderAddress;

export const OrderSchema = z
  .object({
    id,
    customer_id: count,
    status_id: z.number().int().min(0).max(14),
    status: text,
    date_created: text,
    date_modified: text,
    currency_code: text,
    subtotal_inc_tax: decimalCents,
    shipping_cost_inc_tax: decimalCents,
    total_inc_tax: decimalCents,
    total_tax: decimalCents,
    items_total: count,
    items_shipped: count,
    payment_method: text,
    cart_id: text,
    billing_address: z.object(OrderAddressFields).nullish(),
  })
  .transform((o): Order => ({
    id: o.id,
    customerId: o.customer_id,
    statusId: o.status_id,
    status: o.status,
    dateCreated: o.date_created,
    dateModified: o.date_modified,
    currencyCode: o.currency_code,
    subtotalIncTax: o.subtotal_inc_tax,
    shippingCostIncTax: o.shipping_cost_inc_tax,
    totalIncTax: o.total_inc_tax,
    totalTax: o.total_tax,
    itemsTotal: o.items_total,
    itemsShipped: o.items_shipped,
    paymentMethod: o.payment_method,
    cartId: o.cart_id,
    billingAddress: toOrderAddress(o.billing_address ?? EMPTY_ORDER_ADDRESS),
  }));

/** v2 lists: a bare array, or an empty 204 reply when there is none. */
export const OrderListSchema = list(OrderSchema);

export const OrderProductSchema = z
  .object({
    id,
    order_id: id,
    product_id: count,
    variant_id: count,
    name: text,
    sku: text,
    quantity: count,
    base_price: decimalCents,
    total_inc_tax: decimalCents,
    product_options: list(z.object({ display_name: text, display_value: text })),
  })
  .transform((p): OrderProduct => ({
    id: p.id,
    orderId: p.order_id,
    productId: p.product_id,
    variantId: p.variant_id,
    name: p.name,
    sku: p.sku,
    quantity: p.quantity,
    basePrice: p.base_price,
    totalIncTax: p.total_inc_tax,
    options: p.product_options.map((o) => ({
      displayName: o.display_name,
      displayValue: o.display_value,
    })),
  }));

export const OrderProductListSchema = list(OrderProductSchema);

export const OrderShippingAddressSchema = z
  .object({ id, order_id: id, shipping_method: text, ...OrderAddressFields })
  .transform((a): OrderShippingAddress => ({
    id: a.id,
    orderId: a.order_id,
    shippingMethod: a.shipping_method,
    ...toOrderAddress(a),
  }));

export const OrderShippingAddressListSchema = list(OrderShippingAddressSchema);

export const ShipmentSchema = z
  .object({
    id,
    order_id: id,
    date_created: text,
    tracking_number: text,
    shipping_provider: text,
    tracking_carrier: text,
    tracking_link: text,
    comments: text,
    items: list(z.object({ order_product_id: count, product_id: count, quantity: count })),
  })
  .transform((s): Shipment => ({
    id: s.id,
    orderId: s.order_id,
    dateCreated: s.date_created,
    trackingNumber: s.tracking_number,
    shippingProvider: s.shipping_provider,
    trackingCarrier: s.tracking_carrier,
    trackingLink: s.tracking_link,
    comments: s.comments,
    items: s.items.map((i) => ({
      orderProductId: i.order_product_id,
      productId: i.product_id,
      quantity: i.quantity,
    })),
  }));

export const ShipmentListSchema = list(ShipmentSchema);
