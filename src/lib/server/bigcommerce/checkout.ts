/**
 * Checkout connector: the checkout of a cart (`/v3/checkouts/{cartId}`, same id), whose cart
 * and totals the checkout page shows before handing over to the hosted checkout.
 */
import type { BigCommerceClient } from './client.ts';
import { isBigCommerceError } from './errors.ts';
import { CheckoutReplySchema, type Checkout } from './schemas/checkouts.ts';

export type { Checkout };

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
