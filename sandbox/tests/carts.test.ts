/**
 * Carts v3, cart metafields and checkouts of the sandbox over HTTP: replies against the
 * contract, upstream's rules (no empty cart, merge of repeated lines, variants and options,
 * stock, purchasing disabled), totals, the last-item deletion, and racing writes.
 *
 * This file: creating, reading, updating and deleting carts, and their lines (the rest: cart-
 * writes.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CUSTOMERS, PRODUCTS } from '../src/fixtures.ts';
import { expectContract } from './helpers.ts';
import { sandboxApi, startTestSandbox, type TestSandbox } from '../src/testing.ts';
import { createCartWith, ELYSEE, type Cart, type Data, type V3Error } from './helpers.ts';

let sandbox: TestSandbox;
let api: ReturnType<typeof sandboxApi>;

const createCart = (lines: object[], query = '') => createCartWith(api, lines, query);

beforeAll(async () => {
  sandbox = await startTestSandbox();
  api = sandboxApi(sandbox);
});

afterAll(async () => {
  await sandbox.close();
});

describe('create, get, update, delete', () => {
  test('POST /v3/carts: 201, contract, prices of the variant, totals, EUR', async () => {
    const reply = await api<Data<Cart>>('POST', '/v3/carts', {
      line_items: [{ product_id: ELYSEE.id, variant_id: ELYSEE.v140, quantity: 2 }],
    });
    expect(reply.status).toBe(201);
    expectContract('POST /v3/carts', reply.body);
    const cart = reply.body.data;
    expect(cart.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(cart.customer_id).toBe(0);
    expect(cart.currency.code).toBe('EUR');
    const [line] = cart.line_items.physical_items;
    expect(line).toMatchObject({
      parent_id: null,
      product_id: ELYSEE.id,
      variant_id: ELYSEE.v140,
      sku: 'MAT-101-140x190',
      name: 'Matelas Élysée',
      quantity: 2,
      list_price: 1029,
      sale_price: 819,
      extended_list_price: 2058,
      extended_sale_price: 1638,
    });
    expect(line?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(line?.image_url.startsWith(sandbox.url)).toBe(true);
    expect(line?.options).toBeUndefined();
    expect([cart.base_amount, cart.cart_amount, cart.discount_amount]).toEqual([2058, 1638, 0]);
  });

  test('an empty cart is refused (upstream requires at least one line item)', async () => {
    for (const body of [{ line_items: [] }, {}]) {
      const reply = await api<V3Error>('POST', '/v3/carts', body);
      expect(reply.status).toBe(422);
      expect(reply.body).toMatchObject({
        status: 422,
        title: 'Missing or invalid data',
        errors: { line_items: 'line_items is required and must hold at least one item' },
      });
      expectContract('POST /v3/carts', reply.body, 'error');
    }
  });

  test('include=line_items.physical_items.options and redirect_urls', async () => {
    const cart = await createCart(
      [{ product_id: ELYSEE.id, variant_id: ELYSEE.v90, quantity: 1 }],
      '?include=redirect_urls,line_items.physical_items.options',
    );
    expect(cart.line_items.physical_items[0]?.options).toEqual([
      { name: 'Taille', nameId: ELYSEE.size, value: '90x190 cm', valueId: 501 },
    ]);
    expect(cart.redirect_urls?.checkout_url).toMatch(
      new RegExp(`^${sandbox.url}/cart\\.php\\?action=load&id=${cart.id}&token=[\\w-]+$`),
    );
    const got = await api<Data<Cart>>('GET', `/v3/carts/${cart.id}?include=redirect_urls`);
    expect(got.status).toBe(200);
    expectContract('GET /v3/carts/{cartId}', got.body);
    expect(got.body.data.redirect_urls).toEqual(cart.redirect_urls);
    const urls = await api<Data<Record<string, string>>>(
      'POST',
      `/v3/carts/${cart.id}/redirect_urls`,
    );
    expect(urls.status).toBe(201);
    expectContract('POST /v3/carts/{cartId}/redirect_urls', urls.body);
    expect(urls.body.data).toEqual(cart.redirect_urls);
  });

  test('customer_id at creation and PUT /v3/carts/{id} (201 as documented); unknown customer 422', async () => {
    const cart = await createCart([{ product_id: ELYSEE.id, variant_id: ELYSEE.v90, quantity: 1 }]);
    const put = await api<Data<Cart>>('PUT', `/v3/carts/${cart.id}`, {
      customer_id: CUSTOMERS.marie.id,
    });
    expect(put.status).toBe(201);
    expectContract('PUT /v3/carts/{cartId}', put.body);
    expect(put.body.data).toMatchObject({ customer_id: 1, email: CUSTOMERS.marie.email });
    const back = await api<Data<Cart>>('PUT', `/v3/carts/${cart.id}`, { customer_id: 0 });
    expect(back.body.data).toMatchObject({ customer_id: 0, email: '' });
    const unknown = await api<V3Error>('PUT', `/v3/carts/${cart.id}`, { customer_id: 9999 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.title).toBe('Customer 9999 does not exist.');
    const invalid = await api<V3Error>('PUT', `/v3/carts/${cart.id}`, { customer_id: 'x' });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual({ customer_id: 'customer_id must be an integer' });
    const owned = await api<Data<Cart>>('POST', '/v3/carts', {
      customer_id: CUSTOMERS.reseller.id,
      line_items: [{ product_id: ELYSEE.id, variant_id: ELYSEE.v90, quantity: 1 }],
    });
    expect(owned.body.data).toMatchObject({ customer_id: 2, email: CUSTOMERS.reseller.email });
  });

  test('DELETE /v3/carts/{id}: 204, then 404 Cart not found', async () => {
    const cart = await createCart([{ product_id: ELYSEE.id, variant_id: ELYSEE.v90, quantity: 1 }]);
    const deleted = await api('DELETE', `/v3/carts/${cart.id}`);
    expect([deleted.status, deleted.body]).toEqual([204, null]);
    for (const [method, path] of [
      ['GET', `/v3/carts/${cart.id}`],
      ['DELETE', `/v3/carts/${cart.id}`],
      ['GET', '/v3/carts/not-a-cart'],
      ['GET', `/v3/checkouts/${cart.id}`],
    ] as const) {
      const reply = await api<V3Error>(method, path);
      expect(reply.status).toBe(404);
      expectContract('GET /v3/carts/{cartId}', reply.body, 'error');
    }
    expect((await api<V3Error>('GET', `/v3/carts/${cart.id}`)).body.title).toBe('Cart not found');
  });
});

describe('line items', () => {
  test('the same product and variant merges into one line (quantity added), by variant_id or option_selections', async () => {
    const cart = await createCart([
      { product_id: ELYSEE.id, variant_id: ELYSEE.v140, quantity: 1 },
      { product_id: ELYSEE.id, variant_id: ELYSEE.v140, quantity: 1 },
    ]);
    expect(cart.line_items.physical_items.map((l) => l.quantity)).toEqual([2]);
    const added = await api<Data<Cart>>('POST', `/v3/carts/${cart.id}/items`, {
      line_items: [
        {
          product_id: ELYSEE.id,
          quantity: 3,
          option_selections: [{ option_id: ELYSEE.size, option_value: ELYSEE.v140Value }],
        },
        { product_id: ELYSEE.id, variant_id: ELYSEE.v90, quantity: 1 },
      ],
    });
    expect(added.status).toBe(201);
    expectContract('POST /v3/carts/{cartId}/items', added.body);
    const lines = added.body.data.line_items.physical_items;
    expect(lines.map((l) => [l.variant_id, l.quantity])).toEqual([
      [ELYSEE.v140, 5],
      [ELYSEE.v90, 1],
    ]);
    expect(lines[0]?.id).toBe(cart.line_items.physical_items[0]?.id);
    expect(added.body.data.base_amount).toBe(5 * 1029 + 739);
    expect(added.body.data.cart_amount).toBe(5 * 819 + 589);
  });

  test.each([
    [
      'unknown product',
      { product_id: 999999, variant_id: 1, quantity: 1 },
      'Product 999999 does not exist.',
    ],
    [
      'variant of another product',
      { product_id: ELYSEE.id, variant_id: 1006, quantity: 1 },
      `Variant 1006 does not belong to product ${ELYSEE.id}.`,
    ],
    [
      'option of another product',
      {
        product_id: ELYSEE.id,
        quantity: 1,
        option_selections: [{ option_id: 202, option_value: 506 }],
      },
      `Option 202 does not belong to product ${ELYSEE.id}.`,
    ],
    [
      'value of another option',
      {
        product_id: ELYSEE.id,
        quantity: 1,
        option_selections: [{ option_id: ELYSEE.size, option_value: 506 }],
      },
      'Option value 506 is not a value of option Taille.',
    ],
    [
      'options that contradict the variant',
      {
        product_id: ELYSEE.id,
        variant_id: ELYSEE.v90,
        quantity: 1,
        option_selections: [{ option_id: ELYSEE.size, option_value: ELYSEE.v140Value }],
      },
      'The option selections do not match the variant.',
    ],
    [
      'no variant for a product with options',
      { product_id: ELYSEE.id, quantity: 1 },
      'Please choose the options of Matelas Élysée: variant_id or option_selections is required.',
    ],
    [
      'out of stock variant (variant tracking)',
      { product_id: ELYSEE.id, variant_id: ELYSEE.outOfStock, quantity: 1 },
      'Not enough stock: Matelas Élysée (MAT-101-180x200) is out of stock and cannot be added to the cart.',
    ],
    [
      'more than the variant stock',
      { product_id: ELYSEE.id, variant_id: ELYSEE.v90, quantity: 24 },
      'Not enough stock: only 23 of Matelas Élysée (MAT-101-90x190) can be added to the cart.',
    ],
    [
      'more than the product stock (product tracking)',
      { product_id: PRODUCTS.trackingProduct, variant_id: 1292, quantity: 53 },
      'Not enough stock: only 52 of Oreiller Fibre Douce (ORE-179) can be added to the cart.',
    ],
    [
      'purchasing disabled variant',
      { product_id: PRODUCTS.priceHidden, variant_id: 1007, quantity: 1 },
      'Matelas Grand Hôtel (MAT-102-90x190) cannot be purchased: Taille en cours de fabrication, disponible dans 3 semaines',
    ],
    [
      'invisible product',
      { product_id: PRODUCTS.retired, variant_id: 1930, quantity: 1 },
      'Matelas Confort (ancien modèle) cannot be purchased.',
    ],
    [
      'quantity 0',
      { product_id: ELYSEE.id, variant_id: ELYSEE.v90, quantity: 0 },
      'Missing or invalid data',
    ],
  ])('422 for %s', async (_case, line, title) => {
    const reply = await api<V3Error>('POST', '/v3/carts', { line_items: [line] });
    expect(reply.status).toBe(422);
    expect(reply.body.title).toBe(title);
    expectContract('POST /v3/carts', reply.body, 'error');
  });

  test('no stock limit without inventory tracking; stock counts the whole cart', async () => {
    const free = await createCart([
      { product_id: PRODUCTS.trackingNone, variant_id: 1217, quantity: 500 },
    ]);
    expect(free.line_items.physical_items[0]?.quantity).toBe(500);
    const cart = await createCart([
      { product_id: ELYSEE.id, variant_id: ELYSEE.v90, quantity: 20 },
    ]);
    const more = await api<V3Error>('POST', `/v3/carts/${cart.id}/items`, {
      line_items: [{ product_id: ELYSEE.id, variant_id: ELYSEE.v90, quantity: 4 }],
    });
    expect(more.status).toBe(422);
    expect(more.body.title).toContain('only 23 of Matelas Élysée');
  });

  test('PUT item: quantity and variant; errors', async () => {
    const cart = await createCart([{ product_id: ELYSEE.id, variant_id: ELYSEE.v90, quantity: 1 }]);
    const itemId = cart.line_items.physical_items[0]?.id ?? '';
    const put = await api<Data<Cart>>(
      'PUT',
      `/v3/carts/${cart.id}/items/${itemId}?include=line_items.physical_items.options`,
      {
        line_item: { product_id: ELYSEE.id, variant_id: ELYSEE.v140, quantity: 3 },
      },
    );
    expect(put.status).toBe(200);
    expectContract('PUT /v3/carts/{cartId}/items/{itemId}', put.body);
    expect(
      put.body.data.line_items.physical_items.map((l) => [
        l.id,
        l.variant_id,
        l.quantity,
        l.options?.[0]?.value,
      ]),
    ).toEqual([[itemId, ELYSEE.v140, 3, '140x190 cm']]);
    const other = await api<V3Error>('PUT', `/v3/carts/${cart.id}/items/${itemId}`, {
      line_item: { product_id: PRODUCTS.trackingProduct, variant_id: 1292, quantity: 1 },
    });
    expect([other.status, other.body.title]).toEqual([
      422,
      'The product of a line item cannot be changed: remove it and add the other product.',
    ]);
    const missing = await api<V3Error>(
      'PUT',
      `/v3/carts/${cart.id}/items/00000000-0000-0000-0000-000000000000`,
      {
        line_item: { product_id: ELYSEE.id, variant_id: ELYSEE.v140, quantity: 1 },
      },
    );
    expect([missing.status, missing.body.title]).toEqual([404, 'Line item not found']);
    const invalid = await api<V3Error>('PUT', `/v3/carts/${cart.id}/items/${itemId}`, {
      line_item: { quantity: 1 },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual({ 'line_item.product_id': 'product_id is required' });
  });

  test('DELETE item: the cart; the last item deletes the cart and answers 204 with no body', async () => {
    const cart = await createCart([
      { product_id: ELYSEE.id, variant_id: ELYSEE.v90, quantity: 1 },
      { product_id: ELYSEE.id, variant_id: ELYSEE.v140, quantity: 1 },
    ]);
    const [first, second] = cart.line_items.physical_items;
    const one = await api<Data<Cart>>('DELETE', `/v3/carts/${cart.id}/items/${first?.id ?? ''}`);
    expect(one.status).toBe(200);
    expectContract('DELETE /v3/carts/{cartId}/items/{itemId}', one.body);
    expect(one.body.data.line_items.physical_items.map((l) => l.id)).toEqual([second?.id]);
    const gone = await api<V3Error>('DELETE', `/v3/carts/${cart.id}/items/${first?.id ?? ''}`);
    expect(gone.status).toBe(404);
    const last = await api('DELETE', `/v3/carts/${cart.id}/items/${second?.id ?? ''}`);
    expect([last.status, last.body]).toEqual([204, null]);
    expect((await api('GET', `/v3/carts/${cart.id}`)).status).toBe(404);
  });
});
