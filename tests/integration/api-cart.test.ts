/**
 * Cart and checkout methods of the shop API over real HTTP against the sandbox (spec §4 cart
 * lifecycle, §7 cart calls, §8 'Cart not found'), with sessions and the per-cart write queue.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Cart, CartMetafield } from '../../src/lib/commerce/types.ts';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { someVariant, startShopApi, type ShopApi } from './helpers/shop-api.ts';

let api: ShopApi;
let line: { productId: number; variantId: number };
let other: { productId: number; variantId: number };

beforeAll(async () => {
  api = await startShopApi();
  line = await someVariant(api, 0);
  other = await someVariant(api, 1);
});

afterAll(async () => {
  await api.close();
});

const items = (cart: Cart) => [...cart.lineItems.physicalItems, ...cart.lineItems.digitalItems];
const NOT_FOUND = { status: 404, json: { message: 'Cart not found', statusCode: 404 } };
const UNKNOWN_CART = '00000000-0000-4000-8000-000000000000';
const UNKNOWN_ITEM = '00000000-0000-4000-8000-000000000001';

describe('guest cart lifecycle (spec §4)', () => {
  test('createCart without lines: null (BigCommerce keeps no empty cart), no upstream call', async () => {
    const guest = api.shopper();
    api.clearUpstream();
    expect(await guest.call('createCart', [{}])).toMatchObject({
      status: 200,
      json: { data: null },
    });
    expect(await guest.call('createCart', [])).toMatchObject({ status: 200, json: { data: null } });
    expect(await guest.call('createCart', [{ lineItems: [] }])).toMatchObject({
      status: 200,
      json: { data: null },
    });
    expect(api.upstream).toEqual([]);
  });

  test('createCart with lines: amounts in cents, options included', async () => {
    const guest = api.shopper();

    const cart = await guest.data<Cart>('createCart', [{ lineItems: [{ ...line, quantity: 2 }] }]);
    const [item] = items(cart);
    expect(item).toMatchObject({ ...line, quantity: 2 });
    expect(Number.isInteger(item?.listPrice)).toBe(true);
    expect(item?.extendedListPrice).toBe((item?.listPrice ?? 0) * 2);
    expect(cart.baseAmount).toBe(item?.extendedListPrice);
    expect(Array.isArray(item?.options)).toBe(true);
  });

  test('getCart: the cart; an unknown cart is null; a malformed id is 400', async () => {
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [{ lineItems: [{ ...line, quantity: 1 }] }]);
    expect((await guest.data<Cart>('getCart', [{ id: cart.id }])).id).toBe(cart.id);
    const withUrls = await guest.data<Cart>('getCart', [{ id: cart.id, include: 'redirect_urls' }]);
    expect(withUrls.redirectUrls?.checkoutUrl).toMatch(/cart\.php\?action=load/);
    expect(await guest.data('getCart', [{ id: UNKNOWN_CART }])).toBeNull();
    const bad = await guest.call('getCart', [{ id: 'not-a-uuid' }]);
    expect(bad.status).toBe(400);
    const badInclude = await guest.call('getCart', [{ id: cart.id, include: 'customer' }]);
    expect(badInclude.status).toBe(400);
  });

  test('add (merging a repeated line), update, remove; the last removal answers null', async () => {
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [{ lineItems: [{ ...line, quantity: 1 }] }]);
    let next: Cart;
    next = await guest.data<Cart>('addCartItems', [
      {
        cartId: cart.id,
        lineItems: [
          { ...line, quantity: 2 },
          { ...other, quantity: 1 },
        ],
      },
    ]);
    expect(items(next).map((i) => [i.productId, i.quantity])).toEqual([
      [line.productId, 3],
      [other.productId, 1],
    ]);
    const first = items(next)[0];
    const second = items(next)[1];
    if (first === undefined || second === undefined) throw new Error('two lines expected');

    next = await guest.data<Cart>('updateCartItem', [
      { cartId: cart.id, itemId: first.id, lineItem: { ...line, quantity: 5 } },
    ]);
    expect(items(next).find((i) => i.id === first.id)?.quantity).toBe(5);

    next = await guest.data<Cart>('removeCartItem', [{ cartId: cart.id, itemId: second.id }]);
    expect(items(next).map((i) => i.id)).toEqual([first.id]);
    expect(
      await guest.call('removeCartItem', [{ cartId: cart.id, itemId: UNKNOWN_ITEM }]),
    ).toMatchObject({ status: 404, json: { message: 'Cart item not found', statusCode: 404 } });

    const gone = await guest.call('removeCartItem', [{ cartId: cart.id, itemId: first.id }]);
    expect(gone).toMatchObject({ status: 200, json: { data: null } });
    expect(await guest.data('getCart', [{ id: cart.id }])).toBeNull();
  });

  test('a refused add answers the spec §8 stock message, not the upstream title', async () => {
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [{ lineItems: [{ ...line, quantity: 1 }] }]);
    const products = (
      (await api.admin('GET', 'v3/catalog/products?is_visible=true&include=variants&limit=250'))
        .json as {
        data: {
          id: number;
          inventory_tracking: string;
          inventory_level: number;
          variants: { id: number }[];
        }[];
      }
    ).data;
    const tracked = products.find(
      (p) => p.inventory_tracking === 'product' && p.inventory_level > 0,
    );
    expect(tracked).toBeDefined();
    const tooMany = await guest.call('addCartItems', [
      {
        cartId: cart.id,
        lineItems: [
          {
            productId: tracked?.id,
            variantId: tracked?.variants[0]?.id,
            quantity: (tracked?.inventory_level ?? 0) + 1,
          },
        ],
      },
    ]);
    expect(tooMany).toMatchObject({
      status: 422,
      json: { message: 'The selected quantity exceeds available stock.', statusCode: 422 },
    });
    await api.admin('PUT', `v3/catalog/products/${String(tracked?.id)}`, { inventory_level: 0 });
    const none = await guest.call('createCart', [
      { lineItems: [{ productId: tracked?.id, variantId: tracked?.variants[0]?.id, quantity: 1 }] },
    ]);
    expect(none).toMatchObject({ status: 422, json: { message: 'Out of stock' } });
  });

  test('updateItemOption changes the variant of a line', async () => {
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [{ lineItems: [{ ...line, quantity: 1 }] }]);
    const [item] = items(cart);
    const product = (await api.admin(
      'GET',
      `v3/catalog/products/${line.productId}?include=variants,options`,
    )) as {
      json: {
        data: {
          variants: { id: number; option_values: { id: number; option_id: number }[] }[];
        };
      };
    };
    const variant = product.json.data.variants.find((v) => v.id !== line.variantId);
    const value = variant?.option_values[0];
    if (item === undefined || variant === undefined || value === undefined) return;
    const next = await guest.data<Cart>('updateItemOption', [
      {
        cartId: cart.id,
        itemId: item.id,
        productId: line.productId,
        quantity: 2,
        variantId: variant.id,
        optionId: value.option_id,
        optionValue: value.id,
      },
    ]);
    expect(items(next).map((i) => [i.variantId, i.quantity])).toEqual([[variant.id, 2]]);
  });

  test('deleteCart → null, then the cart is gone; unassignCart of a guest cart keeps it', async () => {
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [{ lineItems: [{ ...line, quantity: 1 }] }]);
    expect((await guest.data<Cart>('unassignCart', [{ cartId: cart.id }])).customerId).toBe(0);
    expect(await guest.data('deleteCart', [{ id: cart.id }])).toBeNull();
    expect(await guest.data('getCart', [{ id: cart.id }])).toBeNull();
  });

  test.each([
    ['addCartItems', { cartId: UNKNOWN_CART, lineItems: [{ productId: 101, quantity: 1 }] }],
    ['removeCartItem', { cartId: UNKNOWN_CART, itemId: UNKNOWN_ITEM }],
    [
      'updateCartItem',
      { cartId: UNKNOWN_CART, itemId: UNKNOWN_ITEM, lineItem: { productId: 101, quantity: 1 } },
    ],
    ['deleteCart', { id: UNKNOWN_CART }],
    ['unassignCart', { cartId: UNKNOWN_CART }],
    ['getCheckoutUrl', { cartId: UNKNOWN_CART }],
    ['getCheckoutByIdAndProductsByIds', { cartId: UNKNOWN_CART, productIds: [] }],
    ['getCartMetafields', { cartId: UNKNOWN_CART }],
    ['createCartMetafields', { cartId: UNKNOWN_CART, namespace: 'n', key: 'k', value: 'v' }],
  ])('%s without a cart → 404 Cart not found (spec §8)', async (method, args) => {
    expect(await api.shopper().call(method, [args])).toMatchObject(NOT_FOUND);
  });

  test('updateCart needs a login', async () => {
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [{ lineItems: [{ ...other, quantity: 1 }] }]);
    expect(await guest.call('updateCart', [{ id: cart.id }])).toMatchObject({
      status: 401,
      json: { message: 'Login required', statusCode: 401 },
    });
  });
});

describe('writes to one cart are serialised', () => {
  test('20 concurrent adds through the API give quantity 20 (the sandbox loses racing writes)', async () => {
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [{ lineItems: [{ ...other, quantity: 1 }] }]);
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        guest.call('addCartItems', [{ cartId: cart.id, lineItems: [{ ...line, quantity: 1 }] }]),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 200));
    const final = await guest.data<Cart>('getCart', [{ id: cart.id }]);
    expect(items(final).map((i) => [i.productId, i.quantity])).toEqual([
      [other.productId, 1],
      [line.productId, 20],
    ]);
    expect(api.account.cartQueue.size).toBe(0);
  });
});

describe('customer carts (spec §4 login merge, §6 rights)', () => {
  test('createCart when logged in: assigned and saved as the Cart ID', async () => {
    const marie = api.shopper();
    await marie.login(CUSTOMERS.marie.email, CUSTOMERS.marie.password);
    const cart = await marie.data<Cart>('createCart', [{ lineItems: [{ ...other, quantity: 1 }] }]);
    expect(cart.customerId).toBe(CUSTOMERS.marie.id);
    const me = await marie.data<{ savedCartId: string }>('getCustomers', []);
    expect(me.savedCartId).toBe(cart.id);
  });

  test('updateCart assigns a guest cart at login and saves it', async () => {
    const shopper = api.shopper();
    const cart = await shopper.data<Cart>('createCart', [
      { lineItems: [{ ...line, quantity: 1 }] },
    ]);
    await shopper.login(CUSTOMERS.marie.email, CUSTOMERS.marie.password);
    const assigned = await shopper.data<Cart>('updateCart', [{ id: cart.id }]);
    expect(assigned.customerId).toBe(CUSTOMERS.marie.id);
    expect(items(assigned)).toHaveLength(1);
    const me = await shopper.data<{ savedCartId: string }>('getCustomers', []);
    expect(me.savedCartId).toBe(cart.id);
  });

  test('another customer, and a visitor, cannot read or change the cart: 404 for every method', async () => {
    const marie = api.shopper();
    await marie.login(CUSTOMERS.marie.email, CUSTOMERS.marie.password);
    const cart = await marie.data<Cart>('createCart', [{ lineItems: [{ ...line, quantity: 1 }] }]);
    const itemId = items(cart)[0]?.id ?? UNKNOWN_ITEM;
    await marie.data('createCartMetafields', [
      { cartId: cart.id, namespace: 'notes', key: 'gift', value: 'secret' },
    ]);

    const paul = api.shopper();
    await paul.login(CUSTOMERS.reseller.email, CUSTOMERS.reseller.password);
    const visitor = api.shopper();
    for (const intruder of [paul, visitor]) {
      const calls: [string, unknown][] = [
        ['getCart', { id: cart.id }],
        ['addCartItems', { cartId: cart.id, lineItems: [{ ...line, quantity: 1 }] }],
        ['removeCartItem', { cartId: cart.id, itemId }],
        ['updateCartItem', { cartId: cart.id, itemId, lineItem: { ...line, quantity: 9 } }],
        ['deleteCart', { id: cart.id }],
        ['unassignCart', { cartId: cart.id }],
        ['getCheckoutUrl', { cartId: cart.id }],
        ['getCheckoutByIdAndProductsByIds', { cartId: cart.id, productIds: [line.productId] }],
        ['getCartMetafields', { cartId: cart.id }],
        ['createCartMetafields', { cartId: cart.id, namespace: 'n', key: 'k', value: 'v' }],
      ];
      if (intruder === paul) calls.push(['updateCart', { id: cart.id }]);
      for (const [method, args] of calls) {
        expect({ method, reply: await intruder.call(method, [args]) }).toMatchObject({
          method,
          reply: NOT_FOUND,
        });
      }
    }
    // Untouched: still Marie's, one line of quantity 1.
    const after = await marie.data<Cart>('getCart', [{ id: cart.id }]);
    expect(after.customerId).toBe(CUSTOMERS.marie.id);
    expect(items(after).map((i) => i.quantity)).toEqual([1]);
  });

  test('unassignCart makes the owner’s cart a guest cart again', async () => {
    const marie = api.shopper();
    await marie.login(CUSTOMERS.marie.email, CUSTOMERS.marie.password);
    const cart = await marie.data<Cart>('createCart', [{ lineItems: [{ ...other, quantity: 1 }] }]);
    expect((await marie.data<Cart>('unassignCart', [{ cartId: cart.id }])).customerId).toBe(0);
  });
});

describe('checkout', () => {
  test('visitor: the hosted checkout URL of the cart', async () => {
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [{ lineItems: [{ ...line, quantity: 1 }] }]);
    const { url } = await guest.data<{ url: string }>('getCheckoutUrl', [{ cartId: cart.id }]);
    expect(url).toMatch(
      new RegExp(`^${api.sandbox.url}/cart\\.php\\?action=load&id=${cart.id}&token=`),
    );
    const page = await fetch(url);
    expect(page.status).toBe(200);
  });

  test('customer: the URL logs them in on the way (JWT accepted by the sandbox storefront)', async () => {
    const shopper = api.shopper();
    const cart = await shopper.data<Cart>('createCart', [
      { lineItems: [{ ...line, quantity: 1 }] },
    ]);
    await shopper.login(CUSTOMERS.marie.email, CUSTOMERS.marie.password);
    const { url } = await shopper.data<{ url: string }>('getCheckoutUrl', [{ cartId: cart.id }]);
    expect(url).toMatch(new RegExp(`^${api.sandbox.url}/login/token/[\\w-]+\\.[\\w-]+\\.[\\w-]+$`));
    const claims = JSON.parse(
      Buffer.from(url.split('/').pop()?.split('.')[1] ?? '', 'base64url').toString(),
    ) as Record<string, unknown>;
    expect(claims).toMatchObject({
      iss: 'sandbox-client',
      operation: 'customer_login',
      store_hash: api.sandbox.storeHash,
      customer_id: CUSTOMERS.marie.id,
      redirect_to: expect.stringMatching(/^\/cart\.php\?action=load&id=/) as unknown,
    });
    // The guest cart became hers on the way to the checkout.
    expect((await shopper.data<Cart>('getCart', [{ id: cart.id }])).customerId).toBe(
      CUSTOMERS.marie.id,
    );
    const login = await fetch(url, { redirect: 'manual' });
    expect(login.status).toBeGreaterThanOrEqual(300);
    expect(login.status).toBeLessThan(400);
    expect(login.headers.get('location')).toContain(`id=${cart.id}`);
    // A token works once.
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(401);
  });

  test('getCheckoutByIdAndProductsByIds: the checkout and the visible products asked', async () => {
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [{ lineItems: [{ ...line, quantity: 2 }] }]);
    const reply = await guest.data<{
      checkout: { id: string; cart: Cart; grandTotal: number };
      products: { id: number }[];
    }>('getCheckoutByIdAndProductsByIds', [{ cartId: cart.id, productIds: [line.productId] }]);
    expect(reply.checkout.id).toBe(cart.id);
    expect(items(reply.checkout.cart)[0]?.quantity).toBe(2);
    expect(Number.isInteger(reply.checkout.grandTotal)).toBe(true);
    expect(reply.products.map((p) => p.id)).toEqual([line.productId]);
  });
});

describe('cart metafields (spec §7 createCartMetafields, getCartMetafield(s))', () => {
  test('create and list, by namespace', async () => {
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [{ lineItems: [{ ...other, quantity: 1 }] }]);
    const created = await guest.data<CartMetafield>('createCartMetafields', [
      {
        cartId: cart.id,
        namespace: 'gift',
        key: 'message',
        value: 'abc123',
        permissionSet: 'app_only',
      },
    ]);
    expect(created).toMatchObject({
      key: 'message',
      value: 'abc123',
      namespace: 'gift',
      resourceId: cart.id,
    });
    await guest.data('createCartMetafields', [
      { cartId: cart.id, namespace: 'other', key: 'k', value: 'v' },
    ]);
    const all = await guest.data<CartMetafield[]>('getCartMetafields', [{ cartId: cart.id }]);
    expect(all).toHaveLength(2);
    const some = await guest.data<CartMetafield[]>('getCartMetafields', [
      { cartId: cart.id, namespace: 'gift' },
    ]);
    expect(some.map((m) => m.value)).toEqual(['abc123']);
    // spec §7 getCartMetafield(s): the singular name answers the same.
    expect(await guest.data('getCartMetafield', [{ cartId: cart.id, namespace: 'gift' }])).toEqual(
      some,
    );
  });

  test('the shop’s cart-redirection fields never show in a list', async () => {
    const guest = api.shopper();
    const cart = await guest.data<Cart>('createCart', [{ lineItems: [{ ...other, quantity: 1 }] }]);
    await api.admin('POST', `v3/carts/${cart.id}/metafields`, {
      namespace: 'cart-redirection',
      key: 'token',
      value: 'the-shop-token',
      permission_set: 'app_only',
    });
    await guest.data('createCartMetafields', [
      { cartId: cart.id, namespace: 'gift', key: 'k', value: 'v' },
    ]);
    const all = await guest.data<CartMetafield[]>('getCartMetafields', [{ cartId: cart.id }]);
    expect(all.map((m) => m.namespace)).toEqual(['gift']);
  });
});
