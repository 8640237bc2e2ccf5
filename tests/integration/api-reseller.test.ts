/**
 * The reseller area's send-to-client over real HTTP against the sandbox (spec §1, §2, §5, §6,
 * §9): resellers only, a seller of theirs required, the cart's token stored in its
 * 'cart-redirection' metafield, the cart a guest cart again, the client's mail in the sandbox's
 * Brevo outbox with a link that opens that cart (and no other token does); and the feature flags
 * switching the API's methods off (404).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import type { Cart, CartMetafield, CurrentCustomer } from '../../src/lib/commerce/types.ts';
import { createBigCommerceClient } from '../../src/shop/connectors/bigcommerce/index.ts';
import {
  CART_REDIRECTION_KEY,
  CART_REDIRECTION_NAMESPACE,
  cartLinkKey,
  resolveCartRedirect,
} from '../../src/shop/carts/cart-redirect.ts';
import {
  BREVO_KEY,
  SESSION_SECRET,
  someVariant,
  startShopApi,
  type ShopApi,
} from './helpers/shop-api.ts';

let api: ShopApi;
let line: { productId: number; variantId: number };

beforeAll(async () => {
  api = await startShopApi();
  line = await someVariant(api, 0);
});

afterAll(async () => {
  await api.close();
});

const reseller = CUSTOMERS.resellerWithSellers;
const newEmail = () => `client-${crypto.randomUUID()}@example.fr`;

async function resellerWithCart() {
  const shopper = api.shopper();
  await shopper.login(reseller.email, reseller.password);
  const cart = await shopper.data<Cart>('createCart', [{ lineItems: [{ ...line, quantity: 2 }] }]);
  return { shopper, cart };
}

interface Mail {
  subject: string;
  body: string;
}

async function lastMailTo(email: string): Promise<Mail | null> {
  const headers = { 'api-key': BREVO_KEY };
  const listed = (await (
    await fetch(
      `${api.sandbox.url}/brevo/v3/smtp/emails?email=${encodeURIComponent(email)}&sort=desc`,
      { headers },
    )
  ).json()) as { transactionalEmails?: { uuid: string }[] };
  const uuid = listed.transactionalEmails?.[0]?.uuid;
  if (uuid === undefined) return null;
  return (await (
    await fetch(`${api.sandbox.url}/brevo/v3/smtp/emails/${uuid}`, { headers })
  ).json()) as Mail;
}

describe('sendCartToClient (spec §2 "send the cart to a client")', () => {
  test('the reseller sees their shop name, sellers and accounting code', async () => {
    const shopper = api.shopper();
    await shopper.login(reseller.email, reseller.password);
    const me = await shopper.data<CurrentCustomer>('getCustomers');
    expect(me).toMatchObject({
      isReseller: true,
      shopName: reseller.shopName,
      sellers: [...reseller.sellers],
      accountingCode: reseller.accountingCode,
    });
  });

  test('a visitor gets 401, a customer who is no reseller 403, and nothing is sent', async () => {
    const { cart } = await resellerWithCart();
    const email = newEmail();
    const visitor = await api
      .shopper()
      .call('sendCartToClient', [{ cartId: cart.id }, { seller: reseller.sellers[0], email }]);
    expect(visitor.status).toBe(401);
    const former = api.shopper();
    await former.login(CUSTOMERS.formerReseller.email, CUSTOMERS.formerReseller.password);
    const own = await former.data<Cart>('createCart', [{ lineItems: [{ ...line, quantity: 1 }] }]);
    const refused = await former.call('sendCartToClient', [
      { cartId: own.id },
      { seller: 'Hugo', email },
    ]);
    expect(refused.status).toBe(403);
    expect(await lastMailTo(email)).toBeNull();
  });

  test('no seller, or one that is not theirs: "You need to select a seller too"', async () => {
    const { shopper, cart } = await resellerWithCart();
    const email = newEmail();
    for (const seller of ['', '   ', 'Quelqu’un d’autre', CUSTOMERS.reseller.sellers[0]]) {
      const reply = await shopper.call('sendCartToClient', [
        { cartId: cart.id },
        { seller, email },
      ]);
      expect(reply.status).toBe(400);
      expect(reply.json.message).toContain('You need to select a seller too');
    }
    expect(await lastMailTo(email)).toBeNull();
    // The cart is still the reseller's.
    expect((await shopper.data<Cart>('getCart', [{ id: cart.id }])).customerId).toBe(reseller.id);
  });

  test("an invalid client e-mail is 400; another reseller's cart is 404", async () => {
    const { shopper, cart } = await resellerWithCart();
    const bad = await shopper.call('sendCartToClient', [
      { cartId: cart.id },
      { seller: reseller.sellers[0], email: 'pas-une-adresse' },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('Invalid email');
    const other = api.shopper();
    await other.login(CUSTOMERS.reseller.email, CUSTOMERS.reseller.password);
    const stolen = await other.call('sendCartToClient', [
      { cartId: cart.id },
      { seller: CUSTOMERS.reseller.sellers[0], email: newEmail() },
    ]);
    expect(stolen).toMatchObject({ status: 404, json: { message: 'Cart not found' } });
  });

  test('sent: token stored, guest cart, the mail links to it, the link opens it, a wrong token does not', async () => {
    const { shopper, cart } = await resellerWithCart();
    const email = newEmail();
    const seller = reseller.sellers[1];
    const reply = await shopper.call('sendCartToClient', [{ cartId: cart.id }, { seller, email }]);
    expect(reply).toMatchObject({ status: 200, json: { data: { email } } });

    // The cart: a guest cart again, holding the token in its metafield (spec §9).
    const stored = await api.admin('GET', `v3/carts/${cart.id}`);
    expect((stored.json as { data: { customer_id: number } }).data.customer_id).toBe(0);
    const fields = await api.admin(
      'GET',
      `v3/carts/${cart.id}/metafields?namespace=${CART_REDIRECTION_NAMESPACE}`,
    );
    const tokens = (fields.json as { data: { key: string; value: string }[] }).data.filter(
      (f) => f.key === CART_REDIRECTION_KEY,
    );
    expect(tokens).toHaveLength(1);
    const token = tokens[0]?.value ?? '';
    expect(token.length).toBeGreaterThanOrEqual(40);

    // The client's mail: French, the seller and the shop, and the link.
    const mail = await lastMailTo(email);
    expect(mail?.subject).toContain(reseller.shopName);
    expect(mail?.body).toContain(seller);
    const href = /href="([^"]+)"/.exec(mail?.body ?? '')?.[1]?.replaceAll('&amp;', '&') ?? '';
    const link = new URL(href);
    expect(link.pathname).toBe('/panier');
    expect(link.searchParams.get('id')).toBe(cart.id);
    expect(link.searchParams.get('token')).toBe(token);

    // The link opens that cart (the middleware's redirect-to-cart); nothing else does.
    const client = createBigCommerceClient({
      apiUrl: api.sandbox.url,
      storeHash: api.sandbox.storeHash,
      accessToken: api.sandbox.token,
      channelId: 1,
    });
    expect(
      await resolveCartRedirect(client, cartLinkKey(SESSION_SECRET), { id: cart.id, token }),
    ).toBe(cart.id);
    expect(
      await resolveCartRedirect(client, cartLinkKey(SESSION_SECRET), {
        id: cart.id,
        token: `${token}x`,
      }),
    ).toBeNull();
    expect(
      await resolveCartRedirect(client, cartLinkKey(SESSION_SECRET), {
        id: cart.id,
        token: token.slice(1),
      }),
    ).toBeNull();
    expect(
      await resolveCartRedirect(client, cartLinkKey(SESSION_SECRET), { id: cart.id, token: '' }),
    ).toBeNull();

    // The reseller no longer owns it; its saved 'Cart ID' is gone.
    const me = await shopper.data<CurrentCustomer>('getCustomers');
    expect(me.savedCartId).toBeNull();
  });

  test('an empty-handed reseller cannot send (the cart must hold lines)', async () => {
    const { shopper, cart } = await resellerWithCart();
    const [item] = cart.lineItems.physicalItems;
    // Removing the last line deletes the cart upstream: the cart is gone.
    await shopper.call('removeCartItem', [{ cartId: cart.id, itemId: item?.id ?? '' }]);
    const reply = await shopper.call('sendCartToClient', [
      { cartId: cart.id },
      { seller: reseller.sellers[0], email: newEmail() },
    ]);
    expect(reply.status).toBe(404);
  });

  test('a cart of a reseller unassigned twice keeps one token (a send tried again)', async () => {
    const { shopper, cart } = await resellerWithCart();
    const email = newEmail();
    await shopper.data('sendCartToClient', [
      { cartId: cart.id },
      { seller: reseller.sellers[0], email },
    ]);
    const fields = (await api.admin('GET', `v3/carts/${cart.id}/metafields`)).json as {
      data: CartMetafield[];
    };
    expect(fields.data.filter((f) => f.key === CART_REDIRECTION_KEY)).toHaveLength(1);
  });
});

describe('feature flags over the API (spec §1, §6)', () => {
  test('transactional off: cart, customer, order and wishlist methods are 404; the catalogue answers', async () => {
    const off = await startShopApi({
      sandbox: api.sandbox,
      features: { transactional: false, reviews: true, resellerArea: true },
    });
    try {
      const shopper = off.shopper();
      for (const [method, args] of [
        ['getCart', [{ id: '00000000-0000-4000-8000-000000000000' }]],
        ['createCart', [{ lineItems: [{ ...line, quantity: 1 }] }]],
        ['getCustomers', []],
        ['loginCustomer', [{ email: reseller.email, password: reseller.password }]],
        ['getOrders', []],
        ['getAllWishlists', []],
        ['sendCartToClient', [{ cartId: '00000000-0000-4000-8000-000000000000' }, {}]],
      ] as const) {
        expect(await shopper.call(method, [...args])).toMatchObject({
          status: 404,
          json: { message: 'Not found', statusCode: 404 },
        });
      }
      expect((await shopper.call('getProducts', [{ limit: 1 }])).status).toBe(200);
      expect(
        (await shopper.call('getProductReviewCollection', [{ productId: line.productId }])).status,
      ).toBe(200);
    } finally {
      await off.close();
    }
  });

  test('reviews off: the review methods are 404; reseller area off: sendCartToClient is 404', async () => {
    const off = await startShopApi({
      sandbox: api.sandbox,
      features: { transactional: true, reviews: false, resellerArea: false },
    });
    try {
      const shopper = off.shopper();
      expect(
        (await shopper.call('getProductReviewCollection', [{ productId: line.productId }])).status,
      ).toBe(404);
      expect((await shopper.call('createProductReview', [{}])).status).toBe(404);
      expect((await shopper.call('sendCartToClient', [{}, {}])).status).toBe(404);
      expect(
        (await shopper.call('getCart', [{ id: '00000000-0000-4000-8000-000000000000' }])).status,
      ).toBe(200);
    } finally {
      await off.close();
    }
  });
});
