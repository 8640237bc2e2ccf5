/**
 * Checkout replies of `/v3/checkouts/{cartId}` (`../checkout.ts`): the cart and its totals, as
 * `Checkout` (declared here, beside its schema, so that the connector and the schema share it
 * without importing each other).
 */
import { z } from 'zod';
import type { Cart, Cents } from '../../../../lib/commerce/types.ts';
import { CartSchema } from './carts.ts';
import { text, decimalCents, uuid, v3DataSchema } from './common.ts';

/** A cart's checkout, as the shop reads it. */
export interface Checkout {
  /** The cart id. */
  id: string;
  cart: Cart;
  grandTotal: Cents;
  subtotalIncTax: Cents;
  subtotalExTax: Cents;
  shippingCostTotalIncTax: Cents;
  taxTotal: Cents;
  /** Set once the checkout became an order. */
  orderId: number | null;
  customerMessage: string;
  /** The billing address's id ('' before one is added) and e-mail (prefills the checkout). */
  billingAddress: { id: string; email: string };
}

export const CheckoutSchema = z
  .object({
    id: uuid,
    cart: CartSchema,
    grand_total: decimalCents,
    subtotal_inc_tax: decimalCents,
    subtotal_ex_tax: decimalCents,
    shipping_cost_total_inc_tax: decimalCents,
    tax_total: decimalCents,
    order_id: z.number().int().nullish(),
    customer_message: text,
    billing_address: z
      .object({ id: z.union([z.string(), z.number()]).nullish(), email: text.nullish() })
      .nullish(),
  })
  .transform((c): Checkout => ({
    id: c.id,
    cart: c.cart,
    grandTotal: c.grand_total,
    subtotalIncTax: c.subtotal_inc_tax,
    subtotalExTax: c.subtotal_ex_tax,
    shippingCostTotalIncTax: c.shipping_cost_total_inc_tax,
    taxTotal: c.tax_total,
    orderId: c.order_id ?? null,
    customerMessage: c.customer_message,
    billingAddress: {
      id: String(c.billing_address?.id ?? ''),
      email: c.billing_address?.email ?? '',
    },
  }));

export const CheckoutReplySchema = v3DataSchema(CheckoutSchema);
