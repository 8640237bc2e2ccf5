/**
 * Cart and checkout methods of the `bigcommerce` service (spec §4 cart lifecycle, §7
 * "Commerce: cart"). Rights (spec §6, `ownership.ts`): a guest cart (customer 0) is anyone's who
 * holds its id; an assigned cart is its customer's only: for anyone else every method answers
 * 404 'Cart not found', as for a cart that does not exist. Writes to one cart run one at a time
 * (BigCommerce loses concurrent updates of a cart).
 */
import { z } from 'zod';
import { isReservedNamespace } from '../../lib/commerce/cart-link.ts';
import type { LineItemInput as CartLineInput } from '../../lib/commerce/cart.ts';
import type { Cart } from '../../lib/commerce/types.ts';
import {
  addCartItems,
  createCart,
  createCartMetafield,
  deleteCart,
  getCart,
  getCartMetafields,
  getCheckout,
  getProductsById,
  removeCartItem,
  stockRefusal,
  updateCartCustomer,
  updateCartItem,
  updateCustomerFormFields,
  type BigCommerceClient,
} from '../connectors/bigcommerce/index.ts';
import {
  CartIdSchema,
  CartIncludeSchema,
  CartMetafieldInputSchema,
  EntityIdSchema,
  LineItemIdSchema,
  LineItemInputSchema,
  LineItemUpdateSchema,
  MAX_PAGE_SIZE,
  OptionSelectionSchema,
} from '../connectors/bigcommerce/queries.ts';
import { checkoutUrlFor } from '../auth/customer-login.ts';
import { logFailure } from '../faults/failures.ts';
import { cartStockBlockers, refusedLinesStock, withLineStock } from './cart-stock.ts';
import { mayUseCart, usableCart } from '../carts/ownership.ts';
import { accountOf, requireCustomer, type ShopContext } from './context.ts';
import { FORM_FIELDS } from './customer-view.ts';
import { ApiError, defineMethod, type ApiMethod } from './handle.ts';

/** 409: another browser holds this cart's checkout (`checkout-holder.ts`). */
export const checkoutElsewhere = () =>
  new ApiError(409, 'CHECKOUT_ELSEWHERE', 'This cart is being paid for in another browser');

const cartNotFound = () => new ApiError(404, 'CART_NOT_FOUND', 'Cart not found');
/**
 * 409: a line is out of stock or over what is left (spec §4 Stock): the hand-over to the hosted
 * checkout is refused until the shopper reduces or removes it (the cart's lines say which).
 */
export const stockChanged = () => new ApiError(409, 'STOCK_CHANGED', 'cart.stock.checkoutBlocked');
const itemNotFound = () => new ApiError(404, 'CART_ITEM_NOT_FOUND', 'Cart item not found');

/**
 * Against cart fixation: the cart-link token's namespace is the shop's own, in any spelling
 * (`isReservedNamespace`): shoppers neither read nor write it (403).
 */
function refuseReserved(namespace: string | undefined): void {
  if (namespace !== undefined && isReservedNamespace(namespace)) {
    throw new ApiError(403, 'RESERVED_NAMESPACE', 'This metafield namespace is reserved');
  }
}

/** The cart if the session may use it; 404 'Cart not found' otherwise. */
async function sessionCart(context: ShopContext, cartId: string): Promise<Cart> {
  const cart = await usableCart(context.client, cartId, context.session.customerId);
  if (cart === null) throw cartNotFound();
  return cart;
}

/**
 * spec §8: a write BigCommerce refused for stock is answered 422 with the stock message the
 * shopper is shown ('Out of stock'...), not the upstream English title. With the lines of an
 * add, the reply's `details.lines` says how many units each has left (`refusedLinesStock`), so
 * the shopper reads which item and how many are left.
 */
async function stockChecked<T>(
  context: ShopContext,
  write: Promise<T>,
  lines?: readonly CartLineInput[],
): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const refusal = stockRefusal(error);
    if (refusal === null) throw error;
    const left = lines === undefined ? [] : await refusedLinesStock(context.client, lines);
    throw new ApiError(
      422,
      'INSUFFICIENT_STOCK',
      refusal,
      {},
      left.length === 0 ? undefined : { lines: left },
    );
  }
}

/** Runs a write on a cart the session may use, after the other writes to that cart. */
export function writeCart<T>(
  context: ShopContext,
  cartId: string,
  write: (cart: Cart) => Promise<T>,
  lines?: readonly CartLineInput[],
): Promise<T> {
  return accountOf(context).cartQueue.run(cartId, async () =>
    stockChecked(context, write(await sessionCart(context, cartId)), lines),
  );
}

const hasItem = (cart: Cart, itemId: string) =>
  [...cart.lineItems.physicalItems, ...cart.lineItems.digitalItems].some((i) => i.id === itemId);

/** spec §9: the saved customer cart lives in the 'Cart ID' form field. */
async function saveCartId(client: BigCommerceClient, customerId: number, cartId: string) {
  const saved = await updateCustomerFormFields(client, customerId, [
    { name: FORM_FIELDS.cartId, value: cartId },
  ]);
  if (saved.length === 0) throw new ApiError(502, 'UPDATE_FORM_FAILED', 'Update form failed');
}

const IncludeSchema = z
  .union([
    z.array(CartIncludeSchema).max(3),
    z
      .string()
      .max(200)
      .transform((s, ctx) => {
        const parts = s
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean);
        const parsed = z.array(CartIncludeSchema).safeParse(parts);
        if (!parsed.success) {
          ctx.addIssue({ code: 'custom', message: 'Unknown cart include' });
          return z.NEVER;
        }
        return parsed.data;
      }),
  ])
  .optional();

export const cartMethods = {
  /** spec §4: the cart of the cookie, or null when it is gone (the store creates a new one). */
  getCart: defineMethod(
    z.tuple([z.strictObject({ id: CartIdSchema, include: IncludeSchema }).describe('cart')]),
    async (context: ShopContext, [{ id, include }]) => {
      const cart = await getCart(context.client, id, include);
      if (cart === null) return null;
      if (!mayUseCart(cart, context.session.customerId)) throw cartNotFound();
      return withLineStock(context.client, cart);
    },
  ),

  /**
   * spec §4: a new cart, assigned to the logged-in customer and saved as their 'Cart ID'
   * (so a cart made after clearing the old one is the one found at the next login).
   * BigCommerce keeps no empty cart (it deletes a cart whose last line goes, and refuses to
   * create one without lines): with no lines this answers null, spec §3's empty initial cart
   * with a null id, and the cart is made by the first add.
   */
  createCart: defineMethod(
    z.tuple([
      z
        .strictObject({ lineItems: z.array(LineItemInputSchema).max(100).optional() })
        .optional()
        .describe('cart'),
    ]),
    async (context: ShopContext, [input]): Promise<Cart | null> => {
      const lineItems = input?.lineItems ?? [];
      if (lineItems.length === 0) return null;
      const { customerId } = context.session;
      const cart = await stockChecked(
        context,
        createCart(context.client, { lineItems, customerId: customerId ?? 0 }),
        lineItems,
      );
      // The cart exists now: a failure to save its id must not answer an error, or
      // the shopper's retry would make a second cart. The cookie holds the new cart; the
      // 'Cart ID' keeps its former value until the next assignment (updateCart) saves it.
      if (customerId !== null) {
        try {
          await saveCartId(context.client, customerId, cart.id);
        } catch (error) {
          logFailure(
            'cart',
            `the new cart's id could not be saved for customer ${String(customerId)}`,
            error,
          );
        }
      }
      return withLineStock(context.client, cart);
    },
    { mutates: true },
  ),

  /** spec §4 login merge: assigns the cart to the session customer and saves its id. */
  updateCart: defineMethod(
    z.tuple([z.strictObject({ id: CartIdSchema }).describe('cart')]),
    async (context: ShopContext, [{ id }]) => {
      const customerId = requireCustomer(context);
      const cart = await writeCart(context, id, async (found) => {
        if (found.customerId === customerId) return found;
        // A guest cart another browser is paying for is not taken into an account.
        if (!(await accountOf(context).checkouts.free(context.request, id))) {
          throw checkoutElsewhere();
        }
        return updateCartCustomer(context.client, id, customerId);
      });
      await saveCartId(context.client, customerId, id);
      return withLineStock(context.client, cart);
    },
    { mutates: true },
  ),

  addCartItems: defineMethod(
    z.tuple([
      z
        .strictObject({
          cartId: CartIdSchema,
          lineItems: z.array(LineItemInputSchema).min(1).max(100),
        })
        .describe('items'),
    ]),
    async (context: ShopContext, [{ cartId, lineItems }]) =>
      withLineStock(
        context.client,
        await writeCart(
          context,
          cartId,
          () => addCartItems(context.client, cartId, lineItems),
          lineItems,
        ),
      ),
    { mutates: true },
  ),

  /** spec §4: null when the last item went with the cart ("the reply has no data"). */
  removeCartItem: defineMethod(
    z.tuple([z.strictObject({ cartId: CartIdSchema, itemId: LineItemIdSchema }).describe('item')]),
    async (context: ShopContext, [{ cartId, itemId }]) =>
      withLineStock(
        context.client,
        await writeCart(context, cartId, (cart) => {
          if (!hasItem(cart, itemId)) throw itemNotFound();
          return removeCartItem(context.client, cartId, itemId);
        }),
      ),
    { mutates: true },
  ),

  updateCartItem: defineMethod(
    z.tuple([
      z
        .strictObject({
          cartId: CartIdSchema,
          itemId: LineItemIdSchema,
          lineItem: LineItemUpdateSchema,
        })
        .describe('item'),
    ]),
    async (context: ShopContext, [{ cartId, itemId, lineItem }]) =>
      withLineStock(
        context.client,
        await writeCart(context, cartId, (cart) => {
          if (!hasItem(cart, itemId)) throw itemNotFound();
          return updateCartItem(context.client, cartId, itemId, lineItem);
        }),
      ),
    { mutates: true },
  ),

  /** A line's variant and one option value (spec §7 updateItemOption). */
  updateItemOption: defineMethod(
    z.tuple([
      z
        .strictObject({
          cartId: CartIdSchema,
          itemId: LineItemIdSchema,
          productId: EntityIdSchema,
          quantity: z.number().int().min(1).max(1000),
          variantId: EntityIdSchema,
          ...OptionSelectionSchema.shape,
        })
        .describe('item'),
    ]),
    async (context: ShopContext, [input]) =>
      withLineStock(
        context.client,
        await writeCart(context, input.cartId, (cart) => {
          if (!hasItem(cart, input.itemId)) throw itemNotFound();
          return updateCartItem(context.client, input.cartId, input.itemId, {
            productId: input.productId,
            variantId: input.variantId,
            quantity: input.quantity,
            optionSelections: [{ optionId: input.optionId, optionValue: input.optionValue }],
          });
        }),
      ),
    { mutates: true },
  ),

  /** spec §4 clear: deletes the cart (the store then creates a new one). */
  deleteCart: defineMethod(
    z.tuple([z.strictObject({ id: CartIdSchema }).describe('cart')]),
    async (context: ShopContext, [{ id }]) => {
      await writeCart(context, id, () => deleteCart(context.client, id));
      return null;
    },
    { mutates: true },
  ),

  /** Makes the session customer's cart a guest cart again (a reseller sending it on). */
  unassignCart: defineMethod(
    z.tuple([z.strictObject({ cartId: CartIdSchema }).describe('cart')]),
    async (context: ShopContext, [{ cartId }]) =>
      withLineStock(
        context.client,
        await writeCart(context, cartId, (cart) =>
          cart.customerId === 0
            ? Promise.resolve(cart)
            : updateCartCustomer(context.client, cartId, 0),
        ),
      ),
    { mutates: true },
  ),

  /**
   * The hosted checkout of the cart. For a logged-in customer, the cart is theirs (a guest
   * cart is assigned first) and the URL logs them in on the way (Customer Login API). This
   * browser claims the cart's checkout (`checkout-holder.ts`); one another browser holds
   * answers 409. A line out of stock or over what is left (read fresh) answers 409
   * 'cart.stock.checkoutBlocked' (spec §4 Stock): the browser's check can be bypassed.
   */
  getCheckoutUrl: defineMethod(
    z.tuple([z.strictObject({ cartId: CartIdSchema }).describe('cart')]),
    (context: ShopContext, [{ cartId }]) =>
      writeCart(context, cartId, async (cart) => {
        if ((await cartStockBlockers(context.client, cart)).length > 0) throw stockChanged();
        const account = accountOf(context);
        // A guest cart's checkout is one browser's (a customer's cart is theirs already).
        if (
          cart.customerId === 0 &&
          !(await account.checkouts.claim(context.request, context.cookies, cartId))
        ) {
          throw checkoutElsewhere();
        }
        return {
          url: await checkoutUrlFor(
            context.client,
            cart,
            context.session.customerId,
            account.customerLogin,
          ),
        };
      }),
    { mutates: true },
  ),

  /** The cart's checkout and the (visible) products of its lines, for the checkout page. */
  getCheckoutByIdAndProductsByIds: defineMethod(
    z.tuple([
      z
        .strictObject({
          cartId: CartIdSchema,
          productIds: z.array(EntityIdSchema).max(MAX_PAGE_SIZE),
        })
        .describe('checkout'),
    ]),
    async (context: ShopContext, [{ cartId, productIds }]) => {
      const checkout = await getCheckout(context.client, cartId);
      if (checkout === null || !mayUseCart(checkout.cart, context.session.customerId)) {
        throw cartNotFound();
      }
      const products =
        productIds.length === 0
          ? []
          : (await getProductsById(context.client, { entityIds: productIds })).filter(
              (p) => p.isVisible,
            );
      return { checkout, products };
    },
  ),

  createCartMetafields: defineMethod(
    z.tuple([
      z
        .strictObject({ cartId: CartIdSchema, ...CartMetafieldInputSchema.shape })
        .describe('metafield'),
    ]),
    (context: ShopContext, [{ cartId, ...input }]) => {
      refuseReserved(input.namespace);
      return writeCart(context, cartId, () => createCartMetafield(context.client, cartId, input));
    },
    { mutates: true },
  ),

  getCartMetafields: defineMethod(
    z.tuple([
      z
        .strictObject({
          cartId: CartIdSchema,
          namespace: z.string().trim().min(1).max(64).optional(),
        })
        .describe('cart'),
    ]),
    async (context: ShopContext, [{ cartId, namespace }]) => {
      refuseReserved(namespace);
      await sessionCart(context, cartId);
      const fields = await getCartMetafields(context.client, cartId, namespace);
      return fields.filter((field) => !isReservedNamespace(field.namespace));
    },
  ),
} satisfies Record<string, ApiMethod<ShopContext>>;

// spec §7 names it getCartMetafield(s): both names answer.
export const cartMethodAliases = {
  getCartMetafield: cartMethods.getCartMetafields,
} satisfies Record<string, ApiMethod<ShopContext>>;
