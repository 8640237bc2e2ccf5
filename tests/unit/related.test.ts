/**
 * Related products of a product page (src/shop/view-models/catalogue/related.ts): the explicit
 * `related_products` first, else the products following the product in its most specific shown
 * category (wrapping), then its next category. A window depends only on the products just
 * after the page's own: adding a product to a category changes at most `automaticWindow`
 * pages before it.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  automaticWindow,
  firstAfter,
  RELATED_COUNT,
  relatedProducts,
} from '../../src/shop/view-models/catalogue/related.ts';
import { product } from './fixtures.ts';
import type { Catalogue } from '../../src/shop/loaders/catalogue-index.ts';
import { catalogueCategories, makeCatalogue } from './helpers/catalogue.ts';

const TREE = [
  {
    id: 1,
    name: 'Matelas',
    url: '/matelas/',
    children: [{ id: 2, name: 'Ressorts', url: '/matelas/ressorts/' }],
  },
  { id: 3, name: 'Cachée', url: '/cachee/', isVisible: false },
];
const categories = catalogueCategories(TREE);
const ids = (list: readonly { id: number }[]) => list.map((item) => item.id);

/** The related ids of product `id`'s page. */
function relatedOf(cat: Catalogue, id: number, count = 4): number[] {
  const page = cat.productById.get(id);
  if (!page) throw new Error(`no product ${String(id)}`);
  return ids(relatedProducts(cat, page, count));
}

describe('relatedProducts', () => {
  test('the products following it in its category, wrapping round', () => {
    const products = [10, 20, 30, 40, 50, 60].map((id) => product({ id, categories: [1] }));
    const cat = makeCatalogue(products, categories);
    expect(relatedOf(cat, 20)).toEqual([30, 40, 50, 60]);
    expect(relatedOf(cat, 50)).toEqual([60, 10, 20, 30]);
    expect(relatedOf(cat, 60)).toEqual([10, 20, 30, 40]);
  });

  test('neighbours differ between pages', () => {
    const products = [1, 2, 3, 4, 5, 6, 7, 8].map((id) => product({ id, categories: [1] }));
    const cat = makeCatalogue(products, categories);
    const windows = products.map((p) => ids(relatedProducts(cat, p, 4)).join(','));
    expect(new Set(windows).size).toBe(products.length);
  });

  test('the most specific shown category first, then the next one; hidden ones are skipped', () => {
    const products = [
      product({ id: 1, categories: [1, 2, 3] }),
      product({ id: 2, categories: [2] }),
      product({ id: 3, categories: [3] }),
      product({ id: 4, categories: [1] }),
      product({ id: 5, categories: [1] }),
    ];
    const cat = makeCatalogue(products, categories);
    // Category 2 (depth 1) gives 2, then category 1 from after 1: 4, 5 (3 is only hidden).
    expect(relatedOf(cat, 1)).toEqual([2, 4, 5]);
  });

  test('explicit related products first, visible ones only, the automatic marker ignored', () => {
    const products = [
      product({ id: 1, categories: [1], relatedProducts: [-1, 99, 4, 3] }),
      product({ id: 2, categories: [1] }),
      product({ id: 3, categories: [1] }),
      product({ id: 4, categories: [1] }),
      product({ id: 5, categories: [1], relatedProducts: [-1] }),
      product({ id: 6, categories: [1], relatedProducts: [99] }),
    ];
    const cat = makeCatalogue(products, categories);
    expect(relatedOf(cat, 1)).toEqual([4, 3]);
    expect(relatedOf(cat, 5)).toEqual([6, 1, 2, 3]);
    // Naming only products that are not visible: the category's.
    expect(relatedOf(cat, 6)).toEqual([1, 2, 3, 4]);
  });

  test('never the product itself, fewer when the category is short', () => {
    const alone = product({ id: 7, categories: [2] });
    const cat = makeCatalogue([alone, product({ id: 8, categories: [2] })], categories);
    expect(relatedOf(cat, 7)).toEqual([8]);
    expect(relatedProducts(makeCatalogue([alone], categories), alone, 4)).toEqual([]);
  });

  test('the page shows RELATED_COUNT by default', () => {
    const products = [1, 2, 3, 4, 5, 6, 7, 8].map((id) => product({ id, categories: [1] }));
    const cat = makeCatalogue(products, categories);
    expect(relatedProducts(cat, products[0] ?? product())).toHaveLength(RELATED_COUNT);
  });
});

describe('firstAfter', () => {
  test('the first index whose id is above', () => {
    const list = [2, 4, 6].map((id) => product({ id }));
    expect([0, 2, 3, 4, 5, 6, 7].map((id) => firstAfter(list, id))).toEqual([0, 1, 1, 2, 2, 3, 3]);
    expect(firstAfter([], 1)).toBe(0);
  });
});

describe('locality: adding a product changes only the pages just before it', () => {
  test('at most automaticWindow(count) pages per category, all of them showing it', () => {
    const category = fc.constantFrom(1, 2, 3);
    const item = fc.record({
      categories: fc.uniqueArray(category, { maxLength: 3 }),
      related: fc.array(fc.integer({ min: -1, max: 40 }), { maxLength: 2 }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.integer({ min: 1, max: 40 }), item), {
          minLength: 1,
          maxLength: 25,
          selector: ([id]) => id,
        }),
        fc.integer({ min: 1, max: 5 }),
        (specs, count) => {
          const all = specs.map(([id, spec]) =>
            product({ id, categories: spec.categories, relatedProducts: spec.related }),
          );
          const [added = product(), ...rest] = all;
          const before = makeCatalogue(rest, categories);
          const after = makeCatalogue(all, categories);
          const changed = rest.filter(
            (p) =>
              ids(relatedProducts(before, p, count)).join() !==
              ids(relatedProducts(after, p, count)).join(),
          );
          for (const p of changed) {
            // A page whose related products changed shows the added product now.
            expect(ids(relatedProducts(after, p, count))).toContain(added.id);
          }
          // Automatically, only from the pages just before it in each of its categories.
          const automatic = changed.filter((p) => !p.relatedProducts.includes(added.id));
          const shownCategories = added.categories.filter((id) => id !== 3);
          expect(automatic.length).toBeLessThanOrEqual(
            automaticWindow(count) * shownCategories.length,
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
