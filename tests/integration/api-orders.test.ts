/**
 * Order and review methods of the shop API over real HTTP against the sandbox (spec §4 order
 * statuses, §7 orders and reviews, §8 errors): the session customer's orders only.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type {
  Cart,
  Order,
  OrderProduct,
  OrderShippingAddress,
  Page,
  ProductReview,
  Shipment,
} from '../../src/lib/commerce/types.ts';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { someVariant, startShopApi, type ShopApi } from './helpers/shop-api.ts';

let api: ShopApi;

beforeAll(async () => {
  api = await startShopApi();
});

afterAll(async () => {
  await api.close();
});

const LOGIN_REQUIRED = { status: 401, json: { message: 'Login required', statusCode: 401 } };
const ORDER_NOT_FOUND = { status: 404, json: { message: 'Order not found', statusCode: 404 } };
const { marie } = CUSTOMERS;

/** Pays a cart on the sandbox's hosted checkout; returns the order id of the redirect. */
async function pay(checkoutUrl: string): Promise<number> {
  const form = new URLSearchParams({
    email: 'client.invite@example.fr',
    first_name: 'Claire',
    last_name: 'Invitée',
    address1: '3 rue des Lilas',
    postal_code: '69003',
    city: 'Lyon',
    phone: '0612345678',
    country: 'FR',
  });
  const response = await fetch(checkoutUrl, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get('location') ?? '');
  return Number(location.searchParams.get('commande'));
}

describe('orders of the session customer', () => {
  test('getOrders: her orders, newest first, by page, money in cents', async () => {
    const shopper = api.shopper();
    await shopper.login(marie.email, marie.password);
    const page = await shopper.data<Page<Order>>('getOrders', []);
    expect(page.items.map((o) => o.id)).toEqual([
      marie.orders.awaitingFulfillment,
      marie.orders.cancelled,
      marie.orders.shipped,
      marie.orders.completed,
    ]);
    expect(page.pagination).toEqual({
      total: 4,
      count: 4,
      perPage: 10,
      currentPage: 1,
      totalPages: 1,
    });
    const completed = page.items.find((o) => o.id === marie.orders.completed);
    expect(completed).toMatchObject({ statusId: 10, status: 'Completed', totalIncTax: 81900 });
    const second = await shopper.data<Page<Order>>('getOrders', [{ page: 2, limit: 3 }]);
    expect(second.items.map((o) => o.id)).toEqual([marie.orders.completed]);
    expect(second.pagination).toMatchObject({ total: 4, totalPages: 2, currentPage: 2 });
  });

  test('products, shipping addresses and shipments of her order', async () => {
    const shopper = api.shopper();
    await shopper.login(marie.email, marie.password);
    const orderId = marie.orders.shipped;
    const products = await shopper.data<OrderProduct[]>('getOrderProducts', [{ orderId }]);
    expect(products.length).toBeGreaterThan(0);
    expect(products.every((p) => p.orderId === orderId && Number.isInteger(p.basePrice))).toBe(
      true,
    );
    const addresses = await shopper.data<OrderShippingAddress[]>('getOrderShippingAddresses', [
      { orderId },
    ]);
    expect(addresses[0]).toMatchObject({ orderId });
    const shipments = await shopper.data<Shipment[]>('getShipments', [{ orderId }]);
    expect(shipments.map((s) => s.trackingNumber)).toContain(marie.trackingNumber);
    // An order with no shipment: v2 answers 204, read as [].
    expect(
      await shopper.data<Shipment[]>('getShipments', [{ orderId: marie.orders.cancelled }]),
    ).toEqual([]);
  });

  test.each(['getOrderProducts', 'getOrderShippingAddresses', 'getShipments'])(
    '%s: another customer’s order or a missing one → 404 Order not found; a visitor → 401',
    async (method) => {
      const paul = api.shopper();
      await paul.login(CUSTOMERS.reseller.email, CUSTOMERS.reseller.password);
      expect(await paul.call(method, [{ orderId: marie.orders.shipped }])).toMatchObject(
        ORDER_NOT_FOUND,
      );
      expect(await paul.call(method, [{ orderId: 999_999 }])).toMatchObject(ORDER_NOT_FOUND);
      expect(await api.shopper().call(method, [{ orderId: marie.orders.shipped }])).toMatchObject(
        LOGIN_REQUIRED,
      );
    },
  );

  test('getOrders: a visitor → 401; another customer sees none of hers', async () => {
    expect(await api.shopper().call('getOrders', [])).toMatchObject(LOGIN_REQUIRED);
    const paul = api.shopper();
    await paul.login(CUSTOMERS.reseller.email, CUSTOMERS.reseller.password);
    const page = await paul.data<Page<Order>>('getOrders', []);
    expect(page.items).toEqual([]);
    expect(page.pagination.total).toBe(0);
  });
});

describe('paying on the hosted checkout, then getOrderByCart', () => {
  test('guest: the order of the paid cart (Awaiting Fulfillment)', async () => {
    const line = await someVariant(api, 2);
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [{ lineItems: [{ ...line, quantity: 1 }] }]);
    expect(await guest.data('getOrderByCart', [{ cartId: cart.id }])).toBeNull();
    const { url } = await guest.data<{ url: string }>('getCheckoutUrl', [{ cartId: cart.id }]);
    const orderId = await pay(url);
    const order = await guest.data<Order>('getOrderByCart', [{ cartId: cart.id }]);
    expect(order).toMatchObject({ id: orderId, statusId: 11, customerId: 0, cartId: cart.id });
    expect(await guest.data('getCart', [{ id: cart.id }])).toBeNull();
  });

  test('customer: the order shows in her account, and no one else gets it by cart', async () => {
    const line = await someVariant(api, 3);
    const shopper = api.shopper();
    await shopper.login(marie.email, marie.password);
    const cart = await shopper.data<Cart>('createCart', [
      { lineItems: [{ ...line, quantity: 2 }] },
    ]);
    const { url } = await shopper.data<{ url: string }>('getCheckoutUrl', [{ cartId: cart.id }]);
    // The customer-login URL leads to the checkout: pay there.
    const login = await fetch(url, { redirect: 'manual' });
    const checkout = new URL(login.headers.get('location') ?? '', api.sandbox.url).href;
    const orderId = await pay(checkout);
    const mine = await shopper.data<Order>('getOrderByCart', [{ cartId: cart.id }]);
    expect(mine).toMatchObject({ id: orderId, customerId: marie.id, statusId: 11 });
    const page = await shopper.data<Page<Order>>('getOrders', []);
    expect(page.items[0]?.id).toBe(orderId);
    expect(await api.shopper().data('getOrderByCart', [{ cartId: cart.id }])).toBeNull();
  });
});

describe('product reviews', () => {
  test('getProductReviewCollection: approved reviews only, by page', async () => {
    const visitor = api.shopper();
    const page = await visitor.data<Page<ProductReview>>('getProductReviewCollection', [
      { productId: 101, query: { limit: 2 } },
    ]);
    expect(page.items.length).toBeLessThanOrEqual(2);
    expect(page.items.every((r) => r.status === 'approved')).toBe(true);
    expect(page.pagination.perPage).toBe(2);
    if (page.pagination.total > 2) {
      const next = await visitor.data<Page<ProductReview>>('getProductReviewCollection', [
        { productId: 101, query: { page: 2, limit: 2 } },
      ]);
      expect(next.items[0]?.id).not.toBe(page.items[0]?.id);
    }
  });

  test('createProductReview: anyone, with name and e-mail; pending, so not listed yet', async () => {
    const shopper = api.shopper({ ip: '198.51.100.40' });
    const review = await shopper.data<ProductReview>('createProductReview', [
      {
        productId: 101,
        title: 'Très confortable',
        text: 'Je dors mieux depuis.',
        rating: 5,
        name: ' Claire D. ',
        email: 'claire@example.fr',
      },
    ]);
    expect(review).toMatchObject({
      productId: 101,
      status: 'pending',
      name: 'Claire D.',
      rating: 5,
      title: 'Très confortable',
    });
    const page = await shopper.data<Page<ProductReview>>('getProductReviewCollection', [
      { productId: 101, query: { limit: 250 } },
    ]);
    expect(page.items.map((r) => r.id)).not.toContain(review.id);
  });

  test('createProductReview: invalid input → 400 with the message key; unknown product → 404', async () => {
    const shopper = api.shopper({ ip: '198.51.100.41' });
    const valid = {
      productId: 101,
      title: 'Bien',
      text: 'Très bien.',
      rating: 4,
      name: 'Paul',
      email: 'paul@example.fr',
    };
    const short = await shopper.call('createProductReview', [{ ...valid, title: 'Ok' }]);
    expect(short.status).toBe(400);
    expect(short.json.message).toMatch(/at title: validation\.reviewMin$/);
    for (const bad of [
      { ...valid, email: 'pas-un-email' },
      { ...valid, name: '' },
      { ...valid, rating: 0 },
    ]) {
      expect((await shopper.call('createProductReview', [bad])).status).toBe(400);
    }
    const unknown = await shopper.call('createProductReview', [
      { ...valid, productId: 99_999_999 },
    ]);
    expect(unknown).toMatchObject({ status: 404, json: { message: 'Product not found' } });
  });

  test('createProductReview is throttled per e-mail: the 6th within the hour waits (429)', async () => {
    const shopper = api.shopper({ ip: '198.51.100.42' });
    const review = (n: number) => ({
      productId: 101,
      title: `Avis ${String(n)}`,
      text: 'Un texte assez long.',
      rating: 4,
      name: 'Léa',
      email: 'lea@example.fr',
    });
    for (let n = 1; n <= 5; n += 1) {
      expect((await shopper.call('createProductReview', [review(n)])).status).toBe(200);
    }
    const sixth = await shopper.call('createProductReview', [review(6)]);
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
