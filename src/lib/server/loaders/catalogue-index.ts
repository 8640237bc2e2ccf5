/**
 * The build's catalogue indexed once (by id, by category, by brand) and the pure reads every
 * pre-rendered page shares: a product's shown categories, the best sellers, the products on
 * sale. No I/O and no `astro:*` import: `catalogue.ts` indexes the build's read with
 * `indexCatalogue`, and the publisher (`../publish/`) indexes a read it patched after an
 * event the same way, from Node.
 */
import { discountPercent, displayPrice } from '../../commerce/price.ts';
import { isProductAvailable } from '../../commerce/stock.ts';
import type { CategoryNode, Product } from '../../commerce/types.ts';
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

function availableForSale(cat: Catalogue): Product[] {
  return cat.products.filter((product) => !product.isPriceHidden && isProductAvailable(product));
}

/** The best-selling available products (by total sold, then id). */
export function bestSellers(cat: Catalogue, count: number): Product[] {
  return availableForSale(cat)
    .sort((a, b) => b.totalSold - a.totalSold || a.id - b.id)
    .slice(0, count);
}

/** Available products on sale (spec §5 discount, on the product price cards show), biggest first. */
export function onSale(cat: Catalogue, count: number, exclude: readonly Product[] = []): Product[] {
  const skip = new Set(exclude.map((product) => product.id));
  return availableForSale(cat)
    .flatMap((product) => {
      if (skip.has(product.id)) return [];
      const price = displayPrice(product);
      const percent = discountPercent(price.regular, price.special);
      return percent > 0 ? [{ product, percent }] : [];
    })
    .sort((a, b) => b.percent - a.percent || b.product.totalSold - a.product.totalSold)
    .slice(0, count)
    .map(({ product }) => product);
}
