import { sleepContentViewPath } from '../content/list-view.ts';
import { toCents } from './money.ts';
import {
  isSizeOption,
  productOffer,
  sameLabel,
  variantFilter,
  type VariantFilter,
} from './offer.ts';
import { effectivePrice } from './price.ts';
import { isProductAvailable } from './stock.ts';
import { productColours, type Swatch } from './swatches.ts';
import type { Brand, Cents, Pagination, Product } from './types.ts';
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

const collator = new Intl.Collator('fr', { sensitivity: 'base', numeric: true });

function sortedLabels(labels: readonly string[] | undefined): string[] {
  return [...new Set((labels ?? []).map((l) => l.trim()).filter(Boolean))].sort(collator.compare);
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

/** Size options: options named like a size ("Taille", "Dimensions"); the rule lives in offer.ts. */
export { isSizeOption };

/** Size labels of a product, one per label, in option order. */
export function productSizes(product: Pick<Product, 'options'>): string[] {
  const labels = product.options
    .filter(isSizeOption)
    .flatMap((option) => option.values.map((value) => value.label.trim()))
    .filter(Boolean);
  return [...new Map(labels.map((label) => [label.toLowerCase(), label])).values()];
}

function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');
}

/**
 * What the listing reads of a product besides its fields, computed once per product object:
 * the catalogue of a build and the live view's product list (kept a minute) are the same
 * objects from one listing view to the next, which used to compute these again for each
 * product at every view (facets read them for each facet).
 */
interface Traits {
  sizes: string[];
  sizeKeys: string[];
  colours: Swatch[];
  colourKeys: string[];
  /** The price its card shows with no size or colour filter (`productOffer`). */
  price: Cents;
  haystack: string;
}

const traitsOf = new WeakMap<Product, Traits>();

function traits(product: Product): Traits {
  let found = traitsOf.get(product);
  if (found === undefined) {
    const sizes = productSizes(product);
    const colours = productColours(product);
    found = {
      sizes,
      sizeKeys: sizes.map(foldText),
      colours,
      colourKeys: colours.map((swatch) => foldText(swatch.label)),
      price: effectivePrice(productOffer(product).price),
      haystack: foldText(`${product.name} ${product.sku}`),
    };
    traitsOf.set(product, found);
  }
  return found;
}

function matchesTerm(product: Product, term: string): boolean {
  if (term === '') return true;
  const haystack = traits(product).haystack;
  return foldText(term)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

type FacetName = 'brand' | 'price' | 'size' | 'colour' | 'availability';

/**
 * The price the product's card shows under `filter` (the variant part of the listing's
 * filters, `variantFilter`): the one listings sort and filter on, so a "prix croissant" order
 * and a price range agree with the cards (offer.ts).
 */
function productPrice(product: Product, filter?: VariantFilter): Cents {
  if (filter === undefined) return traits(product).price;
  // One listing view asks again for each facet and comparison, with the same filter object.
  const kept = filteredPrices.get(product);
  if (kept?.filter === filter) return kept.price;
  const price = effectivePrice(productOffer(product, filter).price);
  filteredPrices.set(product, { filter, price });
  return price;
}

const filteredPrices = new WeakMap<Product, { filter: VariantFilter; price: Cents }>();

/** One bit per facet in a product's failed filters (`failedFilters`). */
const FACET_BIT: Record<FacetName, number> = {
  brand: 1,
  price: 2,
  size: 4,
  colour: 8,
  availability: 16,
};

/**
 * The filters `product` fails, one bit per facet (`FACET_BIT`); 0 when it passes them all.
 * Computed once per product, it answers both whether the product is listed and, for each
 * facet's counts, whether it passes every other filter (so choosing a size does not hide the
 * other sizes).
 */
function failedFilters(
  product: Product,
  filters: ListingFilters,
  filter: VariantFilter | undefined,
): number {
  let failed = 0;
  if (filters.brands.length > 0 && !filters.brands.includes(product.brandId)) {
    failed |= FACET_BIT.brand;
  }
  if (filters.priceMin !== null || filters.priceMax !== null) {
    // A hidden price cannot be compared: such products leave a price-filtered listing.
    const price = product.isPriceHidden ? null : productPrice(product, filter);
    if (
      price === null ||
      (filters.priceMin !== null && price < filters.priceMin) ||
      (filters.priceMax !== null && price > filters.priceMax)
    ) {
      failed |= FACET_BIT.price;
    }
  }
  if (filters.sizes.length > 0) {
    const sizes = traits(product).sizes;
    if (!filters.sizes.some((wanted) => sizes.some((size) => sameLabel(size, wanted)))) {
      failed |= FACET_BIT.size;
    }
  }
  if (filters.colours.length > 0) {
    const colours = traits(product).colours;
    if (!filters.colours.some((wanted) => colours.some((c) => sameLabel(c.label, wanted)))) {
      failed |= FACET_BIT.colour;
    }
  }
  if (filters.inStock && !isProductAvailable(product)) failed |= FACET_BIT.availability;
  return failed;
}

/** No brand names (facets then name brands ''): one array, so listings kept with it match. */
const NO_BRANDS: readonly Pick<Brand, 'id' | 'name'>[] = [];

/** No filter at all (a listing as it first opens; what "clear all" leads to). */
export const NO_FILTERS: ListingFilters = {
  brands: [],
  priceMin: null,
  priceMax: null,
  sizes: [],
  colours: [],
  inStock: false,
};

export interface Facets {
  brands: { id: number; name: string; count: number }[];
  sizes: { label: string; count: number }[];
  colours: (Swatch & { count: number })[];
  /** Lowest and highest price paid (sale price when on sale), hidden prices left out. */
  price: { min: Cents; max: Cents } | null;
  /** Products that can be bought now. */
  inStock: number;
}

/**
 * Facets of a product list. With `filters`, each facet counts the products that pass every
 * other filter (so choosing a size does not hide the other sizes). Brands are named from
 * `brands` when given (else `''`) and sorted by name; sizes and colours keep first-seen order.
 */
export function facets(
  products: readonly Product[],
  filters: ListingFilters = NO_FILTERS,
  brands: readonly Pick<Brand, 'id' | 'name'>[] = NO_BRANDS,
): Facets {
  const filter = variantFilter(filters);
  return facetsOf(
    products,
    products.map((product) => failedFilters(product, filters, filter)),
    brands,
    filter,
  );
}

/** `facets` of `products` whose failed filters are `failed` (same order). */
function facetsOf(
  products: readonly Product[],
  failed: readonly number[],
  brands: readonly Pick<Brand, 'id' | 'name'>[],
  filter: VariantFilter | undefined,
): Facets {
  // The products that pass every filter but the facet's own.
  const over = (facet: FacetName): Product[] => {
    const others = ~FACET_BIT[facet];
    return products.filter((_, i) => ((failed[i] ?? 0) & others) === 0);
  };

  const brandCounts = new Map<number, number>();
  for (const product of over('brand')) {
    if (product.brandId > 0)
      brandCounts.set(product.brandId, (brandCounts.get(product.brandId) ?? 0) + 1);
  }
  const brandNames = new Map(brands.map((brand) => [brand.id, brand.name]));
  const brandFacet = [...brandCounts]
    .map(([id, count]) => ({ id, name: brandNames.get(id) ?? '', count }))
    .sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);

  const sizeCounts = new Map<string, { label: string; count: number }>();
  for (const product of over('size')) {
    const { sizes, sizeKeys } = traits(product);
    for (const [i, label] of sizes.entries()) {
      const key = sizeKeys[i] ?? '';
      const entry = sizeCounts.get(key) ?? { label, count: 0 };
      entry.count += 1;
      sizeCounts.set(key, entry);
    }
  }

  const colourCounts = new Map<string, Swatch & { count: number }>();
  for (const product of over('colour')) {
    const { colours, colourKeys } = traits(product);
    for (const [i, swatch] of colours.entries()) {
      const key = colourKeys[i] ?? '';
      const entry = colourCounts.get(key) ?? { ...swatch, count: 0 };
      entry.count += 1;
      colourCounts.set(key, entry);
    }
  }

  const prices = over('price')
    .filter((product) => !product.isPriceHidden)
    .map((product) => productPrice(product, filter));

  return {
    brands: brandFacet,
    sizes: [...sizeCounts.values()],
    colours: [...colourCounts.values()],
    price: prices.length > 0 ? { min: Math.min(...prices), max: Math.max(...prices) } : null,
    inStock: over('availability').filter(isProductAvailable).length,
  };
}

function compareBy(
  field: SortField,
  filter: VariantFilter | undefined,
): (a: Product, b: Product) => number {
  switch (field) {
    case 'id':
      return (a, b) => a.id - b.id;
    case 'name':
      return (a, b) => collator.compare(a.name, b.name);
    case 'sku':
      return (a, b) => collator.compare(a.sku, b.sku);
    case 'price':
      // The price the shopper sees on the card (sale price when on sale), not BigCommerce's
      // bare `price` field, which would show 279 € before 259 € in "Prix croissant".
      return (a, b) => productPrice(a, filter) - productPrice(b, filter);
    case 'date_modified':
      return (a, b) => Date.parse(a.dateModified) - Date.parse(b.dateModified);
    case 'inventory_level':
      return (a, b) => a.inventoryLevel - b.inventoryLevel;
    case 'total_sold':
      return (a, b) => a.totalSold - b.totalSold;
  }
}

/**
 * Products in a sort-option order (price: the price the cards show, under `filter` when a size
 * or colour is filtered); ties keep ascending id either way.
 */
export function sortProducts(
  products: readonly Product[],
  sort: SortOption['value'],
  filter?: VariantFilter,
): Product[] {
  const compare = compareBy(sort.sort, filter);
  const sign = sort.direction === 'desc' ? -1 : 1;
  const sorted = [...products].sort((a, b) => sign * compare(a, b) || a.id - b.id);
  if (sort.sort !== 'price') return sorted;
  // A hidden price has no place in a price order: those products come last either way.
  return [...sorted.filter((p) => !p.isPriceHidden), ...sorted.filter((p) => p.isPriceHidden)];
}

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

/**
 * What a listing with no term and no filter (most views: a sort, a page) computes from the
 * whole list, kept with the list (the same array for as long as a build or a server holds the
 * category): its facets, and its order for each sort. A category of 3,300 products took 2.3 ms
 * per view to count and sort again. Callers read these, never change them.
 */
const wholeListFacets = new WeakMap<
  readonly Product[],
  { brands: readonly Pick<Brand, 'id' | 'name'>[]; facets: Facets }
>();
const wholeListOrders = new WeakMap<readonly Product[], Map<number, Product[]>>();

function wholeListFacetsOf(
  products: readonly Product[],
  brands: readonly Pick<Brand, 'id' | 'name'>[],
): Facets {
  const kept = wholeListFacets.get(products);
  if (kept?.brands === brands) return kept.facets;
  const counted = facets(products, NO_FILTERS, brands);
  wholeListFacets.set(products, { brands, facets: counted });
  return counted;
}

function wholeListOrder(products: readonly Product[], sort: SortOption): Product[] {
  let orders = wholeListOrders.get(products);
  if (orders === undefined) {
    orders = new Map();
    wholeListOrders.set(products, orders);
  }
  let sorted = orders.get(sort.id);
  if (sorted === undefined) {
    sorted = sortProducts(products, sort.value);
    orders.set(sort.id, sorted);
  }
  return sorted;
}

export interface ListingResult {
  items: Product[];
  pagination: Pagination;
  facets: Facets;
}

/**
 * One page of a listing over domain products: term and filters applied, BigCommerce sort,
 * then pagination. A page past the last gives no items (the page number is not clamped).
 */
export function applyListing(
  products: readonly Product[],
  params: ListingParams,
  brands: readonly Pick<Brand, 'id' | 'name'>[] = NO_BRANDS,
): ListingResult {
  const whole = params.term === '' && !hasFilters(params.filters);
  const searched = whole ? products : products.filter((p) => matchesTerm(p, params.term));
  // Each product's failed filters, once: its place in the results and in each facet's counts.
  const filter = variantFilter(params.filters);
  const failed = whole
    ? []
    : searched.map((product) => failedFilters(product, params.filters, filter));
  const sorted = whole
    ? wholeListOrder(products, params.sort)
    : sortProducts(
        searched.filter((_, i) => failed[i] === 0),
        params.sort.value,
        filter,
      );
  const perPage = Math.max(1, params.perPage);
  const start = (params.page - 1) * perPage;
  const items = sorted.slice(start, start + perPage);
  return {
    items,
    pagination: {
      total: sorted.length,
      count: items.length,
      perPage,
      currentPage: params.page,
      totalPages: listingPageCount(sorted.length, params),
    },
    facets: whole
      ? wholeListFacetsOf(products, brands)
      : facetsOf(searched, failed, brands, filter),
  };
}
