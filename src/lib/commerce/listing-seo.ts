/**
 * How search engines see a category listing (spec §2 listing query parameters): the plain pages
 * of the listing, `/c/x` and `/c/x?page=N`, are each indexed under their own canonical URL, so
 * products beyond page 1 are found; a refined view (filters, another sort, another page size, a
 * term) is `noindex, follow` with the category page as canonical; a page past the last is a 404.
 */
import {
  DEFAULT_SORT_OPTION,
  itemsPerPage,
  listingQueryString,
  type ListingParams,
} from './listing.ts';

export interface ListingIndexing {
  /** Path and query of the canonical URL; null for a 404 (error pages name none). */
  canonical: string | null;
  /** `noindex, follow` (meta and X-Robots-Tag). */
  noindex: boolean;
  status: 200 | 404;
}

/** A view that only pages: default sort and page size, no term, no filter. */
export function isPlainListing(params: ListingParams): boolean {
  const f = params.filters;
  return (
    params.term === '' &&
    params.sort.id === DEFAULT_SORT_OPTION.id &&
    params.perPage === itemsPerPage(null) &&
    f.brands.length === 0 &&
    f.priceMin === null &&
    f.priceMax === null &&
    f.sizes.length === 0 &&
    f.colours.length === 0 &&
    !f.inStock
  );
}

/**
 * The indexing of the listing of `path` (`/c/...`) viewed with `params`, whose results fill
 * `totalPages` pages: page 1 always exists (an empty listing says so); past the last page, 404.
 */
export function listingIndexing(
  path: string,
  params: ListingParams,
  totalPages: number,
): ListingIndexing {
  if (params.page > Math.max(1, totalPages)) {
    return { canonical: null, noindex: true, status: 404 };
  }
  if (!isPlainListing(params)) return { canonical: path, noindex: true, status: 200 };
  // `?page=1` (or `?page=01`) is page 1: its canonical names no page.
  return {
    canonical: `${path}${listingQueryString({ page: params.page })}`,
    noindex: false,
    status: 200,
  };
}

/** The canonical paths of a plain listing's pages 2 to `totalPages` (the sitemap's). */
export function listingPagePaths(path: string, totalPages: number): string[] {
  return Array.from(
    { length: Math.max(0, totalPages - 1) },
    (_, i) => `${path}${listingQueryString({ page: i + 2 })}`,
  );
}
