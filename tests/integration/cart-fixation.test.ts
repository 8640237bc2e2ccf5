/**
 * Cart fixation with a data leak, the attack replayed over real HTTP against the sandbox (the
 * shop API and the middleware's redirect-to-cart of `helpers/shop-api.ts`):
 * 1. an attacker makes a guest cart, writes the reserved `cart-redirection`/`token` metafield
 *    through the public `createCartMetafields` (in any spelling) and sends `/?id&token` to a
 *    victim: refused, and the link opens nothing;
 * 2. a victim paying as a guest for a cart whose id the attacker holds: `getOrderByCart` gives
 *    the attacker nothing (the order is the browser's that placed it);
 * 3. the reseller flow still works: the client opening the shop's link holds the checkout and
 *    reads the order; the reseller, who knows the cart id, does not.
 * Only the shop mints tokens: properties over generated namespaces and tokens.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import type { Cart, Order } from '../../src/lib/commerce/types.ts';
import { createBigCommerceClient } from '../../src/shop/connectors/bigcommerce/index.ts';
import {
  cartLinkKey,
  mintCartToken,
  resolveCartRedirect,
} from '../../src/shop/carts/cart-redirect.ts';
import { SESSION_SECRET, someVariant, startShopApi, type ShopApi } from './helpers/shop-api.ts';
import { startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';

/** Another app of the store (its own API account), allowed to write cart metafields. */
const OTHER_APP = { token: 'other-app-token', clientId: 'other-app' };

let sandbox: TestSandbox;
let api: ShopApi;

beforeAll(async () => {
  sandbox = await startTestSandbox({ apps: [OTHER_APP] });
  api = await startShopApi({ sandbox });
});

afterAll(async () => {
  await api.close();
  await sandbox.close();
});

const RESERVED = {
  status: 403,
  json: { message: 'This metafield namespace is reserved', statusCode: 403 },
};

/** Pays a cart on the sandbox's hosted checkout as a guest; returns the order id. */
async function pay(checkoutUrl: string): Promise<number> {
  const response = await fetch(checkoutUrl, {
    method: 'POST',
    body: new URLSearchParams({
      email: 'victime@example.fr',
      first_name: 'Claire',
      last_name: 'Victime',
      address1: '3 rue des Lilas',
      postal_code: '69003',
      city: 'Lyon',
      phone: '0612345678',
      country: 'FR',
    }),
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  expect(response.status).toBe(303);
  return Number(new URL(response.headers.get('location') ?? '').searchParams.get('commande'));
}

async function guestCart(shopper: ReturnType<ShopApi['shopper']>): Promise<Cart> {
  const line = await someVariant(api, 1);
  return shopper.data<Cart>('createCart', [{ lineItems: [{ ...line, quantity: 1 }] }]);
}

/** Spellings of 'cart-redirection' a lenient upstream collation could take for it. */
const SPELLINGS = [
  'cart-redirection',
  'CART-REDIRECTION',
  'Cart-Redirection',
  ' cart-redirection ',
  'cart-redirection\t',
  'cart redirection',
  'cart_redirection',
  'cartredirection',
  'cart\u2010redirection',
  'cart\u2011redirection',
  'cart\u200bredirection',
  'cart-redirection\u00ad',
  'ｃａｒｔ－ｒｅｄｉｒｅｃｔｉｏｎ',
  'cart-rédirection',
  'cart-re\u0301direction',
  'CART-REDİRECTİON',
  'cart-redırectıon',
];

describe('the reserved namespace is refused from the shop API, read and write', () => {
  test.each(SPELLINGS)(
    '%j: createCartMetafields and getCartMetafield(s) answer 403',
    async (ns) => {
      const attacker = api.shopper();
      const cart = await guestCart(attacker);
      const write = await attacker.call('createCartMetafields', [
        { cartId: cart.id, namespace: ns, key: 'token', value: 'x'.repeat(40) },
      ]);
      expect(write).toMatchObject(RESERVED);
      for (const method of ['getCartMetafields', 'getCartMetafield']) {
        expect(await attacker.call(method, [{ cartId: cart.id, namespace: ns }])).toMatchObject(
          RESERVED,
        );
      }
      // Nothing reached the cart.
      const stored = await api.admin('GET', `v3/carts/${cart.id}/metafields`);
      expect((stored.json as { data: unknown[] }).data).toEqual([]);
    },
  );

  test('property: any namespace folding to cart-redirection is refused before upstream', async () => {
    const attacker = api.shopper();
    const cart = await guestCart(attacker);
    const noise = fc.constantFrom('', ' ', '-', '_', '.', '\u200b', '\u00ad', '\u2010', '\u3000');
    const letter = (c: string) =>
      fc.constantFrom(c, c.toUpperCase(), String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    const spelled = fc
      .tuple(
        ...'cartredirection'
          .split('')
          .map((c) => fc.tuple(letter(c), noise).map(([l, n]) => l + n)),
      )
      .map((parts) => parts.join(''))
      .filter((ns) => ns.trim().length > 0 && ns.length <= 64);
    await fc.assert(
      fc.asyncProperty(spelled, async (ns) => {
        api.clearUpstream();
        const reply = await attacker.call('createCartMetafields', [
          { cartId: cart.id, namespace: ns, key: 'token', value: 'v' },
        ]);
        expect(reply.status).toBe(403);
        expect(api.upstream).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  test('other namespaces still work (spec §7)', async () => {
    const shopper = api.shopper();
    const cart = await guestCart(shopper);
    const reply = await shopper.call('createCartMetafields', [
      { cartId: cart.id, namespace: 'cart-notes', key: 'token', value: 'v' },
    ]);
    expect(reply.status).toBe(200);
  });
});

describe('the cart-fixation attack, end to end', () => {
  test('a planted token does not open the cart for the victim', async () => {
    const attacker = api.shopper();
    const cart = await guestCart(attacker);
    const token = 'a'.repeat(43);
    expect(
      await attacker.call('createCartMetafields', [
        { cartId: cart.id, namespace: 'cart-redirection', key: 'token', value: token },
      ]),
    ).toMatchObject(RESERVED);
    // Even planted by other means (another app, an admin), a value the shop did not mint.
    await api.admin('POST', `v3/carts/${cart.id}/metafields`, {
      namespace: 'cart-redirection',
      key: 'token',
      value: token,
      permission_set: 'app_only',
    });
    const victim = api.shopper();
    const page = await victim.visit(`/?id=${cart.id}&token=${token}`);
    // The cart-link route says the link is not valid, naming nobody.
    expect(page).toMatchObject({
      status: 200,
      text: 'page /vue/lien-panier {"problem":"invalid","preparedBy":null}',
    });
    expect(victim.cookies.has('cart-id')).toBe(false);
  });

  test.each(['write', 'read', 'write_and_sf_access'])(
    'a shop-format token written by another app (%s, not the shop app’s app_only) opens nothing',
    async (permission) => {
      const attacker = api.shopper();
      const cart = await guestCart(attacker);
      // Suppose the attacker even had a token in the shop's format: another app writes it.
      const token = mintCartToken(api.account.cartLinkKey, cart.id);
      const written = await fetch(
        `${sandbox.url}/stores/${sandbox.storeHash}/v3/carts/${cart.id}/metafields`,
        {
          method: 'POST',
          headers: { 'X-Auth-Token': OTHER_APP.token, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            namespace: 'cart-redirection',
            key: 'token',
            value: token,
            permission_set: permission,
          }),
        },
      );
      expect(written.status).toBe(200);
      const victim = api.shopper();
      await victim.visit(`/panier?id=${cart.id}&token=${token}`);
      expect(victim.cookies.has('cart-id')).toBe(false);
    },
  );

  test('a victim paying as a guest for a cart the attacker holds: the attacker reads nothing', async () => {
    const attacker = api.shopper();
    const cart = await guestCart(attacker);
    // The victim has the cart (however the id reached them) and pays as a guest.
    const victim = api.shopper();
    victim.cookies.set('cart-id', cart.id);
    const { url } = await victim.data<{ url: string }>('getCheckoutUrl', [{ cartId: cart.id }]);
    expect(victim.cookies.has('checkout')).toBe(true);
    // The attacker cannot take the checkout over...
    expect(await attacker.call('getCheckoutUrl', [{ cartId: cart.id }])).toMatchObject({
      status: 409,
      json: { message: 'This cart is being paid for in another browser' },
    });
    const orderId = await pay(url);
    // ...nor read the order, by the cart id or otherwise.
    expect(await attacker.data('getOrderByCart', [{ cartId: cart.id }])).toBeNull();
    expect(await api.shopper().data('getOrderByCart', [{ cartId: cart.id }])).toBeNull();
    expect((await attacker.call('getOrderProducts', [{ orderId }])).status).toBe(401);
    // The victim's browser sees its order.
    const order = await victim.data<Order>('getOrderByCart', [{ cartId: cart.id }]);
    expect(order).toMatchObject({ id: orderId, customerId: 0, cartId: cart.id });
  });

  test('a logged-in attacker cannot take the guest cart being paid into his account', async () => {
    const attacker = api.shopper();
    await attacker.login(CUSTOMERS.formerReseller.email, CUSTOMERS.formerReseller.password);
    const victim = api.shopper();
    const cart = await guestCart(victim);
    await victim.data('getCheckoutUrl', [{ cartId: cart.id }]);
    const elsewhere = {
      status: 409,
      json: { message: 'This cart is being paid for in another browser' },
    };
    expect(await attacker.call('getCheckoutUrl', [{ cartId: cart.id }])).toMatchObject(elsewhere);
    expect(await attacker.call('updateCart', [{ id: cart.id }])).toMatchObject(elsewhere);
    const stored = await api.admin('GET', `v3/carts/${cart.id}`);
    expect((stored.json as { data: { customer_id: number } }).data.customer_id).toBe(0);
  });

  test('an attacker who claims the checkout first only ever pays for it himself', async () => {
    const attacker = api.shopper();
    const cart = await guestCart(attacker);
    await attacker.data('getCheckoutUrl', [{ cartId: cart.id }]);
    const victim = api.shopper();
    victim.cookies.set('cart-id', cart.id);
    expect((await victim.call('getCheckoutUrl', [{ cartId: cart.id }])).status).toBe(409);
  });
});

describe('the reseller flow: the client who opens the link places the order', () => {
  test('send, open, pay: the client reads the order, the reseller does not', async () => {
    const reseller = api.shopper();
    await reseller.login(CUSTOMERS.reseller.email, CUSTOMERS.reseller.password);
    const line = await someVariant(api, 2);
    const cart = await reseller.data<Cart>('createCart', [
      { lineItems: [{ ...line, quantity: 1 }] },
    ]);
    await reseller.data('sendCartToClient', [
      { cartId: cart.id },
      { seller: CUSTOMERS.reseller.sellers[0], email: 'client.revendeur@example.fr' },
    ]);
    // The reseller knows the cart id but holds no link: the checkout is nobody's yet.
    expect((await reseller.call('getCheckoutUrl', [{ cartId: cart.id }])).status).toBe(409);

    const stored = await api.admin('GET', `v3/carts/${cart.id}/metafields`);
    const token =
      (stored.json as { data: { key: string; value: string }[] }).data.find(
        (f) => f.key === 'token',
      )?.value ?? '';
    const client = api.shopper();
    const opened = await client.visit(`/panier.html?id=${cart.id}&token=${token}`);
    // One spelling per page first, then the link.
    expect(opened).toMatchObject({ status: 301 });
    const link = await client.visit(opened.location ?? '');
    expect(link).toMatchObject({ status: 302, location: '/panier' });
    expect(client.cookies.get('cart-id')).toBe(cart.id);
    expect(client.cookies.has('checkout')).toBe(true);

    const { url } = await client.data<{ url: string }>('getCheckoutUrl', [{ cartId: cart.id }]);
    const orderId = await pay(url);
    expect(await client.data<Order>('getOrderByCart', [{ cartId: cart.id }])).toMatchObject({
      id: orderId,
    });
    expect(await reseller.data('getOrderByCart', [{ cartId: cart.id }])).toBeNull();
  });
});

describe('property: only tokens the shop minted for the cart open it', () => {
  test('any other token, even stored app_only by the shop app, opens nothing', async () => {
    const client = createBigCommerceClient({
      apiUrl: sandbox.url,
      storeHash: sandbox.storeHash,
      accessToken: sandbox.token,
      channelId: 1,
    });
    const key = cartLinkKey(SESSION_SECRET);
    const shopper = api.shopper();
    const cart = await guestCart(shopper);
    const minted = mintCartToken(key, cart.id);
    await api.admin('POST', `v3/carts/${cart.id}/metafields`, {
      namespace: 'cart-redirection',
      key: 'token',
      value: minted,
      permission_set: 'app_only',
    });
    expect(await resolveCartRedirect(client, key, { id: cart.id, token: minted })).toBe(cart.id);
    const metafieldId = (
      (await api.admin('GET', `v3/carts/${cart.id}/metafields`)).json as { data: { id: number }[] }
    ).data[0]?.id;
    const forged = fc.oneof(
      fc.string({ minLength: 1, maxLength: 100 }),
      fc.stringMatching(/^[\w-]{32}\.[\w-]{43}$/),
      // A real token of another cart, or of another shop's key.
      fc.uuid().map((id) => mintCartToken(key, id)),
      fc
        .string({ minLength: 32, maxLength: 40 })
        .map((s) => mintCartToken(cartLinkKey(s), cart.id)),
    );
    await fc.assert(
      fc.asyncProperty(forged, async (token) => {
        fc.pre(token !== minted);
        // The forged value is what the cart's metafield holds.
        await api.admin('PUT', `v3/carts/${cart.id}/metafields/${String(metafieldId)}`, {
          value: token,
        });
        expect(await resolveCartRedirect(client, key, { id: cart.id, token })).toBeNull();
      }),
      { numRuns: 40 },
    );
  });
});
