/**
 * Checkout connector: the checkout of a cart (`/v3/checkouts/{cartId}`, same id), whose cart
 * and totals the checkout page shows before handing over to the hosted checkout.
 */
import type { Cart, Cents } from '../../commerce/types.ts';
import type { BigCommerceClient } from './client.ts';
import { isBigCommerceError } from './errors.ts';
import { CheckoutReplySchema } from './schemas.ts';

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
}

/** The checkout of a cart, or null when there is none (unknown or converted cart). */
export async function getCheckout(
  client: BigCommerceClient,
  checkoutId: string,
): Promise<Checkout | null> {
  try {
    return await client.get(`v3/checkouts/${encodeURIComponent(checkoutId)}`, CheckoutReplySchema, {
      include: 'cart.line_items.physical_items.options,cart.line_items.digital_items.options',
    });
  } catch (error) {
    if (isBigCommerceError(error) && error.status === 404) return null;
    throw error;
  }
}
