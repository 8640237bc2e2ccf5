/**
 * Carts survive faults, in the browser: a guest's cart goes through a platform
 * outage (the sandbox answers 503 on `/v3/carts`, fault injection) and comes back. While the
 * platform fails, /panier and the cart sidebar say the cart is momentarily unavailable, with
 * "Réessayer", never "Votre panier est vide"; the `cart-id` cookie stays. Once the platform
 * answers again, "Réessayer" shows the item, under the same cookie. Screenshots at 390 and
 * 1280 px in test-results/visual/.
 */
import { type Page } from '@playwright/test';
import { productPath } from '../../src/lib/commerce/slug.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { PRODUCTS, SANDBOX_TOKEN } from '@literie/sandbox/fixtures';
import { TEST_ENV } from '../../scripts/lib/test-env.ts';
import { anyOf, apiStatus, expect, test, waitForHydration, waitForIsland } from './helpers.ts';

// The upstream cart service fails on purpose (503): the cart views log the failed load.
test.use({
  allowedConsoleErrors: anyOf(
    apiStatus('\\w+', 503),
    /^console\.error on \S+\/panier: cart load failed: ApiCallError: error\.upstreamUnavailable/,
  ),
});

const SANDBOX = `http://127.0.0.1:${TEST_ENV.SANDBOX_PORT}`;
const FAULTS = `${SANDBOX}/__sandbox/faults`;

/** Sets a fault rule on the sandbox, as the tests' admin; `clearFaults` removes it. */
async function fault(page: Page, rule: Record<string, unknown>): Promise<void> {
  const headers = { 'X-Auth-Token': SANDBOX_TOKEN, 'Content-Type': 'application/json' };
  const res = await page.request.post(FAULTS, { headers, data: rule });
  expect(res.status()).toBe(201);
  faultIds.push(...((await res.json()) as { data: { id: number }[] }).data.map((r) => r.id));
}

async function cartCookie(page: Page): Promise<string | undefined> {
  const cookies = await page.context().cookies();
  return cookies.find((cookie) => cookie.name === 'cart-id')?.value;
}

let faultIds: number[] = [];

test.afterEach(async ({ page }) => {
  await clearFaults(page);
});

/** Removes this test's fault rules (only them: other tests share the sandbox). */
async function clearFaults(page: Page): Promise<void> {
  for (const id of faultIds) {
    const res = await page.request.delete(`${FAULTS}/${String(id)}`, {
      headers: { 'X-Auth-Token': SANDBOX_TOKEN },
    });
    expect([200, 204, 404]).toContain(res.status());
  }
  faultIds = [];
}

for (const width of [390, 1280]) {
  test(`a guest cart through a 503 and back (${String(width)} px)`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width, height: 900 });
    // 1. A guest adds an item from a product page.
    await page.goto(productPath({ id: PRODUCTS.trackingNone, name: 'x' }));
    const add = page.getByRole('button', { name: /^Ajouter au panier/ }).first();
    await waitForIsland(add);
    await add.click();
    await expect(page.getByRole('button', { name: t('cart.added') })).toBeVisible();
    await expect.poll(() => cartCookie(page)).toBeTruthy();
    const cartId = await cartCookie(page);
    if (cartId === undefined) throw new Error('no cart-id cookie after the add');
    await page.goto('/panier');
    await waitForHydration(page);
    await expect(page.locator('[data-cart-line]')).toHaveCount(1);
    const name = await page.locator('[data-cart-line] a').first().innerText();

    // 2. The platform fails: every call about this cart answers 503 (this cart's path only:
    // the other browser tests share the sandbox).
    await fault(page, { status: 503, match: `/stores/sandbox/v3/carts/${cartId}` });
    await page.reload();
    await waitForHydration(page);
    const main = page.getByRole('main');
    const notice = main.locator('[data-cart-unavailable]');
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(t('cart.unavailable'));
    await expect(main.getByText(t('cart.empty'))).toHaveCount(0);
    const retry = notice.getByRole('button', { name: t('cart.retry') });
    await expect(retry).toBeVisible();
    await expect(retry).toBeEnabled();
    // The cookie is kept: the cart is unknown, not gone.
    expect(await cartCookie(page)).toBe(cartId);
    await page.screenshot({
      path: `test-results/visual/cart-unavailable-${String(width)}.png`,
      fullPage: true,
    });

    // The sidebar says the same (the header's cart link opens it; the bottom bar's on a phone).
    const cartLink = page.locator('a[data-cart-link]:not([data-cart-page])').first();
    if (await cartLink.isVisible()) {
      await cartLink.click();
      const sidebar = page.getByRole('dialog', { name: t('cart.title') });
      await expect(sidebar.locator('[data-cart-unavailable]')).toBeVisible();
      await expect(sidebar.getByText(t('cart.empty'))).toHaveCount(0);
      await page.screenshot({
        path: `test-results/visual/cart-unavailable-sidebar-${String(width)}.png`,
      });
      await page.keyboard.press('Escape');
      await expect(sidebar).toBeHidden();
    }

    // 3. Still failing: "Réessayer" keeps saying so, and keeps the cookie.
    await retry.click();
    await expect(notice).toBeVisible();
    await expect(retry).toBeEnabled();
    await expect(main.getByText(t('cart.empty'))).toHaveCount(0);
    expect(await cartCookie(page)).toBe(cartId);

    // 4. The platform is back: "Réessayer" brings the item back, same cart.
    await clearFaults(page);
    await retry.click();
    await expect(page.locator('[data-cart-unavailable]')).toHaveCount(0);
    await expect(main.locator('[data-cart-line]')).toHaveCount(1);
    await expect(main.locator('[data-cart-line] a').first()).toHaveText(name);
    expect(await cartCookie(page)).toBe(cartId);
    await page.screenshot({
      path: `test-results/visual/cart-back-${String(width)}.png`,
      fullPage: true,
    });
  });
}
