/**
 * The service worker (spec §7): registered at /sw.js with scope /; offline, a page
 * visited before still opens, one never visited shows the French offline page, and API calls
 * are never answered from a cache; axe on the offline page. Offline everywhere:
 * every page load offline shows the shop's offline page, never Chromium's (the cart, the
 * account, search results, a filtered listing, a reseller page, a product never seen), and an
 * add to cart offline says the shopper is offline.
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { t } from '../../src/lib/i18n/index.ts';
import { BRANDS } from '@literie/sandbox/fixtures';
import { TEST_BASE_URL } from '../../scripts/lib/test-env.ts';
import { anyOf, expect, test } from './helpers.ts';

const SHOTS = 'test-results/visual';
mkdirSync(SHOTS, { recursive: true });

test.use({
  serviceWorkers: 'allow',
  // The browser is taken offline on purpose: the page's API calls fail without a reply.
  allowedConsoleErrors: anyOf(
    /^console\.error on \S+: Failed to load resource: net::ERR_INTERNET_DISCONNECTED \(\S+\/api\/\w+\/\w+:0\)$/,
  ),
});

/** Waits until the worker is active and controls the page (a first load is not controlled). */
async function controlled(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return registration?.active?.state ?? 'none';
      }),
    )
    .toBe('activated');
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true);
}

/** Loads the page again through the worker, and waits until the worker has kept it. */
async function visitKept(page: Page): Promise<void> {
  await page.reload();
  await expect
    .poll(() =>
      page.evaluate(async () => {
        for (const name of await caches.keys()) {
          if (!name.includes('pages')) continue;
          if (await (await caches.open(name)).match(location.href)) return true;
        }
        return false;
      }),
    )
    .toBe(true);
}

test('registered at /sw.js with scope /, served fresh', async ({ page, request }) => {
  await page.goto('/');
  await controlled(page);
  const registration = await page.evaluate(async () => {
    const found = await navigator.serviceWorker.getRegistration();
    return { scope: found?.scope, script: found?.active?.scriptURL };
  });
  expect(registration).toEqual({ scope: `${TEST_BASE_URL}/`, script: `${TEST_BASE_URL}/sw.js` });
  const sw = await request.get('/sw.js');
  expect(sw.headers()['cache-control']).toBe('no-cache');
  expect(sw.headers()['content-type']).toMatch(/javascript/);
});

test('offline: a visited page opens, an unvisited one shows the offline page, the API is not cached', async ({
  page,
  context,
}) => {
  await page.goto('/c/matelas');
  await controlled(page);
  await visitKept(page);
  const title = await page.getByRole('heading', { level: 1 }).textContent();
  // An API call made online, then offline: never answered from a cache.
  const call = () =>
    page.evaluate(async () => {
      try {
        const reply = await fetch('/api/bigcommerce/getCategoryTree', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '[]',
        });
        return reply.status;
      } catch {
        return 'failed';
      }
    });
  expect(await call()).toBe(200);

  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title ?? '');
    expect(await call()).toBe('failed');

    await page.goto('/c/sommiers');
    await expect(page.getByRole('heading', { level: 1, name: t('offline.title') })).toBeVisible();
    await expect(page.getByRole('link', { name: t('Return home') })).toHaveAttribute('href', '/');
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  } finally {
    await context.setOffline(false);
  }
});

/** The shop's offline page is what the browser shows (Chromium's own error page has no h1). */
async function expectOfflinePage(page: Page, path: string): Promise<void> {
  // Never a navigation error: the worker answered.
  const reply = await page.goto(path);
  expect(reply?.status(), path).toBe(200);
  await expect(
    page.getByRole('heading', { level: 1, name: t('offline.title') }),
    path,
  ).toBeVisible();
  // Under the URL the shopper asked for, so "Réessayer" reloads it.
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(path);
}

test('offline, every page load shows the shop’s offline page, the shopper’s own pages too, and never keeps them', async ({
  page,
  context,
  request,
}) => {
  // A product page this browser never opened: the first of a listing it never opened either.
  const listing = await (await request.get('/c/lits')).text();
  const product = /href="(\/p\/[^"?#]+)"/.exec(listing)?.[1];
  if (product === undefined) throw new Error('no product link on /c/lits');
  // Visited online first: the cart and the account are never kept, whatever was seen.
  await page.goto('/panier');
  await controlled(page);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(t('offline.title'));

  await context.setOffline(true);
  try {
    for (const path of [
      '/panier',
      '/mon-compte',
      '/mon-compte/mes-commandes',
      '/connexion',
      '/resultats-de-recherche/matelas',
      '/resultats-de-recherche?term=matelas',
      `/c/matelas?marque=${String(BRANDS.dormelune)}`,
      '/c/sommiers?sort=2&page=2',
      '/espace-revendeur',
      '/espace-revendeur/panier',
      product,
    ]) {
      await expectOfflinePage(page, path);
    }
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width < 1000 ? 844 : 800 });
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: `${SHOTS}/offline-page-${String(width)}.png` });
    }
  } finally {
    await context.setOffline(false);
  }
  // Nothing the shopper opened offline was kept under its URL: the offline page answered it.
  const kept = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      if (!name.includes('pages')) continue;
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls.map((url) => new URL(url).pathname);
  });
  expect(
    kept.filter((path) => /^\/(?:panier|mon-compte|connexion|espace-revendeur)/.test(path)),
  ).toEqual([]);
});

test('offline, an add to cart says the shopper is offline', async ({ page, context }) => {
  await page.goto('/c/matelas');
  await controlled(page);
  await visitKept(page);
  await context.setOffline(true);
  try {
    // The kept listing, its scripts from the precache.
    await page.reload();
    const button = page.locator('button[data-add-to-cart]:not([disabled])').first();
    await button.click();
    await expect(page.getByText(t('offline.action'))).toBeVisible();
    await expect(page.getByText(t('cart.error.add'))).toHaveCount(0);
  } finally {
    await context.setOffline(false);
  }
});
