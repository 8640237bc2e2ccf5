/**
 * The small things a shopper trips on, each at a phone's and a desktop's width with
 * its screenshot kept in `test-results/visual/`: "Vider le panier" asks first; the login
 * throttle warns before its wait and says the wait in words; the favourites heart's label
 * follows its state; a guest sent to log in on the way to the favourites is told why, with the
 * favourites this browser keeps; the orders table fits a phone. (The newsletter's "already
 * subscribed" as information: newsletter.spec.ts.)
 */
import { type Page } from '@playwright/test';
import { productPath } from '../../src/lib/commerce/slug.ts';
import type { Product } from '../../src/lib/commerce/types.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { CUSTOMERS, PRODUCTS } from '@literie/sandbox/fixtures';
import {
  anyOf,
  api,
  apiStatus,
  expect,
  test,
  uniqueEmail,
  waitForHydration,
  waitForIsland,
} from './helpers.ts';

// Wrong passwords on purpose (401), until the throttle refuses (429).
test.use({
  allowedConsoleErrors: anyOf(apiStatus('loginCustomer', 401), apiStatus('loginCustomer', 429)),
});

const WIDTHS = [390, 1280] as const;
const viewport = (width: number) => ({ width, height: width < 800 ? 844 : 800 });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/visual/${name}.png` });

async function addToCart(page: Page, productId: number): Promise<void> {
  await page.goto(productPath({ id: productId, name: 'x' }));
  const add = page.getByRole('button', { name: /^Ajouter au panier/ }).first();
  await waitForIsland(add);
  await add.click();
  await expect(page.getByRole('button', { name: t('cart.added') })).toBeVisible();
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await waitForHydration(page);
  await page.getByLabel(t('login.email')).fill(email);
  await page.getByLabel(t('login.password')).fill(password);
  await page.getByRole('button', { name: t('login.submit') }).click();
}

for (const width of WIDTHS) {
  test(`"Vider le panier" asks first, in the sidebar and on the cart page (${String(width)} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport(width));
    await addToCart(page, PRODUCTS.trackingNone);

    // The sidebar: the question, focus on "Annuler"; Escape cancels and keeps the sidebar open.
    await waitForHydration(page);
    await page.getByRole('banner').locator('a[data-cart-link]').first().click();
    const sidebar = page.getByRole('dialog', { name: t('cart.title') });
    await expect(sidebar.locator('[data-cart-line]')).toHaveCount(1);
    await sidebar.getByRole('button', { name: t('cart.clear') }).click();
    const question = sidebar.getByRole('group', { name: t('cart.clearConfirm') });
    await expect(question).toBeVisible();
    await expect(question.getByRole('button', { name: t('cart.clearCancel') })).toBeFocused();
    await shot(page, `cart-clear-confirm-sidebar-${String(width)}`);
    await page.keyboard.press('Escape');
    await expect(question).toHaveCount(0);
    await expect(sidebar).toBeVisible();
    await expect(sidebar.getByRole('button', { name: t('cart.clear') })).toBeFocused();
    await expect(sidebar.locator('[data-cart-line]')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(sidebar).toBeHidden();

    // The cart page: "Annuler" keeps the line, "Oui, vider" empties.
    await page.goto('/panier');
    await waitForHydration(page);
    const main = page.getByRole('main');
    await expect(main.locator('[data-cart-line]')).toHaveCount(1);
    await main.getByRole('button', { name: t('cart.clear') }).click();
    const onPage = main.getByRole('group', { name: t('cart.clearConfirm') });
    await expect(onPage.getByRole('button', { name: t('cart.clearCancel') })).toBeFocused();
    await onPage.scrollIntoViewIfNeeded();
    await shot(page, `cart-clear-confirm-page-${String(width)}`);
    await onPage.getByRole('button', { name: t('cart.clearCancel') }).click();
    await expect(main.locator('[data-cart-line]')).toHaveCount(1);
    await main.getByRole('button', { name: t('cart.clear') }).click();
    await onPage.getByRole('button', { name: t('cart.clearConfirmYes') }).click();
    await expect(main.getByText(t('cart.empty'))).toBeVisible();
  });

  test(`login: a warning before the throttle's wait, then the wait in words (${String(width)} px)`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport(width));
    // Counted per e-mail whether an account exists or not: a new address starts at zero.
    const email = uniqueEmail('throttle');
    await page.goto('/connexion');
    await waitForHydration(page);
    const form = page.getByRole('main');
    await form.getByLabel(t('login.email')).fill(email);
    await form.getByLabel(t('login.password')).fill('Mauvais123');
    const alert = form.getByRole('alert');
    const attempt = async () => {
      const reply = page.waitForResponse((r) => r.url().endsWith('/api/bigcommerce/loginCustomer'));
      await form.getByRole('button', { name: t('login.submit') }).click();
      return (await reply).status();
    };

    const warnings: string[] = [];
    for (let i = 1; i <= 5; i += 1) {
      expect(await attempt()).toBe(401);
      await expect(alert).toContainText(t('Invalid credentials'));
      warnings.push((await alert.innerText()).replace(t('Invalid credentials'), '').trim());
      if (i === 3) await shot(page, `login-warning-${String(width)}`);
    }
    expect(warnings).toEqual([
      '',
      '',
      t('login.attemptsLeft', { count: 2 }),
      t('login.attemptsLeft', { count: 1 }),
      t('login.attemptsLeftNone'),
    ]);
    expect(warnings[2]).toBe('Attention : encore 2 tentatives avant un blocage temporaire.');

    // Past the free attempts each one waits 1 s, 2 s, 4 s…: one is refused, with its wait.
    let refused = false;
    for (let i = 0; i < 10 && !refused; i += 1) refused = (await attempt()) === 429;
    expect(refused).toBe(true);
    await expect(alert).toHaveText(
      /^Trop de tentatives\. Veuillez réessayer dans \d+ (seconde|secondes|minute|minutes)\.$/,
    );
    await shot(page, `login-wait-${String(width)}`);
  });

  test(`the heart's label follows its state, on the product page and on cards (${String(width)} px)`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport(width));
    const product = await api<Product>(request, 'getProductById', [PRODUCTS.trackingNone]);
    const add = t('wishlist.heart', { name: product.name });
    const remove = t('wishlist.removeItem', { name: product.name });
    await page.goto(productPath(product));
    const heart = page.locator('[data-product-actions] button[data-wishlist-heart]');
    await expect(heart).toHaveAccessibleName(add);
    await expect(heart).toHaveAttribute('aria-pressed', 'false');
    await heart.click();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await expect(heart).toHaveAccessibleName(remove);
    await heart.scrollIntoViewIfNeeded();
    await shot(page, `heart-pressed-${String(width)}`);

    // A new page: the static markup says "Mettre…", the script sets the state once it runs.
    await page.reload();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await expect(heart).toHaveAccessibleName(remove);

    // The product's card on a listing says the same.
    await page.goto(`/resultats-de-recherche/${encodeURIComponent(product.name)}`);
    const card = page
      .locator(`[data-card] button[data-wishlist-heart][data-product-id="${String(product.id)}"]`)
      .first();
    await expect(card).toHaveAttribute('aria-pressed', 'true');
    await expect(card).toHaveAccessibleName(remove);
    await card.click();
    await expect(card).toHaveAttribute('aria-pressed', 'false');
    await expect(card).toHaveAccessibleName(add);
  });

  test(`a guest sent to log in for the favourites is told why, with the favourites kept here (${String(width)} px)`, async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    await page.setViewportSize(viewport(width));
    const product = await api<Product>(request, 'getProductById', [PRODUCTS.trackingNone]);
    await page.goto(productPath(product));
    const heart = page.locator('[data-product-actions] button[data-wishlist-heart]');
    await heart.click();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');

    // The header heart's address (a plain link before the page's scripts, or opened anew).
    await page.goto('/mon-compte/mes-favoris');
    await expect(page).toHaveURL(/\/connexion$/);
    const why = page.getByRole('region', { name: t('wishlist.loginTitle') });
    await expect(why).toContainText(t('wishlist.loginHint'));
    await expect(why.getByText(t('wishlist.loginKept', { count: 1 }))).toBeVisible();
    await expect(why.getByRole('link', { name: product.name })).toBeVisible();
    await shot(page, `login-for-wishlist-${String(width)}`);

    // After login, the way back the guard kept: the favourites, with the guest's merged in.
    await logIn(page, CUSTOMERS.marie.email, CUSTOMERS.marie.password);
    await expect(page).toHaveURL(/\/mon-compte\/mes-favoris$/, { timeout: 20_000 });
    await expect(
      page.locator('[data-wishlist-page] [data-wishlist-item]').filter({ hasText: product.name }),
    ).toBeVisible();
  });
}

test('the orders table fits a phone: no sideways scroll, the total clear of the edge', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto('/connexion');
  await logIn(page, CUSTOMERS.marie.email, CUSTOMERS.marie.password);
  await expect(page).toHaveURL(/mes-informations$/, { timeout: 20_000 });
  for (const width of [360, 390, 1280]) {
    await page.setViewportSize(viewport(width));
    await page.goto('/mon-compte/mes-commandes');
    const table = page.locator('table[data-orders]');
    await expect(table.locator('tbody tr')).not.toHaveCount(0);
    const fit = await page.evaluate(() => {
      const box = document.querySelector('table[data-orders]')?.getBoundingClientRect();
      const totals = [...document.querySelectorAll('table[data-orders] tbody td:last-child')].map(
        (cell) => cell.getBoundingClientRect().right,
      );
      return {
        scroll: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY,
        inner: window.innerWidth,
        right: box?.right ?? Number.POSITIVE_INFINITY,
        totals: Math.max(...totals),
      };
    });
    expect(fit.scroll, `${String(width)} px`).toBeLessThanOrEqual(fit.inner);
    expect(fit.right, `${String(width)} px`).toBeLessThanOrEqual(fit.inner - 12);
    expect(fit.totals, `${String(width)} px`).toBeLessThanOrEqual(fit.inner - 12);
    // Every order still says its date (under its number on a phone).
    await expect(table.locator('tbody tr').first()).toContainText(/ 20\d\d/, {
      useInnerText: true,
    });
    await shot(page, `account-orders-${String(width)}`);
  }
});
