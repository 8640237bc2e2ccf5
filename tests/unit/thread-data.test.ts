/**
 * A kept render thread's copy of the catalogue (src/server/render-threads/thread-data.ts): after
 * any patch of the main thread's read as a publish makes it (products edited as new objects,
 * added, deleted, reordered; categories or brands read again), the change applied to an equal
 * copy gives an equal copy of the new read, and it carries only the products that are new
 * objects. A change naming a product the copy lacks is refused.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { CatalogueRead } from '../../src/shop/loaders/catalogue-source.ts';
import {
  applyCatalogueChange,
  catalogueChange,
} from '../../src/server/render-threads/thread-data.ts';

type Product = CatalogueRead['products'][number];
const product = (id: number, name: string) => ({ id, name }) as unknown as Product;
const read = (products: Product[], tag = 'a'): CatalogueRead => ({
  products,
  categories: [{ tag }] as unknown as CatalogueRead['categories'],
  brands: [{ tag }] as unknown as CatalogueRead['brands'],
  ms: 1,
});

/** A thread's copy: equal, no object shared (as a structured clone is). */
const copy = (value: CatalogueRead): CatalogueRead => structuredClone(value);

const patch = fc.record({
  edited: fc.uniqueArray(fc.nat(59)),
  deleted: fc.uniqueArray(fc.nat(59)),
  added: fc.uniqueArray(fc.integer({ min: 60, max: 90 })),
  shuffle: fc.boolean(),
  categories: fc.boolean(),
  brands: fc.boolean(),
});

describe('catalogueChange and applyCatalogueChange', () => {
  test('property: the change applied to a copy of the old read equals the new read', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), patch, (size, change) => {
        const before = read(Array.from({ length: size }, (_, id) => product(id, `p${String(id)}`)));
        const deleted = new Set(change.deleted);
        const products = before.products
          .filter((p) => !deleted.has(p.id))
          .map((p) => (change.edited.includes(p.id) ? product(p.id, `edited ${String(p.id)}`) : p))
          .concat(change.added.map((id) => product(id, `new ${String(id)}`)));
        if (change.shuffle) products.reverse();
        const after: CatalogueRead = {
          ...before,
          products,
          ...(change.categories ? { categories: read([], 'b').categories } : {}),
          ...(change.brands ? { brands: read([], 'b').brands } : {}),
          ms: 2,
        };
        const delta = catalogueChange(before, after);
        expect(applyCatalogueChange(copy(before), delta)).toEqual(after);
        // Only the products that are new objects travel.
        const kept = new Set(before.products);
        expect(delta.fresh).toEqual(products.filter((p) => !kept.has(p)));
        expect('categories' in delta.parts).toBe(change.categories);
        expect('brands' in delta.parts).toBe(change.brands);
      }),
      { numRuns: 500 },
    );
  });

  test('a change naming a product the copy does not have is refused', () => {
    const before = read([product(1, 'a')]);
    const delta = catalogueChange(before, read([...before.products], 'b'));
    expect(() => applyCatalogueChange(read([product(2, 'b')]), delta)).toThrow(/product 1/);
  });
});
