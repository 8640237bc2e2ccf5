/**
 * Ownership over HTTP on the production build (`src/shop/carts/ownership.ts`): an
 * order is shown on `/paiement?commande=` and in the account only to its customer (or, for a
 * guest order, to the browser that placed it: not to one merely holding the cart id); a cross-origin POST to
 * `/paiement` is refused.
 */
import { type APIRequest, type APIRequestContext } from '@playwright/test';
import type { Cart, Product } from '../../src/lib/commerce/types.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { CUSTOMERS, PRODUCTS } from '@literie/sandbox/fixtures';
import { api, expect, test } from './helpers.ts';

const { marie, reseller: paul } = CUSTOMERS;
const MARIE_ORDER = marie.orders.completed;

/** The shop under test (Playwright's `baseURL`). */
let shop = '';
test.beforeEach(({ baseURL }) => {
  shop = baseURL ?? '';
});

/** A browser of its own (its own cookies), sending the shop's Origin like a page would. */
function shopper(request: APIRequest): Promise<APIRequestContext> {
  return request.newContext({ baseURL: shop, extraHTTPHeaders: { Origin: shop } });
}

async function loggedIn(request: APIRequest, who: { email: string; password: string }) {
  const context = await shopper(request);
  await api(context, 'loginCustomer', [{ email: who.email, password: who.password }]);
  return context;
}

async function page(context: APIRequestContext, path: string) {
  const response = await context.get(path, { maxRedirects: 0 });
  return { status: response.status(), html: await response.text() };
}

/** A cart with one line, kept in the `cart-id` cookie of `context` as the cart store does. */
/** The browser's cart-id cookie names `cartId` (as the shop sets it). */
async function holdCart(context: APIRequestContext, cartId: string): Promise<void> {
  await context.addCookies([
    {
      name: 'cart-id',
      value: cartId,
      domain: new URL(shop).hostname,
      path: '/',
      expires: -1,
      httpOnly: false,
      secure: false,
      sameSite: 'Lax',
    },
  ]);
}

async function cartIn(context: APIRequestContext, cookieOf = context): Promise<Cart> {
  const product = await api<Product>(context, 'getProductById', [PRODUCTS.trackingNone]);
  const variantId = product.variants[0]?.id;
  const cart = await api<Cart>(context, 'createCart', [
    { lineItems: [{ productId: product.id, variantId, quantity: 1 }] },
  ]);
  await holdCart(cookieOf, cart.id);
  return cart;
}

test.describe('another customer’s order is not shown', () => {
  test('in the account order page: 404, nothing of the order', async ({ playwright }) => {
    const asMarie = await loggedIn(playwright.request, marie);
    const own = await page(asMarie, `/mon-compte/mes-commandes/${MARIE_ORDER}`);
    expect(own.status).toBe(200);
    expect(own.html).toContain(`data-order-detail="${MARIE_ORDER}"`);

    const asPaul = await loggedIn(playwright.request, paul);
    const other = await page(asPaul, `/mon-compte/mes-commandes/${MARIE_ORDER}`);
    expect(other.status).toBe(404);
    expect(other.html).toContain(t('Page not found'));
    expect(other.html).not.toContain('data-order-detail');
    await Promise.all([asMarie.dispose(), asPaul.dispose()]);
  });

  test('at /paiement?commande=: only its customer sees the confirmation', async ({
    playwright,
  }) => {
    const path = `/paiement?commande=${MARIE_ORDER}`;
    const asMarie = await loggedIn(playwright.request, marie);
    const own = await page(asMarie, path);
    expect(own.status).toBe(200);
    expect(own.html).toContain(`data-order-confirmation="${MARIE_ORDER}"`);

    const asPaul = await loggedIn(playwright.request, paul);
    const visitor = await shopper(playwright.request);
    // Paul with a cart of his own in this browser: still not Marie's order.
    await cartIn(asPaul);
    for (const context of [asPaul, visitor]) {
      const other = await page(context, path);
      expect(other.status).toBe(404);
      expect(other.html).toContain(t('checkout.orderNotFound'));
      expect(other.html).not.toContain('data-order-confirmation');
    }
    await Promise.all([asMarie.dispose(), asPaul.dispose(), visitor.dispose()]);
  });

  test('a guest order: the browser whose cart became it, no one else', async ({ playwright }) => {
    const guest = await shopper(playwright.request);
    const cart = await cartIn(guest);
    const { url } = await api<{ url: string }>(guest, 'getCheckoutUrl', [{ cartId: cart.id }]);
    // Pay on the sandbox's hosted checkout, which sends the shopper back with the order id.
    const paid = await guest.post(url, {
      form: {
        email: 'client.invite@example.fr',
        first_name: 'Claire',
        last_name: 'Invitée',
        address1: '3 rue des Lilas',
        postal_code: '69003',
        city: 'Lyon',
        phone: '0612345678',
        country: 'FR',
      },
      maxRedirects: 0,
    });
    expect(paid.status()).toBe(303);
    const back = new URL(paid.headers().location ?? '');
    const orderId = back.searchParams.get('commande') ?? '';
    expect(orderId).toMatch(/^\d+$/);

    const other = await shopper(playwright.request);
    const asPaul = await loggedIn(playwright.request, paul);
    // A browser merely holding the cart id (its cart-id cookie) is not the one that
    // placed the order.
    const holder = await shopper(playwright.request);
    await holdCart(holder, cart.id);
    for (const context of [other, asPaul, holder]) {
      const refused = await page(context, `/paiement?commande=${orderId}`);
      expect(refused.status).toBe(404);
      expect(refused.html).not.toContain('data-order-confirmation');
    }
    // Nor is it in anyone's account.
    const account = await page(asPaul, `/mon-compte/mes-commandes/${orderId}`);
    expect(account.status).toBe(404);

    const own = await page(guest, `/paiement?commande=${orderId}`);
    expect(own.status).toBe(200);
    expect(own.html).toContain(`data-order-confirmation="${orderId}"`);
    expect(await api(holder, 'getOrderByCart', [{ cartId: cart.id }])).toBeNull();
    expect(await api(guest, 'getOrderByCart', [{ cartId: cart.id }])).toMatchObject({
      id: Number(orderId),
    });
    await Promise.all([guest.dispose(), other.dispose(), asPaul.dispose(), holder.dispose()]);
  });
});

test.describe('POST /paiement', () => {
  for (const [name, headers] of [
    ['another Origin', { Origin: 'https://evil.example' }],
    ['a cross-site fetch', { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' }],
    ['the null Origin of a sandboxed frame', { Origin: 'null' }],
    ['neither Origin nor Sec-Fetch-Site', {}],
  ] as const) {
    test(`from ${name}: 403, no hosted checkout`, async ({ playwright }) => {
      const guest = await shopper(playwright.request);
      // A forged request may well carry the shopper's cookies: here a real cart's.
      const context = await playwright.request.newContext({ baseURL: shop });
      await cartIn(guest, context);
      const response = await context.post('/paiement', { headers, maxRedirects: 0 });
      expect(response.status()).toBe(403);
      expect(response.headers().location).toBeUndefined();
      expect(await response.text()).toBe(t('error.forbidden'));
      await Promise.all([guest.dispose(), context.dispose()]);
    });
  }

  test('from the shop itself: 303 to the hosted checkout', async ({ playwright }) => {
    const guest = await shopper(playwright.request);
    await cartIn(guest);
    const response = await guest.post('/paiement', { maxRedirects: 0 });
    expect(response.status()).toBe(303);
    expect(new URL(response.headers().location ?? '').protocol).toMatch(/^https?:$/);
    await guest.dispose();
  });
});
