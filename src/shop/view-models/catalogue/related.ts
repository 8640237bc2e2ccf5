/**
 * Related products of a product page: the product's `related_products` that are visible, in
 * their order; BigCommerce's "automatic" marker (-1), an empty list or a list naming no visible
 * product means "from the same category": the products that follow it in its most specific
 * shown category (by id, wrapping round to the first), then in its next category if that one
 * is short. Neighbours thus differ between pages, and a page's window depends only on the
 * products just after it: adding or removing a product changes the related products of the
 * few pages just before it in each of its categories, never of the whole category
 * (`src/shop/publish/affected.ts` finds those pages with `automaticWindow`).
 */
import type { Product } from '../../../lib/commerce/types.ts';
import { productCategories, type Catalogue } from '../../loaders/catalogue-index.ts';

/** BigCommerce `related_products: [-1]`: let the store pick related products itself. */
const AUTOMATIC = -1;

/** Related products a product page shows. */
export const RELATED_COUNT = 4;

/** Index of the first product of an id-sorted list whose id is above `id` (may be the length). */
export function firstAfter(list: readonly Product[], id: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle]?.id ?? Number.POSITIVE_INFINITY) <= id) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * How many products of one category list a product page reads at most, from the one after it:
 * each product read is kept (at most `count` less those a previous category gave), or skipped
 * as one of those, or as the page's own product: `count + 1` in all. So the pages that may show
 * a product automatically are the `count + 1` before it in each of its categories.
 */
export function automaticWindow(count: number): number {
  return count + 1;
}

export function relatedProducts(
  cat: Catalogue,
  product: Product,
  count: number = RELATED_COUNT,
): Product[] {
  const picked = new Map<number, Product>();
  const add = (candidate: Product | undefined) => {
    if (candidate && candidate.id !== product.id && picked.size < count) {
      picked.set(candidate.id, candidate);
    }
  };
  for (const id of product.relatedProducts) {
    if (id !== AUTOMATIC) add(cat.productById.get(id));
  }
  if (picked.size === 0) {
    for (const category of productCategories(cat, product)) {
      // Category lists are sorted by id (catalogue-index.ts): start just after the product.
      const list = cat.productsByCategory.get(category.id) ?? [];
      const start = firstAfter(list, product.id);
      for (let i = 0; i < list.length && picked.size < count; i += 1) {
        add(list[(start + i) % list.length]);
      }
      if (picked.size >= count) break;
    }
  }
  return [...picked.values()];
}
