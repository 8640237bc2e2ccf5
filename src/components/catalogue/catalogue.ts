/**
 * The build-time catalogue: the content collections read once and indexed once (by id, by
 * category, by brand), shared by every pre-rendered page. getStaticPaths and pages look
 * products up here instead of scanning the collection per page (no N×M loop at 10,000
 * products). Build and `astro dev` only: the on-demand listing view reads the connectors.
 */
import { getCollection } from 'astro:content';
import type { CatalogueBrand, CatalogueCategory } from '../../content.config.ts';
import { discountPercent, displayPrice } from '../../lib/commerce/price.ts';
import { isProductAvailable } from '../../lib/commerce/stock.ts';
import type { CategoryNode, Product } from '../../lib/commerce/types.ts';

export type { CatalogueBrand, CatalogueCategory };

export interface Catalogue {
  products: Product[];
  productById: ReadonlyMap<number, Product>;
  /** Products of each category (those listing the category id), in collection order. */
  productsByCategory: ReadonlyMap<number, Product[]>;
  productsByBrand: ReadonlyMap<number, Product[]>;
  categories: CatalogueCategory[];
  categoryById: ReadonlyMap<number, CatalogueCategory>;
  /** Shown categories as a tree (spec §5), in upstream order. */
  shownTree: CategoryNode[];
  /** Shown root categories. */
  roots: CatalogueCategory[];
  brands: CatalogueBrand[];
  brandById: ReadonlyMap<number, CatalogueBrand>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

async function load(): Promise<Catalogue> {
  const [productEntries, categoryEntries, brandEntries] = await Promise.all([
    getCollection('products'),
    getCollection('categories'),
    getCollection('brands'),
  ]);
  const products = productEntries.map((entry) => entry.data).sort((a, b) => a.id - b.id);
  const categories = categoryEntries.map((entry) => entry.data);
  const brands = brandEntries
    .map((entry) => entry.data)
    .sort((a, b) => a.name.localeCompare(b.name, 'fr'));

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

let catalogue: Promise<Catalogue> | undefined;

/**
 * The indexed catalogue, loaded on first use and shared by every page of the build. In
 * `astro dev` it is read again for each page, so a content sync shows without a restart.
 */
export function getCatalogue(): Promise<Catalogue> {
  if (import.meta.env.DEV) return load();
  catalogue ??= load();
  return catalogue;
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
