/**
 * v2 orders, product reviews (stored ones beside the derived ones) and the channel site of the
 * sandbox over HTTP, against the contract.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CHANNEL_ID, CUSTOMERS, PRODUCTS } from '../src/fixtures.ts';
import { expectContract } from './helpers.ts';
import { sandboxApi, startTestSandbox, type TestSandbox } from '../src/testing.ts';

interface Order {
  id: number;
  customer_id: number;
  status_id: number;
  status: string;
  custom_status: string;
  date_created: string;
  total_inc_tax: string;
  subtotal_inc_tax: string;
  items_total: number;
  items_shipped: number;
  currency_code: string;
  cart_id: string;
  payment_method: string;
  billing_address: { first_name: string; zip: string; country_iso2: string; email: string };
  products: { resource: string };
}

let sandbox: TestSandbox;
let api: ReturnType<typeof sandboxApi>;

beforeAll(async () => {
  sandbox = await startTestSandbox({ siteUrl: 'http://localhost:4999' });
  api = sandboxApi(sandbox);
});

afterAll(async () => {
  await sandbox.close();
});

describe('v2 orders', () => {
  test("Marie's orders, newest first: four statuses with BigCommerce's names, money as strings, RFC 2822 dates", async () => {
    const reply = await api<Order[]>(
      'GET',
      `/v2/orders?customer_id=${CUSTOMERS.marie.id}&sort=date_created:desc`,
    );
    expect(reply.status).toBe(200);
    expectContract('GET /v2/orders', reply.body);
    expect(reply.body.map((o) => [o.id, o.status_id, o.status, o.custom_status])).toEqual([
      [103, 11, 'Awaiting Fulfillment', 'Awaiting Fulfillment'],
      [102, 5, 'Cancelled', 'Cancelled'],
      [101, 2, 'Shipped', 'Shipped'],
      [100, 10, 'Completed', 'Completed'],
    ]);
    const shipped = reply.body.find((o) => o.id === CUSTOMERS.marie.orders.shipped);
    expect(shipped).toMatchObject({
      date_created: 'Sun, 02 Mar 2025 14:05:00 +0000',
      subtotal_inc_tax: '557.0000',
      total_inc_tax: '557.0000',
      items_total: 3,
      items_shipped: 3,
      currency_code: 'EUR',
      payment_method: 'Credit Card',
      billing_address: {
        first_name: 'Marie',
        zip: '69003',
        country_iso2: 'FR',
        email: CUSTOMERS.marie.email,
      },
      products: { resource: '/orders/101/products' },
    });
  });

  test('filters: status_id, min/max date (ISO or RFC 2822), paging; sort id by default; 204 when empty', async () => {
    const byStatus = await api<Order[]>('GET', '/v2/orders?status_id=5');
    expect(byStatus.body.map((o) => o.id)).toEqual([CUSTOMERS.marie.orders.cancelled]);
    const range = await api<Order[]>(
      'GET',
      `/v2/orders?min_date_created=${encodeURIComponent('2025-02-01T00:00:00Z')}&max_date_created=${encodeURIComponent('Thu, 10 Apr 2025 23:00:00 +0000')}`,
    );
    expect(range.body.map((o) => o.id)).toEqual([101, 102]);
    const paged = await api<Order[]>('GET', '/v2/orders?limit=2&page=2');
    expect(paged.body.map((o) => o.id)).toEqual([102, 103]);
    const none = await api('GET', `/v2/orders?customer_id=${CUSTOMERS.reseller.id}`);
    expect([none.status, none.body]).toEqual([204, null]);
    const cart = await api('GET', '/v2/orders?cart_id=00000000-0000-0000-0000-000000000000');
    expect(cart.status).toBe(204);
  });

  test.each([
    ['/v2/orders?sort=total', 'The field sort is invalid.'],
    ['/v2/orders?limit=251', 'The field limit is invalid.'],
    ['/v2/orders?min_date_created=yesterday', 'The field min_date_created is invalid.'],
    ['/v2/orders?customer_id=abc', 'customer_id must be an integer'],
  ])('%s: 400 v2 error', async (path, message) => {
    const reply = await api<{ status: number; message: string }[]>('GET', path);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual([{ status: 400, message }]);
    expectContract('GET /v2/orders', reply.body, 'error');
  });

  test('one order, its products, shipping addresses and shipments', async () => {
    const id = CUSTOMERS.marie.orders.shipped;
    const order = await api<Order>('GET', `/v2/orders/${id}`);
    expect(order.status).toBe(200);
    expectContract('GET /v2/orders/{order_id}', order.body);
    const products = await api<
      {
        product_id: number;
        variant_id: number;
        quantity: number;
        price_inc_tax: string;
        product_options: { display_name: string; display_value: string }[];
      }[]
    >('GET', `/v2/orders/${id}/products`);
    expectContract('GET /v2/orders/{order_id}/products', products.body);
    expect(
      products.body.map((p) => [p.product_id, p.variant_id, p.quantity, p.price_inc_tax]),
    ).toEqual([
      [PRODUCTS.trackingProduct, 1292, 2, '139.0000'],
      [PRODUCTS.trackingNone, 1218, 1, '279.0000'],
    ]);
    expect(products.body[0]?.product_options).toMatchObject([
      { display_name: 'Taille', display_value: '60x60 cm' },
    ]);
    const addresses = await api<{ street_1: string; city: string; shipping_method: string }[]>(
      'GET',
      `/v2/orders/${id}/shipping_addresses`,
    );
    expectContract('GET /v2/orders/{order_id}/shipping_addresses', addresses.body);
    expect(addresses.body[0]).toMatchObject({ street_1: '12 rue des Lilas', city: 'Lyon' });
    const shipments = await api<
      { tracking_number: string; tracking_carrier: string; tracking_link: string }[]
    >('GET', `/v2/orders/${id}/shipments`);
    expectContract('GET /v2/orders/{order_id}/shipments', shipments.body);
    expect(shipments.body[0]).toMatchObject({
      tracking_number: CUSTOMERS.marie.trackingNumber,
      tracking_carrier: 'colissimo',
    });
    const noShipment = await api(
      'GET',
      `/v2/orders/${CUSTOMERS.marie.orders.awaitingFulfillment}/shipments`,
    );
    expect(noShipment.status).toBe(204);
    for (const path of ['/v2/orders/99', '/v2/orders/99/products', '/v2/orders/99/shipments']) {
      const missing = await api('GET', path);
      expect([missing.status, missing.body]).toEqual([
        404,
        [{ status: 404, message: 'The requested resource was not found.' }],
      ]);
    }
  });
});

describe('product reviews', () => {
  test('POST stores a pending review (200); the list holds it after the derived ones; status filter', async () => {
    const product = PRODUCTS.trackingVariant;
    const before = await api<{
      data: { id: number; status: string }[];
      meta: { pagination: { total: number } };
    }>('GET', `/v3/catalog/products/${product}/reviews?limit=250`);
    const created = await api<{
      data: { id: number; status: string; title: string; rating: number };
    }>('POST', `/v3/catalog/products/${product}/reviews`, {
      title: 'Très confortable',
      text: 'Je recommande ce matelas.',
      rating: 5,
      name: 'Marie M.',
      email: CUSTOMERS.marie.email,
      date_reviewed: '2025-07-01T10:00:00+00:00',
    });
    expect(created.status).toBe(200);
    expectContract('POST /v3/catalog/products/{product_id}/reviews', created.body);
    expect(created.body.data).toMatchObject({
      status: 'pending',
      title: 'Très confortable',
      rating: 5,
    });
    const after = await api<{
      data: { id: number; status: string }[];
      meta: { pagination: { total: number } };
    }>('GET', `/v3/catalog/products/${product}/reviews?limit=250`);
    expectContract('GET /v3/catalog/products/{product_id}/reviews', after.body);
    expect(after.body.meta.pagination.total).toBe(before.body.meta.pagination.total + 1);
    expect(after.body.data.at(-1)?.id).toBe(created.body.data.id);
    const approved = await api<{ data: { status: string }[] }>(
      'GET',
      `/v3/catalog/products/${product}/reviews?limit=250&status=1`,
    );
    expect(approved.body.data.every((r) => r.status === 'approved')).toBe(true);
    expect(approved.body.data).toHaveLength(before.body.meta.pagination.total);
    const pending = await api<{ data: { id: number }[] }>(
      'GET',
      `/v3/catalog/products/${product}/reviews?status=0`,
    );
    expect(pending.body.data.map((r) => r.id)).toEqual([created.body.data.id]);
    expect((await api('GET', `/v3/catalog/products/${product}/reviews?status=9`)).status).toBe(422);
  });

  test.each([
    [{ rating: 5, date_reviewed: '2025-07-01T10:00:00Z' }, { title: 'title is required' }],
    [{ title: 'Bien', rating: 5 }, { date_reviewed: 'date_reviewed is required' }],
    [
      { title: 'Bien', rating: 6, date_reviewed: '2025-07-01T10:00:00Z' },
      { rating: 'rating must be at most 5' },
    ],
    [
      { title: 'Bien', status: 'hidden', date_reviewed: '2025-07-01T10:00:00Z' },
      { status: 'status must be one of approved, disapproved, pending' },
    ],
    [
      { title: 'Bien', email: 'x', date_reviewed: '2025-07-01T10:00:00Z' },
      { email: 'email must be a valid email, or an empty string' },
    ],
  ])('invalid review %j: 422', async (body, errors) => {
    const reply = await api<{ errors: Record<string, string> }>(
      'POST',
      `/v3/catalog/products/${PRODUCTS.trackingVariant}/reviews`,
      body,
    );
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual(errors);
    expectContract('POST /v3/catalog/products/{product_id}/reviews', reply.body, 'error');
  });

  test('POST on an unknown product: 404', async () => {
    const reply = await api('POST', '/v3/catalog/products/999999/reviews', {
      title: 'x',
      date_reviewed: '2025-07-01T10:00:00Z',
    });
    expect(reply.status).toBe(404);
  });
});

describe('channel site', () => {
  test('GET: the siteUrl option; PUT changes it; errors', async () => {
    const got = await api<{ data: { url: string; channel_id: number } }>(
      'GET',
      `/v3/channels/${CHANNEL_ID}/site`,
    );
    expect(got.status).toBe(200);
    expectContract('GET /v3/channels/{channel_id}/site', got.body);
    expect(got.body.data).toMatchObject({ url: 'http://localhost:4999', channel_id: 1 });
    const put = await api<{ data: { url: string } }>('PUT', `/v3/channels/${CHANNEL_ID}/site`, {
      url: 'https://literie.example.fr',
    });
    expect(put.status).toBe(200);
    expectContract('PUT /v3/channels/{channel_id}/site', put.body);
    expect(
      (await api<{ data: { url: string } }>('GET', `/v3/channels/${CHANNEL_ID}/site`)).body.data
        .url,
    ).toBe('https://literie.example.fr');
    const invalid = await api<{ errors: Record<string, string> }>(
      'PUT',
      `/v3/channels/${CHANNEL_ID}/site`,
      { url: 'literie' },
    );
    expect([invalid.status, invalid.body.errors]).toEqual([
      422,
      { url: 'url must be a fully qualified URL (scheme and host)' },
    ]);
    expect((await api('GET', '/v3/channels/9/site')).status).toBe(404);
    await api('PUT', `/v3/channels/${CHANNEL_ID}/site`, { url: 'http://localhost:4999' });
  });
});
