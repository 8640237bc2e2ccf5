/**
 * Feature flags switched off for real (issue 10, spec §1, §6), over HTTP on a build of their own:
 * `FEATURE_TRANSACTIONAL=false`, `FEATURE_REVIEWS=false` (and the reseller area off, its
 * default). The cart, checkout, login, registration, password, account and reseller pages answer
 * the shop's not-found page with 404; the cart, customer, order, wishlist and review methods
 * answer 404; no island, link, widget, iframe or rating of those features is on the pages, and
 * the CSP allows no reviews frame. (The `npm test` build has every flag on: the other suites
 * cover that side.) Builds into its own folder against its own sandbox, then serves it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../scripts/lib/run.ts';
import { PRODUCTS } from '../../scripts/sandbox/fixtures.ts';
import { startSandbox, type Sandbox } from '../../scripts/sandbox/server.ts';
import { freePort } from '../integration/helpers/redis.ts';
import { startShopProcess, type ShopProcess } from './helpers/shop.ts';

const FLAGS = {
  FEATURE_TRANSACTIONAL: 'false',
  FEATURE_REVIEWS: 'false',
  FEATURE_RESELLER_AREA: 'false',
};
const NOT_FOUND = /<h1[^>]*>\s*Page introuvable\s*<\/h1>/;
/** The build with the flags off (gitignored `dist-*`), removed after the tests. */
const DIST_DIR = 'dist-flags';

let work = '';
let sandbox: Sandbox | undefined;
let shop: ShopProcess | undefined;
let base = '';

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'shop-flags-'));
  const sandboxPort = await freePort();
  const env = {
    ...process.env,
    ...FLAGS,
    UPSTREAM: 'sandbox',
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_DIR: path.join(work, 'sandbox'),
    STATE_DIR: path.join(work, 'state'),
  };
  // Inside the project: the server bundle resolves its packages from node_modules.
  const distDir = DIST_DIR;
  rmSync(distDir, { recursive: true, force: true });
  const built = await run(process.execPath, ['scripts/build.ts', '--out-dir', distDir], {
    env,
    capture: true,
  });
  if (built.code !== 0) {
    throw new Error(`the build with the flags off failed (${built.code}):\n${built.stdout}`);
  }
  sandbox = await startSandbox({ port: sandboxPort, dataDir: env.SANDBOX_DIR });
  shop = await startShopProcess({ ...env, DIST_DIR: distDir }, await freePort());
  base = shop.base;
}, 900_000);

afterAll(async () => {
  await shop?.stop();
  await sandbox?.close();
  if (work !== '') rmSync(work, { recursive: true, force: true });
  rmSync(DIST_DIR, { recursive: true, force: true });
});

const get = async (pathname: string) => {
  const response = await fetch(`${base}${pathname}`, { redirect: 'manual' });
  return { status: response.status, text: await response.text(), headers: response.headers };
};

const call = async (method: string, args: unknown[]) => {
  const response = await fetch(`${base}/api/bigcommerce/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify(args),
  });
  return { status: response.status, json: (await response.json()) as unknown };
};

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
    expect(await call(method, args)).toEqual({
      status: 404,
      json: { message: 'Not found', statusCode: 404 },
    });
  });

  test('the catalogue answers', async () => {
    expect((await call('getProductById', [PRODUCTS.trackingNone])).status).toBe(200);
  });
});

describe('nothing of the features switched off is on the pages', () => {
  test('home: no account, cart or wishlist link, no shell island, no reviews widget, rating or frame', async () => {
    const { text } = await get('/');
    expect(text).not.toContain('data-account-link');
    expect(text).not.toContain('data-cart-link');
    expect(text).not.toContain('data-wishlist-link');
    // No link to a page that does not exist (the footer navigation names the cart).
    for (const gone of ['/panier', '/connexion', '/mon-compte', '/espace-revendeur']) {
      expect(text).not.toContain(`href="${gone}"`);
    }
    expect(text).not.toMatch(/component-url="[^"]*ShopShell/);
    expect(text).not.toContain('data-reviews-widget');
    expect(text).not.toContain('<iframe');
    expect(text).not.toContain('avis-garantis');
    const csp = /<meta http-equiv="content-security-policy" content="([^"]*)"/i.exec(text)?.[1];
    expect(csp).toBeDefined();
    expect(csp).not.toContain('avis-garantis');
  });

  test('a product page: no add-to-cart, no wishlist heart, no reviews section', async () => {
    const listed = (await call('getProductById', [PRODUCTS.trackingNone])).json as {
      data: { id: number; name: string };
    };
    const { productPath } = await import('../../src/lib/commerce/slug.ts');
    const { status, text } = await get(productPath(listed.data));
    expect(status).toBe(200);
    expect(text).not.toMatch(/<button[^>]*>(?:(?!<\/button>)[\s\S])*Ajouter au panier/);
    expect(text).not.toContain('data-wishlist-heart');
    expect(text).not.toContain('data-product-reviews');
    expect(text).not.toContain('id="avis"');
  });
});
