/**
 * The reseller mode of the whole shop (spec §1, §2, §6; the test build has the area
 * on): a reseller logs in, browses the real categories from the area, sees category and product
 * pages without what resellers never see, with flagged cards and the reseller cart, and sends
 * the cart to a client; a visitor's view of the same pages carries nothing of the reseller.
 * Screenshots of each step at 390 and 1280 px go to test-results/reseller-mode/.
 */
import { mkdirSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { t } from '../../src/lib/i18n/index.ts';
import { clickInHeader, expect, test, waitForHydration, waitForIsland } from './helpers.ts';

const reseller = CUSTOMERS.resellerWithSellers;
const SHOTS = 'test-results/reseller-mode';
mkdirSync(SHOTS, { recursive: true });

async function shoot(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
}

/** None of what spec §6 hides from resellers is on the page, in the HTML or on screen. */
async function expectResellerPage(page: Page): Promise<void> {
  const html = await page.content();
  expect(html).not.toContain('consumer-only');
  expect(html).not.toContain('reseller-ref');
  expect(html).not.toContain('reseller-badge');
  await expect(page.locator('html')).toHaveAttribute('data-reseller', '');
  // The header says where the reseller is, on pre-rendered and on-demand pages alike.
  await expect(
    page.getByRole('banner').getByText(t('reseller.space'), { exact: true }),
  ).toBeVisible();
  await expect(page.getByText(t('newsletter.title'))).toHaveCount(0);
  await expect(page.locator('#newsletter, #newsletter-panel')).toHaveCount(0);
  await expect(page.locator('#footer-social, #footer-payment')).toHaveCount(0);
  await expect(page.getByText(t('topbar.affiliate'))).toHaveCount(0);
  await expect(page.getByText('Livraison rapide')).toHaveCount(0);
  await expect(page.locator('[data-reviews-widget]')).toHaveCount(0);
  await expect(page.locator('a[href^="/les-yeux-fermes"]')).toHaveCount(0);
  await expect(page.locator('a[href*="instagram.com"], a[href*="facebook.com"]')).toHaveCount(0);
  await expect(page.locator('a[href="/panier"]')).toHaveCount(0);
}

async function logInAsReseller(page: Page): Promise<void> {
  await page.goto('/espace-revendeur/connexion');
  await waitForHydration(page);
  await page.getByLabel(t('login.email')).fill(reseller.email);
  await page.getByLabel(t('login.password')).fill(reseller.password);
  await page.getByRole('button', { name: t('login.submit') }).click();
  await expect(page).toHaveURL(/\/espace-revendeur$/);
}

for (const width of [390, 1280]) {
  test(`a reseller's journey across the shop at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await logInAsReseller(page);
    await shoot(page, '1-area');

    // The shop's real category navigation from the area.
    const categories = page.locator('[data-reseller-categories]');
    const category = categories.getByRole('link').first();
    const categoryPath = await category.getAttribute('href');
    expect(categoryPath).toMatch(/^\/c\//);
    await category.click();
    await expect(page).toHaveURL(new RegExp(`${categoryPath ?? ''}$`));
    await expectResellerPage(page);
    const response = await page.request.get(categoryPath ?? '/');
    expect(response.headers()['cache-control']).toBe('private, no-store');
    const cards = page.locator('[data-card][data-reseller]');
    await expect(cards.first()).toBeVisible();
    await expect(cards.first().getByText(/^Référence : /)).toBeVisible();
    await expect(page.locator('[data-wishlist-heart]')).toHaveCount(0);
    await waitForHydration(page);
    const account = page.getByRole('banner').getByRole('link', { name: /Connecté/ });
    await expect(account).toContainText(reseller.shopName);
    await expect(account).toHaveAttribute('href', '/espace-revendeur');
    await shoot(page, '2-category');

    // A product page, in reseller mode too; add to the reseller cart.
    const productPath = await cards.first().getByRole('link').first().getAttribute('href');
    await page.goto(productPath ?? '/');
    await expectResellerPage(page);
    await waitForHydration(page);
    const add = page
      .getByRole('main')
      .getByRole('button', { name: t('product.addToCart') })
      .first();
    await waitForIsland(add);
    await add.click();
    await shoot(page, '3-product');

    // The cart sidebar sends to the reseller cart page rather than to checkout.
    await clickInHeader(page.getByRole('banner').locator('a[data-cart-link]'));
    const sidebar = page.getByRole('dialog', { name: t('cart.title') });
    await expect(sidebar.getByRole('link', { name: t('cart.checkout') })).toHaveCount(0);
    await shoot(page, '4-sidebar');
    await sidebar.getByRole('link', { name: t('reseller.sendCart') }).click();
    await expect(page).toHaveURL(/\/espace-revendeur\/panier$/);
    await waitForHydration(page);
    await expect(page.locator('[data-cart-line]')).toHaveCount(1);
    await page
      .getByLabel(t('reseller.clientEmail'))
      .fill(`client.${width}.${Date.now()}@example.fr`);
    await page.getByLabel(t('reseller.seller')).selectOption(reseller.sellers[0]);
    await page.getByRole('button', { name: t('reseller.sendCart') }).click();
    await expect(page.getByText(t('reseller.emptyCart'))).toBeVisible();
    await shoot(page, '5-sent');

    // The home and a content page in reseller mode; logging out ends it.
    await page.goto('/');
    await expectResellerPage(page);
    await page.goto('/deconnexion');
    const confirm = page.getByRole('main').getByRole('button', { name: t('account.logout') });
    if ((await confirm.count()) > 0) await confirm.click();
    await expect(page.getByText(t('logout.done'))).toBeVisible();
    await page.goto('/');
    await expect(page.locator('html')).not.toHaveAttribute('data-reseller', '');
    await expect(page.getByText(t('newsletter.title')).first()).toBeAttached();
  });
}

test("a visitor's view of the same pages carries nothing of the reseller", async ({ page }) => {
  for (const path of ['/', '/c/matelas']) {
    const response = await page.goto(path);
    expect(response?.headers()['cache-control']).not.toContain('private');
    await expect(page.locator('html')).not.toHaveAttribute('data-reseller', '');
    await expect(page.locator('[data-reseller]')).toHaveCount(0);
    await expect(page.getByText(/^Référence : /)).toHaveCount(0);
    await expect(page.getByText(t('reseller.space'), { exact: true })).toHaveCount(0);
    await expect(page.getByText(t('newsletter.title')).first()).toBeAttached();
  }
  // A forged mode cookie without a reseller session grants nothing: no shop name, and the
  // shell's load clears the cookie.
  await page.context().addCookies([{ name: 'mode-revendeur', value: '1', url: page.url() }]);
  await page.goto('/c/matelas');
  await expect(page.getByText(reseller.shopName)).toHaveCount(0);
});
