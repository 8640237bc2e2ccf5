import { parseListingParams } from '../../src/lib/commerce/listing.ts';
import { applyListing } from '../../src/lib/commerce/listing-products.ts';
import { productPath } from '../../src/lib/commerce/slug.ts';
import { defaultVariant, findVariant, stockStatus } from '../../src/lib/commerce/stock.ts';
import type { Page as ResultPage, Product, Variant } from '../../src/lib/commerce/types.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { BRANDS, CATEGORIES, PRODUCTS } from '@literie/sandbox/fixtures';
import { api, expect, shownPrice, test, waitForHydration, waitForIsland } from './helpers.ts';

const cardTitles = (page: import('@playwright/test').Page) =>
  page.locator('[data-card] :is(h2, h3)').allInnerTexts();

/** The main navigation's entry marked as the current page. */
const currentNavEntry = (page: import('@playwright/test').Page) =>
  page
    .getByRole('navigation', { name: t('header.mainNavigation') })
    .locator('[aria-current="true"]')
    .first();

/** Every visible product of a category, through the shop's API (all pages). */
async function categoryProducts(
  request: import('@playwright/test').APIRequestContext,
  categoryId: number,
): Promise<Product[]> {
  return allProducts(request, { categoryIds: [categoryId] });
}

async function allProducts(
  request: import('@playwright/test').APIRequestContext,
  query: Record<string, unknown>,
): Promise<Product[]> {
  const products: Product[] = [];
  for (let page = 1; ; page++) {
    const result = await api<ResultPage<Product>>(request, 'getProducts', [
      { ...query, page, limit: 250 },
    ]);
    products.push(...result.items);
    if (page >= result.pagination.totalPages) return products;
  }
}

test('home shows the header, root categories, products and the footer', async ({ page }) => {
  const res = await page.goto('/');
  expect(res?.status()).toBe(200);
  await expect(page).toHaveTitle(/.+/);
  await expect(page.getByRole('searchbox').first()).toHaveAttribute(
    'placeholder',
    'Rechercher un matelas, un produit...',
  );
  const nav = page.getByRole('navigation', { name: t('header.mainNavigation') });
  await expect(nav.getByRole('link', { name: 'Matelas', exact: true })).toBeVisible();
  await expect(page.locator('[data-card]').first()).toBeVisible();
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: t('legal.notice') })).toHaveAttribute(
    'href',
    '/mentions-legales',
  );
  for (const text of ['Livraison rapide', '4 magasins', 'Circuit court']) {
    await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
  }
});

test('a category lists its products in the default order, pre-rendered', async ({
  page,
  request,
}) => {
  const products = await categoryProducts(request, CATEGORIES.matelas);
  const expected = applyListing(products, parseListingParams(''));
  await page.goto('/c/matelas');
  await expect(page.getByRole('heading', { level: 1, name: 'Matelas' })).toBeVisible();
  expect(await cardTitles(page)).toEqual(expected.items.map((p) => p.name));
  // The pre-rendered page marks its own entry of the main navigation (the build renders it as
  // /c/matelas.html: the entry was left unmarked).
  await expect(currentNavEntry(page)).toHaveAttribute('href', '/c/matelas');
});

test('sorting by price reorders the products and keeps the sort id in the URL', async ({
  page,
  request,
}) => {
  const products = await categoryProducts(request, CATEGORIES.matelas);
  await page.goto('/c/matelas');
  await waitForHydration(page);
  await page.getByLabel(t('sort.label')).selectOption({ label: t('sort.priceAsc') });
  // The URL changes when the new document commits, before its cards are all parsed: poll.
  await expect(page).toHaveURL(/[?&]sort=2(&|$)/);
  const expected = applyListing(products, parseListingParams('sort=2'));
  await expect.poll(() => cardTitles(page)).toEqual(expected.items.map((p) => p.name));
});

test('a direct load of a query view is server-rendered with the right products', async ({
  browser,
  request,
}) => {
  // JavaScript off: what the shopper sees before any script runs, so nothing can jump.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const query = `sort=3&marque=${BRANDS.dormelune}`;
  const products = await categoryProducts(request, CATEGORIES.matelas);
  const expected = applyListing(products, parseListingParams(query));
  expect(expected.items.length).toBeGreaterThan(0);
  const res = await page.goto(`/c/matelas?${query}`);
  expect(res?.status()).toBe(200);
  expect(await cardTitles(page)).toEqual(expected.items.map((p) => p.name));
  // The view marks its category's entry of the main navigation, as its page 1 does (it is
  // rendered as /vue/c/matelas: the entry was left unmarked).
  await expect(currentNavEntry(page)).toHaveAttribute('href', '/c/matelas');
  await context.close();
});

test('filtering by brand narrows the list, and removing the filter restores it', async ({
  page,
  request,
}) => {
  const products = await categoryProducts(request, CATEGORIES.matelas);
  await page.goto('/c/matelas');
  await waitForHydration(page);
  const all = await cardTitles(page);
  await page.getByRole('checkbox', { name: /Dormelune/ }).check();
  // The filter applies itself on change (in place, listing-filters.ts; a GET form without JS).
  await expect(page).toHaveURL(new RegExp(`marque=${BRANDS.dormelune}`));
  const expected = applyListing(products, parseListingParams(`marque=${BRANDS.dormelune}`));
  await expect.poll(() => cardTitles(page)).toEqual(expected.items.map((p) => p.name));
  expect(expected.pagination.total).toBeLessThan(products.length);
  await page.goto('/c/matelas');
  expect(await cardTitles(page)).toEqual(all);
});

test('pagination goes to page 2 and marks the current page', async ({ page, request }) => {
  const products = await categoryProducts(request, CATEGORIES.matelas);
  const second = applyListing(products, parseListingParams('page=2'));
  expect(second.items.length).toBeGreaterThan(0);
  await page.goto('/c/matelas');
  await page
    .getByRole('navigation', { name: t('pagination.label') })
    .getByRole('link', { name: t('pagination.next') })
    .click();
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  await expect.poll(() => cardTitles(page)).toEqual(second.items.map((p) => p.name));
  await expect(
    page.getByRole('navigation', { name: t('pagination.label') }).locator('[aria-current="page"]'),
  ).toHaveText(/2/);
});

test('the grid / list toggle switches the layout', async ({ page }) => {
  await page.goto('/c/matelas');
  await waitForHydration(page);
  const card = page.locator('[data-card]').first();
  const gridBox = await card.boundingBox();
  await page.getByTitle(t('listing.list')).click();
  await expect(page.getByRole('radio', { name: t('listing.list') })).toBeChecked();
  const listBox = await card.boundingBox();
  expect(listBox?.width).toBeGreaterThan((gridBox?.width ?? 0) * 1.5);
});

test('a product page: changing the variant updates price and stock', async ({ page, request }) => {
  const product = await api<Product>(request, 'getProductById', [PRODUCTS.trackingVariant]);
  const res = await page.goto(productPath(product));
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
  await waitForHydration(page);

  // Pick a variant whose shown price differs from the current one, then one out of stock.
  const priceArea = page.locator('[aria-live="polite"]').first();
  // The picker hydrates once seen (`client:linked`): wait for it before ticking options
  // (a tick before it hydrates is the browser's alone, and the price does not follow).
  await waitForIsland(priceArea);
  for (const variant of product.variants) {
    for (const value of variant.optionValues) {
      await page
        .getByRole('group', { name: new RegExp(`^${value.optionDisplayName}`) })
        .getByRole('radio', { name: value.label, exact: true })
        .check();
    }
    const selection = Object.fromEntries(variant.optionValues.map((v) => [v.optionId, v.id]));
    expect(findVariant(product, selection)?.id).toBe(variant.id);
    await expect(priceArea).toContainText(shownPrice(product, variant).replace(/\s/g, ' '), {
      useInnerText: true,
    });
    const status = stockStatus(product, variant);
    await expect(priceArea.locator('[data-stock]')).toHaveAttribute('data-stock', status);
  }
});

test('options ticked before the picker hydrates are the ones priced once it has', async ({
  page,
  request,
}) => {
  const product = await api<Product>(request, 'getProductById', [PRODUCTS.trackingVariant]);
  const fallback = defaultVariant(product);
  const target = product.variants.find(
    (variant) =>
      fallback !== undefined &&
      shownPrice(product, variant) !== shownPrice(product, fallback) &&
      variant.optionValues.length > 0,
  );
  if (!target) throw new Error('The product needs a variant priced apart from its default');
  // The island's code is held until the options are ticked: the shopper is quicker than it.
  let release: (() => void) | undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/_astro/VariantPicker.*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(productPath(product));
  const priceArea = page.locator('[aria-live="polite"]').first();
  const island = priceArea.locator('xpath=ancestor::astro-island[1]');
  await expect(island).toHaveAttribute('ssr');
  const radio = (value: Variant['optionValues'][number]) =>
    page
      .getByRole('group', { name: new RegExp(`^${value.optionDisplayName}`) })
      .getByRole('radio', { name: value.label, exact: true });
  for (const value of target.optionValues) await radio(value).check();
  await expect(island).toHaveAttribute('ssr');
  release?.();
  await expect(island).not.toHaveAttribute('ssr');
  await expect(priceArea).toContainText(shownPrice(product, target).replace(/\s/g, ' '), {
    useInnerText: true,
  });
  await expect(priceArea.locator('[data-stock]')).toHaveAttribute(
    'data-stock',
    stockStatus(product, target),
  );
  for (const value of target.optionValues) await expect(radio(value)).toBeChecked();
});

test('a brand corner lists the brand products', async ({ page, request }) => {
  const products = await allProducts(request, { brandId: BRANDS.dormelune });
  await page.goto('/marque/dormelune');
  await expect(page.getByRole('heading', { level: 1, name: /Dormelune/ })).toBeVisible();
  const titles = await cardTitles(page);
  expect(titles.length).toBeGreaterThan(0);
  const names = new Set(products.map((p) => p.name));
  for (const title of titles) expect(names.has(title), title).toBe(true);
});

test('the product JSON-LD carries offers and the rating', async ({ page, request }) => {
  const product = await api<Product>(request, 'getProductById', [PRODUCTS.trackingVariant]);
  await page.goto(productPath(product));
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  interface Ld {
    '@type'?: string;
    offers?: unknown;
    name?: string;
    aggregateRating?: unknown;
  }
  const ld = blocks
    .flatMap((b) => JSON.parse(b) as Ld | Ld[])
    .find((b) => b['@type'] === 'Product');
  expect(ld?.name).toBe(product.name);
  expect(ld?.offers).toBeTruthy();
  if (product.reviewsCount > 0) expect(ld?.aggregateRating).toBeTruthy();
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    'href',
    new RegExp(`${productPath(product)}$`),
  );
});

test('the header search leads to the results page of the trimmed term', async ({
  page,
  request,
}) => {
  const expected = await api<{ products: Product[] }>(request, 'getProductsWithFilter', [
    { searchTerm: 'latex', limit: 20 },
  ]);
  expect(expected.products.length).toBeGreaterThan(0);
  await page.goto('/c/matelas');
  // The search panel makes the input a combobox on focus: find it by its placeholder.
  const search = page.getByPlaceholder(t('search.placeholder'));
  await search.fill('  latex ');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/resultats-de-recherche\/latex$/);
  await expect(
    page.getByRole('heading', { level: 1, name: t('search.resultsTitle', { term: 'latex' }) }),
  ).toBeVisible();
  expect(await cardTitles(page)).toEqual(expected.products.map((p) => p.name));

  await page.goto('/resultats-de-recherche/introuvablexyz');
  await expect(page.getByText(t('No products found matching your search criteria.'))).toBeVisible();
  await page.goto('/resultats-de-recherche');
  await expect(page.getByText(t("You haven't searched for items yet"))).toBeVisible();
});
