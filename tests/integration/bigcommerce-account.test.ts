/**
 * Cart, customer, order and review connectors against the sandbox: replies parsed into the
 * domain (cents, camelCase), empty replies (204) read as null or [], unknown ids as null; the
 * spec §2 redirect-to-cart helper.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  addCartItems,
  createCart,
  createCartMetafield,
  createBigCommerceClient,
  getCart,
  getCustomerByEmail,
  getCustomerById,
  getCustomerOrders,
  getOrder,
  getOrderProducts,
  getOrderShipments,
  removeCartItem,
  updateCartCustomer,
  validateCustomerCredentials,
  type BigCommerceClient,
} from '../../src/shop/connectors/bigcommerce/index.ts';
import {
  cartLinkKey,
  mintCartToken,
  resolveCartRedirect,
} from '../../src/shop/carts/cart-redirect.ts';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';

let sandbox: TestSandbox;
let client: BigCommerceClient;
const { marie } = CUSTOMERS;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = createBigCommerceClient({
    apiUrl: sandbox.url,
    storeHash: sandbox.storeHash,
    accessToken: sandbox.token,
    channelId: 1,
  });
});

afterAll(async () => {
  await sandbox.close();
});

async function firstVariant(): Promise<{ productId: number; variantId: number }> {
  const response = await fetch(
    `${sandbox.url}/stores/${sandbox.storeHash}/v3/catalog/products/101?include=variants`,
    { headers: { 'X-Auth-Token': sandbox.token } },
  );
  const { data } = (await response.json()) as { data: { id: number; variants: { id: number }[] } };
  return { productId: data.id, variantId: data.variants[0]?.id ?? 0 };
}

describe('carts', () => {
  test('create, add (merged), remove the last line → null and the cart is gone', async () => {
    const line = await firstVariant();
    const cart = await createCart(client, { lineItems: [{ ...line, quantity: 1 }] });
    expect(cart).toMatchObject({ customerId: 0, channelId: 1, currency: 'EUR' });
    const more = await addCartItems(client, cart.id, [{ ...line, quantity: 2 }]);
    const [item] = more.lineItems.physicalItems;
    expect(item?.quantity).toBe(3);
    expect(more.baseAmount).toBe((item?.listPrice ?? 0) * 3);
    expect(await removeCartItem(client, cart.id, item?.id ?? '')).toBeNull();
    expect(await getCart(client, cart.id)).toBeNull();
  });

  test('assign and unassign', async () => {
    const line = await firstVariant();
    const cart = await createCart(client, { lineItems: [{ ...line, quantity: 1 }] });
    expect((await updateCartCustomer(client, cart.id, marie.id)).customerId).toBe(marie.id);
    expect((await updateCartCustomer(client, cart.id, 0)).customerId).toBe(0);
  });
});

describe('customers and orders', () => {
  test('customer by id and e-mail (any case), credentials', async () => {
    expect((await getCustomerById(client, marie.id))?.email).toBe(marie.email);
    expect((await getCustomerByEmail(client, marie.email.toUpperCase()))?.id).toBe(marie.id);
    expect(await getCustomerById(client, 999_999)).toBeNull();
    expect(await validateCustomerCredentials(client, marie)).toBe(marie.id);
    expect(
      await validateCustomerCredentials(client, { ...marie, password: 'Faux1234' }),
    ).toBeNull();
  });

  test('orders: decimal strings to exact cents, unknown → null, no shipment → []', async () => {
    const orders = await getCustomerOrders(client, marie.id);
    expect(orders.map((o) => o.id)).toEqual([103, 102, 101, 100]);
    expect(orders.find((o) => o.id === marie.orders.completed)?.totalIncTax).toBe(81_900);
    expect(await getOrder(client, 999_999)).toBeNull();
    expect(await getOrderShipments(client, marie.orders.cancelled)).toEqual([]);
    const products = await getOrderProducts(client, marie.orders.completed);
    expect(products.every((p) => Number.isInteger(p.totalIncTax))).toBe(true);
  });
});

describe('redirect-to-cart (spec §2, §9 cart-redirection token)', () => {
  const key = cartLinkKey('redirect-to-cart-test-secret-0123456789');

  test('a guest cart with the matching shop-minted token opens; anything else does not', async () => {
    const line = await firstVariant();
    const cart = await createCart(client, { lineItems: [{ ...line, quantity: 1 }] });
    const token = mintCartToken(key, cart.id);
    await createCartMetafield(client, cart.id, {
      namespace: 'cart-redirection',
      key: 'token',
      value: token,
    });
    expect(await resolveCartRedirect(client, key, { id: cart.id, token })).toBe(cart.id);
    expect(await resolveCartRedirect(client, key, { id: cart.id, token: 'wrong' })).toBeNull();
    expect(await resolveCartRedirect(client, key, { id: cart.id, token: '' })).toBeNull();
    expect(await resolveCartRedirect(client, key, { id: null, token })).toBeNull();
    expect(await resolveCartRedirect(client, key, { id: 'nope', token })).toBeNull();
    // Another shop's key did not mint it.
    const other = cartLinkKey('another-shop-secret-0123456789-abcdef');
    expect(await resolveCartRedirect(client, other, { id: cart.id, token })).toBeNull();
    await updateCartCustomer(client, cart.id, marie.id);
    expect(await resolveCartRedirect(client, key, { id: cart.id, token })).toBeNull();
  });

  test('a value the shop did not mint opens nothing, even in its own app_only metafield', async () => {
    const line = await firstVariant();
    const cart = await createCart(client, { lineItems: [{ ...line, quantity: 1 }] });
    await createCartMetafield(client, cart.id, {
      namespace: 'cart-redirection',
      key: 'token',
      value: 's3cr3t',
      permissionSet: 'app_only',
    });
    expect(await resolveCartRedirect(client, key, { id: cart.id, token: 's3cr3t' })).toBeNull();
    // A token minted for another cart does not open this one.
    const elsewhere = mintCartToken(key, '00000000-0000-4000-8000-000000000000');
    expect(await resolveCartRedirect(client, key, { id: cart.id, token: elsewhere })).toBeNull();
  });

  test.each(['read', 'write', 'read_and_sf_access', 'write_and_sf_access'] as const)(
    'a minted token in a %s metafield (not the shop app’s own app_only one) opens nothing',
    async (permissionSet) => {
      const line = await firstVariant();
      const cart = await createCart(client, { lineItems: [{ ...line, quantity: 1 }] });
      const token = mintCartToken(key, cart.id);
      await createCartMetafield(client, cart.id, {
        namespace: 'cart-redirection',
        key: 'token',
        value: token,
        permissionSet,
      });
      expect(await resolveCartRedirect(client, key, { id: cart.id, token })).toBeNull();
    },
  );
});
