/**
 * A listing applied to products: the term and the filters, the facets' counts, the sort and
 * the page (`applyListing`). The parameters and URLs it reads are `listing.ts`'s.
 */
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
import {
  hasFilters,
  listingCollator,
  listingPageCount,
  NO_FILTERS,
  type ListingFilters,
  type ListingParams,
  type SortField,
  type SortOption,
} from './listing.ts';

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
    .sort((a, b) => listingCollator.compare(a.name, b.name) || a.id - b.id);

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
      return (a, b) => listingCollator.compare(a.name, b.name);
    case 'sku':
      return (a, b) => listingCollator.compare(a.sku, b.sku);
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
