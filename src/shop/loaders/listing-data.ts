/**
 * What a category listing is made of, from sources that must agree (spec §5 listing): the
 * build-time catalogue for the pre-rendered `/c/...` page 1; for the on-demand view
 * `/vue/c/...?query`, the release's listings written from that same catalogue and kept up to
 * date by each publish (listing-store.ts), or, without them (`astro dev`, another channel's
 * host), the connectors, live. All give a `ListingSource`; the page renders it with
 * `CategoryListing.astro`, which applies the same pure `applyListing`.
 */
import {
  breadcrumbs,
  findCategoryByPath,
  HIDE_CATEGORY_KEY,
  hiddenCategoryIds,
  visibleTree,
} from '../../lib/commerce/category.ts';
import type { Brand, Category, CategoryNode, Product } from '../../lib/commerce/types.ts';
import {
  getAllProducts,
  getBrands,
  getCategoriesBatchMetafields,
  getCategory,
  getCategoryTree,
  type BigCommerceClient,
} from '../connectors/bigcommerce/index.ts';
import { createCache, type Cache } from '../connectors/http/cache.ts';
import { logFailure } from '../faults/failures.ts';
import { childrenOf, listingCategory, type ListingSource } from './listing-source.ts';
import { releaseListingSource } from './listing-store.ts';

export { type ListingSource } from './listing-source.ts';

// --- live source (on-demand view) -------------------------------------------------------------

/** How long the live view reuses what it read: short, so the view stays close to upstream. */
const TREE_TTL_MS = 5 * 60_000;
const PRODUCTS_TTL_MS = 60_000;
/** How long past that a copy still answers when upstream fails (down beats an error page). */
const GRACE_MS = 30 * 60_000;
/** Categories whose products are kept at once (the busiest listings). */
const MAX_CACHED_CATEGORIES = 100;
/** Channels whose tree and brands are kept at once. */
const MAX_CACHED_CHANNELS = 16;

function liveCache<T>(ttlMs: number, maxEntries: number): Cache<T> {
  return createCache<T>({
    ttlMs,
    graceMs: GRACE_MS,
    maxEntries,
    onStale: (key, error) => {
      logFailure('listing', `stale ${key} served`, error);
    },
  });
}

// Concurrent views of one category share one upstream read (single flight).
const trees = liveCache<CategoryNode[]>(TREE_TTL_MS, MAX_CACHED_CHANNELS);
const brandLists = liveCache<Brand[]>(TREE_TTL_MS, MAX_CACHED_CHANNELS);
const categories = liveCache<Category | null>(PRODUCTS_TTL_MS, MAX_CACHED_CATEGORIES);
const productLists = liveCache<Product[]>(PRODUCTS_TTL_MS, MAX_CACHED_CATEGORIES);

/** Cache key of a read on the client's channel (storefronts differ by channel). */
function keyOf(client: BigCommerceClient, what: string): string {
  return `${what}@${String(client.channelId ?? 'default')}`;
}

function liveTree(client: BigCommerceClient): Promise<CategoryNode[]> {
  return trees.get(keyOf(client, 'tree'), async () => {
    const [tree, metafields] = await Promise.all([
      getCategoryTree(client),
      getCategoriesBatchMetafields(client, { key: HIDE_CATEGORY_KEY }),
    ]);
    return visibleTree(tree, hiddenCategoryIds(metafields));
  });
}

function liveBrands(client: BigCommerceClient): Promise<Brand[]> {
  return brandLists.get(keyOf(client, 'brands'), () => getBrands(client));
}

/**
 * The listing at a shop path (`/c/...`) read live from the connectors, or null when no shown
 * category has that path (hidden categories have no listing, spec §5). Reads are cached briefly
 * and shared by concurrent views; when upstream fails, the last copy within the grace period
 * answers, else the connector's error is thrown.
 */
export async function liveListingSource(
  client: BigCommerceClient,
  path: string,
): Promise<ListingSource | null> {
  const tree = await liveTree(client);
  const node = findCategoryByPath(tree, path);
  if (!node) return null;
  const [category, products, brands] = await Promise.all([
    categories.get(keyOf(client, `category ${node.id}`), () => getCategory(client, node.id)),
    productLists.get(keyOf(client, `products ${node.id}`), () =>
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

/**
 * The listing of the on-demand view at a shop path: the release's, when `client` is on the
 * channel the release was built for (`buildClient`) and the release has its listings; else read
 * live. Null when no shown category has that path.
 */
export function listingViewSource(
  client: BigCommerceClient,
  buildClient: BigCommerceClient,
  path: string,
): Promise<ListingSource | null> {
  const release =
    (client.channelId ?? 1) === (buildClient.channelId ?? 1)
      ? releaseListingSource(path)
      : undefined;
  return release ?? liveListingSource(client, path);
}
