/**
 * The search's vocabulary read (src/shop/loaders/search-vocabulary.ts) against
 * the sandbox: its own upstream budget, so a first read longer than a shopper's request goes
 * on and serves the next searches instead of being cut and read again at each search; and the
 * no-results help (top categories, best sellers).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { withBudget } from '../../src/shop/connectors/http/budget.ts';
import { createBigCommerceClient } from '../../src/shop/connectors/bigcommerce/index.ts';
import {
  HELP_PRODUCTS,
  searchCorrector,
  searchHelp,
  searchProducts,
} from '../../src/shop/loaders/search-vocabulary.ts';
import { startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
}, 60_000);
afterAll(async () => {
  await sandbox.close();
});

/** A deferred: a promise and its resolver. */
function gate(): { opened: Promise<void>; open: () => void } {
  const { promise, resolve } = Promise.withResolvers<undefined>();
  return {
    opened: promise,
    open: () => {
      resolve(undefined);
    },
  };
}

test('a vocabulary read outlasting the request budget goes on, once, and serves the next search', async () => {
  const brands = gate();
  const urls: string[] = [];
  const client = createBigCommerceClient({
    apiUrl: sandbox.url,
    storeHash: sandbox.storeHash,
    accessToken: sandbox.token,
    channelId: 1,
    fetch: async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      urls.push(request.url);
      // The brands answer only when the test says so: a slow first read.
      if (request.url.includes('/v3/catalog/brands')) await brands.opened;
      return fetch(request);
    },
  });
  // A shopper's search with 50 ms of upstream time left: answered uncorrected, not held.
  expect(await withBudget(50, () => searchCorrector(client))).toBeNull();
  brands.open();
  // The next search gets the same read, which was not cut: one brands request in all.
  const corrector = await searchCorrector(client);
  expect(corrector?.correct('matelat')).toBe('matelas');
  expect(urls.filter((url) => url.includes('/v3/catalog/brands'))).toHaveLength(1);
  // Each request of the read made once: none cut by the shopper's budget and made again.
  expect(new Set(urls).size).toBe(urls.length);
  // Best sellers' names, without sub-resources, a few pages.
  const names = urls.filter((url) => url.includes('sort=total_sold'));
  expect(names.length).toBeGreaterThan(0);
  for (const url of names) expect(new URL(url).searchParams.get('include')).toBeNull();
});

test('searchProducts: the typed term first, its correction only when it found nothing; the help of a no-results page', async () => {
  const client = createBigCommerceClient({
    apiUrl: sandbox.url,
    storeHash: sandbox.storeHash,
    accessToken: sandbox.token,
    channelId: 1,
  });
  const typo = await searchProducts(client, { searchTerm: 'couete', limit: 5 });
  expect(typo.correctedTerm).toBe('couette');
  expect(typo.products.length).toBeGreaterThan(0);
  // As typed (the "Rechercher plutôt" link): never corrected.
  expect(await searchProducts(client, { searchTerm: 'couete', limit: 5 }, false)).toMatchObject({
    products: [],
    correctedTerm: null,
  });
  const help = await searchHelp(client);
  expect(help.categories.length).toBeGreaterThan(1);
  for (const category of help.categories) expect(category.href).toMatch(/^\/c\/[a-z0-9-/]+$/);
  expect(help.bestSellers.length).toBeGreaterThan(0);
  expect(help.bestSellers.length).toBeLessThanOrEqual(HELP_PRODUCTS);
});
