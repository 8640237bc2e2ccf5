/**
 * spec §9 analytics: the tag manager's dataLayer receives view_item_list (listings), view_item
 * (product page), add_to_cart and view_cart in GA4's ecommerce shape, currency EUR, and
 * user_data on each page when logged in.
 */
import { expect, test, type Page } from '@playwright/test';
import { productPath } from '../../src/lib/commerce/slug.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { CUSTOMERS, PRODUCTS } from '../../scripts/sandbox/fixtures.ts';
import { waitForHydration, waitForIsland } from './helpers.ts';

interface Pushed {
  event?: string;
  ecommerce?: { currency: string; items: { item_id: string; quantity: number }[] } | null;
  customer_email?: string;
}

const pushes = (page: Page) =>
  page.evaluate(() => (window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []) as Promise<
    Pushed[]
  >;
const events = async (page: Page) =>
  (await pushes(page)).map((p) => p.event).filter((e): e is string => e !== undefined);

test('listing, product page, add to cart and cart sidebar push their GA4 events', async ({
  page,
}) => {
  await page.goto('/c/matelas');
  await expect.poll(() => events(page)).toContain('view_item_list');
  const list = (await pushes(page)).find((p) => p.event === 'view_item_list');
  expect(list?.ecommerce?.currency).toBe('EUR');
  expect(list?.ecommerce?.items.length).toBeGreaterThan(0);

  await page.goto(productPath({ id: PRODUCTS.trackingNone, name: 'x' }));
  await expect.poll(() => events(page)).toContain('view_item');
  const item = (await pushes(page)).find((p) => p.event === 'view_item');
  expect(item?.ecommerce?.items[0]?.item_id).toBe(String(PRODUCTS.trackingNone));

  const add = page.getByRole('button', { name: /^Ajouter au panier/ }).first();
  await waitForIsland(add);
  await add.click();
  await expect.poll(() => events(page)).toContain('add_to_cart');
  const added = (await pushes(page)).find((p) => p.event === 'add_to_cart');
  expect(added?.ecommerce).toMatchObject({ currency: 'EUR' });
  expect(added?.ecommerce?.items[0]).toMatchObject({
    item_id: String(PRODUCTS.trackingNone),
    quantity: 1,
  });

  await page
    .getByRole('banner')
    .getByRole('link', { name: /Panier$/ })
    .click();
  await expect(page.getByRole('dialog', { name: t('cart.title') })).toBeVisible();
  await expect.poll(() => events(page)).toContain('view_cart');
});

test('user_data is pushed on each page while logged in', async ({ page }) => {
  await page.goto('/connexion');
  await waitForHydration(page);
  await page.getByLabel(t('login.email')).fill(CUSTOMERS.marie.email);
  await page.getByLabel(t('login.password')).fill(CUSTOMERS.marie.password);
  await page.getByRole('button', { name: t('login.submit') }).click();
  await expect(page).toHaveURL(/mes-informations$/);
  await page.goto('/');
  await expect.poll(() => events(page)).toContain('user_data');
  const user = (await pushes(page)).find((p) => p.event === 'user_data');
  expect(user?.customer_email).toBe(CUSTOMERS.marie.email);
});
