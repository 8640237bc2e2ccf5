import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { t } from '../../src/lib/i18n/index.ts';
import { expect, test } from './helpers.ts';

// spec §2 search panel, §4 search UI state, §5 search rule, §9 debounce 1000 ms.

const searchBox = (page: Page) => page.getByRole('combobox', { name: t('search.label') });
const panel = (page: Page) => page.locator('[data-search-panel]');

async function focusSearch(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('searchbox', { name: t('search.label') }).focus();
  await expect(searchBox(page)).toHaveAttribute('aria-expanded', 'true');
}

test('focus opens the panel; typing shows category and product suggestions after the debounce', async ({
  page,
}) => {
  const searches: number[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/bigcommerce/getProductsWithFilter')) searches.push(Date.now());
  });
  await focusSearch(page);
  await expect(panel(page)).toContainText(t("You haven't searched for items yet"));
  // The magnifier submits while the input is empty.
  await expect(page.getByRole('button', { name: t('search.submit') })).toBeVisible();

  const typedAt = Date.now();
  await searchBox(page).pressSequentially('matelas', { delay: 50 });
  await expect(page.getByRole('button', { name: t('search.clear') })).toBeVisible();
  await expect(page.getByRole('button', { name: t('search.submit') })).toBeHidden();
  const listbox = page.getByRole('listbox', { name: t('search.suggestions') });
  await expect(listbox.getByRole('group', { name: t('search.categories') })).toBeVisible();
  await expect(listbox.getByRole('group', { name: t('search.products') })).toBeVisible();
  expect(await listbox.locator('[data-search-category]').count()).toBeGreaterThan(0);
  const firstProduct = listbox.locator('[data-search-product]').first();
  await expect(firstProduct).toContainText(/€/);
  // One search for the whole word, sent a second after the last keystroke.
  expect(searches).toHaveLength(1);
  expect((searches[0] ?? 0) - typedAt).toBeGreaterThanOrEqual(1000);

  const axe = await new AxeBuilder({ page })
    .include('[data-search-form]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);

  // Arrows move through the suggestions (aria-activedescendant), Enter opens the active one.
  await searchBox(page).press('ArrowDown');
  const firstOption = listbox.getByRole('option').first();
  await expect(firstOption).toHaveAttribute('aria-selected', 'true');
  await expect(searchBox(page)).toHaveAttribute(
    'aria-activedescendant',
    (await firstOption.getAttribute('id')) ?? 'none',
  );
  const href = (await firstOption.getAttribute('href')) ?? '';
  await searchBox(page).press('Enter');
  await expect(page).toHaveURL(new RegExp(`${href.replaceAll('/', '\\/')}$`));
});

test('no match: the spec text; the cross clears and refocuses; Escape and outside click close', async ({
  page,
}) => {
  await focusSearch(page);
  await searchBox(page).fill('zzzqqqxxx');
  await expect(panel(page)).toContainText(t('No products found matching your search criteria.'));
  await page.getByRole('button', { name: t('search.clear') }).click();
  await expect(searchBox(page)).toBeFocused();
  await expect(searchBox(page)).toHaveValue('');
  await expect(panel(page)).toContainText(t("You haven't searched for items yet"));

  await page.keyboard.press('Escape');
  await expect(panel(page)).toBeHidden();
  await expect(searchBox(page)).toHaveAttribute('aria-expanded', 'false');

  await searchBox(page).click();
  await expect(panel(page)).toBeVisible();
  await page.locator('main').click({ position: { x: 5, y: 5 } });
  await expect(panel(page)).toBeHidden();

  await searchBox(page).click();
  await page.getByRole('button', { name: t('search.close') }).click();
  await expect(panel(page)).toBeHidden();
});

test('Enter opens the results page for the trimmed term, and does nothing for blanks', async ({
  page,
}) => {
  await focusSearch(page);
  await searchBox(page).fill('   ');
  await searchBox(page).press('Enter');
  await expect(page).toHaveURL(/\/$/);
  await searchBox(page).fill('  couette ');
  await searchBox(page).press('Enter');
  await expect(page).toHaveURL(/\/resultats-de-recherche\/couette$/);
});

test('opening the menu closes the search', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await focusSearch(page);
  await page
    .getByRole('banner')
    .getByRole('button', { name: t('header.menu') })
    .click();
  await expect(panel(page)).toBeHidden();
});

test('without JavaScript the form sends the term to the results page', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('searchbox', { name: t('search.label') }).fill(' oreiller ');
  await page.getByRole('searchbox', { name: t('search.label') }).press('Enter');
  await expect(page).toHaveURL(/\/resultats-de-recherche\/oreiller$/);
  await context.close();
});
