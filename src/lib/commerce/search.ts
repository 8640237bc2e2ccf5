/**
 * The search panel's result (spec §3 "Search result: products (id) and categories derived from
 * the products (label, slug)"; spec §2 search panel): pure, shared by the API method that
 * answers it and the island that shows it.
 */
import { flattenTree } from './category.ts';
import { productOffer } from './offer.ts';
import type { DisplayPrice } from './price.ts';
import { categoryPath, productPath } from './slug.ts';
import type { CategoryNode, Product } from './types.ts';

/** spec §9: the search is sent 1000 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 1000;
/** Products the panel suggests (the results page lists them all). */
export const SUGGESTED_PRODUCTS = 6;
/** Categories the panel suggests. */
export const SUGGESTED_CATEGORIES = 5;
/** The longest term sent (the API refuses longer). */
export const SEARCH_TERM_MAX_LENGTH = 200;

/** A suggested category: its name and its shop path (`/c/...`). */
export interface SearchCategory {
  label: string;
  slug: string;
}

/** spec §5: the term is trimmed (and cut to what the API takes). */
export function searchTerm(raw: string): string {
  return raw.trim().slice(0, SEARCH_TERM_MAX_LENGTH).trim();
}

/** spec §2: Enter opens `/resultats-de-recherche/{term}`, only for a non-empty trimmed term. */
export function searchResultsPath(raw: string): string | null {
  const term = searchTerm(raw);
  return term === '' ? null : `/resultats-de-recherche/${encodeURIComponent(term)}`;
}

/**
 * The results page's parameter that asks for the typed term as is (the "Rechercher plutôt
 * « … »" link): without it, a term that finds nothing is corrected.
 */
export const SEARCH_EXACT_PARAM = 'exact';

/** The results page's query, canonical: `exact` first, then `page` past 1; '' for neither. */
export function searchQueryString({ page, exact }: { page: number; exact: boolean }): string {
  const parts = [
    ...(exact ? [`${SEARCH_EXACT_PARAM}=1`] : []),
    ...(page > 1 ? [`page=${page}`] : []),
  ];
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/** Whether a results page's query asks for the typed term as is. */
export function searchIsExact(params: URLSearchParams): boolean {
  return params.has(SEARCH_EXACT_PARAM);
}

/**
 * The categories of the found products that the shop shows (in `tree`, the visible tree), most
 * found first, then in the order met; each once.
 */
export function searchCategories(
  products: readonly Pick<Product, 'categories'>[],
  tree: readonly CategoryNode[],
  limit = SUGGESTED_CATEGORIES,
): SearchCategory[] {
  const shown = new Map(flattenTree(tree).map((node) => [node.id, node]));
  const counts = new Map<number, number>();
  for (const product of products) {
    for (const id of new Set(product.categories)) {
      if (shown.has(id)) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  return [...counts.entries()]
    .map(([id, count], order) => ({ id, count, order }))
    .sort((a, b) => b.count - a.count || a.order - b.order)
    .slice(0, limit)
    .flatMap(({ id }) => {
      const node = shown.get(id);
      return node ? [{ label: node.name, slug: categoryPath(node.url) }] : [];
    });
}

/** A suggested product as the panel shows it (spec §2: image, name, price). */
export interface SearchProductView {
  id: number;
  name: string;
  href: string;
  /** The thumbnail (or standard) picture, null when the product has none. */
  image: string | null;
  /** Regular and special price (spec §5 rules); null when the price is hidden. */
  price: Pick<DisplayPrice, 'regular' | 'special'> | null;
  /** The price is the lowest of differently priced variants ("À partir de", offer.ts). */
  from: boolean;
}

export function searchProductView(product: Product): SearchProductView {
  // The price a card shows: the cart's price of the cheapest variant a shopper can buy.
  const { price, from } = productOffer(product);
  const image = product.images.find((i) => i.isThumbnail) ?? product.images[0] ?? null;
  return {
    id: product.id,
    name: product.name,
    href: productPath(product),
    image: image ? image.urlThumbnail || image.urlStandard || null : null,
    price: price.hidden ? null : { regular: price.regular, special: price.special },
    from,
  };
}
