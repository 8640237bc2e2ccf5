import AxeBuilder from '@axe-core/playwright';
import { productPath } from '../../src/lib/commerce/slug.ts';
import type { Product } from '../../src/lib/commerce/types.ts';
import { CUSTOMERS, PRODUCTS } from '@literie/sandbox/fixtures';
import { t } from '../../src/lib/i18n/index.ts';
import { api, clickInHeader, expect, test, waitForHydration } from './helpers.ts';

// spec §3, §4 wishlist: guest hearts in local storage, login merge into the customer's
// wishlist, the account page, move to cart; the sidebar passes axe.

test('heart as a guest, log in, find it in the account wishlist, move it to the cart', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const product = await api<Product>(request, 'getProductById', [PRODUCTS.trackingNone]);
  await page.goto(productPath(product));
  // The heart's name says what a press does, so it changes once pressed.
  const heart = page.locator('[data-product-actions] button[data-wishlist-heart]');
  await expect(heart).toBeVisible();
  await expect(heart).toHaveAccessibleName(t('wishlist.heart', { name: product.name }));
  await expect(heart).toHaveAttribute('aria-pressed', 'false');
  await heart.click();
  await expect(heart).toHaveAttribute('aria-pressed', 'true');
  await expect(heart).toHaveAccessibleName(t('wishlist.removeItem', { name: product.name }));
  const stored = await page.evaluate(() => localStorage.getItem('wishlist'));
  expect(JSON.parse(stored ?? '[]')).toEqual([
    expect.objectContaining({ productId: product.id }) as unknown,
  ]);

  // The header's wishlist opens the sidebar with the item; axe on it.
  await waitForHydration(page);
  await clickInHeader(page.getByRole('banner').getByRole('link', { name: t('wishlist.title') }));
  const sidebar = page.getByRole('dialog', { name: t('wishlist.title') });
  await expect(sidebar).toBeVisible();
  await expect(sidebar.getByRole('link', { name: product.name })).toBeVisible();
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
  await page.keyboard.press('Escape');

  await page.goto('/connexion');
  await waitForHydration(page);
  await page.getByLabel(t('login.email')).fill(CUSTOMERS.marie.email);
  await page.getByLabel(t('login.password')).fill(CUSTOMERS.marie.password);
  await page.getByRole('button', { name: t('login.submit') }).click();
  // The sandbox hashes passwords slowly on purpose, and the machine is shared.
  await expect(page).toHaveURL(/mes-informations$/, { timeout: 20_000 });

  await page.goto('/mon-compte/mes-favoris');
  const item = page.locator('[data-wishlist-page] [data-wishlist-item]').filter({
    hasText: product.name,
  });
  await expect(item).toBeVisible();
  // The guest copy went to the account.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('wishlist'))).toBe('[]');

  await item.getByRole('button', { name: t('wishlist.moveItem', { name: product.name }) }).click();
  await expect(page.getByRole('status').filter({ hasText: t('Added to cart') })).toBeVisible();
  await expect(page.locator('[data-cart-count]').first()).toHaveAttribute(
    'data-cart-count',
    /^[1-9]/,
  );
});
