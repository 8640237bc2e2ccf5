import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { t } from '../../src/lib/i18n/index.ts';
import { clickInHeader, expect, test } from './helpers.ts';

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

test('no match: the spec text; the one cross clears and refocuses; Escape, outside click and Fermer close', async ({
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

  // spec §4: its close button closes it too.
  await searchBox(page).click();
  await expect(panel(page)).toBeVisible();
  await panel(page)
    .getByRole('button', { name: t('search.close'), exact: true })
    .click();
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
  await clickInHeader(page.getByRole('banner').getByRole('button', { name: t('header.menu') }));
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

// Typo tolerance, a no-results page that is no dead end, one cross and no empty band.

interface DomNode {
  nodeId: number;
  nodeName: string;
  attributes?: string[];
  children?: DomNode[];
  shadowRoots?: DomNode[];
}

/**
 * Whether Chromium draws the search input's own cancel button (the "×" of its user-agent
 * shadow tree, which no selector of the page reaches): found through the DevTools protocol,
 * drawn when it has a box.
 */
async function nativeCancelDrawn(page: Page, inputId: string): Promise<boolean> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as {
      root: DomNode;
    };
    const attribute = (node: DomNode, name: string) => {
      const list = node.attributes ?? [];
      const at = list.indexOf(name);
      return at >= 0 && at % 2 === 0 ? list[at + 1] : undefined;
    };
    const find = (node: DomNode, wanted: (n: DomNode) => boolean): DomNode | null => {
      if (wanted(node)) return node;
      for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) {
        const found = find(child, wanted);
        if (found) return found;
      }
      return null;
    };
    const input = find(root, (n) => n.nodeName === 'INPUT' && attribute(n, 'id') === inputId);
    expect(input, `#${inputId}`).not.toBeNull();
    const cancel =
      input && find(input, (n) => attribute(n, 'pseudo') === '-webkit-search-cancel-button');
    if (!cancel) return false;
    try {
      const { model } = await cdp.send('DOM.getBoxModel', { nodeId: cancel.nodeId });
      return model.width > 0 && model.height > 0;
    } catch {
      return false; // not rendered: no box
    }
  } finally {
    await cdp.detach();
  }
}

const WIDTHS = [
  { width: 360, height: 844 },
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

for (const size of WIDTHS) {
  test(`${String(size.width)} px: one cross in the search, no empty band above the suggestions; a typo still suggests`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await focusSearch(page);
    await searchBox(page).fill('matelas');
    const listbox = page.getByRole('listbox', { name: t('search.suggestions') });
    await expect(listbox.locator('[data-search-product]').first()).toBeVisible();
    // One cross: the input's, which clears. The browser's own cancel button of the search input
    // is not drawn; the spec's close button is the word "Fermer" at the panel's foot.
    const form = page.locator('form[data-search-form]').first();
    await expect(form.getByRole('button', { name: /effacer|fermer|close|clear/i })).toHaveCount(2);
    await expect(form.getByRole('button', { name: t('search.clear') })).toBeVisible();
    const close = form.getByRole('button', { name: t('search.close'), exact: true });
    await expect(close).toHaveText(t('search.close'));
    await expect(close.locator('svg')).toHaveCount(0);
    expect(await nativeCancelDrawn(page, 'recherche')).toBe(false);
    // No band above the first group: the status line is only for screen readers when the
    // suggestions are shown.
    const top = await panel(page).boundingBox();
    const first = await listbox.getByRole('group').first().boundingBox();
    expect((first?.y ?? 0) - (top?.y ?? 0)).toBeLessThan(24);
    await page.screenshot({ path: `test-results/visual/search-panel-${String(size.width)}.png` });

    // A typo: the suggestions of the corrected term, said so.
    await searchBox(page).fill('matelat');
    await expect(panel(page)).toContainText(t('search.suggestionsFor', { term: 'matelas' }));
    await expect(panel(page)).toContainText(t('search.noResultsFor', { term: 'matelat' }));
    await expect(listbox.locator('[data-search-product]').first()).toContainText(/matelas/i);
    await page.screenshot({
      path: `test-results/visual/search-panel-typo-${String(size.width)}.png`,
    });
  });

  test(`${String(size.width)} px: "matelat" shows mattresses with the correction, and the term as typed on demand`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    const reply = await page.goto('/resultats-de-recherche/matelat');
    expect(reply?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      t('search.resultsTitle', { term: 'matelas' }),
    );
    const notice = page.locator('[data-search-correction]');
    await expect(notice).toContainText(t('search.noResultsFor', { term: 'matelat' }));
    const cards = page.locator('main .card-title');
    expect(await cards.count()).toBeGreaterThan(0);
    await expect(cards.first()).toContainText(/matelas/i);
    await page.screenshot({ path: `test-results/visual/search-typo-${String(size.width)}.png` });

    await notice
      .getByRole('link', { name: t('search.searchInstead', { term: 'matelat' }) })
      .click();
    await expect(page).toHaveURL(/\/resultats-de-recherche\/matelat\?exact=1$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      t('search.noResultsFor', { term: 'matelat' }),
    );
    // Nothing found as typed: the way on, with "matelas" to try.
    await expect(page.locator('[data-search-suggestion]')).toHaveText(['matelas']);
  });

  test(`${String(size.width)} px: a nonsense term shows the no-results page: categories, tips, best sellers`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    const reply = await page.goto('/resultats-de-recherche/zzqxw%20vvkjq');
    // As for any search: only an upstream failure answers an error status (spec §8).
    expect(reply?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      t('search.noResultsFor', { term: 'zzqxw vvkjq' }),
    );
    const main = page.locator('main');
    await expect(main).toContainText(t('No products found matching your search criteria.'));
    const categories = main
      .getByRole('region', { name: t('search.noResults.categories') })
      .getByRole('link');
    expect(await categories.count()).toBeGreaterThan(1);
    for (const href of await categories.evaluateAll((links) =>
      links.map((link) => link.getAttribute('href') ?? ''),
    )) {
      expect(href).toMatch(/^\/c\/[a-z0-9-/]+$/);
    }
    await expect(main.getByRole('region', { name: t('search.noResults.tipsTitle') })).toBeVisible();
    await expect(
      main.getByRole('region', { name: t('search.noResults.bestSellers') }).locator('.card-title'),
    ).not.toHaveCount(0);
    await expect(main.getByRole('search', { name: t('search.again') })).toBeVisible();
    await page.screenshot({
      path: `test-results/visual/search-none-${String(size.width)}.png`,
      fullPage: true,
    });
    const axe = await new AxeBuilder({ page })
      .include('main')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(
      axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
    const first = categories.first();
    const href = (await first.getAttribute('href')) ?? '';
    await first.click();
    await expect(page).toHaveURL(new RegExp(`${href.replaceAll('/', '\\/')}$`));
  });
}
