/**
 * The sandbox's wishlists v3 (wishlists.v3.yml) over HTTP: replies against the contract,
 * upstream's rules (name and customer_id required, products and variants checked, a pair
 * once), 404s and the 204 of a deletion.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CUSTOMERS, PRODUCTS } from '../src/fixtures.ts';
import { expectContract } from './helpers.ts';
import { sandboxApi, startTestSandbox, type TestSandbox } from '../src/testing.ts';

interface WishlistBody {
  id: number;
  customer_id: number;
  name: string;
  is_public: boolean;
  token: string;
  items: { id: number; product_id: number; variant_id: number }[];
}

let sandbox: TestSandbox;
let api: ReturnType<typeof sandboxApi>;
let variantId: number;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  api = sandboxApi(sandbox);
  const product = await api<{ data: { variants: { id: number }[] } }>(
    'GET',
    `/v3/catalog/products/${String(PRODUCTS.trackingVariant)}?include=variants`,
  );
  variantId = product.body.data.variants[0]?.id ?? 0;
});

afterAll(async () => {
  await sandbox.close();
});

const customerId = CUSTOMERS.marie.id;

describe('wishlists v3', () => {
  test('create 201, read, list by customer with pagination, add (a pair once), delete item, delete 204', async () => {
    const item = { product_id: PRODUCTS.trackingVariant, variant_id: variantId };
    const created = await api<{ data: WishlistBody }>('POST', '/v3/wishlists', {
      customer_id: customerId,
      name: 'Chambre',
      is_public: false,
      items: [item],
    });
    expect(created.status).toBe(201);
    expectContract('POST /v3/wishlists', created.body);
    const wishlist = created.body.data;
    expect(wishlist).toMatchObject({ customer_id: customerId, name: 'Chambre', items: [item] });
    expect(wishlist.token).toMatch(/^[0-9a-f-]{36}$/);

    const read = await api('GET', `/v3/wishlists/${String(wishlist.id)}`);
    expect(read.status).toBe(200);
    expectContract('GET /v3/wishlists/{wishlist_id}', read.body);

    const list = await api<{ data: WishlistBody[]; meta: { pagination: { total: number } } }>(
      'GET',
      `/v3/wishlists?customer_id=${String(customerId)}&limit=1`,
    );
    expectContract('GET /v3/wishlists', list.body);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data.every((w) => w.customer_id === customerId)).toBe(true);

    const added = await api<{ data: WishlistBody }>(
      'POST',
      `/v3/wishlists/${String(wishlist.id)}/items`,
      { items: [item, { product_id: PRODUCTS.trackingNone }] },
    );
    expect(added.status).toBe(201);
    expectContract('POST /v3/wishlists/{wishlist_id}/items', added.body);
    expect(added.body.data.items).toHaveLength(2);

    const first = added.body.data.items[0]?.id ?? 0;
    const removed = await api<{ data: WishlistBody }>(
      'DELETE',
      `/v3/wishlists/${String(wishlist.id)}/items/${String(first)}`,
    );
    expect(removed.status).toBe(200);
    expectContract('DELETE /v3/wishlists/{wishlist_id}/items/{item_id}', removed.body);
    expect(removed.body.data.items.map((i) => i.id)).not.toContain(first);
    expect(
      (await api('DELETE', `/v3/wishlists/${String(wishlist.id)}/items/${String(first)}`)).status,
    ).toBe(404);

    expect((await api('DELETE', `/v3/wishlists/${String(wishlist.id)}`)).status).toBe(204);
    const gone = await api('GET', `/v3/wishlists/${String(wishlist.id)}`);
    expect(gone.status).toBe(404);
    expectContract('GET /v3/wishlists/{wishlist_id}', gone.body, 'error');
  });

  test('422 for a missing name or customer, an unknown customer, product or foreign variant', async () => {
    for (const body of [
      { customer_id: customerId },
      { name: 'x' },
      { name: 'x', customer_id: 99_999_999 },
      { name: 'x', customer_id: customerId, items: [{ product_id: 99_999_999 }] },
      {
        name: 'x',
        customer_id: customerId,
        items: [{ product_id: PRODUCTS.trackingNone, variant_id: variantId }],
      },
      { name: 'x', customer_id: customerId, items: 'nope' },
    ]) {
      const reply = await api('POST', '/v3/wishlists', body);
      expect(reply.status, JSON.stringify(body)).toBe(422);
      expectContract('POST /v3/wishlists', reply.body, 'error');
    }
    expect((await api('POST', '/v3/wishlists/99999999/items', { items: [] })).status).toBe(404);
  });
});
