/**
 * Checkout connector: the checkout of a cart (`/v3/checkouts/{cartId}`, same id), whose cart
 * and totals the checkout page shows before handing over to the hosted checkout; and its
 * billing address's e-mail, which the hosted checkout shows prefilled.
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

/**
 * Prefills the hosted checkout with the shopper's e-mail: the checkout's billing address
 * (`POST /v3/checkouts/{id}/billing-address`, whose required fields are `email` and
 * `country_code`), or, when it has one already, that address updated
 * (`PUT /v3/checkouts/{id}/billing-address/{addressId}`). France only: the shop delivers there.
 */
export async function setCheckoutEmail(
  client: BigCommerceClient,
  checkoutId: string,
  email: string,
): Promise<Checkout> {
  const checkout = await getCheckout(client, checkoutId);
  const path = `v3/checkouts/${encodeURIComponent(checkoutId)}/billing-address`;
  const addressId = checkout?.billingAddress.id ?? '';
  const json = { email, country_code: 'FR' };
  return addressId === ''
    ? client.send('post', path, CheckoutReplySchema, { json })
    : client.send('put', `${path}/${encodeURIComponent(addressId)}`, CheckoutReplySchema, {
        json,
      });
}
