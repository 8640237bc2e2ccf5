import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { CartState } from '../../src/lib/commerce/cart.ts';
import type { Cart } from '../../src/lib/commerce/types.ts';
import {
  ApiReplyError,
  CART_A,
  CART_B,
  CART_C,
  cart,
  line,
  memoryCookieJar,
  methods,
  CutReply,
  NetworkFailure,
  record,
  stubShopApi,
} from './helpers/shop-api.ts';

// Fresh store modules for each test: the queue and the once-per-page start are module state.
type CartStore = typeof import('../../src/lib/stores/cart.ts');
let store: CartStore;
let jar: ReturnType<typeof memoryCookieJar>;

async function setup(cookies: Record<string, string> = {}): Promise<CartStore> {
  vi.resetModules();
  const jarModule = await import('../../src/lib/stores/cookie-jar.ts');
  jar = memoryCookieJar(cookies);
  jarModule.setCookieJar(jar);
  store = await import('../../src/lib/stores/cart.ts');
  return store;
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ids = (values: readonly CartState[]) => values.map((value) => value.id);
const setCookie = (id: string) => `cart-id=${id}; Max-Age=2592000; Path=/; SameSite=Lax`;
const deleteCookie = 'cart-id=; Max-Age=0; Path=/; SameSite=Lax';

const mattress = line({
  id: 'line-1',
  productId: 1,
  variantId: 100,
  quantity: 1,
  listPrice: 50_000,
  salePrice: 40_000,
});
const pillow = line({ id: 'line-2', productId: 2, variantId: 200, quantity: 2, listPrice: 5_000 });

describe('initial values (right on the server too)', () => {
  test('empty cart, not loading, no errors, zero totals', async () => {
    const { $cart, $cartLoading, $cartErrors, $cartTotals, $cartItemCount, $cartItems } =
      await setup();
    expect($cart.get()).toMatchObject({ id: null });
    expect($cartLoading.get()).toBe(false);
    expect($cartErrors.get()).toEqual({
      load: null,
      add: null,
      remove: null,
      update: null,
      clear: null,
      send: null,
    });
    expect($cartTotals.get()).toEqual({ total: 0, subtotal: 0, special: 0 });
    expect($cartItemCount.get()).toBe(0);
    expect($cartItems.get()).toEqual([]);
  });
});

describe('loadCart (spec §4 cart lifecycle)', () => {
  // BigCommerce creates no cart without a line item: the empty cart lives in the browser and
  // the upstream cart is created by the first add.
  test('no cookie: the empty cart, no call, no cookie', async () => {
    await setup();
    const calls = stubShopApi({});
    const carts = record(store.$cart);
    const loading = record(store.$cartLoading);
    await expect(store.loadCart()).resolves.toBe(true);
    expect(calls).toEqual([]);
    expect(carts).toEqual([]);
    expect(store.$cart.get()).toMatchObject({ id: null });
    expect(loading).toEqual([true, false]);
    expect(jar.writes).toEqual([]);
  });

  test('cookie: the cart is fetched, the cookie left as it is', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({ getCart: () => cart(CART_A, [mattress]) });
    const carts = record(store.$cart);
    await store.loadCart();
    expect(calls).toEqual([{ method: 'getCart', args: [{ id: CART_A }] }]);
    expect(ids(carts)).toEqual([CART_A]);
    expect(store.$cartItemCount.get()).toBe(1);
    expect(jar.writes).toEqual([]);
  });

  test.each([
    ['the cart is unknown or expired (null)', () => null],
    [
      "the cart is another customer's (404)",
      () => {
        throw new ApiReplyError('Cart not found', 404);
      },
    ],
  ])('the cart is gone when %s: a new (empty) cart, the cookie cleared', async (_case, getCart) => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({ getCart });
    const carts = record(store.$cart);
    await expect(store.loadCart()).resolves.toBe(true);
    expect(methods(calls)).toEqual(['getCart']);
    // The store already held the empty cart: it does not change.
    expect(carts).toEqual([]);
    expect(store.$cart.get()).toMatchObject({ id: null });
    expect(jar.writes).toEqual([deleteCookie]);
    expect(store.$cartErrors.get().load).toBeNull();
  });

  test.each([
    ['the API is down (500)', 500, 'An error occured'],
    ['the platform answers 503', 503, 'error.upstreamUnavailable'],
    ['the platform times out', 504, 'error.upstreamTimeout'],
    ['too many requests', 429, 'Too many requests'],
    ['a 404 that is not about the cart', 404, 'Not found'],
  ])(
    'when %s the cart is unknown, not gone: the cookie kept, the load slot filled',
    async (_case, status, message) => {
      await setup({ 'cart-id': CART_A });
      const calls = stubShopApi({
        getCart: () => {
          throw new ApiReplyError(message, status);
        },
      });
      await expect(store.loadCart()).resolves.toBe(false);
      expect(methods(calls)).toEqual(['getCart']);
      expect(jar.writes).toEqual([]);
      expect(jar.values.get('cart-id')).toBe(CART_A);
      expect(store.$cartErrors.get().load).toMatchObject({ statusCode: status, message });
    },
  );

  test('a failed reload keeps the last known cart; the retry brings it back', async () => {
    await setup({ 'cart-id': CART_A });
    let down = false;
    const calls = stubShopApi({
      getCart: () => {
        if (down) throw new ApiReplyError('error.upstreamUnavailable', 503);
        return cart(CART_A, [mattress, pillow]);
      },
    });
    await store.loadCart();
    down = true;
    await expect(store.loadCart()).resolves.toBe(false);
    expect(store.$cart.get().id).toBe(CART_A);
    expect(store.$cartItemCount.get()).toBe(3);
    down = false;
    await expect(store.retryCart()).resolves.toBe(true);
    expect(methods(calls)).toEqual(['getCart', 'getCart', 'getCart']);
    expect(store.$cartErrors.get().load).toBeNull();
    expect(store.$cartItemCount.get()).toBe(3);
    expect(jar.writes).toEqual([]);
  });

  test('a reply cut while its body streams in (the page being left): the cookie kept', async () => {
    await setup({ 'cart-id': CART_A });
    stubShopApi({
      getCart: () => {
        throw new CutReply();
      },
    });
    await expect(store.loadCart()).resolves.toBe(false);
    expect(store.$cart.get()).toMatchObject({ id: null });
    // The next page reads the same cart: a cut reply is not a missing cart.
    expect(jar.writes).toEqual([]);
    expect(jar.values.get('cart-id')).toBe(CART_A);
    expect(store.$cartErrors.get().load).toMatchObject({ code: 'network' });
  });

  test('no reply at all (offline, or the page being left): the empty cart, the cookie kept', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => {
        throw new NetworkFailure();
      },
    });
    const carts = record(store.$cart);
    await expect(store.loadCart()).resolves.toBe(false);
    expect(methods(calls)).toEqual(['getCart']);
    // The store already held the empty cart: it does not change.
    expect(carts).toEqual([]);
    expect(store.$cart.get()).toMatchObject({ id: null });
    expect(jar.writes).toEqual([]);
    expect(store.$cartErrors.get().load).toMatchObject({ code: 'network' });
  });

  test('a cookie that is not a cart id is ignored: no call', async () => {
    await setup({ 'cart-id': 'not-a-uuid' });
    const calls = stubShopApi({});
    await store.loadCart();
    expect(calls).toEqual([]);
    expect(store.$cart.get()).toMatchObject({ id: null });
  });

  test('forced: a new (empty) cart even with a cookie', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({ getCart: () => cart(CART_A, [mattress]) });
    await store.loadCart();
    const carts = record(store.$cart);
    await store.loadCart({ force: true });
    expect(methods(calls)).toEqual(['getCart']);
    expect(ids(carts)).toEqual([null]);
    expect(jar.writes).toEqual([deleteCookie]);
  });

  test('configureCartCookie sets the cookie lifetime (public config)', async () => {
    await setup();
    stubShopApi({ createCart: () => cart(CART_A, [mattress]) });
    store.configureCartCookie(3600);
    await store.loadCart();
    await store.addCartItem({ productId: 1, variantId: 100, quantity: 1 });
    expect(jar.writes).toEqual([`cart-id=${CART_A}; Max-Age=3600; Path=/; SameSite=Lax`]);
  });

  test('initCart loads once per page', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({ getCart: () => cart(CART_A) });
    const first = store.initCart();
    const second = store.initCart();
    expect(second).toBe(first);
    await first;
    await store.initCart();
    expect(methods(calls)).toEqual(['getCart']);
  });
});

describe('derived stores (spec §3)', () => {
  test('totals, item count and items follow the cart', async () => {
    await setup({ 'cart-id': CART_A });
    stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      addCartItems: () => cart(CART_A, [mattress, pillow]),
    });
    const totals = record(store.$cartTotals);
    const counts = record(store.$cartItemCount);
    const items = record(store.$cartItems);
    await store.loadCart();
    await store.addCartItem({ productId: 2, variantId: 200, quantity: 2 });
    expect(totals).toEqual([
      { total: 50_000, subtotal: 50_000, special: 40_000 },
      { total: 60_000, subtotal: 60_000, special: 50_000 },
    ]);
    expect(counts).toEqual([1, 3]);
    expect(items.map((list) => list.map((item) => item.id))).toEqual([
      ['line-1'],
      ['line-1', 'line-2'],
    ]);
  });
});

describe('addCartItem', () => {
  test('adds to the loaded cart', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A),
      addCartItems: () => cart(CART_A, [mattress]),
    });
    await store.loadCart();
    const carts = record(store.$cart);
    await expect(store.addCartItem({ productId: 1, variantId: 100, quantity: 1 })).resolves.toBe(
      true,
    );
    expect(calls[1]).toEqual({
      method: 'addCartItems',
      args: [{ cartId: CART_A, lineItems: [{ productId: 1, variantId: 100, quantity: 1 }] }],
    });
    expect(ids(carts)).toEqual([CART_A]);
    expect(store.$cartItemCount.get()).toBe(1);
  });

  test('quantities are clamped to 1..99', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({ getCart: () => cart(CART_A), addCartItems: () => cart(CART_A) });
    await store.loadCart();
    await store.addCartItem([
      { productId: 1, quantity: 0 },
      { productId: 2, quantity: 500 },
    ]);
    expect(calls[1]?.args).toEqual([
      {
        cartId: CART_A,
        lineItems: [
          { productId: 1, quantity: 1 },
          { productId: 2, quantity: 99 },
        ],
      },
    ]);
  });

  test('the first add creates the upstream cart with the line, and stores its id', async () => {
    await setup();
    const calls = stubShopApi({ createCart: () => cart(CART_A, [mattress]) });
    const carts = record(store.$cart);
    await expect(store.addCartItem({ productId: 1, variantId: 100, quantity: 1 })).resolves.toBe(
      true,
    );
    expect(calls).toEqual([
      {
        method: 'createCart',
        args: [{ lineItems: [{ productId: 1, variantId: 100, quantity: 1 }] }],
      },
    ]);
    expect(ids(carts)).toEqual([CART_A]);
    expect(jar.writes).toEqual([setCookie(CART_A)]);
  });

  test('a failed first add keeps the empty cart and fills the add slot', async () => {
    await setup();
    stubShopApi({
      createCart: () => {
        throw new ApiReplyError('An error occured', 502);
      },
    });
    const carts = record(store.$cart);
    await expect(store.addCartItem({ productId: 1, quantity: 1 })).resolves.toBe(false);
    expect(carts).toEqual([]);
    expect(store.$cartErrors.get().add).toEqual({
      message: 'An error occured',
      statusCode: 502,
      code: 'api',
    });
    expect(jar.writes).toEqual([]);
  });

  test('an add queued while the cart loads waits for it, then adds to the loaded cart', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [pillow]),
      addCartItems: () => cart(CART_A, [pillow, mattress]),
    });
    const load = store.loadCart();
    const add = store.addCartItem({ productId: 1, variantId: 100, quantity: 1 });
    await expect(Promise.all([load, add])).resolves.toEqual([true, true]);
    expect(methods(calls)).toEqual(['getCart', 'addCartItems']);
    expect(store.$cartItemCount.get()).toBe(3);
  });

  test('an add after a failed load reads the cart of the cookie first, never a second cart', async () => {
    await setup({ 'cart-id': CART_A });
    let down = true;
    const calls = stubShopApi({
      getCart: () => {
        if (down) throw new ApiReplyError('error.upstreamUnavailable', 503);
        return cart(CART_A, [mattress]);
      },
      addCartItems: () => cart(CART_A, [mattress, pillow]),
      createCart: () => cart(CART_B, [pillow]),
    });
    await expect(store.loadCart()).resolves.toBe(false);
    // Still down: the add fails, and makes no cart.
    await expect(store.addCartItem({ productId: 2, variantId: 200, quantity: 2 })).resolves.toBe(
      false,
    );
    expect(methods(calls)).toEqual(['getCart', 'getCart']);
    expect(jar.values.get('cart-id')).toBe(CART_A);
    // Back: the add reads the cart, then adds to it.
    down = false;
    await expect(store.addCartItem({ productId: 2, variantId: 200, quantity: 2 })).resolves.toBe(
      true,
    );
    expect(methods(calls)).toEqual(['getCart', 'getCart', 'getCart', 'addCartItems']);
    expect(store.$cart.get().id).toBe(CART_A);
    expect(store.$cartErrors.get().load).toBeNull();
    expect(jar.values.get('cart-id')).toBe(CART_A);
  });

  test('the cart of the cookie is gone (404): the add starts a new cart with the line', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => {
        throw new ApiReplyError('Cart not found', 404);
      },
      addCartItems: () => {
        throw new ApiReplyError('Cart not found', 404);
      },
      createCart: () => cart(CART_B, [pillow]),
    });
    await expect(store.addCartItem({ productId: 2, variantId: 200, quantity: 2 })).resolves.toBe(
      true,
    );
    expect(methods(calls)).toEqual(['getCart', 'createCart']);
    expect(jar.values.get('cart-id')).toBe(CART_B);
  });

  test('a failed add keeps the cart (nothing is lost) and fills the add slot', async () => {
    await setup({ 'cart-id': CART_A });
    stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      addCartItems: () => {
        throw new ApiReplyError('The selected quantity exceeds available stock.', 422);
      },
    });
    await store.loadCart();
    const before = store.$cart.get();
    const carts = record(store.$cart);
    await expect(store.addCartItem({ productId: 2, quantity: 1 })).resolves.toBe(false);
    expect(carts).toEqual([]);
    expect(store.$cart.get()).toBe(before);
    expect(store.$cartErrors.get().add).toEqual({
      message: 'The selected quantity exceeds available stock.',
      statusCode: 422,
      code: 'api',
    });
  });

  test('writes are serialised: the second add starts after the first one answered', async () => {
    await setup({ 'cart-id': CART_A });
    const releases: (() => void)[] = [];
    let quantity = 0;
    const calls = stubShopApi({
      getCart: () => cart(CART_A),
      addCartItems: (input: { lineItems: { quantity: number }[] }) =>
        new Promise<Cart>((resolve) => {
          releases.push(() => {
            quantity += input.lineItems[0]?.quantity ?? 0;
            resolve(cart(CART_A, [line({ id: 'line-1', quantity })]));
          });
        }),
    });
    await store.loadCart();
    const loading = record(store.$cartLoading);
    const counts = record(store.$cartItemCount);
    const first = store.addCartItem({ productId: 1, quantity: 1 });
    const second = store.addCartItem({ productId: 1, quantity: 2 });
    await vi.waitFor(() => {
      expect(releases).toHaveLength(1);
    });
    // The first add has not answered: the second is not sent.
    expect(methods(calls)).toEqual(['getCart', 'addCartItems']);
    releases[0]?.();
    await vi.waitFor(() => {
      expect(releases).toHaveLength(2);
    });
    expect(methods(calls)).toEqual(['getCart', 'addCartItems', 'addCartItems']);
    releases[1]?.();
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
    expect(counts).toEqual([1, 3]);
    expect(loading).toEqual([true, false]);
  });
});

describe('removeCartItem', () => {
  test('the reply is the cart', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [mattress, pillow]),
      removeCartItem: () => cart(CART_A, [pillow]),
    });
    await store.loadCart();
    await expect(store.removeCartItem('line-1')).resolves.toBe(true);
    expect(calls[1]).toEqual({
      method: 'removeCartItem',
      args: [{ cartId: CART_A, itemId: 'line-1' }],
    });
    expect(store.$cartItemCount.get()).toBe(2);
  });

  test('spec §4: a reply with no data clears the cookie and starts a new (empty) cart', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      removeCartItem: () => null,
    });
    await store.loadCart();
    const carts = record(store.$cart);
    await expect(store.removeCartItem('line-1')).resolves.toBe(true);
    expect(methods(calls)).toEqual(['getCart', 'removeCartItem']);
    expect(ids(carts)).toEqual([null]);
    expect(jar.writes).toEqual([deleteCookie]);
  });

  test('a failed remove keeps the cart', async () => {
    await setup({ 'cart-id': CART_A });
    stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      removeCartItem: () => {
        throw new ApiReplyError('Cart item not found', 404);
      },
    });
    await store.loadCart();
    const carts = record(store.$cart);
    await expect(store.removeCartItem('line-9')).resolves.toBe(false);
    expect(carts).toEqual([]);
    expect(store.$cartErrors.get().remove).toMatchObject({
      message: 'Cart item not found',
      statusCode: 404,
    });
  });

  test('without a cart: the remove slot says so', async () => {
    await setup();
    stubShopApi({});
    await store.removeCartItem('line-1');
    expect(store.$cartErrors.get().remove).toMatchObject({
      code: 'cart-missing',
      message: 'cart.error.missing',
    });
  });
});

describe('updateCartItemQuantity', () => {
  test.each([
    ['a quantity', 3, 3],
    ['above 99', 150, 99],
    ['below 1', 0, 1],
  ])('%s', async (_case, asked, sent) => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      updateCartItem: () => cart(CART_A, [{ ...mattress, quantity: sent }]),
    });
    await store.loadCart();
    await expect(store.updateCartItemQuantity('line-1', asked)).resolves.toBe(true);
    expect(calls[1]).toEqual({
      method: 'updateCartItem',
      args: [
        {
          cartId: CART_A,
          itemId: 'line-1',
          lineItem: { quantity: sent, productId: 1, variantId: 100 },
        },
      ],
    });
    expect(store.$cartItemCount.get()).toBe(sent);
  });

  test('a line that is not in the cart: update slot, no call', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({ getCart: () => cart(CART_A, [mattress]) });
    await store.loadCart();
    await expect(store.updateCartItemQuantity('line-9', 2)).resolves.toBe(false);
    expect(methods(calls)).toEqual(['getCart']);
    expect(store.$cartErrors.get().update).toEqual({
      message: 'cart.error.update',
      statusCode: 409,
      code: 'line-missing',
    });
  });

  test('a failed update keeps the quantity', async () => {
    await setup({ 'cart-id': CART_A });
    stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      updateCartItem: () => {
        throw new ApiReplyError('The selected quantity exceeds available stock.', 422);
      },
    });
    await store.loadCart();
    await store.updateCartItemQuantity('line-1', 5);
    expect(store.$cartItemCount.get()).toBe(1);
    expect(store.$cartErrors.get().update).toMatchObject({ statusCode: 422 });
  });

  test('a quantity refused for stock reads the cart again: the line carries its stock now', async () => {
    await setup({ 'cart-id': CART_A });
    let level = 20;
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [{ ...mattress, stock: { level, purchasable: true } }]),
      updateCartItem: () => {
        throw new ApiReplyError('The selected quantity exceeds available stock.', 422);
      },
    });
    await store.loadCart();
    level = 1;
    await expect(store.updateCartItemQuantity('line-1', 2)).resolves.toBe(false);
    expect(methods(calls)).toEqual(['getCart', 'updateCartItem', 'getCart']);
    // The cart's own quantity, and the stock as it is now (the line is flagged from it).
    expect(store.$cartItems.get().map((item) => [item.quantity, item.stock])).toEqual([
      [1, { level: 1, purchasable: true }],
    ]);
    expect(store.$cartErrors.get().update).toMatchObject({ statusCode: 422, itemId: 'line-1' });
    // Shown on that line (with its name), not as a message of the whole cart.
    const message = 'The selected quantity exceeds available stock.';
    expect(store.lineErrorText(store.$cartErrors.get(), 'line-1')).toBe(message);
    expect(store.lineErrorText(store.$cartErrors.get(), 'line-2')).toBeNull();
    expect(store.cartErrorText(store.$cartErrors.get())).toBeNull();
  });

  test('another failed update does not read the cart again; a failed read keeps the cart', async () => {
    await setup({ 'cart-id': CART_A });
    let reads = 0;
    const calls = stubShopApi({
      getCart: () => {
        reads += 1;
        if (reads > 1) throw new ApiReplyError('error.upstreamUnavailable', 503);
        return cart(CART_A, [mattress]);
      },
      updateCartItem: () => {
        throw new ApiReplyError(
          reads > 1 ? 'x' : 'The selected quantity exceeds available stock.',
          reads > 1 ? 500 : 422,
        );
      },
    });
    await store.loadCart();
    await store.updateCartItemQuantity('line-1', 2);
    expect(store.$cart.get().id).toBe(CART_A);
    expect(store.$cartItemCount.get()).toBe(1);
    await store.updateCartItemQuantity('line-1', 2);
    expect(methods(calls)).toEqual(['getCart', 'updateCartItem', 'getCart', 'updateCartItem']);
    expect(store.$cart.get().id).toBe(CART_A);
  });
});

describe('clearCart (spec §4: deletes the cart and creates a new one)', () => {
  test('delete, then the empty cart in the store and no cookie', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [mattress, pillow]),
      deleteCart: () => null,
    });
    await store.loadCart();
    const carts = record(store.$cart);
    const counts = record(store.$cartItemCount);
    await expect(store.clearCart()).resolves.toBe(true);
    expect(calls.slice(1)).toEqual([{ method: 'deleteCart', args: [{ id: CART_A }] }]);
    expect(ids(carts)).toEqual([null]);
    expect(counts).toEqual([0]);
    expect(jar.writes).toEqual([deleteCookie]);
  });

  test('a failed delete keeps the cart', async () => {
    await setup({ 'cart-id': CART_A });
    stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      deleteCart: () => {
        throw new NetworkFailure();
      },
    });
    await store.loadCart();
    await expect(store.clearCart()).resolves.toBe(false);
    expect(store.$cart.get().id).toBe(CART_A);
    expect(store.$cartItemCount.get()).toBe(1);
    expect(store.$cartErrors.get().clear).toMatchObject({ code: 'network' });
  });

  test('without a cart: the clear slot says so', async () => {
    await setup();
    stubShopApi({});
    await store.clearCart();
    expect(store.$cartErrors.get().clear).toMatchObject({ code: 'cart-missing' });
  });
});

describe('mergeCartOnLogin (spec §4 login merge)', () => {
  test('no saved cart: the current cart is assigned to the customer', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      updateCart: () => cart(CART_A, [mattress], { customerId: 1 }),
    });
    await store.loadCart();
    await expect(store.mergeCartOnLogin({ savedCartId: null })).resolves.toBe(true);
    expect(calls.slice(1)).toEqual([{ method: 'updateCart', args: [{ id: CART_A }] }]);
    expect(store.$cart.get()).toMatchObject({ id: CART_A, customerId: 1 });
    expect(jar.values.get('cart-id')).toBe(CART_A);
  });

  test('saved cart and a non-empty guest cart: guest items added to the saved cart, then assigned', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [mattress, pillow]),
      addCartItems: () => cart(CART_B, [mattress, pillow], { customerId: 1 }),
      updateCart: () => cart(CART_B, [mattress, pillow], { customerId: 1 }),
    });
    await store.loadCart();
    const carts = record(store.$cart);
    await expect(store.mergeCartOnLogin({ savedCartId: CART_B })).resolves.toBe(true);
    expect(calls.slice(1)).toEqual([
      {
        method: 'addCartItems',
        args: [
          {
            cartId: CART_B,
            lineItems: [
              { productId: 1, variantId: 100, quantity: 1 },
              { productId: 2, variantId: 200, quantity: 2 },
            ],
          },
        ],
      },
      { method: 'updateCart', args: [{ id: CART_B }] },
    ]);
    // The saved cart with the guest items, then assigned: never another cart.
    expect(ids(carts)).toEqual([CART_B, CART_B]);
    expect(store.$cartItemCount.get()).toBe(3);
    expect(jar.values.get('cart-id')).toBe(CART_B);
  });

  test('saved cart and an empty guest cart: the saved cart is loaded', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: ({ id }: { id: string }) =>
        id === CART_A ? cart(CART_A) : cart(CART_B, [pillow], { customerId: 1 }),
    });
    await store.loadCart();
    await expect(store.mergeCartOnLogin({ savedCartId: CART_B })).resolves.toBe(true);
    expect(calls.slice(1)).toEqual([{ method: 'getCart', args: [{ id: CART_B }] }]);
    expect(store.$cart.get().id).toBe(CART_B);
    expect(jar.values.get('cart-id')).toBe(CART_B);
  });

  test("the saved cart is gone (404): the guest cart becomes the customer's, no new cart", async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      addCartItems: () => {
        throw new ApiReplyError('Cart not found', 404);
      },
      updateCart: () => cart(CART_A, [mattress], { customerId: 1 }),
    });
    await store.loadCart();
    await expect(store.mergeCartOnLogin({ savedCartId: CART_B })).resolves.toBe(true);
    expect(calls.slice(1)).toEqual([
      {
        method: 'addCartItems',
        args: [{ cartId: CART_B, lineItems: [{ productId: 1, variantId: 100, quantity: 1 }] }],
      },
      { method: 'updateCart', args: [{ id: CART_A }] },
    ]);
    expect(store.$cart.get()).toMatchObject({ id: CART_A, customerId: 1 });
    expect(jar.values.get('cart-id')).toBe(CART_A);
  });

  test('a definite refusal (another browser pays for the guest cart): a new cart with the guest items', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      createCart: () => cart(CART_C, [mattress], { customerId: 1 }),
      updateCart: () => {
        throw new ApiReplyError('This cart is being paid for in another browser', 409);
      },
    });
    await store.loadCart();
    await expect(store.mergeCartOnLogin({ savedCartId: null })).resolves.toBe(true);
    expect(methods(calls.slice(1))).toEqual(['updateCart', 'createCart']);
    expect(calls[2]?.args).toEqual([
      { lineItems: [{ productId: 1, variantId: 100, quantity: 1 }] },
    ]);
    expect(store.$cart.get().id).toBe(CART_C);
    expect(jar.values.get('cart-id')).toBe(CART_C);
  });

  test.each([
    ['assigning the guest cart', null, 'updateCart'],
    ['adding to the saved cart', CART_B, 'addCartItems'],
    ['loading the saved cart', CART_B, 'getCart'],
  ])(
    'a transient fault while %s: the login stands, no cart is created, the retry merges',
    async (_case, savedCartId, faulty) => {
      const guestLines = faulty === 'getCart' ? [] : [mattress];
      await setup({ 'cart-id': CART_A });
      let down = false;
      const calls = stubShopApi({
        getCart: ({ id }: { id: string }) => {
          if (down && faulty === 'getCart') throw new ApiReplyError('error.upstreamTimeout', 504);
          return id === CART_A
            ? cart(CART_A, guestLines)
            : cart(CART_B, [pillow], { customerId: 1 });
        },
        addCartItems: () => {
          if (down && faulty === 'addCartItems') throw new NetworkFailure();
          return cart(CART_B, [pillow, mattress], { customerId: 1 });
        },
        updateCart: ({ id }: { id: string }) => {
          if (down && faulty === 'updateCart') {
            throw new ApiReplyError('error.upstreamUnavailable', 503);
          }
          return id === CART_A
            ? cart(CART_A, guestLines, { customerId: 1 })
            : cart(CART_B, [pillow, mattress], { customerId: 1 });
        },
        createCart: () => cart(CART_C, [mattress], { customerId: 1 }),
      });
      await store.loadCart();
      down = true;
      await expect(store.mergeCartOnLogin({ savedCartId })).resolves.toBe(false);
      // Nothing created, nothing dropped: the guest cart and its cookie stay.
      expect(methods(calls)).not.toContain('createCart');
      expect(jar.writes).toEqual([]);
      expect(store.$cart.get().id).toBe(CART_A);
      expect(store.$cartItemCount.get()).toBe(guestLines.length);
      expect(store.$cartErrors.get().load).not.toBeNull();
      expect(store.$cartMergePending.get()).toBe(true);
      down = false;
      await expect(store.retryCart()).resolves.toBe(true);
      expect(methods(calls)).not.toContain('createCart');
      expect(store.$cartMergePending.get()).toBe(false);
      expect(store.$cartErrors.get().load).toBeNull();
      const expected = savedCartId === null ? CART_A : CART_B;
      expect(store.$cart.get()).toMatchObject({ id: expected, customerId: 1 });
      expect(jar.values.get('cart-id')).toBe(expected);
    },
  );

  test('a fault after the guest items reached the saved cart: the retry never adds them twice', async () => {
    await setup({ 'cart-id': CART_A });
    let down = true;
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      addCartItems: () => cart(CART_B, [pillow, mattress], { customerId: 1 }),
      updateCart: () => {
        if (down) throw new ApiReplyError('error.upstreamUnavailable', 503);
        return cart(CART_B, [pillow, mattress], { customerId: 1 });
      },
    });
    await store.loadCart();
    await expect(store.mergeCartOnLogin({ savedCartId: CART_B })).resolves.toBe(false);
    // The saved cart holds the guest items: it is the cart of the cookie now.
    expect(jar.values.get('cart-id')).toBe(CART_B);
    down = false;
    await expect(store.retryCart()).resolves.toBe(true);
    expect(methods(calls)).toEqual(['getCart', 'addCartItems', 'updateCart', 'updateCart']);
    expect(store.$cart.get().id).toBe(CART_B);
  });

  test('the saved cart is gone (null) and the guest cart is empty: the empty cart, no cookie', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: ({ id }: { id: string }) => (id === CART_A ? cart(CART_A) : null),
    });
    await store.loadCart();
    await expect(store.mergeCartOnLogin({ savedCartId: CART_B })).resolves.toBe(true);
    expect(calls.slice(1)).toEqual([{ method: 'getCart', args: [{ id: CART_B }] }]);
    expect(store.$cart.get().id).toBeNull();
    expect(jar.writes).toEqual([deleteCookie]);
  });

  test('no reply at all: the guest cart stays in the store, no cart is created, the load slot says why', async () => {
    await setup({ 'cart-id': CART_A });
    stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      updateCart: () => {
        throw new NetworkFailure();
      },
      createCart: () => {
        throw new NetworkFailure();
      },
    });
    await store.loadCart();
    await expect(store.mergeCartOnLogin({ savedCartId: null })).resolves.toBe(false);
    expect(store.$cart.get().id).toBe(CART_A);
    expect(store.$cartItemCount.get()).toBe(1);
    expect(store.$cartErrors.get().load).toMatchObject({ code: 'network' });
  });

  test('logged in before the page loaded the cookie cart: it is read, and its items merged', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [pillow]),
      addCartItems: () => cart(CART_B, [mattress, pillow], { customerId: 1 }),
      updateCart: () => cart(CART_B, [mattress, pillow], { customerId: 1 }),
    });
    // No loadCart: the shell's initCart had not run yet.
    await expect(store.mergeCartOnLogin({ savedCartId: CART_B })).resolves.toBe(true);
    expect(calls.map((call) => call.method)).toEqual(['getCart', 'addCartItems', 'updateCart']);
    expect(calls[1]?.args).toEqual([
      { cartId: CART_B, lineItems: [{ productId: 2, variantId: 200, quantity: 2 }] },
    ]);
    expect(store.$cart.get().id).toBe(CART_B);
    expect(jar.values.get('cart-id')).toBe(CART_B);
  });

  test('no cart loaded and no saved cart: nothing to do until the first add', async () => {
    await setup();
    const calls = stubShopApi({});
    await expect(store.mergeCartOnLogin({ savedCartId: null })).resolves.toBe(true);
    expect(calls).toEqual([]);
    expect(store.$cart.get().id).toBeNull();
  });
});

describe('resetCartOnLogout', () => {
  test('the cookie is cleared and the shopper starts a new (empty) guest cart', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [mattress], { customerId: 1 }),
    });
    await store.loadCart();
    const carts = record(store.$cart);
    await expect(store.resetCartOnLogout()).resolves.toBe(true);
    expect(methods(calls)).toEqual(['getCart']);
    expect(ids(carts)).toEqual([null]);
    expect(jar.writes).toEqual([deleteCookie]);
  });
});

describe('reseller cart (spec §2 Layouts, §4 reseller area)', () => {
  test('the cookie cart is reused, and a guest cart assigned to the reseller', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      updateCart: () => cart(CART_A, [mattress], { customerId: 3 }),
    });
    await expect(store.initCart({ reseller: true })).resolves.toBe(true);
    expect(methods(calls)).toEqual(['getCart', 'updateCart']);
    expect(store.$cart.get()).toMatchObject({ id: CART_A, customerId: 3 });
    // Once per page: a later normal init shares the first.
    await store.initCart();
    expect(methods(calls)).toEqual(['getCart', 'updateCart']);
  });

  test('an assigned cart is not assigned again; no cookie: the empty cart, no call', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({ getCart: () => cart(CART_A, [mattress], { customerId: 3 }) });
    await store.loadResellerCart();
    expect(methods(calls)).toEqual(['getCart']);
    await setup();
    const none = stubShopApi({});
    await store.loadResellerCart();
    expect(none).toEqual([]);
    expect(store.$cart.get().id).toBeNull();
  });

  test('with the area on, a reseller login keeps the cookie cart instead of the saved one', async () => {
    await setup({ 'cart-id': CART_A });
    store.configureResellerArea(true);
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      updateCart: () => cart(CART_A, [mattress], { customerId: 3 }),
    });
    await store.loadCart();
    await store.mergeCartOnLogin({ savedCartId: CART_B, isReseller: true });
    expect(calls.slice(1)).toEqual([{ method: 'updateCart', args: [{ id: CART_A }] }]);
    // Area off: a reseller is a customer like any other (the saved cart is merged).
    await setup({ 'cart-id': CART_A });
    const merged = stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      addCartItems: () => cart(CART_B, [mattress], { customerId: 3 }),
      updateCart: () => cart(CART_B, [mattress], { customerId: 3 }),
    });
    await store.loadCart();
    await store.mergeCartOnLogin({ savedCartId: CART_B, isReseller: true });
    expect(methods(merged.slice(1))).toEqual(['addCartItems', 'updateCart']);
  });

  test('sending the cart: the address back, then a new empty cart; a refusal fills the send slot', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [mattress], { customerId: 3 }),
      sendCartToClient: () => ({ email: 'client@example.fr' }),
    });
    await store.loadCart();
    const input = { seller: 'Julien Petit', email: 'client@example.fr' };
    await expect(store.sendCartToClient(input)).resolves.toBe('client@example.fr');
    expect(calls[1]).toEqual({ method: 'sendCartToClient', args: [{ cartId: CART_A }, input] });
    expect(store.$cart.get().id).toBeNull();
    expect(jar.values.has('cart-id')).toBe(false);

    await setup({ 'cart-id': CART_A });
    stubShopApi({
      getCart: () => cart(CART_A, [mattress], { customerId: 3 }),
      sendCartToClient: () => {
        throw new ApiReplyError('You need to select a seller too', 400);
      },
    });
    await store.loadCart();
    await expect(store.sendCartToClient({ ...input, seller: 'X' })).resolves.toBeNull();
    expect(store.$cartErrors.get().send?.message).toBe('You need to select a seller too');
    expect(store.$cart.get().id).toBe(CART_A);
  });
});
