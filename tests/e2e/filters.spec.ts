/**
 * Filters that stay open: on a category listing, ticking filters updates the results
 * in place, at 390×844 inside the open "Filtrer" panel and at 1280 in the sidebar. Three
 * criteria in a row without reopening the panel: it stays open, the page does not scroll, the
 * focus stays on the box, "Afficher N produits" counts what the page without JavaScript shows
 * for the same URL (its count and its cards), the URL carries the filters, one view_item_list
 * per update. Back shows the earlier view again; "Afficher N produits" closes the panel on the
 * results. Offline, the panel says so and stays usable. Without JavaScript the listing filters
 * by reload, as before. The updated panel passes axe. Screenshots with the panel open:
 * test-results/visual/filters-*.png.
 */
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page } from '@playwright/test';
import { showProductsLabel } from '../../src/shop/view-models/catalogue/filters-markup.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { anyOf, expect, test } from './helpers.ts';
import { VISUAL_DIR } from './visual/check.ts';

const LISTING = '/c/matelas';

test.use({
  // The offline test takes the browser offline on purpose: the listing's fetch gets no reply.
  allowedConsoleErrors: anyOf(
    /^console\.error on \S+: Failed to load resource: net::ERR_INTERNET_DISCONNECTED \(\S+\/c\/matelas\S*:0\)$/,
  ),
});
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const panelOf = (page: Page) => page.locator('details[data-filters]');
const showButton = (page: Page) => page.locator('[data-filters-show]');
const cardTitles = (page: Page) => page.locator('[data-card] :is(h2, h3)').allInnerTexts();
const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

/** What the listing at `url` shows without JavaScript: its count and its cards. */
async function withoutScript(
  browser: Browser,
  url: string,
): Promise<{ total: number; count: string; titles: string[] }> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const res = await page.goto(url);
  expect(res?.status()).toBe(200);
  const count = (await page.locator('#listing-results').textContent()) ?? '';
  const titles = await cardTitles(page);
  await context.close();
  return { total: Number(/\d+/.exec(count)?.[0]), count, titles };
}

/** `/c/matelas` with its panel open and run by the script. */
async function openListing(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.goto(LISTING);
  const panel = panelOf(page);
  await expect(panel).toHaveAttribute('data-live', '');
  if (size.width < 1024) {
    await expect(panel).not.toHaveAttribute('open');
    await panel.locator('summary').click();
  }
  await expect(panel).toHaveAttribute('open', '');
}

/** An unticked box of the panel: of filter `name`, or of any filter but `not`. */
function box(page: Page, name: string | { not: string[] }): Locator {
  const names =
    typeof name === 'string'
      ? `[name="${name}"]`
      : name.not.map((other) => `:not([name="${other}"])`).join('');
  return panelOf(page).locator(`input[type="checkbox"]${names}:not(:checked)`).first();
}

const viewItemLists = (page: Page) =>
  page.evaluate(() =>
    (
      (
        window as unknown as {
          dataLayer?: { event?: string; ecommerce?: { items: { item_name: string }[] } }[];
        }
      ).dataLayer ?? []
    ).filter((entry) => entry.event === 'view_item_list'),
  );

/**
 * Ticks `target` where it is on the screen and waits for the listing to show it: the panel
 * still open, not scrolled, the focus on the same box, the URL with the filter, the count and
 * cards of the page without JavaScript for that URL, one more view_item_list of those cards.
 */
async function tickAndCheck(page: Page, browser: Browser, target: Locator): Promise<string> {
  // In the middle of the screen: nothing sticky covers it, the click scrolls nothing.
  await target.evaluate((element) => {
    element.scrollIntoView({ block: 'center' });
  });
  const name = (await target.getAttribute('name')) ?? '';
  const value = (await target.getAttribute('value')) ?? '';
  const before = await scrollY(page);
  const lists = (await viewItemLists(page)).length;
  await target.check();
  const param = new URLSearchParams([[name, value]]).toString();
  await expect(page).toHaveURL((url) => url.search.includes(param));
  await expect(page.locator('[data-listing-section]')).not.toHaveAttribute('aria-busy');
  await expect.poll(() => viewItemLists(page).then((all) => all.length)).toBe(lists + 1);

  await expect(panelOf(page)).toHaveAttribute('open', '');
  expect(await scrollY(page)).toBe(before);
  const ticked = panelOf(page).locator(`input[name="${name}"][value="${value}"]`);
  await expect(ticked).toBeChecked();
  await expect(ticked).toBeFocused();

  const url = page.url();
  const expected = await withoutScript(browser, url);
  expect(expected.total).toBeGreaterThan(0);
  await expect(showButton(page)).toHaveText(showProductsLabel(expected.total));
  await expect(page.locator('#listing-results')).toHaveText(expected.count);
  await expect(page.locator('[data-listing-live]')).toHaveText(expected.count);
  expect(await cardTitles(page)).toEqual(expected.titles);
  const pushed = (await viewItemLists(page)).at(-1);
  expect(pushed?.ecommerce?.items.map((item) => item.item_name)).toEqual(expected.titles);
  return url;
}

async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(VISUAL_DIR, `${name}.png`) });
}

test('phone 390×844: three ticks in a row in the open panel, back, then "Afficher N produits"', async ({
  page,
  browser,
}) => {
  await openListing(page, PHONE);
  await expect(showButton(page)).toBeVisible();
  // The apply button of the page without JavaScript gives way to the sticky one.
  await expect(panelOf(page).getByRole('button', { name: t('filter.apply') })).toBeHidden();

  await tickAndCheck(page, browser, box(page, 'marque'));
  const second = await tickAndCheck(page, browser, box(page, 'taille'));
  const third = await tickAndCheck(page, browser, box(page, { not: ['marque', 'taille'] }));
  expect(third).not.toBe(second);
  // The sticky button sits above the bottom bar, inside the screen.
  const button = await showButton(page).boundingBox();
  expect(button).not.toBeNull();
  const bottomBar = await page.locator('nav.fixed.bottom-0, .fixed.bottom-0').first().boundingBox();
  expect((button?.y ?? 0) + (button?.height ?? 0)).toBeLessThanOrEqual(
    bottomBar?.y ?? PHONE.height,
  );
  await screenshot(page, 'filters-390');
  // The panel as the update left it (its live region, alert slot, sticky button) passes axe.
  const axe = await new AxeBuilder({ page })
    .include('details[data-filters]')
    .include('[data-listing-section]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);

  // Back: the second view again, as the page without JavaScript shows it.
  await page.goBack();
  await expect(page).toHaveURL(second);
  const earlier = await withoutScript(browser, second);
  await expect(showButton(page)).toHaveText(showProductsLabel(earlier.total));
  await expect.poll(() => cardTitles(page)).toEqual(earlier.titles);
  await expect(panelOf(page)).toHaveAttribute('open', '');

  // "Afficher N produits": the panel closes and the results are on the screen.
  await showButton(page).click();
  await expect(panelOf(page)).not.toHaveAttribute('open');
  await expect(page.locator('#listing-results')).toBeInViewport();
  await expect(page.locator('#listing-results')).toBeFocused();
  await expect(page.locator('[data-card]').first()).toBeInViewport();
  await expect(page).toHaveURL(second);
});

test('desktop 1280: the sidebar filters in place; swapped cards keep their scripts', async ({
  page,
  browser,
}) => {
  await openListing(page, DESKTOP);
  // The sidebar keeps its apply button (price fields); no "Afficher N produits" there.
  await expect(showButton(page)).toBeHidden();
  await expect(panelOf(page).getByRole('button', { name: t('filter.apply') })).toBeVisible();

  await tickAndCheck(page, browser, box(page, 'marque'));
  await tickAndCheck(page, browser, box(page, 'taille'));
  await tickAndCheck(page, browser, box(page, { not: ['marque', 'taille'] }));
  await screenshot(page, 'filters-1280');

  // Back three times: the views one after the other, then the listing as it was.
  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL((url) => url.search.includes('marque='));
  await page.goBack();
  await expect(page).toHaveURL((url) => url.search === '');
  const all = await withoutScript(browser, LISTING);
  await expect.poll(() => cardTitles(page)).toEqual(all.titles);
  await expect(showButton(page)).toHaveText(showProductsLabel(all.total));

  // The cards brought in place run as loaded ones: the heart shows, the button adds.
  await tickAndCheck(page, browser, box(page, 'marque'));
  const card = page.locator('[data-card]').first();
  await expect(card.locator('button[data-wishlist-heart]')).toBeVisible();
  await card.getByRole('button', { name: /^Ajouter au panier/ }).click();
  await expect(page.getByRole('status').filter({ hasText: t('Added to cart') })).toBeVisible();
});

test('phone 360 and a sort: quick ticks make one view, the sort is kept, the panel too', async ({
  page,
  browser,
}) => {
  await openListing(page, { width: 360, height: 844 });
  const first = box(page, 'marque');
  const firstValue = (await first.getAttribute('value')) ?? '';
  await first.check();
  const next = box(page, 'marque');
  const nextValue = (await next.getAttribute('value')) ?? '';
  await next.check();
  await expect(page).toHaveURL(
    (url) =>
      url.searchParams.getAll('marque').includes(firstValue) &&
      url.searchParams.getAll('marque').includes(nextValue),
  );
  await expect(page.locator('[data-listing-section]')).not.toHaveAttribute('aria-busy');
  await expect(panelOf(page)).toHaveAttribute('open', '');
  const expected = await withoutScript(browser, page.url());
  await expect(showButton(page)).toHaveText(showProductsLabel(expected.total));
  expect(await cardTitles(page)).toEqual(expected.titles);
  await screenshot(page, 'filters-360');

  await page.getByLabel(t('sort.label')).selectOption({ label: t('sort.priceAsc') });
  await expect(page).toHaveURL((url) => url.searchParams.get('sort') === '2');
  await expect(page.locator('[data-listing-section]')).not.toHaveAttribute('aria-busy');
  const sorted = await withoutScript(browser, page.url());
  await expect.poll(() => cardTitles(page)).toEqual(sorted.titles);
});

test('offline, a tick says so and the panel stays usable; back online it shows the products', async ({
  page,
  context,
}) => {
  await openListing(page, PHONE);
  const target = box(page, 'marque');
  const value = (await target.getAttribute('value')) ?? '';
  await context.setOffline(true);
  await target.check();
  const alert = panelOf(page).locator('[data-listing-error]');
  await expect(alert).toHaveText(t('offline.action'));
  await expect(alert).toHaveAttribute('role', 'alert');
  await expect(panelOf(page)).toHaveAttribute('open', '');
  await expect(panelOf(page).locator(`input[name="marque"][value="${value}"]`)).toBeChecked();
  await expect(page).toHaveURL((url) => url.search === '');
  await screenshot(page, 'filters-offline-390');

  await context.setOffline(false);
  await showButton(page).click();
  await expect(page).toHaveURL((url) => url.searchParams.get('marque') === value);
  await expect(panelOf(page)).not.toHaveAttribute('open');
  await expect(page.locator('[data-listing-error]')).toHaveText('');
});

test('without JavaScript the listing filters by reload, as before', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  const page = await context.newPage();
  await page.goto(LISTING);
  const panel = panelOf(page);
  // No script folds it: the panel is open, with its apply button and no "Afficher".
  await expect(panel).toHaveAttribute('open', '');
  await expect(showButton(page)).toBeHidden();
  const target = box(page, 'marque');
  const value = (await target.getAttribute('value')) ?? '';
  await target.check();
  await expect(page).toHaveURL((url) => url.search === '');
  await Promise.all([
    page.waitForURL((url) => url.searchParams.get('marque') === value),
    panel.getByRole('button', { name: t('filter.apply') }).click(),
  ]);
  await expect(panel.locator(`input[name="marque"][value="${value}"]`)).toBeChecked();
  await expect(page.locator('.chip-filter')).toHaveCount(1);
  await context.close();
});
