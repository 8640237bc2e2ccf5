/**
 * The route guards (spec §2: login-required, cart-authenticated, /login.php, /mot-de-passe) and
 * the redirect-to-cart of the Astro middleware over real HTTP, with the cart lookup against a
 * sandbox (fresh database). The session check is a test header here; its signing is tested in
 * tests/unit/session.test.ts and end to end in the browser tests.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createContext } from 'astro/middleware';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { takeReturnPath } from '../../src/islands/auth/after-login.ts';
import { readCookie } from '../../src/lib/commerce/cookie.ts';
import { ACCOUNT_HOME } from '../../src/lib/commerce/guards.ts';
import {
  cartLinkKey,
  mintCartToken,
  resolveCartRedirect,
} from '../../src/shop/carts/cart-redirect.ts';
import { setCookieJar } from '../../src/lib/stores/cookie-jar.ts';
import {
  createBigCommerceClient,
  createCart,
  createCartMetafield,
  getProductById,
  type BigCommerceClient,
} from '../../src/shop/connectors/bigcommerce/index.ts';
import { testMiddleware } from './helpers/middleware.ts';
import { PRODUCTS } from '@literie/sandbox/fixtures';
import { startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';

let sandbox: TestSandbox;
let client: BigCommerceClient;
let server: Server;
let base = '';
let visitorLookups = 0;
let cartId = '';
let token = '';
const key = cartLinkKey('k'.repeat(32));

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = createBigCommerceClient({
    apiUrl: sandbox.url,
    storeHash: sandbox.storeHash,
    accessToken: sandbox.token,
  });
  const product = await getProductById(client, PRODUCTS.trackingNone);
  const cart = await createCart(client, {
    lineItems: [
      { productId: PRODUCTS.trackingNone, variantId: product?.variants[0]?.id, quantity: 1 },
    ],
  });
  cartId = cart.id;
  token = mintCartToken(key, cartId);
  await createCartMetafield(client, cartId, {
    namespace: 'cart-redirection',
    key: 'token',
    value: token,
  });
  const middleware = testMiddleware({
    redirects: { load: () => Promise.resolve({ redirects: [], shopHosts: [] }) },
    guards: { isLoggedIn: (request) => request.headers.get('x-test-session') === '1' },
    reseller: {
      visitor: (request) => {
        visitorLookups += 1;
        const who = request.headers.get('x-test-visitor');
        return Promise.resolve(who === 'reseller' || who === 'customer' ? who : 'visitor');
      },
    },
    cartRedirect: {
      resolve: (_request, query) => resolveCartRedirect(client, key, query),
      cookieMaxAge: 3600,
    },
  });
  server = createServer((req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      headers,
    });
    const context = createContext({ request, defaultLocale: 'fr' });
    context.isPrerendered = req.headers['x-test-prerendered'] === '1';
    const next = () => Promise.resolve(new Response(`page ${context.url.pathname}`));
    void Promise.resolve(middleware(context, next)).then(async (response) => {
      const reply = response ?? new Response('no response', { status: 500 });
      const out: Record<string, string | string[]> = Object.fromEntries(reply.headers);
      const cookies = reply.headers.getSetCookie();
      if (cookies.length > 0) out['set-cookie'] = cookies;
      res.writeHead(reply.status, out);
      res.end(await reply.text());
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
  await sandbox.close();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { redirect: 'manual', headers });
  return {
    status: response.status,
    location: response.headers.get('location'),
    cookies: response.headers.getSetCookie(),
    text: await response.text(),
  };
}

describe('route guards (spec §2)', () => {
  test.each([
    ['/mon-compte/mes-commandes?page=2', '/mon-compte/mes-commandes?page=2'],
    ['/mon-compte', '/mon-compte'],
    ['/panier?authenticated=true', '/panier'],
  ])('a visitor asking for %s goes to /connexion, %s kept for after login', async (path, kept) => {
    const reply = await get(path);
    expect(reply.status).toBe(302);
    expect(reply.location).toBe('/connexion');
    expect(reply.cookies).toEqual([
      `redirect-after-login=${encodeURIComponent(kept)}; Max-Age=600; Path=/; SameSite=Lax`,
    ]);
  });

  test('a logged-in customer gets the page', async () => {
    expect(await get('/mon-compte/mes-commandes', { 'x-test-session': '1' })).toMatchObject({
      status: 200,
      text: 'page /mon-compte/mes-commandes',
    });
  });

  test('/login.php goes to /deconnexion; /mot-de-passe without resetToken to /', async () => {
    expect(await get('/login.php')).toMatchObject({ status: 302, location: '/deconnexion' });
    expect(await get('/mot-de-passe')).toMatchObject({ status: 302, location: '/' });
    expect(await get('/mot-de-passe?resetToken=abc')).toMatchObject({ status: 200 });
  });

  test('pre-rendered pages are not guarded (no visitor at build time)', async () => {
    expect(await get('/mon-compte', { 'x-test-prerendered': '1' })).toMatchObject({ status: 200 });
  });
});

describe('reseller-area guard (spec §2)', () => {
  test.each([
    ['visitor', '/espace-revendeur/panier', 302, '/espace-revendeur/connexion'],
    ['visitor', '/espace-revendeur/connexion', 200, null],
    ['customer', '/espace-revendeur', 302, '/'],
    ['customer', '/espace-revendeur/connexion', 302, '/'],
    ['reseller', '/espace-revendeur/panier', 200, null],
    ['reseller', '/espace-revendeur/connexion', 302, '/espace-revendeur'],
  ])('a %s asking for %s: %i %s', async (who, path, status, location) => {
    const reply = await get(path, { 'x-test-visitor': who, 'x-test-session': '1' });
    expect(reply.status).toBe(status);
    expect(reply.location).toBe(location);
  });

  test('a visitor keeps the path asked for, for after login', async () => {
    const reply = await get('/espace-revendeur?q=matelas', { 'x-test-visitor': 'visitor' });
    expect(reply.cookies).toEqual([
      `redirect-after-login=${encodeURIComponent('/espace-revendeur?q=matelas')}; Max-Age=600; Path=/; SameSite=Lax`,
    ]);
  });

  test('no lookup outside the area, nor for pre-rendered pages', async () => {
    visitorLookups = 0;
    await get('/c/matelas', { 'x-test-visitor': 'customer' });
    await get('/espace-revendeurs', { 'x-test-visitor': 'customer' });
    await get('/espace-revendeur', { 'x-test-visitor': 'customer', 'x-test-prerendered': '1' });
    expect(visitorLookups).toBe(0);
  });
});

describe('the way back after login stays on the shop', () => {
  /**
   * What the login island does after login with the cookie a guard set: reads it back from
   * `document.cookie` (the `name=value` pair of the `Set-Cookie`), forgets it, goes there.
   */
  function afterLogin(setCookies: readonly string[], logins = 1): string[] {
    let documentCookie = setCookies.map((c) => c.split(';')[0] ?? '').join('; ');
    setCookieJar({
      get: (name) => readCookie(documentCookie, name),
      set: (cookie) => {
        documentCookie = cookie.split(';')[0] ?? '';
      },
      secure: false,
    });
    try {
      return Array.from({ length: logins }, () => takeReturnPath());
    } finally {
      setCookieJar();
    }
  }

  // Escaped spellings get their one canonical spelling first (301, commerce/page-path.ts),
  // before any guard: the guard then only ever keeps canonical paths of the shop.
  test.each([
    [
      'encoded dots and slashes (was http://evil.example/)',
      '/mon-compte/%2e%2e%2f.%2f%2fevil.example',
      '/evil.example',
    ],
    ['double-encoded slashes', '/mon-compte/%252f%252fevil.example', '/mon-compte/evil.example'],
    ['an encoded backslash', '/mon-compte/%5c%5cevil.example', '/mon-compte/evil.example'],
  ])('%s: 301 to a canonical path of the shop, before the guard', async (_case, path, location) => {
    const reply = await get(path);
    expect(reply).toMatchObject({ status: 301, location });
    expect(reply.cookies).toEqual([]);
  });

  test('an encoded CRLF: not found, before the guard', async () => {
    const reply = await get('/mon-compte/%0d%0aLocation:%20//evil.example');
    expect(reply.status).not.toBe(302);
    expect(reply.location).toBeNull();
    expect(reply.cookies).toEqual([]);
  });

  test.each([['a userinfo lookalike', '/mon-compte/@evil.example', '/mon-compte/@evil.example']])(
    '%s: the guard keeps a path of the shop, login goes back there',
    async (_case, path, kept) => {
      const reply = await get(path);
      expect(reply.status).toBe(302);
      expect(reply.location).toBe('/connexion');
      expect(reply.cookies).toEqual([
        `redirect-after-login=${encodeURIComponent(kept)}; Max-Age=600; Path=/; SameSite=Lax`,
      ]);
      const [back = ''] = afterLogin(reply.cookies);
      expect(back).toBe(kept);
      // The browser lands back on this shop.
      expect(new URL(back, base).origin).toBe(base);
    },
  );

  test('the way back is used once, then the account page', async () => {
    const reply = await get('/mon-compte/mes-adresses');
    expect(afterLogin(reply.cookies, 2)).toEqual(['/mon-compte/mes-adresses', ACCOUNT_HOME]);
  });
});

describe('redirect-to-cart (spec §2)', () => {
  test('a matching token sets the cart cookie and goes to /panier', async () => {
    const reply = await get(`/panier?id=${cartId}&token=${token}`);
    expect(reply.status).toBe(302);
    expect(reply.location).toBe('/panier');
    expect(reply.cookies).toEqual([`cart-id=${cartId}; Max-Age=3600; Path=/; SameSite=Lax`]);
  });

  test.each([
    ['a wrong token', () => `/panier?id=${cartId}&token=autre`],
    ['an empty token', () => `/panier?id=${cartId}&token=`],
    ['no id', () => `/panier?token=${token}`],
    ['an unknown cart', () => '/panier?id=00000000-0000-4000-8000-000000000000&token=x'],
    ['an id that is not a cart id', () => '/panier?id=1%20OR%201&token=x'],
  ])('%s: the page as asked, no cookie', async (_case, path) => {
    const reply = await get(path());
    expect(reply.status).toBe(200);
    expect(reply.cookies).toEqual([]);
  });
});
