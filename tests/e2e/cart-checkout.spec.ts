/**
 * Browser flows: a guest fills the cart from a card and a product page, uses the cart
 * sidebar and /panier, goes to /paiement, registers on the way, pays on the sandbox's hosted
 * checkout and finds the order with its status colour in /mon-compte.
 */
import { type Page } from '@playwright/test';
import { productPath } from '../../src/lib/commerce/slug.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { PRODUCTS } from '@literie/sandbox/fixtures';
import {
  clickInHeader,
  expect,
  payOnHostedCheckout,
  submitRegistration,
  test,
  uniqueEmail,
  waitForHydration,
  waitForIsland,
} from './helpers.ts';

const header = (page: Page) => page.getByRole('banner');
const cartLink = (page: Page) => header(page).getByRole('link', { name: /Panier$/ });

/** The header badge's count (0 when no badge is shown). */
async function badgeCount(page: Page): Promise<number> {
  const badge = header(page).locator('[data-cart-count]');
  if ((await badge.count()) === 0) return 0;
  return Number(await badge.getAttribute('data-cart-count'));
}

/** The euro amounts of a displayed price, in order (special then struck-through regular). */
function amounts(text: string): string[] {
  return text.match(/\d[\d\u202f\u00a0 ]*,\d{2}/g) ?? [];
}

test('a guest fills the cart, registers on the way and pays: the order shows in the account', async ({
  page,
}) => {
  // The whole journey, across the shop and the hosted checkout: longer than one page's test.
  test.setTimeout(90_000);
  // 1. From a product card of a category.
  await page.goto(`/c/matelas`);
  await waitForHydration(page);
  const addButtons = page
    .locator('[data-card]')
    .getByRole('button', { name: /^Ajouter au panier : / });
  await addButtons.first().scrollIntoViewIfNeeded();
  await waitForHydration(page);
  await addButtons.first().click();
  await expect(page.getByRole('status').filter({ hasText: t('Added to cart') })).toBeVisible();
  await expect.poll(() => badgeCount(page)).toBe(1);

  // 2. From a product page, after the 1 s feedback.
  const product = PRODUCTS.trackingNone;
  await page.goto(productPath({ id: product, name: 'x' }));
  const add = page.getByRole('button', { name: /^Ajouter au panier/ }).first();
  await waitForIsland(add);
  await add.click();
  await expect(page.getByRole('button', { name: t('cart.added') })).toBeVisible();
  await expect.poll(() => badgeCount(page)).toBe(2);
  await expect(add).toHaveAccessibleName(/^Ajouter au panier/);

  // 3. The sidebar: two lines; one more unit of the first (debounced 500 ms).
  await clickInHeader(cartLink(page));
  const sidebar = page.getByRole('dialog', { name: t('cart.title') });
  await expect(sidebar).toBeVisible();
  await expect(sidebar.locator('[data-cart-line]')).toHaveCount(2);
  const subtotalBefore = await sidebar.locator('[data-cart-subtotal]').innerText();
  await sidebar
    .getByRole('button', { name: t('cart.increase') })
    .first()
    .click();
  await expect.poll(() => badgeCount(page)).toBe(3);
  await expect(sidebar.locator('[data-cart-subtotal]')).not.toHaveText(subtotalBefore);

  // 4. /panier, then /paiement.
  await sidebar.getByRole('link', { name: t('cart.viewCart') }).click();
  await expect(page).toHaveURL(/\/panier$/);
  await waitForHydration(page);
  await expect(page.locator('[data-cart-line]')).toHaveCount(2);
  // The bottom line is the amount due (cart_amount, spec §3 special), on /paiement too.
  const total = amounts(await page.locator('[data-cart-total]').innerText());
  expect(total.length).toBeGreaterThan(0);
  await page
    .getByRole('main')
    .getByRole('link', { name: t('cart.checkout') })
    .click();
  await expect(page).toHaveURL(/\/paiement\?t=\d+$/);
  await expect
    .poll(async () => amounts(await page.locator('[data-checkout-total]').innerText()))
    .toEqual(total);
  // The checkout layout: no search, no cart button.
  await expect(page.getByRole('searchbox')).toHaveCount(0);
  await expect(cartLink(page)).toHaveCount(0);

  // 5. Register from the checkout, come back to it with the same cart.
  await page
    .getByRole('main')
    .getByRole('link', { name: t('register.title') })
    .click();
  await expect(page).toHaveURL(/\/inscription$/);
  await waitForHydration(page);
  const email = uniqueEmail('acheteur');
  await submitRegistration(page, email);
  await expect(page).toHaveURL(/\/paiement$/);
  await expect
    .poll(async () => amounts(await page.locator('[data-checkout-total]').innerText()))
    .toEqual(total);

  // 6. Pay on the hosted checkout; back on /paiement?commande=N.
  await page.getByRole('button', { name: t('checkout.pay') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await payOnHostedCheckout(page);
  await expect(page.getByRole('heading', { name: t('checkout.thanks') })).toBeVisible();
  const orderId = Number(new URL(page.url()).searchParams.get('commande'));

  // 7. The order in the account, with its status colour (Awaiting Fulfillment: highlight).
  await page.getByRole('link', { name: t('checkout.viewOrder') }).click();
  await expect(page).toHaveURL(new RegExp(`/mon-compte/mes-commandes/${orderId}$`));
  const status = page.locator('[data-order-detail] [data-status-color]').first();
  await expect(status).toHaveText(t('Awaiting Fulfillment'));
  await expect(status).toHaveAttribute('data-status-color', 'highlight');
  await page.getByRole('link', { name: t('account.orders'), exact: true }).click();
  const row = page.locator(`[data-order="${orderId}"]`);
  await expect(row.locator('[data-status-color]')).toHaveText(t('Awaiting Fulfillment'));

  // The paid cart is gone: a new, empty cart.
  await page.goto('/panier');
  await waitForHydration(page);
  await expect(page.getByText(t('cart.empty'))).toBeVisible();
  await expect.poll(() => badgeCount(page)).toBe(0);
});

test("related products' cards add to the cart on every product page, their markup shared between pages at build", async ({
  page,
}) => {
  // The build renders a product's card once and reuses it on every page showing the product
  // (ProductCard.astro); the cards' script stands beside that markup, once per page.
  let expected = 0;
  for (const id of [PRODUCTS.trackingVariant, PRODUCTS.trackingNone, PRODUCTS.redirectTarget]) {
    await page.goto(productPath({ id, name: 'x' }));
    await expect(page.locator('script[src*="CardAddToCartScript"]')).toHaveCount(1);
    const related = page
      .locator('section[aria-labelledby="related"] [data-card]')
      .getByRole('button', { name: /^Ajouter au panier : / });
    await expect(related.first()).toBeVisible();
    await related.first().scrollIntoViewIfNeeded();
    await waitForIsland(related.first());
    await related.first().click();
    expected++;
    await expect(page.getByRole('status').filter({ hasText: t('Added to cart') })).toBeVisible();
    await expect.poll(() => badgeCount(page)).toBe(expected);
  }
});

test("a mattress's take-back checkbox ('Yes'/'No' item option) reaches the cart, says Oui or Non, and stays through a quantity change", async ({
  page,
}) => {
  await page.goto(productPath({ id: PRODUCTS.trackingVariant, name: 'x' }));
  const box = page.getByRole('checkbox', { name: /reprise gratuite de mon ancien matelas/ });
  await waitForIsland(box);
  await expect(box).not.toBeChecked();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await box.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/item-options/product-${String(width)}.png` });
  }
  const add = page.getByRole('button', { name: /^Ajouter au panier/ }).first();
  await box.check();
  await add.click();
  await expect(page.getByRole('button', { name: t('cart.added') })).toBeVisible();
  // The same size unticked: another line, since the choice differs. (While the picker's button
  // says "Ajouté", the first "Ajouter au panier" button is a related product's.)
  await expect(page.getByRole('button', { name: t('cart.added') })).toBeHidden();
  await box.uncheck();
  await add.click();
  await expect.poll(() => badgeCount(page)).toBe(2);

  await clickInHeader(cartLink(page));
  const sidebar = page.getByRole('dialog', { name: t('cart.title') });
  const lines = sidebar.locator('[data-cart-line]');
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0)).toContainText(`Reprise de l’ancien matelas : ${t('Yes')}`);
  await expect(lines.nth(1)).toContainText(`Reprise de l’ancien matelas : ${t('No')}`);
  await lines
    .nth(0)
    .getByRole('button', { name: t('cart.increase') })
    .click();
  await expect.poll(() => badgeCount(page)).toBe(3);

  await page.goto('/panier');
  await waitForHydration(page);
  const panier = page.locator('[data-cart-line]');
  await expect(panier).toHaveCount(2);
  await expect(panier.nth(0)).toContainText(`Reprise de l’ancien matelas : ${t('Yes')}`);
  await expect(panier.nth(0).getByRole('spinbutton')).toHaveValue('2');
  await page.screenshot({ path: 'test-results/item-options/panier.png', fullPage: true });
});
