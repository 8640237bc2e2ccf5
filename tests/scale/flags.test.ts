/**
 * Feature flags switched off for real (spec §1, §6), over HTTP, on a build per flag
 * (`flagBuild`: its own folder and sandbox, then served):
 * - every flag off: the cart, checkout, login, registration, password, account and reseller
 *   pages answer the shop's not-found page with 404; the cart, customer, order, wishlist, review
 *   and reseller methods answer 404; no island, link, widget, iframe or rating of those features
 *   is on the pages, and the CSP allows no reviews frame; without `GTM_CONTAINER_ID`, no
 *   tag-manager script nor Google origin either;
 * - only the reviews off: the review methods and everything of the reviews gone, the cart,
 *   account and reseller area there;
 * - only the transactional flag off: the reseller area (which fills carts) gone with it, the
 *   reviews there.
 * The `npm test` build has every flag on: the other suites cover that side.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../scripts/lib/run.ts';
import { PRODUCTS } from '@literie/sandbox/fixtures';
import { startSandbox, type Sandbox } from '@literie/sandbox/server';
import { cartLinkKey, mintCartToken } from '../../src/shop/carts/cart-redirect.ts';
import { freePort } from '../../src/server/free-port.ts';
import { respelled } from '../unit/path-spellings.ts';
import { startShopProcess, type ShopProcess } from './helpers/shop.ts';

const NOT_FOUND = /<h1[^>]*>\s*Page introuvable\s*<\/h1>/;

interface FlagBuild {
  get: (
    pathname: string,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; text: string; headers: Headers }>;
  call: (method: string, args: unknown[]) => Promise<{ status: number; json: unknown }>;
  /** Logs in over the API: the `Cookie` header of that session. */
  login: (email: string, password: string) => Promise<string>;
  /** The sandbox's BigCommerce API, directly (`v3/carts`...). */
  admin: (method: string, path: string, body?: unknown) => Promise<unknown>;
  /** The shop's SESSION_SECRET (the sandbox's, kept in its data folder). */
  secret: () => string;
}

/**
 * A build with these flags (into its own gitignored `dist-*` folder, against its own sandbox)
 * served for the tests of the enclosing `describe`, removed after them.
 */
function flagBuild(name: string, flags: Record<string, string | undefined>): FlagBuild {
  const distDir = `dist-flags-${name}`;
  let work = '';
  let sandbox: Sandbox | undefined;
  let shop: ShopProcess | undefined;
  let base = '';

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'shop-flags-'));
    const sandboxPort = await freePort();
    const env = {
      ...process.env,
      ...flags,
      UPSTREAM: 'sandbox',
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_DIR: path.join(work, 'sandbox'),
      STATE_DIR: path.join(work, 'state'),
    };
    // A setting given as undefined is unset for this build (the test environment sets some).
    for (const [name, value] of Object.entries(flags)) {
      if (value === undefined) Reflect.deleteProperty(env, name);
    }
    // Inside the project: the server bundle resolves its packages from node_modules.
    rmSync(distDir, { recursive: true, force: true });
    const built = await run(process.execPath, ['scripts/build.ts', '--out-dir', distDir], {
      env,
      capture: true,
    });
    if (built.code !== 0) {
      throw new Error(
        `the build with ${JSON.stringify(flags)} failed (${built.code}):\n${built.stdout}`,
      );
    }
    sandbox = await startSandbox({ port: sandboxPort, dataDir: env.SANDBOX_DIR });
    shop = await startShopProcess({ ...env, DIST_DIR: distDir }, await freePort());
    base = shop.base;
  }, 900_000);

  afterAll(async () => {
    await shop?.stop();
    await sandbox?.close();
    if (work !== '') rmSync(work, { recursive: true, force: true });
    rmSync(distDir, { recursive: true, force: true });
  });

  const post = async (method: string, args: unknown[]) => {
    const response = await fetch(`${base}/api/bigcommerce/${method}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: base,
        'sec-fetch-site': 'same-origin',
      },
      body: JSON.stringify(args),
    });
    return {
      status: response.status,
      json: (await response.json()) as unknown,
      cookies: response.headers.getSetCookie(),
    };
  };

  return {
    get: async (pathname, headers = {}) => {
      const response = await fetch(`${base}${pathname}`, { redirect: 'manual', headers });
      return { status: response.status, text: await response.text(), headers: response.headers };
    },
    call: async (method, args) => {
      const { status, json } = await post(method, args);
      return { status, json };
    },
    login: async (email, password) => {
      const { status, cookies } = await post('loginCustomer', [{ email, password }]);
      expect(status).toBe(200);
      return cookies.map((c) => c.split(';')[0] ?? '').join('; ');
    },
    admin: async (method, apiPath, body) => {
      const response = await fetch(`${sandbox?.url ?? ''}/stores/sandbox/${apiPath}`, {
        method,
        headers: { 'X-Auth-Token': 'sandbox-token', 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as unknown;
    },
    secret: () => readFileSync(path.join(work, 'sandbox', 'session-secret'), 'utf8').trim(),
  };
}

/** Pages a guard or a flag keeps from some visitors (spec §1, §2, §6). */
const GUARDED_PAGES = [
  '/panier',
  '/paiement',
  '/connexion',
  '/inscription',
  '/deconnexion',
  '/mot-de-passe',
  '/mon-compte/mes-informations',
  '/espace-revendeur',
  '/espace-revendeur/panier',
] as const;

/** The path a client sends for a spelling (URL parsing resolves `..`, `\` and `%2e` segments). */
const sentPath = (spelling: string) => new URL(`http://shop.test${spelling}`).pathname;

/**
 * Every spelling the router takes of a page answers 404 or 301 to the page itself,
 * never the page (generated spellings, `tests/unit/path-spellings.ts`).
 */
async function expectOneSpelling(
  shop: FlagBuild,
  pages: readonly string[],
  headers: Record<string, string> = {},
): Promise<void> {
  const spelled = fc
    .constantFrom(...pages)
    .chain((page) => fc.tuple(fc.constant(page), respelled(page, 4)))
    .filter(([page, spelling]) => sentPath(spelling) !== page);
  await fc.assert(
    fc.asyncProperty(spelled, async ([page, spelling]) => {
      const reply = await shop.get(spelling, headers);
      if (reply.status === 301) {
        expect(reply.headers.get('location')).toBe(page);
      } else {
        expect(reply.status, spelling).toBe(404);
        expect(reply.text).toMatch(NOT_FOUND);
      }
    }),
    { numRuns: 60 },
  );
}

const NOT_FOUND_REPLY = { status: 404, json: { message: 'Not found', statusCode: 404 } };

/** The path of the seeded product that tracks no stock. */
async function productPage(shop: FlagBuild): Promise<string> {
  const listed = (await shop.call('getProductById', [PRODUCTS.trackingNone])).json as {
    data: { id: number; name: string };
  };
  const { productPath } = await import('../../src/lib/commerce/slug.ts');
  return productPath(listed.data);
}

describe('every flag off', () => {
  const off = flagBuild('off', {
    FEATURE_TRANSACTIONAL: 'false',
    FEATURE_REVIEWS: 'false',
    FEATURE_RESELLER_AREA: 'false',
    // spec §7: no tag-manager container setting, no container (the test build sets one).
    GTM_CONTAINER_ID: undefined,
  });
  const { get, call } = off;

  describe('transactional off: the pages of the feature do not exist', () => {
    test.each([
      '/panier',
      '/panier?authenticated=true',
      '/paiement',
      '/connexion',
      '/inscription',
      '/deconnexion',
      '/mot-de-passe?resetToken=abc',
      '/login.php',
      '/mon-compte',
      '/mon-compte/mes-commandes',
      '/espace-revendeur',
      '/espace-revendeur/connexion',
    ])('%s answers the not-found page, 404', async (pathname) => {
      const reply = await get(pathname);
      expect(reply.status).toBe(404);
      expect(reply.text).toMatch(NOT_FOUND);
    });

    test('/404 answers 404 too, and the home page 200', async () => {
      expect((await get('/404')).status).toBe(404);
      expect((await get('/')).status).toBe(200);
    });

    test.each([
      '/panier.html',
      '/paiement.html',
      '/connexion.html',
      '/inscription.html',
      '/deconnexion.html',
      '/mot-de-passe.html',
      '/espace-revendeur.html',
      '/panier/index.html',
      '/pan%69er',
      '/panier%252ehtml',
      '//connexion',
    ])('%s: 301 to its one spelling, which does not exist', async (pathname) => {
      const reply = await get(pathname);
      expect(reply.status).toBe(301);
      const location = reply.headers.get('location') ?? '';
      expect(location.endsWith('.html')).toBe(false);
      expect(await get(location)).toMatchObject({ status: 404 });
    });

    test('property: no spelling of a page switched off serves it', async () => {
      await expectOneSpelling(off, GUARDED_PAGES);
    });
  });

  describe('transactional and reviews off: the API refuses their methods', () => {
    test.each([
      ['getCart', [{ id: '00000000-0000-4000-8000-000000000000' }]],
      ['createCart', [{ lineItems: [] }]],
      ['getCustomers', []],
      ['loginCustomer', [{ email: 'a@example.fr', password: 'x' }]],
      ['getOrders', []],
      ['getAllWishlists', []],
      ['getProductReviewCollection', [{ productId: PRODUCTS.trackingNone }]],
      ['createProductReview', [{}]],
      ['sendCartToClient', [{}, {}]],
    ])('%s: 404', async (method, args) => {
      expect(await call(method, args)).toEqual(NOT_FOUND_REPLY);
    });

    test('the catalogue answers', async () => {
      expect((await call('getProductById', [PRODUCTS.trackingNone])).status).toBe(200);
    });
  });

  describe('nothing of the features switched off is on the pages', () => {
    test('home: no account, cart or wishlist link, no shop shell, no reviews widget, rating or frame', async () => {
      const { text } = await get('/');
      expect(text).not.toContain('data-account-link');
      expect(text).not.toContain('data-cart-link');
      expect(text).not.toContain('data-wishlist-link');
      // No link to a page that does not exist (the footer navigation names the cart).
      for (const gone of ['/panier', '/connexion', '/mon-compte', '/espace-revendeur']) {
        expect(text).not.toContain(`href="${gone}"`);
      }
      expect(text).not.toContain('data-shop-shell');
      expect(text).not.toContain('data-reviews-widget');
      expect(text).not.toContain('<iframe');
      expect(text).not.toContain('avis-garantis');
      const csp = /<meta http-equiv="content-security-policy" content="([^"]*)"/i.exec(text)?.[1];
      expect(csp).toBeDefined();
      expect(csp).not.toContain('avis-garantis');
      // No tag-manager container without GTM_CONTAINER_ID: no script, no Google origin.
      expect(text).not.toContain('data-tag-manager-id');
      expect(text).not.toContain('TagManager.astro');
      expect(text).not.toMatch(/google/i);
    });

    test('a product page: no add-to-cart, no wishlist heart, no reviews section', async () => {
      const { status, text } = await get(await productPage(off));
      expect(status).toBe(200);
      expect(text).not.toMatch(/<button[^>]*>(?:(?!<\/button>)[\s\S])*Ajouter au panier/);
      expect(text).not.toContain('data-wishlist-heart');
      expect(text).not.toContain('data-product-reviews');
      expect(text).not.toContain('id="avis"');
    });
  });
});

describe('only the reviews off (transactional and reseller area on)', () => {
  const shop = flagBuild('reviews', {
    FEATURE_TRANSACTIONAL: 'true',
    FEATURE_REVIEWS: 'false',
    FEATURE_RESELLER_AREA: 'true',
  });

  test('the review methods answer 404, the cart and customer methods do not', async () => {
    expect(
      await shop.call('getProductReviewCollection', [{ productId: PRODUCTS.trackingNone }]),
    ).toEqual(NOT_FOUND_REPLY);
    expect(await shop.call('createProductReview', [{}])).toEqual(NOT_FOUND_REPLY);
    const cart = await shop.call('getCart', [{ id: '00000000-0000-4000-8000-000000000000' }]);
    expect(cart.status).not.toBe(404);
    expect(await shop.call('getCustomers', [])).toEqual({ status: 200, json: { data: null } });
  });

  test('no reviews section, widget, frame or rating link; the cart and account are there', async () => {
    const home = (await shop.get('/')).text;
    expect(home).not.toContain('data-reviews-widget');
    expect(home).not.toContain('<iframe');
    expect(home).not.toContain('avis-garantis');
    expect(home).toContain('data-cart-link');
    expect(home).toContain('data-account-link');
    expect(home).toContain('data-shop-shell');
    const product = await shop.get(await productPage(shop));
    expect(product.status).toBe(200);
    expect(product.text).not.toContain('data-product-reviews');
    expect(product.text).not.toContain('id="avis"');
    expect(product.text).toContain('data-wishlist-heart');
  });

  test('a customer who is no reseller never gets the area, in any spelling', async () => {
    const { CUSTOMERS } = await import('@literie/sandbox/fixtures');
    const cookie = await shop.login(CUSTOMERS.marie.email, CUSTOMERS.marie.password);
    const html = await shop.get('/espace-revendeur.html', { cookie });
    expect(html.status).toBe(301);
    expect(html.headers.get('location')).toBe('/espace-revendeur');
    const area = await shop.get('/espace-revendeur', { cookie });
    expect(area.status).toBe(302);
    expect(area.headers.get('location')).toBe('/');
    // Every other spelling: 301 to the area (whose guard sends her away) or not found.
    const spelled = fc
      .constantFrom('/espace-revendeur', '/espace-revendeur/panier')
      .chain((page) => fc.tuple(fc.constant(page), respelled(page, 4)))
      .filter(([page, spelling]) => sentPath(spelling) !== page);
    await fc.assert(
      fc.asyncProperty(spelled, async ([page, spelling]) => {
        const reply = await shop.get(spelling, { cookie });
        expect(reply.text).not.toContain('data-reseller');
        if (reply.status === 301) expect(reply.headers.get('location')).toBe(page);
        else expect(reply.status, spelling).toBe(404);
      }),
      { numRuns: 40 },
    );
  });

  test('the cart, login and reseller pages exist', async () => {
    expect((await shop.get('/panier')).status).toBe(200);
    expect((await shop.get('/connexion')).status).toBe(200);
    const area = await shop.get('/espace-revendeur');
    expect(area.status).toBe(302);
    expect(area.headers.get('location')).toBe('/espace-revendeur/connexion');
  });
});

describe('only the transactional flag off (reviews and reseller area on)', () => {
  const shop = flagBuild('transactional', {
    FEATURE_TRANSACTIONAL: 'false',
    FEATURE_REVIEWS: 'true',
    FEATURE_RESELLER_AREA: 'true',
  });

  test('the reseller area, which fills carts, does not exist without it', async () => {
    for (const pathname of ['/espace-revendeur', '/espace-revendeur/connexion', '/panier']) {
      const reply = await shop.get(pathname);
      expect(reply.status).toBe(404);
      expect(reply.text).toMatch(NOT_FOUND);
    }
    expect(await shop.call('sendCartToClient', [{}, {}])).toEqual(NOT_FOUND_REPLY);
  });

  test('a valid cart link does nothing: the page asked for, no cookie, no redirect', async () => {
    const product = (await shop.call('getProductById', [PRODUCTS.trackingNone])).json as {
      data: { id: number; variants: { id: number }[] };
    };
    const cart = (await shop.admin('POST', 'v3/carts', {
      line_items: [
        {
          product_id: product.data.id,
          variant_id: product.data.variants[0]?.id,
          quantity: 1,
        },
      ],
    })) as { data: { id: string } };
    const token = mintCartToken(cartLinkKey(shop.secret()), cart.data.id);
    await shop.admin('POST', `v3/carts/${cart.data.id}/metafields`, {
      namespace: 'cart-redirection',
      key: 'token',
      value: token,
      permission_set: 'app_only',
    });
    const home = await shop.get('/');
    for (const pathname of ['/', '/panier']) {
      const reply = await shop.get(`${pathname}?id=${cart.data.id}&token=${token}`);
      expect(reply.headers.get('set-cookie')).toBeNull();
      expect(reply.headers.get('location')).toBeNull();
      if (pathname === '/') {
        expect(reply.status).toBe(200);
        expect(reply.text).toBe(home.text);
      } else {
        expect(reply.status).toBe(404);
      }
    }
  });

  test('the reviews stay: widget, frame, rating link, product reviews and their methods', async () => {
    const home = (await shop.get('/')).text;
    expect(home).toContain('data-reviews-widget');
    expect(home).toContain('<iframe');
    expect(home).not.toContain('data-cart-link');
    const product = await shop.get(await productPage(shop));
    expect(product.text).toContain('data-product-reviews');
    expect(product.text).not.toContain('data-wishlist-heart');
    const reviews = await shop.call('getProductReviewCollection', [
      { productId: PRODUCTS.trackingNone },
    ]);
    expect(reviews.status).toBe(200);
  });
});
