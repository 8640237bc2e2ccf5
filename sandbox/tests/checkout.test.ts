/**
 * The sandbox's hosted storefront over HTTP: the French checkout page of a cart's checkout_url
 * (token, validation messages, payment into a v2 order, redirect to the shop) and the customer
 * login JWT of customer_login.yml (valid, expired, reused, badly signed).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CUSTOMERS, PRODUCTS } from '../src/fixtures.ts';
import { sandboxApi, startTestSandbox, type TestSandbox } from '../src/testing.ts';

interface CartReply {
  data: { id: string; redirect_urls: { checkout_url: string } };
}

interface Order {
  id: number;
  status_id: number;
  status: string;
  customer_id: number;
  cart_id: string;
  total_inc_tax: string;
  billing_address: { email: string; street_1: string; zip: string; city: string };
}

let sandbox: TestSandbox;
let api: ReturnType<typeof sandboxApi>;
const SITE = 'http://localhost:4777';

async function newCart(customerId = 0): Promise<{ id: string; checkoutUrl: string }> {
  const reply = await api<CartReply>('POST', '/v3/carts?include=redirect_urls', {
    customer_id: customerId,
    line_items: [{ product_id: PRODUCTS.trackingVariant, variant_id: 1002, quantity: 2 }],
  });
  expect(reply.status).toBe(201);
  return { id: reply.body.data.id, checkoutUrl: reply.body.data.redirect_urls.checkout_url };
}

function post(url: string, form: Record<string, string>, cookie?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });
}

const ADDRESS = {
  email: 'invite@example.fr',
  first_name: 'Inès',
  last_name: 'Garnier',
  address1: '4 rue du Port',
  postal_code: '13002',
  city: 'Marseille',
  country: 'FR',
  phone: '06 11 22 33 44',
};

function sign(claims: Record<string, unknown>, secret = sandbox.clientSecret): string {
  const encode = (value: object): string =>
    Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = encode({ alg: 'HS256', typ: 'JWT' });
  const body = encode(claims);
  const signature = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}

function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    iss: sandbox.clientId,
    iat: Math.floor(Date.now() / 1000),
    jti: randomUUID(),
    operation: 'customer_login',
    store_hash: sandbox.storeHash,
    customer_id: CUSTOMERS.marie.id,
    redirect_to: '/cart.php?action=load',
    ...overrides,
  };
}

beforeAll(async () => {
  sandbox = await startTestSandbox({ siteUrl: SITE });
  api = sandboxApi(sandbox);
});

afterAll(async () => {
  await sandbox.close();
});

describe('hosted checkout page', () => {
  test('GET: a French page with the lines, the total, labelled fields and a Payer button', async () => {
    const cart = await newCart();
    const response = await fetch(cart.checkoutUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await response.text();
    expect(page).toContain('<html lang="fr">');
    expect(page).toContain('Matelas Élysée – 140x190 cm');
    expect(page).toMatch(/id="total">1\s638,00\s€</);
    for (const [id, label] of [
      ['email', 'Adresse e-mail'],
      ['first_name', 'Prénom'],
      ['last_name', 'Nom'],
      ['address1', 'Adresse'],
      ['postal_code', 'Code postal'],
      ['city', 'Ville'],
      ['country', 'Pays'],
      ['phone', 'Téléphone'],
    ]) {
      expect(page).toContain(`<label for="${id}">${label}</label>`);
    }
    expect(page).toContain('<button type="submit">Payer</button>');
    expect(page).not.toContain('readonly');
  });

  test('wrong token 403, unknown cart 404, other action 404', async () => {
    const cart = await newCart();
    const wrong = await fetch(cart.checkoutUrl.replace(/token=[^&]+/, 'token=nope'));
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain('Ce lien de paiement n’est pas valide.');
    const unknown = await fetch(`${sandbox.url}/cart.php?action=load&id=${randomUUID()}&token=x`);
    expect(unknown.status).toBe(404);
    expect((await fetch(`${sandbox.url}/cart.php?action=buy`)).status).toBe(404);
    const posted = await post(cart.checkoutUrl.replace(/token=[^&]+/, 'token=nope'), ADDRESS);
    expect(posted.status).toBe(403);
  });

  test('POST with mistakes: 422, the form again with French messages, nothing created', async () => {
    const cart = await newCart();
    const response = await post(cart.checkoutUrl, {
      ...ADDRESS,
      email: 'pas-un-email',
      first_name: '',
      postal_code: '130',
      address1: 'x'.repeat(41),
      phone: '12',
    });
    expect(response.status).toBe(422);
    const page = await response.text();
    for (const message of [
      'Veuillez saisir une adresse e-mail valide.',
      'Ce champ est requis.',
      'Veuillez saisir un code postal à 5 chiffres.',
      'Veuillez entrer votre adresse valide (maximum 40 caractères).',
      'Veuillez saisir un numéro de téléphone valide.',
    ]) {
      expect(page).toContain(message);
    }
    expect(page).toContain('aria-invalid="true" aria-describedby="first_name-error"');
    expect(page).toContain('value="Marseille"');
    expect((await api('GET', `/v3/carts/${cart.id}`)).status).toBe(200);
    expect((await api('GET', `/v2/orders?cart_id=${cart.id}`)).status).toBe(204);
  });

  test('POST valid: order status 11 of the cart, cart deleted, 303 to {site}/paiement?commande={id}', async () => {
    const cart = await newCart();
    const response = await post(cart.checkoutUrl, ADDRESS);
    expect(response.status).toBe(303);
    const location = response.headers.get('location') ?? '';
    const match = new RegExp(`^${SITE}/paiement\\?commande=(\\d+)$`).exec(location);
    expect(match).not.toBeNull();
    const orderId = Number(match?.[1]);
    const orders = await api<Order[]>('GET', `/v2/orders?cart_id=${cart.id}`);
    expect(orders.body.map((o) => o.id)).toEqual([orderId]);
    expect(orders.body[0]).toMatchObject({
      status_id: 11,
      status: 'Awaiting Fulfillment',
      customer_id: 0,
      cart_id: cart.id,
      total_inc_tax: '1638.0000',
      billing_address: {
        email: ADDRESS.email,
        street_1: ADDRESS.address1,
        zip: '13002',
        city: 'Marseille',
      },
    });
    const products = await api<{ variant_id: number; quantity: number }[]>(
      'GET',
      `/v2/orders/${orderId}/products`,
    );
    expect(products.body.map((p) => [p.variant_id, p.quantity])).toEqual([[1002, 2]]);
    expect((await api('GET', `/v2/orders/${orderId}/shipping_addresses`)).status).toBe(200);
    expect((await api('GET', `/v3/carts/${cart.id}`)).status).toBe(404);
    expect((await fetch(cart.checkoutUrl)).status).toBe(404);
  });

  test('a checkbox choice goes from the cart to the checkout page and the order line', async () => {
    const reply = await api<CartReply>('POST', '/v3/carts?include=redirect_urls', {
      line_items: [
        {
          product_id: PRODUCTS.trackingVariant,
          variant_id: 1002,
          quantity: 1,
          option_selections: [{ option_id: 10_000_101, option_value: 'Yes' }],
        },
      ],
    });
    const checkoutUrl = reply.body.data.redirect_urls.checkout_url;
    expect(await (await fetch(checkoutUrl)).text()).toContain(
      '140x190 cm, Reprise de l’ancien matelas : Yes',
    );
    const location = (await post(checkoutUrl, ADDRESS)).headers.get('location') ?? '';
    const orderId = /commande=(\d+)$/.exec(location)?.[1] ?? '';
    const products = await api<
      { product_options: { display_name: string; display_value: string; type: string }[] }[]
    >('GET', `/v2/orders/${orderId}/products`);
    expect(products.body[0]?.product_options.map((o) => [o.display_name, o.display_value])).toEqual(
      [
        ['Taille', '140x190 cm'],
        ['Reprise de l’ancien matelas', 'Yes'],
      ],
    );
  });

  test("a customer's cart: e-mail fixed to the customer's and the address prefilled; the order is theirs", async () => {
    const cart = await newCart(CUSTOMERS.marie.id);
    const page = await (await fetch(cart.checkoutUrl)).text();
    expect(page).toContain(`value="${CUSTOMERS.marie.email}" required readonly`);
    expect(page).toContain('value="12 rue des Lilas"');
    const response = await post(cart.checkoutUrl, { ...ADDRESS, email: 'autre@example.fr' });
    expect(response.status).toBe(303);
    const orders = await api<Order[]>('GET', `/v2/orders?cart_id=${cart.id}`);
    expect(orders.body[0]).toMatchObject({
      customer_id: CUSTOMERS.marie.id,
      billing_address: { email: CUSTOMERS.marie.email },
    });
  });
});

describe('customer login token (/login/token/{jwt})', () => {
  test('valid: session cookie and 302 to redirect_to; the checkout page then knows the customer', async () => {
    const cart = await newCart();
    const redirectTo = cart.checkoutUrl.slice(sandbox.url.length);
    const response = await fetch(
      `${sandbox.url}/login/token/${sign(claims({ redirect_to: redirectTo }))}`,
      { redirect: 'manual' },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(redirectTo);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(response.headers.get('set-cookie')).toMatch(
      /^SHOP_SESSION_TOKEN=[\w-]+; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    const page = await (await fetch(cart.checkoutUrl, { headers: { Cookie: cookie } })).text();
    expect(page).toContain(`value="${CUSTOMERS.marie.email}" required>`);
    const paid = await post(cart.checkoutUrl, { ...ADDRESS, email: CUSTOMERS.marie.email }, cookie);
    expect(paid.status).toBe(303);
    const orders = await api<Order[]>('GET', `/v2/orders?cart_id=${cart.id}`);
    // The order's customer comes from the cart (a guest cart here), not from the storefront session.
    expect(orders.body[0]?.customer_id).toBe(0);
  });

  test.each([
    ['expired (iat 121 s ago)', () => sign(claims({ iat: Math.floor(Date.now() / 1000) - 121 }))],
    [
      'from the future (iat in 61 s)',
      () => sign(claims({ iat: Math.floor(Date.now() / 1000) + 61 })),
    ],
    ['bad signature', () => sign(claims(), 'another-secret')],
    ['other issuer', () => sign(claims({ iss: 'someone' }))],
    ['other operation', () => sign(claims({ operation: 'login' }))],
    ['other store', () => sign(claims({ store_hash: 'other' }))],
    ['unknown customer', () => sign(claims({ customer_id: 9999 }))],
    ['absolute redirect_to', () => sign(claims({ redirect_to: 'https://evil.example/' }))],
    ['no jti', () => sign(claims({ jti: undefined }))],
    ['not a JWT', () => 'abc.def'],
  ])('refused when %s: 401 French page', async (_case, token) => {
    const response = await fetch(`${sandbox.url}/login/token/${token()}`, { redirect: 'manual' });
    expect(response.status).toBe(401);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.text()).toContain('Ce lien de connexion n’est pas valide ou a expiré.');
  });

  test('a jti is accepted once', async () => {
    const token = sign(claims());
    expect(
      (await fetch(`${sandbox.url}/login/token/${token}`, { redirect: 'manual' })).status,
    ).toBe(302);
    expect(
      (await fetch(`${sandbox.url}/login/token/${token}`, { redirect: 'manual' })).status,
    ).toBe(401);
  });
});
