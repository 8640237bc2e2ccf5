import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { productPath } from '../../src/lib/commerce/slug.ts';
import type { Product } from '../../src/lib/commerce/types.ts';
import { PRODUCTS } from '../../scripts/sandbox/fixtures.ts';
import { api, waitForHydration } from './helpers.ts';

// One axe pass per page kind (STYLE.md): no violation of the WCAG 2.1 A/AA rules.
// 'product' stands for the product page, whose path comes from the API.
const pages: [kind: string, path: string][] = [
  ['home', '/'],
  ['category', '/c/matelas'],
  ['category query view', '/c/matelas?sort=2&page=2'],
  ['product', 'product'],
  ['brand', '/marque/dormelune'],
  ['category index', '/categorie'],
  ['search results', '/resultats-de-recherche/matelas'],
  ['error 404', '/page-inconnue'],
  ['design showcase', '/Design'],
];

for (const [kind, path] of pages) {
  test(`axe: ${kind}`, async ({ page, request }) => {
    const url =
      path === 'product'
        ? productPath(await api<Product>(request, 'getProductById', [PRODUCTS.trackingVariant]))
        : path;
    await page.goto(url);
    await waitForHydration(page);
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const violations = results.violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
    expect(violations).toEqual([]);
  });
}
