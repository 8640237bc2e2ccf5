/**
 * Honest stock on cart lines (spec §4 Stock) over real HTTP against the
 * sandbox: every cart the API returns carries each line's stock, read in one batched catalogue
 * request; an editor lowering the stock (the sandbox's catalogue API) flags the line; the
 * hand-over to the hosted checkout (`getCheckoutUrl`) is refused while a line is over stock,
 * and allowed once it is reduced or removed; a catalogue that fails leaves the cart loading,
 * its stock unknown and its checkout open.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { lineStockIssue } from '../../src/lib/commerce/line-stock.ts';
import type { Cart } from '../../src/lib/commerce/types.ts';
import { PRODUCTS } from '@literie/sandbox/fixtures';
import type { FaultSpec } from '@literie/sandbox/faults';
import { someVariant, startShopApi, type ShopApi } from './helpers/shop-api.ts';

let api: ShopApi;

beforeAll(async () => {
  api = await startShopApi();
});

afterAll(async () => {
  await api.close();
});

afterEach(async () => {
  await fetch(`${api.sandbox.url}/__sandbox/faults`, {
    method: 'DELETE',
    headers: { 'X-Auth-Token': api.sandbox.token },
  });
});

const items = (cart: Cart) => [...cart.lineItems.physicalItems, ...cart.lineItems.digitalItems];

async function fault(spec: FaultSpec): Promise<void> {
  const response = await fetch(`${api.sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'X-Auth-Token': api.sandbox.token, 'Content-Type': 'application/json' },
    body: JSON.stringify(spec),
  });
  expect(response.status).toBe(201);
}

interface AdminProduct {
  id: number;
  name: string;
  inventory_tracking: 'none' | 'product' | 'variant';
  inventory_level: number;
  variants: { id: number; inventory_level: number; purchasing_disabled: boolean }[];
}

async function adminProduct(id: number): Promise<AdminProduct> {
  const reply = await api.admin('GET', `v3/catalog/products/${String(id)}?include=variants`);
  return (reply.json as { data: AdminProduct }).data;
}

/** The stock level the catalogue holds for a line's variant (spec §4), null when untracked. */
function expectedLevel(product: AdminProduct, variantId: number): number | null {
  if (product.inventory_tracking === 'none') return null;
  if (product.inventory_tracking === 'product') return product.inventory_level;
  return product.variants.find((v) => v.id === variantId)?.inventory_level ?? 0;
}

/** Sets a product's stock as an editor would, through the catalogue API. */
async function setStock(productId: number, level: number): Promise<void> {
  const reply = await api.admin('PUT', `v3/catalog/products/${String(productId)}`, {
    inventory_level: level,
  });
  expect(reply.status).toBe(200);
}

const catalogueReads = () =>
  api.upstream.filter((call) => call.method === 'GET' && call.url.includes('/v3/catalog/products'));

describe('the cart carries the stock of each line (spec §4 Stock)', () => {
  test('every line: the level of its variant, read in one catalogue request for the cart', async () => {
    const lines = await Promise.all([0, 1, 2, 3].map((index) => someVariant(api, index)));
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [
      { lineItems: lines.map((line) => ({ ...line, quantity: 1 })) },
    ]);
    expect(items(cart).every((line) => line.stock !== undefined)).toBe(true);

    api.clearUpstream();
    const read = await guest.data<Cart>('getCart', [{ id: cart.id }]);
    // One batched read for the four products, never one per line.
    expect(catalogueReads()).toHaveLength(1);
    expect(new Set(items(read).map((line) => line.productId)).size).toBe(4);
    for (const line of items(read)) {
      const product = await adminProduct(line.productId);
      const variant = product.variants.find((v) => v.id === line.variantId);
      expect(line.stock).toEqual({
        level: expectedLevel(product, line.variantId),
        purchasable: variant?.purchasing_disabled !== true,
      });
    }
  });

  test('untracked stock (inventory_tracking none): level null, never flagged', async () => {
    const product = await adminProduct(PRODUCTS.trackingNone);
    const variantId = product.variants[0]?.id ?? 0;
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [
      { lineItems: [{ productId: product.id, variantId, quantity: 40 }] },
    ]);
    const [line] = items(cart);
    expect(line?.stock).toEqual({ level: null, purchasable: true });
    expect(line && lineStockIssue(line)).toBeNull();
  });
});

describe('an editor lowers the stock of a line in the cart', () => {
  test('the line is flagged, checkout refused (409); reduce it and checkout is allowed', async () => {
    const id = PRODUCTS.trackingProduct;
    await setStock(id, 20);
    const product = await adminProduct(id);
    expect(product.inventory_tracking).toBe('product');
    const variantId = product.variants[0]?.id ?? 0;
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [
      { lineItems: [{ productId: id, variantId, quantity: 3 }] },
    ]);
    const checkout = () => guest.call('getCheckoutUrl', [{ cartId: cart.id }]);

    await setStock(id, 2);
    const read = await guest.data<Cart>('getCart', [{ id: cart.id }]);
    const [line] = items(read);
    if (line === undefined) throw new Error('one line expected');
    expect(line.stock).toEqual({ level: 2, purchasable: true });
    expect(lineStockIssue(line)).toEqual({ kind: 'exceeds-stock', left: 2 });
    expect(await checkout()).toMatchObject({
      status: 409,
      json: { message: 'cart.stock.checkoutBlocked', statusCode: 409 },
    });

    // The one-click fix: reduce to what is left. The reply carries the stock again.
    const reduced = await guest.data<Cart>('updateCartItem', [
      { cartId: cart.id, itemId: line.id, lineItem: { productId: id, variantId, quantity: 2 } },
    ]);
    const [fixed] = items(reduced);
    expect(fixed?.quantity).toBe(2);
    expect(fixed?.stock).toEqual({ level: 2, purchasable: true });
    expect(fixed && lineStockIssue(fixed)).toBeNull();
    const allowed = await checkout();
    expect(allowed.status).toBe(200);
    expect((allowed.json.data as { url: string }).url).toMatch(/^https?:\/\//);
  });

  test('out of stock: flagged with nothing left, refused; removing the line fixes it', async () => {
    const id = PRODUCTS.trackingProduct;
    await setStock(id, 20);
    const variantId = (await adminProduct(id)).variants[0]?.id ?? 0;
    const other = await someVariant(api, 1);
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [
      {
        lineItems: [
          { productId: id, variantId, quantity: 1 },
          { ...other, quantity: 1 },
        ],
      },
    ]);
    await setStock(id, 0);
    const read = await guest.data<Cart>('getCart', [{ id: cart.id }]);
    const flagged = items(read).find((line) => line.productId === id);
    if (flagged === undefined) throw new Error('the line of the product expected');
    expect(lineStockIssue(flagged)).toEqual({ kind: 'out-of-stock', left: 0 });
    expect((await guest.call('getCheckoutUrl', [{ cartId: cart.id }])).status).toBe(409);

    const after = await guest.data<Cart>('removeCartItem', [
      { cartId: cart.id, itemId: flagged.id },
    ]);
    expect(items(after).map((line) => line.productId)).toEqual([other.productId]);
    expect((await guest.call('getCheckoutUrl', [{ cartId: cart.id }])).status).toBe(200);
    await setStock(id, 20);
  });
});

describe('an add past the stock says which line and how many are left', () => {
  test('422 with the spec §8 message and details.lines: the units left of the refused line', async () => {
    const id = PRODUCTS.trackingProduct;
    await setStock(id, 2);
    const variantId = (await adminProduct(id)).variants[0]?.id ?? 0;
    const first = await someVariant(api, 0);
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [{ lineItems: [{ ...first, quantity: 1 }] }]);
    const tooMany = await guest.call('addCartItems', [
      { cartId: cart.id, lineItems: [{ productId: id, variantId, quantity: 5 }] },
    ]);
    expect(tooMany).toMatchObject({
      status: 422,
      json: {
        message: 'The selected quantity exceeds available stock.',
        statusCode: 422,
        details: { lines: [{ productId: id, variantId, left: 2 }] },
      },
    });
    // A new cart refused the same way says it too.
    const created = await api
      .shopper()
      .call('createCart', [{ lineItems: [{ productId: id, variantId, quantity: 3 }] }]);
    expect(created).toMatchObject({
      status: 422,
      json: { details: { lines: [{ productId: id, variantId, left: 2 }] } },
    });
    await setStock(id, 20);
  });
});

describe('a catalogue that fails never blocks the cart', () => {
  test.each([
    ['503', { status: 503 }],
    ['a dead upstream', { down: true }],
  ] as const)(
    'catalogue reads answering %s: the cart loads, stock unknown, checkout open',
    async (_case, kind) => {
      const line = await someVariant(api, 0);
      const guest = api.shopper();
      const cart = await guest.data<Cart>('createCart', [
        { lineItems: [{ ...line, quantity: 1 }] },
      ]);
      await fault({ ...kind, match: '/stores/sandbox/v3/catalog/products', method: 'GET' });

      const read = await guest.call('getCart', [{ id: cart.id }]);
      expect(read.status).toBe(200);
      const loaded = read.json.data as Cart;
      expect(loaded.id).toBe(cart.id);
      expect(items(loaded).map((l) => [l.productId, l.quantity])).toEqual([[line.productId, 1]]);
      expect(items(loaded)[0]?.stock).toBeUndefined();
      expect((await guest.call('getCheckoutUrl', [{ cartId: cart.id }])).status).toBe(200);

      // The catalogue back: the same cart carries its stock again.
      await fetch(`${api.sandbox.url}/__sandbox/faults`, {
        method: 'DELETE',
        headers: { 'X-Auth-Token': api.sandbox.token },
      });
      const again = await guest.data<Cart>('getCart', [{ id: cart.id }]);
      expect(items(again)[0]?.stock).toBeDefined();
    },
  );
});
