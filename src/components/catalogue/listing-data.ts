/**
 * What a category listing is made of, from two sources that must agree (spec §5 listing):
 * the build-time catalogue for the pre-rendered `/c/...` page 1, and the connectors, live,
 * for the on-demand view `/vue/c/...?query`. Both give a `ListingSource`; the page renders it
 * with `CategoryListing.astro`, which applies the same pure `applyListing`.
 */
import {
  breadcrumbs,
  findCategoryByPath,
  HIDE_CATEGORY_KEY,
  hiddenCategoryIds,
  visibleTree,
  type Breadcrumb,
} from '../../lib/commerce/category.ts';
import { categoryPath } from '../../lib/commerce/slug.ts';
import type { Brand, Category, CategoryNode, Product } from '../../lib/commerce/types.ts';
import {
  getAllProducts,
  getBrands,
  getCategoriesBatchMetafields,
  getCategory,
  getCategoryTree,
  type BigCommerceClient,
} from '../../lib/server/bigcommerce/index.ts';
import type { Catalogue, CatalogueCategory } from './catalogue.ts';

export interface ListingCategory {
  id: number;
  name: string;
  /** HTML description as authored upstream. */
  description: string;
  pageTitle: string;
  metaDescription: string;
  /** Shop path `/c/...`. */
  path: string;
}

export interface ListingSource {
  category: ListingCategory;
  /** Root-to-category trail (home not included). */
  trail: Breadcrumb[];
  /** Shown sub-categories. */
  children: { id: number; name: string; path: string }[];
  /** Every visible product of the category; the listing sorts, filters and pages them. */
  products: Product[];
  brands: Pick<Brand, 'id' | 'name'>[];
}

function listingCategory(category: Category): ListingCategory {
  return {
    id: category.id,
    name: category.name,
    description: category.description,
    pageTitle: category.pageTitle,
    metaDescription: category.metaDescription,
    path: categoryPath(category.url),
  };
}

function childrenOf(node: CategoryNode | undefined): ListingSource['children'] {
  return (node?.children ?? []).map((child) => ({
    id: child.id,
    name: child.name,
    path: categoryPath(child.url),
  }));
}

function findNode(tree: readonly CategoryNode[], id: number): CategoryNode | undefined {
  for (const node of tree) {
    if (node.id === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}

/** The listing of a shown category from the build-time catalogue. */
export function staticListingSource(cat: Catalogue, category: CatalogueCategory): ListingSource {
  return {
    category: listingCategory(category),
    trail: breadcrumbs(cat.shownTree, category.id),
    children: childrenOf(findNode(cat.shownTree, category.id)),
    products: cat.productsByCategory.get(category.id) ?? [],
    brands: cat.brands,
  };
}

// --- live source (on-demand view) -------------------------------------------------------------

/** How long the live view reuses what it read: short, so the view stays close to upstream. */
const TREE_TTL_MS = 5 * 60_000;
const PRODUCTS_TTL_MS = 60_000;
/** Categories whose products are kept at once (the busiest listings). */
const MAX_CACHED_CATEGORIES = 100;

interface Cached<T> {
  value: Promise<T>;
  expires: number;
}

const cache = new Map<string, Cached<unknown>>();

/** Memoises `load` under `key` for `ttl` ms; a failed load is forgotten at once. */
function cached<T>(key: string, ttl: number, load: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = cache.get(key) as Cached<T> | undefined;
  if (hit && hit.expires > now) return hit.value;
  if (cache.size >= MAX_CACHED_CATEGORIES + 2) {
    for (const [k, entry] of cache) if (entry.expires <= now) cache.delete(k);
    if (cache.size >= MAX_CACHED_CATEGORIES + 2) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
  }
  const value = load();
  cache.set(key, { value, expires: now + ttl });
  value.catch(() => {
    if (cache.get(key)?.value === value) cache.delete(key);
  });
  return value;
}

function liveTree(client: BigCommerceClient): Promise<CategoryNode[]> {
  return cached('tree', TREE_TTL_MS, async () => {
    const [tree, metafields] = await Promise.all([
      getCategoryTree(client),
      getCategoriesBatchMetafields(client, { key: HIDE_CATEGORY_KEY }),
    ]);
    return visibleTree(tree, hiddenCategoryIds(metafields));
  });
}

function liveBrands(client: BigCommerceClient): Promise<Brand[]> {
  return cached('brands', TREE_TTL_MS, () => getBrands(client));
}

/**
 * The listing at a shop path (`/c/...`) read live from the connectors, or null when no shown
 * category has that path (hidden categories have no listing, spec §5).
 */
export async function liveListingSource(
  client: BigCommerceClient,
  path: string,
): Promise<ListingSource | null> {
  const tree = await liveTree(client);
  const node = findCategoryByPath(tree, path);
  if (!node) return null;
  const [category, products, brands] = await Promise.all([
    cached(`category:${node.id}`, PRODUCTS_TTL_MS, () => getCategory(client, node.id)),
    cached(`products:${node.id}`, PRODUCTS_TTL_MS, () =>
      getAllProducts(client, { categoryIds: [node.id], isVisible: true }),
    ),
    liveBrands(client),
  ]);
  if (!category) return null;
  return {
    category: listingCategory(category),
    trail: breadcrumbs(tree, node.id),
    children: childrenOf(node),
    products,
    brands,
  };
}
