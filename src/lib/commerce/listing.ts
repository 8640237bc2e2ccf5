/**
 * A listing's parameters (sort, page, size, term, filters) and URLs: read from a query, written
 * back canonical, and the on-demand view path. Applying them to products: `listing-products.ts`.
 */
import { sleepContentViewPath } from '../content/list-view.ts';
import { toCents } from './money.ts';
import type { Cents } from './types.ts';
import type { MessageKey } from '../i18n/index.ts';

/**
 * BigCommerce's catalog `sort` values (catalog.v3 products `sort` enum), the one table of them:
 * the connector's argument schema (`server/bigcommerce/queries.ts`) and the sandbox
 * (`sandbox/src/routes/catalog.ts`) accept exactly these.
 */
export const CATALOG_SORT_FIELDS = [
  'id',
  'name',
  'sku',
  'price',
  'date_modified',
  'date_last_imported',
  'inventory_level',
  'is_visible',
  'total_sold',
] as const;
export type CatalogSortField = (typeof CATALOG_SORT_FIELDS)[number];
/** The catalog `sort` values the shop can apply itself (`compareBy`). */
export type SortField = Exclude<CatalogSortField, 'date_last_imported' | 'is_visible'>;
export type SortDirection = 'asc' | 'desc';

export interface SortOption {
  id: number;
  label: MessageKey;
  value: { sort: SortField; direction: SortDirection };
}

/** spec §3 sort options, looked up by numeric id (spec §5); the first one is the default. */
export const SORT_OPTIONS = [
  { id: 1, label: 'sort.relevance', value: { sort: 'id', direction: 'asc' } },
  { id: 2, label: 'sort.priceAsc', value: { sort: 'price', direction: 'asc' } },
  { id: 3, label: 'sort.priceDesc', value: { sort: 'price', direction: 'desc' } },
  { id: 4, label: 'sort.newest', value: { sort: 'date_modified', direction: 'desc' } },
  { id: 5, label: 'sort.bestSelling', value: { sort: 'total_sold', direction: 'desc' } },
  { id: 6, label: 'sort.nameAsc', value: { sort: 'name', direction: 'asc' } },
  { id: 7, label: 'sort.nameDesc', value: { sort: 'name', direction: 'desc' } },
] as const satisfies readonly SortOption[];

export const DEFAULT_SORT_OPTION: SortOption = SORT_OPTIONS[0];

export const ITEMS_PER_PAGE_OPTIONS: readonly number[] = [20, 40, 60];
/** spec §5 / §9: used when no option is configured. */
export const DEFAULT_ITEMS_PER_PAGE = 20;

/** Query parameter names of a listing (spec §2: page, sort, direction, term, itemsperpage + filters). */
export const LISTING_PARAMS = {
  page: 'page',
  sort: 'sort',
  direction: 'direction',
  term: 'term',
  itemsPerPage: 'itemsperpage',
  brand: 'marque',
  priceMin: 'prix-min',
  priceMax: 'prix-max',
  size: 'taille',
  colour: 'couleur',
  availability: 'disponibilite',
} as const;

/** Value of the availability filter. */
export const IN_STOCK_VALUE = 'en-stock';

export interface ListingFilters {
  brands: number[];
  /** Cents, from euros in the URL. */
  priceMin: Cents | null;
  priceMax: Cents | null;
  sizes: string[];
  colours: string[];
  inStock: boolean;
}

export interface ListingParams {
  page: number;
  perPage: number;
  sort: SortOption;
  term: string;
  filters: ListingFilters;
}

export interface ListingConfig {
  itemsPerPageOptions?: readonly number[];
}

function firstInteger(value: string | null | undefined): number | null {
  const text = value?.trim() ?? '';
  return /^\d+$/.test(text) ? Number(text) : null;
}

/**
 * spec §5: the requested count when it is one of the configured options, else the first
 * configured option, else 20. Counts outside the options are refused (no `itemsperpage=100000`).
 */
export function itemsPerPage(
  value: string | number | null | undefined,
  options: readonly number[] = ITEMS_PER_PAGE_OPTIONS,
): number {
  const wanted = typeof value === 'number' ? value : firstInteger(value);
  if (wanted !== null && options.includes(wanted)) return wanted;
  return options[0] ?? DEFAULT_ITEMS_PER_PAGE;
}

/** spec §5: a whole page number >= 1, else 1. */
export function pageNumber(value: string | number | null | undefined): number {
  const page = typeof value === 'number' ? value : firstInteger(value);
  return page !== null && Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/** spec §5: the sort option with this numeric id, else the default one. */
export function sortOption(id: string | number | null | undefined): SortOption {
  const wanted = typeof id === 'number' ? id : firstInteger(id);
  return SORT_OPTIONS.find((option) => option.id === wanted) ?? DEFAULT_SORT_OPTION;
}

/**
 * The sort of a URL: `sort` + `direction` naming a field (spec §2 query parameters), or `sort`
 * holding a sort option id; anything else is the default.
 */
function sortFromParams(sort: string | null, direction: string | null): SortOption {
  if (sort === null) return DEFAULT_SORT_OPTION;
  if (/^\d+$/.test(sort.trim())) return sortOption(sort);
  const field = sort.trim().toLowerCase();
  const dir = direction?.trim().toLowerCase();
  return (
    SORT_OPTIONS.find(
      (o) => o.value.sort === field && (dir === undefined || o.value.direction === dir),
    ) ?? DEFAULT_SORT_OPTION
  );
}

/** Every value of a multi-valued parameter, repeated or comma separated, trimmed, unique. */
function listParam(params: URLSearchParams, name: string): string[] {
  const values = params
    .getAll(name)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
  return [...new Set(values)];
}

function euroParam(params: URLSearchParams, name: string): Cents | null {
  const text = params.get(name)?.trim().replace(',', '.') ?? '';
  if (!/^\d+(?:\.\d+)?$/.test(text)) return null;
  const euros = Number(text);
  // Four hundred nines are Infinity: no price bound, rather than a failed page.
  if (!Number.isFinite(euros) || euros > MAX_PRICE_BOUND_EUROS) return null;
  return toCents(euros);
}

/** Largest price bound a listing URL may carry, in euros (beyond it: no bound). */
const MAX_PRICE_BOUND_EUROS = 1_000_000_000;

/** Normalised listing parameters of a URL query; unreadable values fall back to defaults. */
export function parseListingParams(
  searchParams: URLSearchParams | string,
  config: ListingConfig = {},
): ListingParams {
  const params =
    typeof searchParams === 'string' ? new URLSearchParams(searchParams) : searchParams;
  const p = LISTING_PARAMS;
  let priceMin = euroParam(params, p.priceMin);
  let priceMax = euroParam(params, p.priceMax);
  if (priceMin !== null && priceMax !== null && priceMin > priceMax) {
    [priceMin, priceMax] = [priceMax, priceMin];
  }
  const brands = listParam(params, p.brand)
    .filter((id) => /^\d+$/.test(id))
    .map(Number)
    .filter((id, index, all) => all.indexOf(id) === index);
  return {
    page: pageNumber(params.get(p.page)),
    perPage: itemsPerPage(params.get(p.itemsPerPage), config.itemsPerPageOptions),
    sort: sortFromParams(params.get(p.sort), params.get(p.direction)),
    term: (params.get(p.term) ?? '').trim(),
    filters: {
      brands,
      priceMin,
      priceMax,
      sizes: listParam(params, p.size),
      colours: listParam(params, p.colour),
      inStock: listParam(params, p.availability).includes(IN_STOCK_VALUE),
    },
  };
}

function euros(cents: Cents): string {
  return String(cents / 100);
}

/**
 * The canonical query string of a listing, `?…` or `''`: parameters in a fixed order, list
 * values sorted and repeated (`taille=a&taille=b`), defaults (page 1, default sort, first
 * items-per-page option, blank term) and empty filters dropped (spec §5).
 */
export function listingQueryString(
  params: Partial<Omit<ListingParams, 'filters'>> & { filters?: Partial<ListingFilters> },
  config: ListingConfig = {},
): string {
  const p = LISTING_PARAMS;
  const query = new URLSearchParams();
  const term = params.term?.trim() ?? '';
  if (term !== '') query.set(p.term, term);
  const f = params.filters ?? {};
  for (const id of [...new Set(f.brands ?? [])].sort((a, b) => a - b)) {
    query.append(p.brand, String(id));
  }
  if (f.priceMin !== undefined && f.priceMin !== null) query.set(p.priceMin, euros(f.priceMin));
  if (f.priceMax !== undefined && f.priceMax !== null) query.set(p.priceMax, euros(f.priceMax));
  for (const size of sortedLabels(f.sizes)) query.append(p.size, size);
  for (const colour of sortedLabels(f.colours)) query.append(p.colour, colour);
  if (f.inStock === true) query.set(p.availability, IN_STOCK_VALUE);
  // spec §5: the sort is looked up by the numeric id of the sort option, so links carry it.
  if (params.sort && params.sort.id !== DEFAULT_SORT_OPTION.id) {
    query.set(p.sort, String(params.sort.id));
  }
  const perPageDefault = itemsPerPage(null, config.itemsPerPageOptions);
  if (params.perPage !== undefined && params.perPage !== perPageDefault) {
    query.set(p.itemsPerPage, String(params.perPage));
  }
  if (params.page !== undefined && params.page > 1) query.set(p.page, String(params.page));
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/** The order of labels in listings (sizes, colours; brand names in facets). */
export const listingCollator = new Intl.Collator('fr', { sensitivity: 'base', numeric: true });

function sortedLabels(labels: readonly string[] | undefined): string[] {
  return [...new Set((labels ?? []).map((l) => l.trim()).filter(Boolean))].sort(
    listingCollator.compare,
  );
}

/** The query of a URL has any listing parameter (even empty): the page must be computed. */
export function isListingView(searchParams: URLSearchParams | string): boolean {
  const params =
    typeof searchParams === 'string' ? new URLSearchParams(searchParams) : searchParams;
  const names: readonly string[] = Object.values(LISTING_PARAMS);
  return [...params.keys()].some((name) => names.includes(name));
}

/** Prefix of the on-demand listing view of the category pages. */
export const LISTING_VIEW_PREFIX = '/vue';

/**
 * The shop path a request path shows: an on-demand view (`/vue/c/matelas`,
 * `/vue/les-yeux-fermes`) shows its listing's page (`/c/matelas`, `/les-yeux-fermes`); any
 * other path is itself. The header marks the menu entry of that page as the current one.
 */
export function shownPath(pathname: string): string {
  return pathname.startsWith(`${LISTING_VIEW_PREFIX}/`)
    ? pathname.slice(LISTING_VIEW_PREFIX.length)
    : pathname;
}

/**
 * For a category path `/c/...` whose query has listing parameters, the internal path of its
 * on-demand view, `/vue/c/...` + the query as given; otherwise null (the static page serves).
 */
export function listingViewPath(pathname: string, search: string): string | null {
  if (pathname !== '/c' && !pathname.startsWith('/c/')) {
    // The sleep-content list filtered by tag is the other listing view (list-view.ts).
    return sleepContentViewPath(pathname, search);
  }
  // A path with a trailing slash is not canonical: its 301 (spec §2) comes before the view.
  if (pathname.endsWith('/')) return null;
  const query = search.startsWith('?') ? search : search === '' ? '' : `?${search}`;
  if (!isListingView(query)) return null;
  return `${LISTING_VIEW_PREFIX}${pathname}${query}`;
}

/** No filter at all (a listing as it first opens; what "clear all" leads to). */
export const NO_FILTERS: ListingFilters = {
  brands: [],
  priceMin: null,
  priceMax: null,
  sizes: [],
  colours: [],
  inStock: false,
};

/**
 * Pages of a listing of `total` products (after term and filters) at the params' page size;
 * 0 for none. With no term and no filter, `total` is the listing's product count: the
 * sitemap of the listings' pages counts them so, without sorting or facets.
 */
export function listingPageCount(total: number, params: Pick<ListingParams, 'perPage'>): number {
  return Math.ceil(total / Math.max(1, params.perPage));
}

/** Whether any filter is set (the "clear all" link and the filtered empty message). */
export function hasFilters(filters: ListingFilters): boolean {
  return (
    filters.brands.length > 0 ||
    filters.priceMin !== null ||
    filters.priceMax !== null ||
    filters.sizes.length > 0 ||
    filters.colours.length > 0 ||
    filters.inStock
  );
}
