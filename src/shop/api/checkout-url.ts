/**
 * The hosted checkout URL of a cart for pages (`/paiement`), with the shop's Customer Login
 * API account: see `checkoutUrlFor`.
 */
import type { Cart } from '../../lib/commerce/types.ts';
import type { BigCommerceClient } from '../connectors/bigcommerce/index.ts';
import { accountServices } from '../config/config.ts';
import { checkoutUrlFor } from '../auth/customer-login.ts';

/** The cart must be one the caller may use (a guest cart or the session customer's). */
export function checkoutUrlForCart(
  client: BigCommerceClient,
  cart: Pick<Cart, 'id' | 'customerId'>,
  customerId: number | null,
): Promise<string> {
  return checkoutUrlFor(client, cart, customerId, accountServices().customerLogin);
}
