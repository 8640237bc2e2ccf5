/**
 * Order and review methods of the `bigcommerce` service (spec §7 "Commerce: orders,
 * reviews"). Orders are the session customer's (`ownership.ts`): any other answers 404 'Order
 * not found'.
 */
import { z } from 'zod';
import type { Order, Page } from '../../lib/commerce/types.ts';
import { ReviewInputSchema } from '../../lib/commerce/validation.ts';
import {
  createProductReview,
  getProductById,
  getCustomerOrders,
  getOrderProducts,
  getOrderShipments,
  getOrderShippingAddresses,
  getProductReviews,
} from '../connectors/bigcommerce/index.ts';
import {
  CartIdSchema,
  EntityIdSchema,
  OrdersQuerySchema,
  ReviewsQuerySchema,
} from '../connectors/bigcommerce/queries.ts';
import { orderOfCart, ownOrder } from '../carts/ownership.ts';
import { accountOf, requireCustomer, tooManyAttempts, type ShopContext } from './context.ts';
import { ApiError, defineMethod, named, type ApiMethod } from './handle.ts';

/** Orders per page of the account area when the caller does not say. */
export const DEFAULT_ORDERS_PER_PAGE = 10;

/** The session customer's order; 404 'Order not found' for anyone else's or a missing one. */
async function sessionOrder(context: ShopContext, orderId: number): Promise<Order> {
  const order = await ownOrder(context.client, orderId, requireCustomer(context));
  if (order === null) throw new ApiError(404, 'ORDER_NOT_FOUND', 'Order not found');
  return order;
}

const OrderIdArgs = z.tuple([z.strictObject({ orderId: EntityIdSchema }).describe('order')]);

export const orderMethods = {
  /** The session customer's orders, newest first, by page. */
  getOrders: defineMethod(
    z.tuple([OrdersQuerySchema.optional().describe('query')]),
    async (context: ShopContext, [query]): Promise<Page<Order>> => {
      const orders = await getCustomerOrders(context.client, requireCustomer(context));
      const perPage = query?.limit ?? DEFAULT_ORDERS_PER_PAGE;
      const currentPage = query?.page ?? 1;
      const items = orders.slice((currentPage - 1) * perPage, currentPage * perPage);
      return {
        items,
        pagination: {
          total: orders.length,
          count: items.length,
          perPage,
          currentPage,
          totalPages: Math.max(1, Math.ceil(orders.length / perPage)),
        },
      };
    },
  ),

  getOrderProducts: defineMethod(OrderIdArgs, async (context: ShopContext, [{ orderId }]) => {
    await sessionOrder(context, orderId);
    return getOrderProducts(context.client, orderId);
  }),

  getOrderShippingAddresses: defineMethod(
    OrderIdArgs,
    async (context: ShopContext, [{ orderId }]) => {
      await sessionOrder(context, orderId);
      return getOrderShippingAddresses(context.client, orderId);
    },
  ),

  getShipments: defineMethod(OrderIdArgs, async (context: ShopContext, [{ orderId }]) => {
    await sessionOrder(context, orderId);
    return getOrderShipments(context.client, orderId);
  }),

  /**
   * The order made from a cart (the payment return page), or null. A customer's order only to
   * that customer; a guest order only to the browser that placed it (`ownership.ts`), never to
   * whoever merely holds the cart id.
   */
  getOrderByCart: defineMethod(
    z.tuple([z.strictObject({ cartId: CartIdSchema }).describe('cart')]),
    (context: ShopContext, [{ cartId }]) => {
      const { checkouts } = accountOf(context);
      return orderOfCart(
        context.client,
        cartId,
        { customerId: context.session.customerId, browser: checkouts.browserOf(context.request) },
        (id) => checkouts.holderOf(id),
      );
    },
  ),
} satisfies Record<string, ApiMethod<ShopContext>>;

/** Product reviews (spec §7; flag FEATURE_REVIEWS). */
export const reviewMethods = {
  /** A page of the product's approved reviews. */
  getProductReviewCollection: defineMethod(
    z.tuple([
      z
        .strictObject({ productId: EntityIdSchema, query: ReviewsQuerySchema.optional() })
        .describe('reviews'),
    ]),
    (context: ShopContext, [{ productId, query }]) =>
      getProductReviews(context.client, productId, query),
  ),

  /**
   * A review of a visible product by anyone (spec §2 form: name and e-mail, the e-mail never
   * shown), pending until the shop approves it (the shopper is told so). Throttled per address
   * and per e-mail (429 'Too many attempts').
   */
  createProductReview: defineMethod(
    z.tuple([named(ReviewInputSchema, 'review')]),
    async (context: ShopContext, [input]) => {
      const admission = await accountOf(context).throttle.review({
        email: input.email,
        address: context.clientInfo.address,
      });
      if (!admission.allowed) throw tooManyAttempts(admission.retryAfterMs);
      const product = await getProductById(context.client, input.productId);
      if (product?.isVisible !== true)
        throw new ApiError(404, 'PRODUCT_NOT_FOUND', 'Product not found');
      return createProductReview(context.client, input.productId, {
        title: input.title,
        text: input.text,
        rating: input.rating,
        name: input.name,
        email: input.email,
        status: 'pending',
        dateReviewed: new Date().toISOString(),
      });
    },
    { mutates: true },
  ),
} satisfies Record<string, ApiMethod<ShopContext>>;
