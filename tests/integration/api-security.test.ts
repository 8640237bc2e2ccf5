/**
 * Security of the shop API over real HTTP: state-changing calls need a JSON body from the
 * shop's own origin (403 'Forbidden' otherwise, before any upstream call); reads need no
 * origin and send no CORS headers; identity comes only from the session.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Cart } from '../../src/lib/commerce/types.ts';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { someVariant, startShopApi, type ShopApi } from './helpers/shop-api.ts';

let api: ShopApi;

beforeAll(async () => {
  api = await startShopApi();
});

afterAll(async () => {
  await api.close();
});

const FORBIDDEN = { status: 403, json: { message: 'Forbidden', statusCode: 403 } };
const { marie } = CUSTOMERS;

describe('state-changing calls: same origin and JSON only', () => {
  const login = [{ email: marie.email, password: marie.password }];

  test.each([
    ['no Origin nor Sec-Fetch-Site', { 'Content-Type': 'application/json' }],
    ['another Origin', { 'Content-Type': 'application/json', Origin: 'https://evil.example' }],
    [
      'Sec-Fetch-Site cross-site',
      { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' },
    ],
    [
      'Sec-Fetch-Site same-site',
      { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-site' },
    ],
    [
      'Sec-Fetch-Site none (typed URL)',
      { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'none' },
    ],
    [
      'a form post',
      { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' },
    ],
    ['text/plain', { 'Content-Type': 'text/plain', 'Sec-Fetch-Site': 'same-origin' }],
  ])('%s → 403 Forbidden, no upstream call, no cookie', async (_case, headers) => {
    api.clearUpstream();
    const reply = await api.shopper().call('loginCustomer', login, { headers });
    expect(reply).toMatchObject(FORBIDDEN);
    expect(reply.setCookies).toEqual([]);
    expect(api.upstream).toEqual([]);
  });

  test.each([
    [
      'Sec-Fetch-Site same-origin',
      { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin' },
    ],
    ['Origin of the shop', { 'Content-Type': 'application/json; charset=utf-8' }],
  ])('%s → allowed', async (_case, headers) => {
    const shopper = api.shopper();
    const final = { ...headers, ...('Sec-Fetch-Site' in headers ? {} : { Origin: api.base }) };
    expect((await shopper.call('loginCustomer', login, { headers: final })).status).toBe(200);
  });

  test.each([
    'logoutCustomer',
    'createCustomer',
    'updateCustomer',
    'updateCustomerFormFields',
    'generateOttAndToken',
    'sendResetPasswordEmail',
    'createCustomerAddress',
    'updateCustomerAddress',
    'deleteCustomerAddress',
    'createCart',
    'updateCart',
    'addCartItems',
    'removeCartItem',
    'updateCartItem',
    'updateItemOption',
    'deleteCart',
    'unassignCart',
    'getCheckoutUrl',
    'createCartMetafields',
    'createProductReview',
  ])('%s is state-changing', async (method) => {
    const reply = await api.shopper().call(method, [], {
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
    });
    expect(reply).toMatchObject(FORBIDDEN);
  });

  test('reads need no origin, and no CORS header is ever sent', async () => {
    const reply = await api.shopper().call('getCustomers', [], {
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
    });
    expect(reply).toMatchObject({ status: 200, json: { data: null } });
    const raw = await fetch(`${api.base}/api/bigcommerce/getCustomers`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example' },
    });
    expect(raw.headers.get('access-control-allow-origin')).toBeNull();
    expect(raw.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('identity only from the session, never from the body', () => {
  test('customer ids in arguments are refused (strict argument schemas)', async () => {
    const shopper = api.shopper();
    await shopper.login(CUSTOMERS.reseller.email, CUSTOMERS.reseller.password);
    const line = await someVariant(api, 0);
    const cart = await shopper.data<Cart>('createCart', [
      { lineItems: [{ ...line, quantity: 1 }] },
    ]);
    for (const [method, args] of [
      ['getOrders', { customerId: marie.id }],
      ['getCart', { id: cart.id, customerId: marie.id }],
      ['updateCart', { id: cart.id, customerId: marie.id }],
      [
        'updateCustomerFormFields',
        { data: [{ name: 'Vendeur 1', value: 'x' }], customerId: marie.id },
      ],
      ['deleteCustomerAddress', { id: [1], customerId: marie.id }],
    ] as const) {
      const reply = await shopper.call(method, [args]);
      expect({ method, status: reply.status }).toEqual({ method, status: 400 });
    }
  });

  test('customer A cannot read B’s data: orders, addresses, form fields, profile', async () => {
    const paul = api.shopper();
    await paul.login(CUSTOMERS.reseller.email, CUSTOMERS.reseller.password);
    expect(
      await paul.call('getOrderProducts', [{ orderId: marie.orders.completed }]),
    ).toMatchObject({ status: 404, json: { message: 'Order not found' } });
    const addresses = await paul.data<{ customerId: number }[]>('getCustomerAddress', []);
    expect(addresses.every((a) => a.customerId === CUSTOMERS.reseller.id)).toBe(true);
    const me = await paul.data<{ id: number }>('getCustomers', []);
    expect(me.id).toBe(CUSTOMERS.reseller.id);
    // A profile update changes Paul, never Marie.
    await paul.data('updateCustomer', [
      { email: CUSTOMERS.reseller.email, firstName: 'Paulo', lastName: 'Durand' },
    ]);
    const marieShopper = api.shopper();
    await marieShopper.login(marie.email, marie.password);
    expect(await marieShopper.data<{ firstName: string }>('getCustomers', [])).toMatchObject({
      firstName: 'Marie',
    });
  });
});
