/**
 * The build-time catalogue: products, categories and brands read from the commerce service
 * once per build (catalogue-source.ts) and indexed once (by id, by category, by brand), shared
 * by every pre-rendered page. getStaticPaths and pages look products up here instead of
 * scanning a list per page (no N×M loop at 10,000 products). Build and `astro dev` only: the
 * on-demand listing view reads the connectors.
 */
import { discountPercent, displayPrice } from '../../commerce/price.ts';
import { isProductAvailable } from '../../commerce/stock.ts';
import type { CategoryNode, Product } from '../../commerce/types.ts';
import { bigcommerce, bigcommerceConnection } from '../config.ts';
import { dropCatalogueRead, handedCatalogueRead } from './catalogue-prefetch.ts';
import {
  readCatalogue,
  type CatalogueBrand,
  type CatalogueCategory,
  type CatalogueRead,
} from './catalogue-source.ts';

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

async function load(
  early: { read: Promise<CatalogueRead>; generation: number } | undefined,
): Promise<Catalogue> {
  // The read astro.config.mjs started with the build (or a newer one a publish handed over),
  // else (astro dev, another connection, a failed early read) one now.
  const read = await (early?.read.catch(() => {
    dropCatalogueRead();
    return readCatalogue(bigcommerce());
  }) ?? readCatalogue(bigcommerce()));
  const products = read.products.sort((a, b) => a.id - b.id);
  const { categories } = read;
  const brands = read.brands.sort((a, b) => a.name.localeCompare(b.name, 'fr'));
  if (!import.meta.env.DEV) {
    console.info(
      `[catalogue] ${products.length} products, ${categories.filter((c) => c.shown).length} categories shown of ${categories.length}, ${brands.length} brands read in ${read.ms} ms${early ? ' (started with the build)' : ''}`,
    );
  }

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

/** How long `astro dev` reuses the catalogue before reading it again (ms). */
const DEV_REUSE_MS = 5_000;

let catalogue: { value: Promise<Catalogue>; at: number; generation: number } | undefined;

/**
 * The indexed catalogue, loaded on first use and shared by every page of the build, until a
 * publish hands over a newer one (catalogue-prefetch.ts). In `astro dev` it is read again after
 * a few seconds, so a change upstream shows without a restart; a failed read is not kept.
 */
export function getCatalogue(): Promise<Catalogue> {
  const now = Date.now();
  const early = import.meta.env.DEV ? undefined : handedCatalogueRead(bigcommerceConnection);
  const generation = early?.generation ?? 0;
  if (
    catalogue &&
    (import.meta.env.DEV ? now - catalogue.at < DEV_REUSE_MS : catalogue.generation === generation)
  ) {
    return catalogue.value;
  }
  const value = load(early);
  const entry = { value, at: now, generation };
  catalogue = entry;
  value.catch(() => {
    if (catalogue === entry) catalogue = undefined;
  });
  return value;
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
