/**
 * The price shown is the price paid, in the browser at 390 and 1280 px: a card of
 * the mattresses filtered on 160x200 shows its 160x200 price (not the cheapest size's), its
 * link opens the product page on 160x200 with the same price (the page's canonical URL without
 * the variant), and the cart charges that price. Screenshots in test-results/visual/.
 */
import { type APIRequestContext } from '@playwright/test';
import { parseListingParams } from '../../src/lib/commerce/listing.ts';
import { applyListing } from '../../src/lib/commerce/listing-products.ts';
import { formatPrice } from '../../src/lib/commerce/money.ts';
import { productOffer, variantFilter } from '../../src/lib/commerce/offer.ts';
import { VARIANT_PARAM } from '../../src/lib/commerce/variant-link.ts';
import { displayPrice, effectivePrice } from '../../src/lib/commerce/price.ts';
import { productPath } from '../../src/lib/commerce/slug.ts';
import { defaultVariant, isPurchasable } from '../../src/lib/commerce/stock.ts';
import type { Page as ResultPage, Product } from '../../src/lib/commerce/types.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { CATEGORIES } from '@literie/sandbox/fixtures';
import { api, expect, test, waitForHydration, waitForIsland } from './helpers.ts';

const SHOTS = 'test-results/visual';
const SIZE = '160x200 cm';
const QUERY = 'taille=160x200+cm';

async function categoryProducts(request: APIRequestContext, categoryId: number) {
  const products: Product[] = [];
  for (let page = 1; ; page++) {
    const result = await api<ResultPage<Product>>(request, 'getProducts', [
      { categoryIds: [categoryId], page, limit: 250 },
    ]);
    products.push(...result.items);
    if (page >= result.pagination.totalPages) return products;
  }
}

for (const width of [390, 1280]) {
  test(`a 160x200 card's price is its product page's and the cart's (${String(width)} px)`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const params = parseListingParams(QUERY);
    const filter = variantFilter(params.filters);
    const { items } = applyListing(await categoryProducts(request, CATEGORIES.matelas), params);
    // A card whose 160x200 price is not the price its product page opens on without the link.
    const chosen = items.flatMap((product) => {
      const offer = productOffer(product, filter);
      const first = defaultVariant(product);
      if (!offer.narrowed || offer.variant === null || product.isPriceHidden || !first) return [];
      if (!isPurchasable(product, offer.variant)) return [];
      const paid = effectivePrice(offer.price);
      return paid === effectivePrice(displayPrice(product, first))
        ? []
        : [{ product, variant: offer.variant, price: formatPrice(paid) }];
    })[0];
    if (!chosen) throw new Error('no 160x200 mattress priced apart from its default size');
    const { product, variant, price } = chosen;

    // The listing: the card shows the 160x200 price and links to the page on 160x200.
    expect((await page.goto(`/c/matelas?${QUERY}`))?.status()).toBe(200);
    const link = page.getByRole('link', { name: product.name, exact: true });
    const card = page.locator('[data-card]').filter({ has: link });
    await expect(card.locator('.card-price')).toContainText(price);
    const href = `${productPath(product)}?${VARIANT_PARAM}=${String(variant.id)}`;
    await expect(link).toHaveAttribute('href', href);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/price-display-listing-${String(width)}.png` });
    // Its button adds that variant (checked in the cart below).
    const cardAdd = card.getByRole('button', { name: t('cart.addLabel', { name: product.name }) });
    await waitForIsland(cardAdd);
    await cardAdd.click();
    await expect(page.getByRole('status').filter({ hasText: t('Added to cart') })).toBeVisible();

    // The product page opens on 160x200, at the card's price; its canonical URL has no variant.
    await link.click();
    await expect(page).toHaveURL(href);
    // Before any scroll, on a phone too (`client:linked` hydrates the picker at once on a
    // linked variant): the price shown is the card's, and view_item names that variant.
    await expect(page.locator('astro-island [aria-live="polite"]').first()).toContainText(price);
    await expect
      .poll(() =>
        page.evaluate(() =>
          ((window as { dataLayer?: unknown[] }).dataLayer ?? [])
            .map((entry) => entry as { event?: string; ecommerce?: { items: unknown[] } })
            .filter((entry) => entry.event === 'view_item')
            .map((entry) => entry.ecommerce?.items[0]),
        ),
      )
      .toMatchObject([
        { item_variant: SIZE, price: effectivePrice(displayPrice(product, variant)) / 100 },
      ]);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      'href',
      new RegExp(`${productPath(product)}$`),
    );
    const add = page.getByRole('button', { name: /^Ajouter au panier/ }).first();
    await waitForIsland(add);
    await expect(page.getByRole('radio', { name: SIZE, exact: true })).toBeChecked();
    const priceLine = page.locator('astro-island [aria-live="polite"]').first();
    await expect(priceLine).toContainText(price);
    // Selecting the linked variant at hydration moves nothing on the page (its price line keeps
    // its box): every layout shift since navigation, buffered, is measured.
    const shifted = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list, observer) => {
            observer.disconnect();
            resolve(
              list
                .getEntries()
                .map((entry) => entry as unknown as { value: number; hadRecentInput: boolean })
                .filter((entry) => !entry.hadRecentInput)
                .reduce((sum, entry) => sum + entry.value, 0),
            );
          }).observe({ type: 'layout-shift', buffered: true });
          // No shift at all: the observer is never called; an empty frame says so.
          requestAnimationFrame(() => {
            requestAnimationFrame(() => {
              resolve(0);
            });
          });
        }),
    );
    // Measured 0.0001 (390 px) and 0.0005 (1280 px): the new price's own width.
    expect(shifted).toBeLessThan(0.01);
    await priceLine.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/price-display-product-${String(width)}.png` });

    // The cart holds that variant twice (the card's add and the page's: one line, or two when
    // the page sends an item option the card does not), each unit charged the card's price.
    await add.click();
    await expect(page.getByRole('button', { name: t('cart.added') })).toBeVisible();
    await page.goto('/panier');
    await waitForHydration(page);
    const lines = page.locator('[data-cart-line]');
    await expect(lines.first()).toBeVisible();
    const skus = await lines.evaluateAll((nodes) =>
      nodes.map((node) => node.getAttribute('data-cart-line')),
    );
    expect(new Set(skus)).toEqual(new Set([variant.sku]));
    const quantities = await lines
      .getByRole('spinbutton')
      .evaluateAll((inputs) => inputs.map((input) => Number((input as HTMLInputElement).value)));
    expect(quantities.reduce((sum, n) => sum + n, 0)).toBe(2);
    for (const line of await lines.all()) await expect(line).toContainText(price);
    await page.screenshot({ path: `${SHOTS}/price-display-cart-${String(width)}.png` });
  });
}
