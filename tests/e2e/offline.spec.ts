/**
 * The service worker (issue 10, spec §7): registered at /sw.js with scope /; offline, a page
 * visited before still opens, one never visited shows the French offline page, and API calls
 * are never answered from a cache; axe on the offline page.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { t } from '../../src/lib/i18n/index.ts';
import { TEST_BASE_URL } from '../../scripts/lib/test-env.ts';
import { anyOf, expect, test } from './helpers.ts';

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
    // Account and cart pages are never served from the worker: offline, the browser's error.
    await expect(page.goto('/panier')).rejects.toThrow();
  } finally {
    await context.setOffline(false);
  }
});
