/**
 * The build's catalogue index and its shared reads (src/shop/loaders/catalogue-index.ts):
 * products by id, category and brand; the best sellers and products on sale chosen in one pass
 * (`firstInOrder`) exactly as a sort would.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  bestSellers,
  firstInOrder,
  indexCatalogue,
  onSale,
} from '../../src/shop/loaders/catalogue-index.ts';
import { product } from './fixtures.ts';
import { catalogueBrand, catalogueCategories } from './helpers/catalogue.ts';

describe('firstInOrder', () => {
  test('the first items of a stable sort', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.nat()), { maxLength: 40 }),
        fc.integer({ min: 0, max: 12 }),
        (items, count) => {
          const compare = (a: [number, number], b: [number, number]) => b[0] - a[0];
          expect(firstInOrder(items, count, compare)).toEqual(
            [...items].sort(compare).slice(0, count),
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('indexCatalogue', () => {
  const categories = catalogueCategories([
    {
      id: 1,
      name: 'Matelas',
      url: '/matelas/',
      children: [{ id: 2, name: 'Mousse', url: '/matelas/mousse/' }],
    },
    { id: 3, name: 'Caché', url: '/cache/', isVisible: false },
  ]);

  test('products by id, by category (ids ascending) and brand; brands by name', () => {
    const read = {
      products: [
        product({ id: 3, categories: [2, 2], brandId: 7 }),
        product({ id: 1, categories: [1, 2] }),
      ],
      categories,
      brands: [
        catalogueBrand(7, 'Simmons'),
        catalogueBrand(8, 'Épéda'),
        catalogueBrand(9, 'Bultex'),
      ],
    };
    const cat = indexCatalogue(read);
    expect(cat.products.map((p) => p.id)).toEqual([1, 3]);
    expect(read.products.map((p) => p.id)).toEqual([3, 1]);
    expect(cat.productsByCategory.get(2)?.map((p) => p.id)).toEqual([1, 3]);
    expect(cat.productsByBrand.get(7)?.map((p) => p.id)).toEqual([3]);
    expect(cat.productsByBrand.has(0)).toBe(false);
    expect(cat.brands.map((b) => b.name)).toEqual(['Bultex', 'Épéda', 'Simmons']);
    expect(cat.roots.map((c) => c.id)).toEqual([1]);
    expect(cat.shownTree).toEqual([
      {
        id: 1,
        parentId: 0,
        name: 'Matelas',
        url: '/matelas/',
        isVisible: true,
        children: [
          {
            id: 2,
            parentId: 1,
            name: 'Mousse',
            url: '/matelas/mousse/',
            isVisible: true,
            children: [],
          },
        ],
      },
    ]);
  });

  test('best sellers and products on sale: available, ordered, the best sellers left out', () => {
    const cat = indexCatalogue({
      products: [
        product({ id: 1, totalSold: 5 }),
        product({ id: 2, totalSold: 9, isPriceHidden: true }),
        product({ id: 3, totalSold: 5, price: 10000, salePrice: 5000 }),
        product({ id: 4, totalSold: 1, price: 10000, salePrice: 9000 }),
        product({ id: 5, totalSold: 0, price: 10000, salePrice: 5000 }),
        product({ id: 6, totalSold: 7, inventoryTracking: 'product', inventoryLevel: 0 }),
      ],
      categories,
      brands: [],
    });
    const best = bestSellers(cat, 2);
    expect(best.map((p) => p.id)).toEqual([1, 3]);
    expect(onSale(cat, 5, best).map((p) => p.id)).toEqual([5, 4]);
    expect(onSale(cat, 5).map((p) => p.id)).toEqual([3, 5, 4]);
  });
});
