import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  ApiReplyError,
  CART_A,
  CART_B,
  cart,
  customer,
  line,
  memoryCookieJar,
  methods,
  NetworkFailure,
  record,
  stubShopApi,
} from './helpers/shop-api.ts';

type CustomerStore = typeof import('../../src/lib/stores/customer.ts');
type CartStore = typeof import('../../src/lib/stores/cart.ts');
let store: CustomerStore;
let carts: CartStore;
let jar: ReturnType<typeof memoryCookieJar>;

async function setup(cookies: Record<string, string> = {}): Promise<void> {
  vi.resetModules();
  const jarModule = await import('../../src/lib/stores/cookie-jar.ts');
  jar = memoryCookieJar(cookies);
  jarModule.setCookieJar(jar);
  store = await import('../../src/lib/stores/customer.ts');
  carts = await import('../../src/lib/stores/cart.ts');
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const marie = customer();
const credentials = { email: 'marie.martin@example.fr', password: 'Sommeil2024' };
const registration = {
  email: 'paul@example.fr',
  firstName: 'Paul',
  lastName: 'Durand',
  password: 'Sommeil1',
  createAccount: true as const,
};

describe('initial values', () => {
  test('nobody logged in, no errors, not loading', async () => {
    await setup();
    expect(store.$customer.get()).toBeNull();
    expect(store.$isAuthenticated.get()).toBe(false);
    expect(store.$customerLoading.get()).toBe(false);
    expect(Object.values(store.$customerErrors.get())).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('initCustomer (spec §4: the authenticated marker is a UI hint)', () => {
  test.each([
    [
      'marker 1: hint true, then the customer is loaded',
      { authenticated: '1' },
      [true],
      ['getCustomers'],
    ],
    ['marker 0: no request', { authenticated: '0' }, [], []],
    ['no marker: no request', {}, [], []],
  ])('%s', async (_case, cookies, hints, calledMethods) => {
    await setup(cookies);
    const calls = stubShopApi({ getCustomers: () => marie });
    const authenticated = record(store.$isAuthenticated);
    await store.initCustomer();
    await store.initCustomer();
    expect(authenticated).toEqual(hints);
    expect(methods(calls)).toEqual(calledMethods);
  });

  test('marker 1 but the session is gone: logged out after the load', async () => {
    await setup({ authenticated: '1' });
    stubShopApi({ getCustomers: () => null });
    const authenticated = record(store.$isAuthenticated);
    await store.initCustomer();
    expect(authenticated).toEqual([true, false]);
    expect(store.$customer.get()).toBeNull();
  });
});

describe('loadCustomer', () => {
  test('a customer', async () => {
    await setup();
    stubShopApi({ getCustomers: () => marie });
    const customers = record(store.$customer);
    await expect(store.loadCustomer()).resolves.toBe(true);
    expect(customers).toEqual([marie]);
    expect(store.$isAuthenticated.get()).toBe(true);
  });

  test("'Get user data failed': logged out, load slot", async () => {
    await setup();
    stubShopApi({
      getCustomers: () => {
        throw new ApiReplyError('Get user data failed', 404);
      },
    });
    await expect(store.loadCustomer()).resolves.toBe(false);
    expect(store.$customer.get()).toBeNull();
    expect(store.$customerErrors.get().load).toEqual({
      message: 'Get user data failed',
      statusCode: 404,
      code: 'api',
    });
  });
});

describe('login (spec §5 login rules, §4 login merge)', () => {
  test('valid: customer set, then the cart merge (no saved cart: the current cart is assigned)', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [line()]),
      loginCustomer: () => ({ isValid: true, customer: marie }),
      updateCart: () => cart(CART_A, [line()], { customerId: 1 }),
    });
    await carts.loadCart();
    const customers = record(store.$customer);
    const authenticated = record(store.$isAuthenticated);
    const loading = record(store.$customerLoading);
    await expect(store.login(credentials)).resolves.toBe(true);
    expect(calls.slice(1)).toEqual([
      { method: 'loginCustomer', args: [credentials] },
      { method: 'updateCart', args: [{ id: CART_A }] },
    ]);
    expect(customers).toEqual([marie]);
    expect(authenticated).toEqual([true]);
    expect(loading).toEqual([true, false]);
    expect(carts.$cart.get().customerId).toBe(1);
  });

  test('with a saved cart: the guest items go into it', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCart: () => cart(CART_A, [line()]),
      loginCustomer: () => ({ isValid: true, customer: customer({ savedCartId: CART_B }) }),
      addCartItems: () => cart(CART_B, [line({ quantity: 2 })], { customerId: 1 }),
      updateCart: () => cart(CART_B, [line({ quantity: 2 })], { customerId: 1 }),
    });
    await carts.loadCart();
    await store.login(credentials);
    expect(methods(calls)).toEqual(['getCart', 'loginCustomer', 'addCartItems', 'updateCart']);
    expect(carts.$cart.get().id).toBe(CART_B);
  });

  test.each([
    [
      "401 'Invalid credentials'",
      () => {
        throw new ApiReplyError('Invalid credentials', 401);
      },
      { message: 'Invalid credentials', statusCode: 401, code: 'api' },
    ],
    [
      "throttled: 429 'Too many attempts', shown as it comes",
      () => {
        throw new ApiReplyError('Too many attempts', 429);
      },
      { message: 'Too many attempts', statusCode: 429, code: 'api' },
    ],
    [
      'reply with isValid false',
      () => ({ isValid: false, customer: null }),
      { message: 'Invalid credentials', statusCode: 401, code: 'api' },
    ],
    [
      "valid but no customer data: 'Get user data failed'",
      () => ({ isValid: true, customer: null }),
      { message: 'Get user data failed', statusCode: 404, code: 'api' },
    ],
    [
      // No reply (fetch rejects) says the shopper is offline.
      'network failure',
      () => {
        throw new NetworkFailure();
      },
      { message: 'offline.action', statusCode: 500, code: 'network' },
    ],
  ])(
    '%s: error kept in the login slot, logged out, no cart merge',
    async (_case, loginCustomer, error) => {
      await setup();
      const calls = stubShopApi({ getCustomers: () => marie, loginCustomer });
      await store.loadCustomer();
      const customers = record(store.$customer);
      await expect(store.login(credentials)).resolves.toBe(false);
      expect(customers).toEqual([null]);
      expect(store.$isAuthenticated.get()).toBe(false);
      expect(store.$customerErrors.get().login).toEqual(error);
      expect(methods(calls)).toEqual(['getCustomers', 'loginCustomer']);
    },
  );

  test('a new attempt clears the previous error first', async () => {
    await setup();
    let valid = false;
    stubShopApi({
      loginCustomer: () => {
        if (!valid) throw new ApiReplyError('Invalid credentials', 401);
        return { isValid: true, customer: marie };
      },
      createCart: () => cart(CART_A, [], { customerId: 1 }),
      updateCart: () => cart(CART_A, [], { customerId: 1 }),
    });
    await store.login(credentials);
    const errors = record(store.$customerErrors);
    valid = true;
    await store.login(credentials);
    expect(errors.map((e) => e.login)).toEqual([null]);
  });
});

describe('register', () => {
  test('creates the account (logged in), then the cart merge', async () => {
    await setup({ 'cart-id': CART_A });
    const paul = customer({
      id: 7,
      email: 'paul@example.fr',
      firstName: 'Paul',
      lastName: 'Durand',
    });
    const calls = stubShopApi({
      getCart: () => cart(CART_A),
      createCustomer: () => paul,
      updateCart: () => cart(CART_A, [], { customerId: 7 }),
    });
    await carts.loadCart();
    await expect(store.register(registration)).resolves.toBe(true);
    expect(calls.slice(1)).toEqual([
      { method: 'createCustomer', args: [registration] },
      { method: 'updateCart', args: [{ id: CART_A }] },
    ]);
    expect(store.$customer.get()).toEqual(paul);
    expect(store.$isAuthenticated.get()).toBe(true);
  });

  test("'Email already in use' stays in the register slot", async () => {
    await setup();
    stubShopApi({
      createCustomer: () => {
        throw new ApiReplyError('Email already in use', 409);
      },
    });
    await expect(store.register(registration)).resolves.toBe(false);
    expect(store.$customer.get()).toBeNull();
    expect(store.$customerErrors.get().register).toEqual({
      message: 'Email already in use',
      statusCode: 409,
      code: 'api',
    });
  });
});

describe('logout', () => {
  test('session cleared, customer gone, a new (empty) guest cart', async () => {
    await setup({ 'cart-id': CART_A });
    const calls = stubShopApi({
      getCustomers: () => marie,
      getCart: () => cart(CART_A, [line()], { customerId: 1 }),
      logoutCustomer: () => null,
    });
    await store.loadCustomer();
    await carts.loadCart();
    const customers = record(store.$customer);
    await expect(store.logout()).resolves.toBe(true);
    expect(methods(calls)).toEqual(['getCustomers', 'getCart', 'logoutCustomer']);
    expect(customers).toEqual([null]);
    expect(store.$isAuthenticated.get()).toBe(false);
    expect(carts.$cart.get().id).toBeNull();
    expect(jar.values.has('cart-id')).toBe(false);
  });

  test('the API fails: still logged in, logout slot', async () => {
    await setup();
    stubShopApi({
      getCustomers: () => marie,
      logoutCustomer: () => {
        throw new NetworkFailure();
      },
    });
    await store.loadCustomer();
    await expect(store.logout()).resolves.toBe(false);
    expect(store.$customer.get()).toEqual(marie);
    expect(store.$customerErrors.get().logout).toMatchObject({ code: 'network' });
  });
});

describe('updateProfile', () => {
  const input = { email: 'marie@example.fr', firstName: 'Marie', lastName: 'Dupont' };

  test('the updated customer replaces the current one', async () => {
    await setup();
    const updated = customer({ lastName: 'Dupont' });
    const calls = stubShopApi({ updateCustomer: () => updated });
    await expect(store.updateProfile(input)).resolves.toBe(true);
    expect(calls).toEqual([{ method: 'updateCustomer', args: [input] }]);
    expect(store.$customer.get()).toEqual(updated);
  });

  test.each([
    [
      "'Update client failed' from the API",
      () => {
        throw new ApiReplyError('Update client failed', 502);
      },
      { message: 'Update client failed', statusCode: 502, code: 'api' },
    ],
    [
      'an empty reply',
      () => null,
      { message: 'Update client failed', statusCode: 500, code: 'api' },
    ],
  ])('%s: update slot, customer unchanged', async (_case, updateCustomer, error) => {
    await setup();
    stubShopApi({ getCustomers: () => marie, updateCustomer });
    await store.loadCustomer();
    await expect(store.updateProfile(input)).resolves.toBe(false);
    expect(store.$customer.get()).toEqual(marie);
    expect(store.$customerErrors.get().update).toEqual(error);
  });
});

describe('password reset', () => {
  test('requestPasswordReset asks for the mail', async () => {
    await setup();
    const calls = stubShopApi({ generateOttAndToken: () => null });
    await expect(store.requestPasswordReset('marie@example.fr')).resolves.toBe(true);
    expect(calls).toEqual([
      { method: 'generateOttAndToken', args: [{ email: 'marie@example.fr' }] },
    ]);
  });

  test('resetPassword sets the password, then logs in with the returned e-mail', async () => {
    await setup();
    const calls = stubShopApi({
      sendResetPasswordEmail: () => ({ email: 'marie.martin@example.fr' }),
      loginCustomer: () => ({ isValid: true, customer: marie }),
      createCart: () => cart(CART_A, [], { customerId: 1 }),
      updateCart: () => cart(CART_A, [], { customerId: 1 }),
    });
    await expect(store.resetPassword({ password: 'Nouveau1', resetToken: 'tok' })).resolves.toBe(
      true,
    );
    expect(calls.slice(0, 2)).toEqual([
      { method: 'sendResetPasswordEmail', args: [{ password: 'Nouveau1', resetToken: 'tok' }] },
      {
        method: 'loginCustomer',
        args: [{ email: 'marie.martin@example.fr', password: 'Nouveau1' }],
      },
    ]);
    expect(store.$customer.get()).toEqual(marie);
  });

  test('an expired link: reset slot, no login', async () => {
    await setup();
    const calls = stubShopApi({
      sendResetPasswordEmail: () => {
        throw new ApiReplyError('Invalid or expired reset link', 400);
      },
    });
    await expect(store.resetPassword({ password: 'Nouveau1', resetToken: 'old' })).resolves.toBe(
      false,
    );
    expect(methods(calls)).toEqual(['sendResetPasswordEmail']);
    expect(store.$customerErrors.get().reset).toMatchObject({
      message: 'Invalid or expired reset link',
    });
  });
});
