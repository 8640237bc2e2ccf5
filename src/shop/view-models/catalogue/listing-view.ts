/**
 * View model of a category listing: links of pages, sorts and removable filters, all built
 * with `listingQueryString` so every state of the listing is a plain GET URL (spec §5).
 */
import { formatPrice } from '../../../lib/commerce/money.ts';
import {
  listingQueryString,
  type ListingFilters,
  type ListingParams,
} from '../../../lib/commerce/listing.ts';
import { truncateText } from '../../../lib/commerce/text.ts';
import type { Brand } from '../../../lib/commerce/types.ts';
import { t } from '../../../lib/i18n/index.ts';
import { htmlToText } from '../../html/sanitize-html.ts';
import { listingIndexing, type ListingIndexing } from '../../../lib/commerce/listing-seo.ts';
import type { HeadProps } from '../layout/head.ts';
import { breadcrumbJsonLd, type JsonLd } from '../seo/json-ld.ts';
import type { ListingSource } from '../../loaders/listing-data.ts';
import { META_DESCRIPTION_LENGTH } from './view.ts';

/**
 * Page numbers to link around `current` (null marks a gap): always the first and last, and
 * one page either side of the current one; short runs are listed in full.
 */
export function pageWindow(current: number, total: number): (number | null)[] {
  if (total <= 7) return Array.from({ length: total }, (_, i) => i + 1);
  const wanted = new Set([1, total, current - 1, current, current + 1]);
  const pages = [...wanted].filter((p) => p >= 1 && p <= total).sort((a, b) => a - b);
  const out: (number | null)[] = [];
  for (const page of pages) {
    const previous = out.at(-1);
    if (typeof previous === 'number' && page - previous === 2) out.push(page - 1);
    else if (typeof previous === 'number' && page - previous > 2) out.push(null);
    out.push(page);
  }
  return out;
}

/** The listing URL of `path` with `params` changed by `change` (page back to 1 unless set). */
export function listingHref(
  path: string,
  params: ListingParams,
  change: Partial<Omit<ListingParams, 'filters'>> & { filters?: Partial<ListingFilters> } = {},
): string {
  const next = {
    ...params,
    page: 1,
    ...change,
    filters: { ...params.filters, ...change.filters },
  };
  return `${path}${listingQueryString(next)}`;
}

export interface ActiveFilter {
  label: string;
  /** The listing without this filter. */
  href: string;
}

/** One removable chip per active filter value, in the order of the filter panel. */
export function activeFilters(
  path: string,
  params: ListingParams,
  brands: readonly Pick<Brand, 'id' | 'name'>[],
): ActiveFilter[] {
  const f = params.filters;
  const names = new Map(brands.map((brand) => [brand.id, brand.name]));
  const chips: ActiveFilter[] = [];
  for (const id of f.brands) {
    chips.push({
      label: names.get(id) ?? String(id),
      href: listingHref(path, params, { filters: { brands: f.brands.filter((b) => b !== id) } }),
    });
  }
  if (f.priceMin !== null || f.priceMax !== null) {
    const euros = (cents: number) => formatPrice(cents, { decimals: cents % 100 !== 0 });
    const range =
      f.priceMin !== null && f.priceMax !== null
        ? t('filter.priceRange', { min: euros(f.priceMin), max: euros(f.priceMax) })
        : f.priceMin !== null
          ? t('filter.priceFrom', { min: euros(f.priceMin) })
          : t('filter.priceUpTo', { max: euros(f.priceMax ?? 0) });
    chips.push({
      label: `${t('filter.price')} : ${range}`,
      href: listingHref(path, params, { filters: { priceMin: null, priceMax: null } }),
    });
  }
  for (const size of f.sizes) {
    chips.push({
      label: size,
      href: listingHref(path, params, { filters: { sizes: f.sizes.filter((s) => s !== size) } }),
    });
  }
  for (const colour of f.colours) {
    chips.push({
      label: colour,
      href: listingHref(path, params, {
        filters: { colours: f.colours.filter((c) => c !== colour) },
      }),
    });
  }
  if (f.inStock) {
    chips.push({
      label: t('filter.inStock'),
      href: listingHref(path, params, { filters: { inStock: false } }),
    });
  }
  return chips;
}

// One collator for the module: localeCompare with options builds one per call (~20 µs, and a
// listing's filters compare every size and colour with the chosen ones).
const labelCollator = new Intl.Collator('fr', { sensitivity: 'base' });

/** Whether two facet labels are the same for the shopper (case and accents aside). */
export function sameLabel(a: string, b: string): boolean {
  return labelCollator.compare(a, b) === 0;
}

/** Euros for a price input (`59.9`), from cents; '' for none. */
export function euroInput(cents: number | null): string {
  return cents === null ? '' : String(cents / 100);
}

/** Title, meta description and JSON-LD of a listing page (both routes use the same). */
export function listingHead(
  source: ListingSource,
  params: ListingParams,
  site: URL | string,
): { title: string; description: string; jsonLd: JsonLd[] } {
  const { category } = source;
  // spec: titles are "<name> | <shop>" (BaseHead adds the shop); upstream page titles often
  // carry a shop name already.
  const name = category.name;
  const description =
    category.metaDescription ||
    truncateText(htmlToText(category.description), META_DESCRIPTION_LENGTH) ||
    t('listing.metaDescription', { name: category.name });
  // Each page of a listing is indexed on its own (listing-seo.ts): its title and description
  // say which page it is.
  const { page } = params;
  return {
    title: page > 1 ? t('listing.pageTitle', { name, page }) : name,
    description:
      page > 1
        ? truncateText(t('listing.pageDescription', { page, description }), META_DESCRIPTION_LENGTH)
        : description,
    jsonLd: [breadcrumbJsonLd(source.trail, site, t('breadcrumb.home'))],
  };
}

/**
 * The document head of a listing page viewed with `params` (results on `totalPages` pages) and
 * how it is indexed (listing-seo.ts): what both routes give their layout, and what
 * listing-assembly.ts writes into a view put together from page 1.
 */
export function listingDocument(
  source: ListingSource,
  params: ListingParams,
  totalPages: number,
  site: URL | string,
): { head: HeadProps; indexing: ListingIndexing } {
  const indexing = listingIndexing(source.category.path, params, totalPages);
  return {
    head: {
      ...listingHead(source, params, site),
      canonical: indexing.canonical,
      noindex: indexing.noindex,
    },
    indexing,
  };
}
