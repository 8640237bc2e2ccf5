/**
 * The search's typo tolerance and its no-results help, on request. BigCommerce's
 * keyword search matches words as typed; when a term finds nothing, `searchProducts` corrects
 * it against the catalogue's vocabulary (`src/lib/commerce/search-correction.ts`) and searches
 * the corrected term. The results page and the search panel's API method both go through it.
 *
 * The vocabulary is made of what the shop already reads, per channel, cached like the category
 * tree (`VOCABULARY_TTL_MS`, the last copy kept `GRACE_MS` when upstream fails, emptied by a
 * publish with every upstream read cache): the shown categories' names, the brands' names and
 * the names of the `VOCABULARY_PRODUCTS` best-selling visible products (a few pages of 250
 * without sub-resources, whatever the catalogue's size). Bounded at `VOCABULARY_LIMIT` words;
 * a search never scans products to correct a term.
 *
 * The vocabulary is a help: when it cannot be read, the search answers uncorrected (logged).
 */
import { HIDE_CATEGORY_KEY, hiddenCategoryIds, visibleTree } from '../../lib/commerce/category.ts';
import {
  buildVocabulary,
  createSearchCorrector,
  type SearchCorrector,
  type VocabularySource,
} from '../../lib/commerce/search-correction.ts';
import { categoryPath } from '../../lib/commerce/slug.ts';
import type { CategoryNode, Product } from '../../lib/commerce/types.ts';
import {
  getBrands,
  getCategoriesBatchMetafields,
  getCategoryTree,
  getProducts,
  getProductsWithFilter,
  type BigCommerceClient,
  type ProductSearchResult,
} from '../connectors/bigcommerce/index.ts';
import type { ProductSearchQuery } from '../connectors/bigcommerce/queries.ts';
import { budgetLeft, withBudget } from '../connectors/http/budget.ts';
import { createCache } from '../connectors/http/cache.ts';
import { logFailure } from '../faults/failures.ts';

/** How long a channel's vocabulary and tree are reused before being read again. */
const VOCABULARY_TTL_MS = 10 * 60_000;
/** How long past that the last copy still answers when upstream fails. */
const GRACE_MS = 60 * 60_000;
/** Channels kept at once. */
const MAX_CHANNELS = 16;
/**
 * Upstream time of a vocabulary read, its own: not the shopper's request budget (1.5 s for a
 * page), which a first read of 4 pages of 250 products may outlast on the real platform.
 */
export const VOCABULARY_BUDGET_MS = 20_000;
/** Best-selling products whose names join the vocabulary (pages of 250, read at once). */
export const VOCABULARY_PRODUCTS = 1_000;
const PRODUCTS_PAGE = 250;
/** What a word of each kind of name weighs: a category's or brand's word beats a product's. */
const CATEGORY_WEIGHT = 20;
const BRAND_WEIGHT = 10;
/** Top categories and best sellers the no-results page offers. */
export const HELP_CATEGORIES = 8;
export const HELP_PRODUCTS = 4;

const onStale = (key: string, error: unknown) => {
  logFailure('search', `stale ${key} served`, error);
};
const trees = createCache<CategoryNode[]>({
  ttlMs: VOCABULARY_TTL_MS,
  graceMs: GRACE_MS,
  maxEntries: MAX_CHANNELS,
  onStale,
});
const correctors = createCache<SearchCorrector>({
  ttlMs: VOCABULARY_TTL_MS,
  graceMs: GRACE_MS,
  maxEntries: MAX_CHANNELS,
  onStale,
});
const bestSellerLists = createCache<Product[]>({
  ttlMs: VOCABULARY_TTL_MS,
  graceMs: GRACE_MS,
  maxEntries: MAX_CHANNELS,
  onStale,
});

const channelOf = (client: BigCommerceClient) => String(client.channelId ?? 'default');

/** The tree of shown categories (spec §5: visible, not hide-category) of the client's channel. */
export function shownCategoryTree(client: BigCommerceClient): Promise<CategoryNode[]> {
  return trees.get(channelOf(client), async () => {
    const [tree, metafields] = await Promise.all([
      getCategoryTree(client),
      getCategoriesBatchMetafields(client, { key: HIDE_CATEGORY_KEY }),
    ]);
    return visibleTree(tree, hiddenCategoryIds(metafields));
  });
}

function names(tree: readonly CategoryNode[]): string[] {
  return tree.flatMap((node) => [node.name, ...names(node.children)]);
}

async function readVocabulary(client: BigCommerceClient): Promise<SearchCorrector> {
  const pages = Array.from({ length: Math.ceil(VOCABULARY_PRODUCTS / PRODUCTS_PAGE) }, (_, i) =>
    getProducts(client, {
      isVisible: true,
      sort: 'total_sold',
      direction: 'desc',
      // Names only: no variants, pictures or options.
      include: [],
      page: i + 1,
      limit: PRODUCTS_PAGE,
    }),
  );
  const [tree, brands, ...products] = await Promise.all([
    shownCategoryTree(client),
    getBrands(client),
    ...pages,
  ]);
  const sources: VocabularySource[] = [
    ...names(tree).map((text) => ({ text, weight: CATEGORY_WEIGHT })),
    ...brands.map((brand) => ({ text: brand.name, weight: BRAND_WEIGHT })),
    ...products.flatMap((page) => page.items.map((product) => ({ text: product.name }))),
  ];
  return createSearchCorrector(buildVocabulary(sources));
}

/**
 * The corrector of the client's channel, or null when its vocabulary cannot be read (logged
 * once per read) or is not read within what is left of the request's budget: the read goes on
 * under its own budget (`VOCABULARY_BUDGET_MS`) and serves the next searches; this one answers
 * uncorrected.
 */
export async function searchCorrector(client: BigCommerceClient): Promise<SearchCorrector | null> {
  const read = correctors.get(channelOf(client), () =>
    withBudget(VOCABULARY_BUDGET_MS, () => readVocabulary(client)).catch((error: unknown) => {
      logFailure('search', 'vocabulary not read', error);
      throw error;
    }),
  );
  const answer = read.catch(() => null);
  const left = budgetLeft();
  if (left === undefined) return answer;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(resolve, left, null);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A search's products, and the corrected term searched instead when the typed one found none. */
export interface CorrectedSearchResult extends ProductSearchResult {
  /** The corrected term whose products these are, or null: the typed term's own. */
  correctedTerm: string | null;
}

/**
 * Searches `query.searchTerm` (spec §7); when it finds nothing and `correct` is not false, the
 * closest vocabulary term is searched instead, and its products are answered when it finds some.
 * An upstream failure of the typed term's search is thrown (the page's error, spec §8); the
 * correction's own failures answer the typed term's empty result.
 */
export async function searchProducts(
  client: BigCommerceClient,
  query: ProductSearchQuery,
  correct = true,
): Promise<CorrectedSearchResult> {
  const typed = await getProductsWithFilter(client, query);
  if (!correct || typed.products.length > 0 || query.searchTerm.trim() === '') {
    return { ...typed, correctedTerm: null };
  }
  const corrector = await searchCorrector(client);
  const correctedTerm = corrector?.correct(query.searchTerm) ?? null;
  if (correctedTerm === null) return { ...typed, correctedTerm: null };
  try {
    const corrected = await getProductsWithFilter(client, { ...query, searchTerm: correctedTerm });
    return corrected.products.length === 0
      ? { ...typed, correctedTerm: null }
      : { ...corrected, correctedTerm };
  } catch (error) {
    logFailure('search', `corrected search "${correctedTerm}" failed`, error);
    return { ...typed, correctedTerm: null };
  }
}

/** A top category the no-results page links to. */
export interface HelpCategory {
  name: string;
  href: string;
}

/** What the no-results page offers instead: the top categories and a few best sellers. */
export interface SearchHelp {
  categories: HelpCategory[];
  bestSellers: Product[];
}

/**
 * The no-results page's help for the client's channel: the shown top-level categories (the
 * menu's first level) and the best-selling visible products. Either is empty when it cannot
 * be read (logged): the page still says nothing matched and how to search.
 */
export async function searchHelp(client: BigCommerceClient): Promise<SearchHelp> {
  const [tree, bestSellers] = await Promise.all([
    shownCategoryTree(client).catch((error: unknown) => {
      logFailure('search', 'categories of the no-results page not read', error);
      return [] as CategoryNode[];
    }),
    bestSellerLists
      .get(channelOf(client), async () => {
        const page = await getProducts(client, {
          isVisible: true,
          sort: 'total_sold',
          direction: 'desc',
          limit: HELP_PRODUCTS,
        });
        return page.items;
      })
      .catch((error: unknown) => {
        logFailure('search', 'best sellers of the no-results page not read', error);
        return [] as Product[];
      }),
  ]);
  return {
    categories: tree
      .slice(0, HELP_CATEGORIES)
      .map((node) => ({ name: node.name, href: categoryPath(node.url) })),
    bestSellers: bestSellers.filter((product) => product.isVisible).slice(0, HELP_PRODUCTS),
  };
}
