/**
 * Related products of a product page: the product's `related_products` that are visible, in
 * their order; BigCommerce's "automatic" marker (-1) or an empty list means "from the same
 * category", the product's most specific shown category first, from a product-dependent start.
 */
import type { Product } from '../../lib/commerce/types.ts';
import { productCategories, type Catalogue } from '../../lib/server/loaders/catalogue-index.ts';

/** BigCommerce `related_products: [-1]`: let the store pick related products itself. */
const AUTOMATIC = -1;

/** Related products a product page shows. */
export const RELATED_COUNT = 4;

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
      const list = cat.productsByCategory.get(category.id) ?? [];
      // Start at a place that depends on the product, so neighbours differ between pages.
      const start = list.length === 0 ? 0 : product.id % list.length;
      for (let i = 0; i < list.length && picked.size < count; i += 1) {
        add(list[(start + i) % list.length]);
      }
      if (picked.size >= count) break;
    }
  }
  return [...picked.values()];
}
