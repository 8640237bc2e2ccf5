/**
 * The reseller area's method (spec §1, §2, §5, §6; flag FEATURE_RESELLER_AREA): a reseller sends
 * their cart to a client. The cart gets a cart-redirection token (metafield, spec §9), becomes a
 * guest cart again (so the client's link may open it), leaves the reseller's saved 'Cart ID',
 * and the client gets the link by e-mail (Brevo transactional e-mail).
 */
import { z } from 'zod';
import { cartItemCount } from '../../commerce/cart.ts';
import { SendCartInputSchema } from '../../commerce/validation.ts';
import {
  getCustomerById,
  updateCartCustomer,
  updateCustomerFormFields,
} from '../bigcommerce/index.ts';
import { CartIdSchema } from '../bigcommerce/queries.ts';
import { cartLinkEmail } from '../cart-link-email.ts';
import { cartLinkUrl, issueCartToken } from '../cart-redirect.ts';
import { logFailure } from '../failures.ts';
import { writeCart } from './cart-methods.ts';
import { accountOf, requireCustomer, tooManyAttempts, type ShopContext } from './context.ts';
import { currentCustomer, FORM_FIELDS } from './customer-view.ts';
import { ApiError, defineMethod, named, type ApiMethod } from './handle.ts';

const notReseller = () => new ApiError(403, 'NOT_RESELLER', 'Forbidden');

export const resellerMethods = {
  /**
   * Sends the session reseller's cart to a client: the seller must be one of the reseller's
   * ('You need to select a seller too' otherwise), the cart theirs and not empty. Answers the
   * address it was sent to; the browser then starts a new cart.
   */
  sendCartToClient: defineMethod(
    z.tuple([
      z.strictObject({ cartId: CartIdSchema }).describe('cart'),
      named(SendCartInputSchema, 'send'),
    ]),
    async (context: ShopContext, [{ cartId }, { seller, email }]) => {
      const customerId = requireCustomer(context);
      const record = await getCustomerById(context.client, customerId);
      if (record === null) throw notReseller();
      const reseller = currentCustomer(record);
      if (!reseller.isReseller) throw notReseller();
      if (!reseller.sellers.includes(seller)) {
        throw new ApiError(400, 'SELLER_REQUIRED', 'You need to select a seller too');
      }
      const account = accountOf(context);
      const admission = await account.throttle.cartLink({
        email,
        address: context.clientInfo.address,
      });
      if (!admission.allowed) throw tooManyAttempts(admission.retryAfterMs);
      const token = await writeCart(context, cartId, async (cart) => {
        if (cartItemCount(cart) === 0) throw new ApiError(400, 'CART_EMPTY', 'Cart is empty');
        const issued = await issueCartToken(context.client, account.cartLinkKey, cartId);
        // A guest cart again: the client's link opens guest carts only (cart-redirect.ts).
        if (cart.customerId !== 0) await updateCartCustomer(context.client, cartId, 0);
        // Its checkout is nobody's until the client opens the link (checkout-holder.ts).
        await account.checkouts.release(cartId);
        return issued;
      });
      if (reseller.savedCartId === cartId) {
        await updateCustomerFormFields(context.client, customerId, [
          { name: FORM_FIELDS.cartId, value: '' },
        ]).catch((error: unknown) => {
          logFailure('api', 'clearing the sent cart from the reseller failed', error);
        });
      }
      await account.sendMail(
        cartLinkEmail({
          to: email,
          shopName: reseller.shopName,
          seller,
          link: cartLinkUrl(account.linkOrigin(context.request), cartId, token),
          sender: account.mailSender,
        }),
      );
      return { email };
    },
    { mutates: true },
  ),
} satisfies Record<string, ApiMethod<ShopContext>>;
