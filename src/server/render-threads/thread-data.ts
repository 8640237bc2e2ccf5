/**
 * A kept render thread's copy of the catalogue, brought up to date after a publish without
 * sending the whole catalogue again. The publisher (src/server/publish/publish-data.ts) patches
 * the main thread's read: unchanged products stay the same objects, an edited one is a new
 * object, a deleted one is gone. So what a thread needs is the new order of product ids, the
 * products that are new objects, and any other part of the read that is a new object
 * (categories, brands): at 100,000 products a few hundred kilobytes instead of the whole
 * catalogue (seconds of copying). `applyCatalogueChange(before', catalogueChange(before, after))`
 * equals `after` whenever `before'` equals `before` (tests/unit/thread-data.test.ts).
 */
import type { CatalogueRead } from '../../shop/loaders/catalogue-source.ts';

type Product = CatalogueRead['products'][number];

/** What turns a thread's copy of one read into a copy of the next. */
export interface CatalogueChange {
  /** Every product id of the new read, in its order. */
  order: number[];
  /** The new read's products that are not objects of the old one (edited or added). */
  fresh: Product[];
  /** The new read's other parts that are not the old one's objects. */
  parts: Partial<Omit<CatalogueRead, 'products'>>;
}

/** What changed from `before` to `after` (both the main thread's reads). */
export function catalogueChange(before: CatalogueRead, after: CatalogueRead): CatalogueChange {
  const kept = new Set(before.products);
  const parts: Partial<Omit<CatalogueRead, 'products'>> = {};
  for (const key of Object.keys(after) as (keyof CatalogueRead)[]) {
    if (key === 'products' || after[key] === before[key]) continue;
    Object.assign(parts, { [key]: after[key] });
  }
  return {
    order: after.products.map((product) => product.id),
    fresh: after.products.filter((product) => !kept.has(product)),
    parts,
  };
}

/**
 * A thread's copy of the next read, from its copy of the previous one and the change. Throws
 * when the change names a product the copy does not have: the copies have diverged.
 */
export function applyCatalogueChange(read: CatalogueRead, change: CatalogueChange): CatalogueRead {
  const byId = new Map<number, Product>();
  for (const product of read.products) byId.set(product.id, product);
  for (const product of change.fresh) byId.set(product.id, product);
  const products = change.order.map((id) => {
    const product = byId.get(id);
    if (product === undefined) {
      throw new Error(`the render thread's catalogue has no product ${String(id)}`);
    }
    return product;
  });
  return { ...read, ...change.parts, products };
}
