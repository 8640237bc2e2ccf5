/**
 * The Astro middleware (the order of `src/shop/middleware/on-request.ts`: trailing slash, redirects) over real
 * HTTP: a node:http server builds an Astro APIContext per request and runs the same sequence
 * `src/shop/middleware/on-request.ts` exports, with the redirect list loaded from a sandbox (fresh database).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MiddlewareHandler } from 'astro';
import { createContext } from 'astro/middleware';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  createBigCommerceClient,
  getProductById,
  type BigCommerceClient,
} from '../../src/shop/connectors/bigcommerce/index.ts';
import { testMiddleware } from './helpers/middleware.ts';
import { loadRedirectList, type RedirectList } from '../../src/shop/middleware/index.ts';
import { productPath } from '../../src/lib/commerce/slug.ts';
import { HOSTILE_REDIRECT, PRODUCTS } from '@literie/sandbox/fixtures';
import { clearUpstreamCaches } from '../../src/shop/connectors/http/cache.ts';
import { sandboxApi, startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';

let sandbox: TestSandbox;
let client: BigCommerceClient;
let server: Server;
let base = '';
/** The middleware under test; replaced by tests that need their own loader. */
let middleware: MiddlewareHandler;
let redirectLoads = 0;
let productLookups = 0;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = createBigCommerceClient({
    apiUrl: sandbox.url,
    storeHash: sandbox.storeHash,
    accessToken: sandbox.token,
  });
  server = createServer((req, res) => {
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`);
    const context = createContext({ request, defaultLocale: 'fr' });
    // What Astro knows per route: tests mark a request as pre-rendered with a header.
    context.isPrerendered = req.headers['x-test-prerendered'] === '1';
    const next = () =>
      Promise.resolve(new Response(`page ${context.url.pathname}${context.url.search}`));
    void Promise.resolve(middleware(context, next)).then(async (response) => {
      const reply = response ?? new Response('no response', { status: 500 });
      res.writeHead(reply.status, Object.fromEntries(reply.headers));
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

beforeEach(() => {
  redirectLoads = 0;
  productLookups = 0;
  middleware = testMiddleware({
    redirects: {
      load: () => {
        redirectLoads += 1;
        return loadRedirectList(client);
      },
    },
    products: {
      lookup: (id) => {
        productLookups += 1;
        return getProductById(client, id);
      },
    },
  });
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { redirect: 'manual', headers });
  return {
    status: response.status,
    location: response.headers.get('location'),
    text: await response.text(),
  };
}

describe('withTrailingSlash (spec §2)', () => {
  test.each([
    ['a path with a trailing slash', '/mon-compte/', '/mon-compte'],
    [
      'nested, query kept',
      '/c/matelas/ressorts/?page=2&sort=1',
      '/c/matelas/ressorts?page=2&sort=1',
    ],
    ['several slashes', '/panier//', '/panier'],
    ['a protocol-relative lookalike stays on this site', '//evil.example/', '/evil.example'],
  ])('%s → 301', async (_case, path, location) => {
    const reply = await get(path);
    expect(reply).toMatchObject({ status: 301, location });
    expect(redirectLoads).toBe(0);
  });

  test('the root and paths without a trailing slash go on', async () => {
    expect(await get('/')).toMatchObject({ status: 200, text: 'page /' });
    expect(await get('/panier?x=1')).toMatchObject({ status: 200, text: 'page /panier?x=1' });
  });
});

describe('withRedirects (spec §2 redirections)', () => {
  let list: RedirectList;

  beforeAll(async () => {
    list = await loadRedirectList(client);
  });

  const redirect = (fromPath: string) => {
    const found = list.redirects.find((r) => r.fromPath === fromPath);
    if (!found) throw new Error(`no sandbox redirect from ${fromPath}`);
    return found;
  };

  test("the store's domain and the storefront hosts are this shop's hosts", async () => {
    const store = await fetch(`${sandbox.url}/stores/${sandbox.storeHash}/v2/store`, {
      headers: { 'X-Auth-Token': sandbox.token },
    }).then((r) => r.json() as Promise<{ domain: string }>);
    expect(list.shopHosts).toContain(store.domain);
    const withHosts = await loadRedirectList(client, ['boutique-b.test']);
    expect(withHosts.shopHosts).toContain('boutique-b.test');
  });

  test('a from_path → 301 to the path of its to_url', async () => {
    const soldes = redirect('/soldes');
    const expected = new URL(soldes.toUrl).pathname.replace(/\/$/, '');
    expect(await get('/soldes')).toMatchObject({ status: 301, location: expected });
    // Case and trailing slash are ignored like BigCommerce does.
    expect(await get('/SOLDES')).toMatchObject({ status: 301, location: expected });
  });

  test('a product, category or brand target → 301 to its path on this shop', async () => {
    const category = redirect('/linge');
    expect(category.toType).toBe('category');
    expect(await get('/linge')).toMatchObject({
      status: 301,
      location: `/c${new URL(category.toUrl).pathname.replace(/\/$/, '')}`,
    });
    const product = redirect('/matelas-confort-ancien-modele');
    expect(await get('/matelas-confort-ancien-modele')).toMatchObject({
      status: 301,
      location: `/p/${String(product.toEntityId)}${new URL(product.toUrl).pathname}`,
    });
    expect(await get('/dormelune')).toMatchObject({ status: 301, location: '/marque/dormelune' });
  });

  test('/p/{id}/rest matches rest and keeps the product id form', async () => {
    const product = redirect('/matelas-confort-ancien-modele');
    expect(product.toEntityId).not.toBeNull();
    expect(await get('/p/999/matelas-confort-ancien-modele')).toMatchObject({
      status: 301,
      location: `/p/${String(product.toEntityId)}/matelas-confort-ancien-modele`,
    });
  });

  test('an external target → 301 to the absolute URL', async () => {
    const guide = redirect('/guide-du-sommeil');
    expect(await get('/guide-du-sommeil')).toMatchObject({ status: 301, location: guide.toUrl });
  });

  test('a javascript: target of the list is no redirect: the page goes on, no Location', async () => {
    const hostile = redirect(HOSTILE_REDIRECT.fromPath);
    expect(hostile.toUrl).toBe(HOSTILE_REDIRECT.toUrl);
    for (const path of [HOSTILE_REDIRECT.fromPath, `/p/12${HOSTILE_REDIRECT.fromPath}`]) {
      expect(await get(path)).toMatchObject({
        status: 200,
        location: null,
        text: `page ${path}`,
      });
    }
  });

  test.each([
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['protocol-relative', '//evil.example/x'],
    ['backslash', '/\\evil.example'],
    ['userinfo', 'https://www.literie.test@evil.example/'],
  ])('a %s target is no redirect either', async (_case, toUrl) => {
    const hostile = { ...redirect('/soldes'), fromPath: '/piege', toUrl };
    middleware = testMiddleware({
      redirects: {
        load: () => Promise.resolve({ redirects: [hostile], shopHosts: ['www.literie.test'] }),
      },
    });
    expect(await get('/piege')).toMatchObject({ status: 200, location: null, text: 'page /piege' });
  });

  test('no match → the page', async () => {
    expect(await get('/mentions-legales')).toMatchObject({
      status: 200,
      text: 'page /mentions-legales',
    });
  });

  test('the list is loaded once for all requests', async () => {
    await Promise.all([get('/soldes'), get('/linge'), get('/nothing-here'), get('/cgv')]);
    await get('/soldes');
    expect(redirectLoads).toBe(1);
  });

  test('pre-rendered routes, the API and Astro internals skip the redirects', async () => {
    expect(await get('/soldes', { 'x-test-prerendered': '1' })).toMatchObject({
      status: 200,
      text: 'page /soldes',
    });
    expect(await get('/api/bigcommerce/getProducts')).toMatchObject({ status: 200 });
    expect(await get('/_image')).toMatchObject({ status: 200 });
    expect(redirectLoads).toBe(0);
  });

  test('a failed load is logged only; requests go on without redirects until the retry pause is over', async () => {
    const logError = vi.fn();
    let attempts = 0;
    let time = 0;
    middleware = testMiddleware({
      redirects: {
        load: () => {
          attempts += 1;
          return attempts === 1
            ? Promise.reject(new Error('upstream down'))
            : loadRedirectList(client);
        },
        logError,
        retryAfterMs: 10_000,
        now: () => time,
      },
    });
    expect(await get('/soldes')).toMatchObject({ status: 200, text: 'page /soldes' });
    expect(logError).toHaveBeenCalledTimes(1);
    time = 9_999;
    expect(await get('/soldes')).toMatchObject({ status: 200, text: 'page /soldes' });
    expect(attempts).toBe(1);
    time = 10_000;
    expect(await get('/soldes')).toMatchObject({ status: 301 });
    expect(await get('/linge')).toMatchObject({ status: 301 });
    expect(attempts).toBe(2);
    expect(logError).toHaveBeenCalledTimes(1);
  });

  test('a failure of the real loader (bad token) is logged, never thrown', async () => {
    const logError = vi.fn();
    const wrong = createBigCommerceClient({
      apiUrl: sandbox.url,
      storeHash: sandbox.storeHash,
      accessToken: 'nope',
    });
    middleware = testMiddleware({ redirects: { load: () => loadRedirectList(wrong), logError } });
    expect(await get('/soldes')).toMatchObject({ status: 200 });
    expect(logError).toHaveBeenCalledWith(
      expect.stringContaining('redirect list'),
      expect.objectContaining({ status: 401 }),
    );
  });
});

describe('order', () => {
  test('the trailing slash goes first, then redirects apply to the clean path', async () => {
    expect(await get('/soldes/')).toMatchObject({ status: 301, location: '/soldes' });
    expect(redirectLoads).toBe(0);
  });
});

describe('withProductPath (outdated product slugs)', () => {
  test('an outdated or missing slug answers 301 to the product page, looked up once', async () => {
    const product = await getProductById(client, PRODUCTS.redirectTarget);
    if (!product) throw new Error('fixture product missing');
    const canonical = productPath(product);
    expect(await get(`/p/${product.id}/ancien-nom?x=1`)).toMatchObject({
      status: 301,
      location: `${canonical}?x=1`,
    });
    expect(await get(`/p/${product.id}`)).toMatchObject({ status: 301, location: canonical });
    expect(productLookups).toBe(1);
  });

  test('the canonical path itself (a product newer than the build) goes on', async () => {
    const product = await getProductById(client, PRODUCTS.trackingNone);
    if (!product) throw new Error('fixture product missing');
    expect(await get(productPath(product))).toMatchObject({
      status: 200,
      text: `page ${productPath(product)}`,
    });
  });

  test('an unknown or hidden product goes on to the 404', async () => {
    expect(await get('/p/999999/inconnu')).toMatchObject({
      status: 200,
      text: 'page /p/999999/inconnu',
    });
    expect(await get(`/p/${PRODUCTS.retired}/ancien`)).toMatchObject({ status: 200 });
  });

  test('a published rename: the old path answers 301 to the new one at once, not a 404', async () => {
    const api = sandboxApi(sandbox);
    const id = PRODUCTS.trackingNone;
    const product = await getProductById(client, id);
    if (!product) throw new Error('fixture product missing');
    const oldPath = productPath(product);
    // Canonical: it goes on (to its page), and the lookup is kept.
    expect(await get(oldPath)).toMatchObject({ status: 200, text: `page ${oldPath}` });
    const name = `${product.name} (nouveau nom)`;
    const renamed = await api('PUT', `/v3/catalog/products/${String(id)}`, { name });
    expect(renamed.status).toBe(200);
    try {
      // What a publish does in every server process of every copy (src/server/serve.ts,
      // `purgeRenders`): the upstream read caches are emptied.
      clearUpstreamCaches();
      const newPath = productPath({ id, name });
      expect(newPath).not.toBe(oldPath);
      expect(await get(oldPath)).toMatchObject({ status: 301, location: newPath });
      expect(productLookups).toBe(2);
    } finally {
      await api('PUT', `/v3/catalog/products/${String(id)}`, { name: product.name });
      clearUpstreamCaches();
    }
  });

  test('pre-rendered routes are not looked up', async () => {
    expect(await get('/p/101/autre', { 'x-test-prerendered': '1' })).toMatchObject({ status: 200 });
    expect(productLookups).toBe(0);
  });
});
