/**
 * The reseller area's method (spec §1, §2, §5, §6; flag FEATURE_RESELLER_AREA): a reseller sends
 * their cart to a client. The cart gets a cart-redirection token (metafield, spec §9), becomes a
 * guest cart again (so the client's link may open it) whose hosted checkout is prefilled with the
 * client's e-mail, leaves the reseller's saved 'Cart ID', is kept in the reseller's sent carts
 * (`sent-carts.ts`: who prepared it, state 'sent'), and the client gets the cart and the link by
 * e-mail (Brevo transactional e-mail, `cart-link-email.ts`).
 */
import { z } from 'zod';
import { cartItemCount, cartTotals, cartTotalsView } from '../../lib/commerce/cart.ts';
import { CART_LINK_VALID_DAYS, type PreparedBy } from '../../lib/commerce/sent-carts.ts';
import { SendCartInputSchema } from '../../lib/commerce/validation.ts';
import {
  getCustomerById,
  setCheckoutEmail,
  updateCartCustomer,
  updateCustomerFormFields,
} from '../connectors/bigcommerce/index.ts';
import { CartIdSchema } from '../connectors/bigcommerce/queries.ts';
import { cartLinkEmail } from '../mail/cart-link-email.ts';
import { cartLinkUrl, issueCartToken } from '../carts/cart-redirect.ts';
import { logFailure } from '../faults/failures.ts';
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
      const { token, cart } = await writeCart(context, cartId, async (cart) => {
        if (cartItemCount(cart) === 0) throw new ApiError(400, 'CART_EMPTY', 'Cart is empty');
        const issued = await issueCartToken(context.client, account.cartLinkKey, cartId);
        // A guest cart again: the client's link opens guest carts only (cart-redirect.ts).
        if (cart.customerId !== 0) await updateCartCustomer(context.client, cartId, 0);
        // Its checkout is nobody's until the client opens the link (checkout-holder.ts).
        await account.checkouts.release(cartId);
        // The hosted checkout opens with the client's e-mail the reseller typed.
        await setCheckoutEmail(context.client, cartId, email).catch((error: unknown) => {
          logFailure('api', 'prefilling the sent cart’s checkout e-mail failed', error);
        });
        return { token: issued, cart };
      });
      if (reseller.savedCartId === cartId) {
        await updateCustomerFormFields(context.client, customerId, [
          { name: FORM_FIELDS.cartId, value: '' },
        ]).catch((error: unknown) => {
          logFailure('api', 'clearing the sent cart from the reseller failed', error);
        });
      }
      const preparedBy: PreparedBy = {
        seller,
        reseller: reseller.shopName || `${reseller.firstName} ${reseller.lastName}`.trim(),
        email: reseller.email,
        phone: reseller.phone,
      };
      // Kept before the mail goes: a client opening the link at once finds who prepared it.
      await account.sentCarts.record({
        cartId,
        resellerId: customerId,
        preparedBy,
        clientEmail: email,
        sentAt: Date.now(),
        total: cartTotalsView(cartTotals(cart)).due,
        currency: cart.currency,
        state: 'sent',
        orderId: null,
      });
      await account.sendMail(
        cartLinkEmail({
          to: email,
          sender: account.mailSender,
          cart,
          preparedBy,
          shopContact: account.shopContact,
          link: cartLinkUrl(account.linkOrigin(context.request), cartId, token),
          validDays: CART_LINK_VALID_DAYS,
        }),
      );
      return { email };
    },
    { mutates: true },
  ),
} satisfies Record<string, ApiMethod<ShopContext>>;
