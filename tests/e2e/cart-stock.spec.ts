/**
 * Honest stock in the cart, in the browser: an editor lowers the stock of an
 * item a guest has in the cart (the sandbox's catalogue API); the line says so on /panier and
 * in the sidebar, with the item's name and what is left; going to checkout is stopped, in the
 * browser and by /paiement's hand-over (409); "Réduire à 1 article" and "Retirer …" fix it in
 * one click, and checkout goes on. Screenshots of the flagged page and sidebar at 390 and
 * 1280 px (test-results/visual/cart-stock-*.png).
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { CHECKOUT_PATH } from '../../src/lib/commerce/guards.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { PRODUCTS, SANDBOX_TOKEN } from '@literie/sandbox/fixtures';
import { TEST_ENV } from '../../scripts/lib/test-env.ts';
import {
  anyOf,
  apiStatus,
  clickInHeader,
  documentStatus,
  expect,
  test,
  waitForHydration,
} from './helpers.ts';

// A quantity over stock is refused on purpose (422), and the checkout hand-over with it (409).
test.use({
  allowedConsoleErrors: anyOf(apiStatus('updateCartItem', 422), documentStatus('/paiement', 409)),
});

const CATALOG = `http://127.0.0.1:${TEST_ENV.SANDBOX_PORT}/stores/sandbox/v3/catalog/products`;
const ADMIN = { 'X-Auth-Token': SANDBOX_TOKEN, 'Content-Type': 'application/json' };

interface CreatedProduct {
  id: number;
  name: string;
  variants: { id: number }[];
}

/** A product of its own (no other test's stock changes), stock tracked on the product. */
async function createProduct(page: Page): Promise<CreatedProduct> {
  const name = `Oreiller Papillon ${String(Date.now() % 1_000_000)}`;
  const reply = await page.request.post(CATALOG, {
    headers: ADMIN,
    data: {
      name,
      type: 'physical',
      weight: 1,
      price: 119,
      is_visible: true,
      inventory_tracking: 'product',
      inventory_level: 5,
    },
  });
  expect(reply.status()).toBe(200);
  const { data } = (await reply.json()) as { data: { id: number } };
  const full = await page.request.get(`${CATALOG}/${String(data.id)}?include=variants`, {
    headers: ADMIN,
  });
  return ((await full.json()) as { data: CreatedProduct }).data;
}

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

/** Sets the product's stock as an editor would. */
async function setStock(page: Page, id: number, level: number): Promise<void> {
  const reply = await page.request.put(`${CATALOG}/${String(id)}`, {
    headers: ADMIN,
    data: { inventory_level: level },
  });
  expect(reply.status()).toBe(200);
}

/** A guest cart with these lines, made through the shop's API from a page, kept in the cookie. */
async function guestCart(
  page: Page,
  lineItems: { productId: number; variantId: number; quantity: number }[],
): Promise<string> {
  await page.goto('/');
  return page.evaluate(async (lines) => {
    const reply = await fetch('/api/bigcommerce/createCart', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify([{ lineItems: lines }]),
    });
    const { data } = (await reply.json()) as { data: { id: string } };
    document.cookie = `cart-id=${data.id}; path=/`;
    return data.id;
  }, lineItems);
}

async function trackingNoneLine(page: Page) {
  const reply = await page.request.get(
    `${CATALOG}/${String(PRODUCTS.trackingNone)}?include=variants`,
    { headers: ADMIN },
  );
  const { data } = (await reply.json()) as { data: CreatedProduct };
  return { productId: data.id, variantId: data.variants[0]?.id ?? 0, quantity: 1 };
}

test('a line over stock is flagged, checkout is stopped, one click fixes it', async ({ page }) => {
  test.setTimeout(90_000);
  const product = await createProduct(page);
  const variantId = product.variants[0]?.id ?? 0;
  const other = await trackingNoneLine(page);
  await guestCart(page, [{ productId: product.id, variantId, quantity: 2 }, other]);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/panier');
  await waitForHydration(page);
  const main = page.getByRole('main');
  const line = main.locator('[data-cart-line]').filter({ hasText: product.name });
  const flag = line.locator('[data-line-stock-issue]');
  const quantity = line.getByRole('spinbutton');
  const increase = line.getByRole('button', { name: t('cart.increase') });

  // 0. The editor leaves two units while the page is open: "+" is refused by the platform;
  // the field goes back to what the cart holds (2), and the selector now stops there.
  await expect(flag).toHaveCount(0);
  await setStock(page, product.id, 2);
  await increase.click();
  await expect(quantity).toHaveValue('3');
  await expect(increase).toBeDisabled();
  await expect(quantity).toHaveValue('2');
  await expect(line.locator('[data-line-stock-issue]')).toHaveCount(0);
  // The refusal is said on that line, naming the item.
  await expect(line.locator('[data-line-error]')).toHaveText(
    `${product.name} : ${t('The selected quantity exceeds available stock.')}`,
  );
  await expect(main.locator('[data-cart-error]')).toHaveText('');

  // 1. The editor leaves one unit: the line says so, with the item's name.
  await setStock(page, product.id, 1);
  await page.reload();
  await waitForHydration(page);
  await expect(flag).toHaveAttribute('data-line-stock-issue', 'exceeds-stock');
  await expect(flag).toContainText(
    t('cart.stock.left', { name: product.name, count: 1 }).replace(/\u00a0/g, ' '),
  );
  // The selector stops at what is left.
  await expect(increase).toBeDisabled();
  // The amount due ends the summary.
  await expect(page.locator('[data-cart-due]')).toBeVisible();

  // 2. Checkout is stopped in the browser, with the message.
  const checkout = main.getByRole('link', { name: t('cart.checkout') });
  await expect(checkout).toHaveAttribute('aria-disabled', 'true');
  // aria-disabled: Playwright would wait for it to be enabled; a shopper follows it all the same.
  await checkout.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/panier$/);
  await expect(
    page.getByRole('alert').filter({ hasText: t('cart.stock.checkoutBlocked') }),
  ).toBeVisible();
  await page.screenshot({ path: 'test-results/visual/cart-stock-page-1280.png', fullPage: true });
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/visual/cart-stock-page-390.png', fullPage: true });

  // 3. ... and by the server: /paiement's hand-over refuses (the browser can be bypassed).
  const handOver = await page.evaluate(async (path) => {
    const reply = await fetch(path, { method: 'POST', redirect: 'manual' });
    return { status: reply.status, text: await reply.text() };
  }, CHECKOUT_PATH);
  expect(handOver.status).toBe(409);
  expect(handOver.text).toContain(t('cart.stock.checkoutBlocked'));

  // 4. The sidebar flags the same line.
  await page.setViewportSize({ width: 1280, height: 900 });
  await clickInHeader(page.getByRole('banner').getByRole('link', { name: /Panier$/ }));
  const sidebar = page.getByRole('dialog', { name: t('cart.title') });
  await expect(sidebar.locator('[data-line-stock-issue]')).toHaveCount(1);
  await expect(sidebar.locator('[data-checkout-stock-blocked]')).toBeVisible();
  await page.screenshot({ path: 'test-results/visual/cart-stock-sidebar-1280.png' });
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/visual/cart-stock-sidebar-390.png' });
  await page.keyboard.press('Escape');
  await expect(sidebar).toBeHidden();

  // 5. /paiement flags the line too, and offers no hand-over.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(CHECKOUT_PATH);
  await expect(page.locator('[data-line-stock-issue]')).toContainText(product.name);
  await expect(page.locator('[data-checkout-stock-blocked]')).toBeVisible();
  await expect(page.getByRole('button', { name: t('checkout.asGuest') })).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
  await page.goto('/panier');
  await waitForHydration(page);

  // 6. "Réduire à 1 article": the line holds what is left, the flag goes.
  await line.getByRole('button', { name: t('cart.stock.reduce', { count: 1 }) }).click();
  await expect(line.locator('[data-line-stock-issue]')).toHaveCount(0);
  await expect(quantity).toHaveValue('1');
  await expect(checkout).not.toHaveAttribute('aria-disabled', 'true');

  // 7. Sold out: "Retirer …" takes the line away; the rest of the cart goes to checkout.
  await setStock(page, product.id, 0);
  await page.reload();
  await waitForHydration(page);
  await expect(line.locator('[data-line-stock-issue]')).toHaveAttribute(
    'data-line-stock-issue',
    'out-of-stock',
  );
  await expect(line).toContainText(t('cart.stock.outOfStock', { name: product.name }));
  await line
    .getByRole('button', { name: t('cart.stock.remove', { name: product.name }), exact: true })
    .click();
  await expect(main.locator('[data-cart-line]')).toHaveCount(1);
  await expect(main.locator('[data-line-stock-issue]')).toHaveCount(0);
  await checkout.click();
  await expect(page).toHaveURL(/\/paiement\?t=\d+$/);
  await expect(page.getByRole('button', { name: t('checkout.asGuest') })).toBeVisible();
});
