/**
 * The build's catalogue indexed once (by id, by category, by brand) and the pure reads every
 * pre-rendered page shares: a product's shown categories, the best sellers, the products on
 * sale. No I/O and no `astro:*` import: `catalogue.ts` indexes the build's read with
 * `indexCatalogue`, and the publisher (`../publish/`) indexes a read it patched after an
 * event the same way, from Node.
 */
import { productOffer } from '../../lib/commerce/offer.ts';
import { discountPercent } from '../../lib/commerce/price.ts';
import { isProductAvailable } from '../../lib/commerce/stock.ts';
import type { CategoryNode, Product } from '../../lib/commerce/types.ts';
import type { CatalogueBrand, CatalogueCategory, CatalogueRead } from './catalogue-source.ts';

export type { CatalogueBrand, CatalogueCategory };

export interface Catalogue {
  /** Visible products by ascending id. */
  products: Product[];
  productById: ReadonlyMap<number, Product>;
  /** Products of each category (those listing the category id), by ascending id. */
  productsByCategory: ReadonlyMap<number, Product[]>;
  productsByBrand: ReadonlyMap<number, Product[]>;
  categories: CatalogueCategory[];
  categoryById: ReadonlyMap<number, CatalogueCategory>;
  /** Shown categories as a tree (spec §5), in upstream order. */
  shownTree: CategoryNode[];
  /** Shown root categories. */
  roots: CatalogueCategory[];
  /** Alphabetical (French collation). */
  brands: CatalogueBrand[];
  brandById: ReadonlyMap<number, CatalogueBrand>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The catalogue of a read: products sorted by id, brands by name, and the indexes. Linear
 * apart from the two sorts; the read's arrays are not modified.
 */
export function indexCatalogue(read: Omit<CatalogueRead, 'ms'>): Catalogue {
  const products = [...read.products].sort((a, b) => a.id - b.id);
  const { categories } = read;
  const brands = [...read.brands].sort((a, b) => a.name.localeCompare(b.name, 'fr'));

  const productById = new Map<number, Product>();
  const productsByCategory = new Map<number, Product[]>();
  const productsByBrand = new Map<number, Product[]>();
  for (const product of products) {
    productById.set(product.id, product);
    for (const categoryId of new Set(product.categories)) {
      push(productsByCategory, categoryId, product);
    }
    if (product.brandId > 0) push(productsByBrand, product.brandId, product);
  }

  const categoryById = new Map(categories.map((category) => [category.id, category]));
  const toNode = (category: CatalogueCategory): CategoryNode => ({
    id: category.id,
    parentId: category.parentId,
    name: category.name,
    url: category.url,
    isVisible: category.isVisible,
    children: category.childIds.flatMap((id) => {
      const child = categoryById.get(id);
      return child?.shown ? [toNode(child)] : [];
    }),
  });
  const roots = categories.filter((category) => category.depth === 0 && category.shown);

  return {
    products,
    productById,
    productsByCategory,
    productsByBrand,
    categories,
    categoryById,
    shownTree: roots.map(toNode),
    roots,
    brands,
    brandById: new Map(brands.map((brand) => [brand.id, brand])),
  };
}

/** Shown categories a product belongs to, deepest first (its most specific listing). */
export function productCategories(cat: Catalogue, product: Product): CatalogueCategory[] {
  return product.categories
    .flatMap((id) => {
      const category = cat.categoryById.get(id);
      return category?.shown ? [category] : [];
    })
    .sort((a, b) => b.depth - a.depth);
}

function availableForSale(product: Product): boolean {
  return !product.isPriceHidden && isProductAvailable(product);
}

/**
 * The first `count` of `items` in `compare` order, ties in their given order: what
 * `[...items].sort(compare).slice(0, count)` gives, in one pass keeping `count` items (the
 * home page's few best sellers of 100,000 products, for the build and the publisher alike).
 */
export function firstInOrder<T>(
  items: Iterable<T>,
  count: number,
  compare: (a: T, b: T) => number,
): T[] {
  const top: T[] = [];
  if (count <= 0) return top;
  for (const item of items) {
    const last = top[top.length - 1];
    if (top.length >= count && last !== undefined && compare(item, last) >= 0) continue;
    // After every kept item that is not after it: ties keep their order.
    let low = 0;
    let high = top.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(top[middle] as T, item) <= 0) low = middle + 1;
      else high = middle;
    }
    top.splice(low, 0, item);
    if (top.length > count) top.pop();
  }
  return top;
}

/** The best-selling available products (by total sold, then id). */
export function bestSellers(cat: Catalogue, count: number): Product[] {
  return firstInOrder(
    cat.products.filter(availableForSale),
    count,
    (a, b) => b.totalSold - a.totalSold || a.id - b.id,
  );
}

/** Available products on sale (spec §5 discount, on the price cards show: offer.ts), biggest first. */
export function onSale(cat: Catalogue, count: number, exclude: readonly Product[] = []): Product[] {
  const skip = new Set(exclude.map((product) => product.id));
  const discounted = cat.products.flatMap((product) => {
    if (skip.has(product.id) || !availableForSale(product)) return [];
    const { price } = productOffer(product);
    const percent = discountPercent(price.regular, price.special);
    return percent > 0 ? [{ product, percent }] : [];
  });
  return firstInOrder(
    discounted,
    count,
    (a, b) => b.percent - a.percent || b.product.totalSold - a.product.totalSold,
  ).map(({ product }) => product);
}
