/**
 * The parts of a category listing written as strings (ui/markup.ts): rendered through them by
 * the listing's components, so the pre-rendered page and an on-demand view share one home for
 * each part's markup. The filter panel is `filters-markup.ts`'s.
 */
import { productItem } from '../../../lib/analytics/datalayer.ts';
import { listedItem } from '../../../lib/analytics/page-json.ts';
import { productOffer, variantFilter, type VariantFilter } from '../../../lib/commerce/offer.ts';
import {
  DEFAULT_SORT_OPTION,
  hasFilters,
  ITEMS_PER_PAGE_OPTIONS,
  itemsPerPage,
  LISTING_PARAMS,
  NO_FILTERS,
  SORT_OPTIONS,
  type ListingParams,
} from '../../../lib/commerce/listing.ts';
import type { ListingResult } from '../../../lib/commerce/listing-products.ts';
import type { Pagination, Product } from '../../../lib/commerce/types.ts';
import { scriptJson } from '../../../lib/script-json.ts';
import { t } from '../../../lib/i18n/index.ts';
import { iconHtml } from '../../../lib/ui/icon-markup.ts';
import { ICONS } from '../../../lib/ui/icons.ts';
import { attr, flag, text } from '../../../lib/ui/markup.ts';
import type { ListingSource } from '../../loaders/listing-source.ts';
import { activeFilters, listingHref, pageWindow, type ActiveFilter } from './listing-view.ts';
import { filtersHtml } from './filters-markup.ts';

export interface PaginationProps {
  current: number;
  total: number;
  /** URL of a page number. */
  href: (page: number) => string;
}

/**
 * Pagination of a listing as plain links (works without JavaScript): previous, a window of
 * page numbers around the current one with the first and last, next. The current page carries
 * aria-current="page". Nothing for a single page.
 */
export function paginationHtml({ current, total, href }: PaginationProps): string {
  if (total <= 1) return '';
  const link = 'page-link';
  const previous =
    current > 1 && current <= total
      ? `<a${attr('href', href(current - 1))}${attr('class', `${link} hover:bg-neutral-100`)} rel="prev">` +
        `${iconHtml({ name: 'chevron-left', size: 18 })}<span class="sr-only">${text(t('pagination.previous'))}</span></a>`
      : '';
  const pages = pageWindow(current, total)
    .map((page) => {
      if (page === null) {
        return '<li><span class="px-1 text-neutral-600" aria-hidden="true">…</span></li>';
      }
      const label =
        page === current
          ? t('pagination.current', { current, total })
          : t('pagination.page', { page });
      const look =
        page === current
          ? `${attr('aria-current', 'page')}${attr('class', `${link} bg-primary-800 text-white`)}`
          : attr('class', `${link} text-neutral-800 hover:bg-neutral-100`);
      return (
        `<li><a${attr('href', href(page))}${look}><span class="sr-only">${text(label)}</span>` +
        `<span aria-hidden="true">${text(page)}</span></a></li>`
      );
    })
    .join('');
  const next =
    current < total
      ? `<a${attr('href', href(current + 1))}${attr('class', `${link} hover:bg-neutral-100`)} rel="next">` +
        `<span class="sr-only">${text(t('pagination.next'))}</span>${iconHtml({ name: 'chevron-right', size: 18 })}</a>`
      : '';
  return (
    `<nav${attr('aria-label', t('pagination.label'))} class="mt-8 flex justify-center">` +
    `<ul class="flex flex-wrap items-center gap-1"><li>${previous}</li>${pages}<li>${next}</li></ul></nav>`
  );
}

/** The grid / list toggle (spec §2 category page), grid first and checked by default. */
const VIEW_OPTIONS = [
  {
    value: 'grid',
    label: 'listing.grid',
    icon: 'M4 4h7v7H4z M13 4h7v7h-7z M4 13h7v7H4z M13 13h7v7h-7z',
  },
  { value: 'list', label: 'listing.list', icon: 'M4 5h5v5H4z M4 14h5v5H4z M12 7h8 M12 16h8' },
] as const;

/** A select of the listing's form (components.css `listing-select`), its default marked. */
function listingSelect(
  form: string,
  name: string,
  label: string,
  defaultValue: string | number,
  options: readonly { value: string | number; label: string; selected: boolean }[],
): string {
  return (
    `<label class="flex flex-col gap-1 text-xs font-medium text-neutral-700">${text(label)}` +
    `<select${attr('form', form)}${attr('name', name)} class="listing-select"${attr('data-default', defaultValue)}>` +
    options
      .map(
        (option) =>
          `<option${attr('value', option.value)}${flag('selected', option.selected)}>${text(option.label)}</option>`,
      )
      .join('') +
    '</select></label>'
  );
}

export interface ListingControlsProps {
  /** Products in the whole listing (every page). */
  total: number;
  params: ListingParams;
  /** Id of the listing's GET form. */
  form: string;
}

/**
 * The row above a listing's products: how many there are, the grid / list toggle, the sort and
 * the items per page (fields of the listing's GET form), and an apply button without
 * JavaScript. On a phone the count and the controls are two rows, so that the controls never
 * move once painted: the parser may paint before the last of them is read, and a row that
 * wraps when it is complete would shift them (CLS).
 */
export function listingControlsHtml({ total, params, form }: ListingControlsProps): string {
  const views = VIEW_OPTIONS.map(
    (view) =>
      `<label class="view-option"${attr('title', t(view.label))}><input type="radio" name="listing-view"` +
      `${attr('value', view.value)}${attr('id', `listing-view-${view.value}`)} class="sr-only"` +
      `${flag('checked', view.value === 'grid')}><svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24"` +
      ` fill="none" stroke="currentColor" stroke-width="1.75"><path${attr('d', view.icon)}></path></svg>` +
      `<span class="sr-only">${text(t(view.label))}</span></label>`,
  ).join('');
  const sort = listingSelect(
    form,
    LISTING_PARAMS.sort,
    t('sort.label'),
    DEFAULT_SORT_OPTION.id,
    SORT_OPTIONS.map((option) => ({
      value: option.id,
      label: t(option.label),
      selected: option.id === params.sort.id,
    })),
  );
  const perPage = listingSelect(
    form,
    LISTING_PARAMS.itemsPerPage,
    t('listing.itemsPerPage'),
    itemsPerPage(null),
    ITEMS_PER_PAGE_OPTIONS.map((count) => ({
      value: count,
      label: String(count),
      selected: count === params.perPage,
    })),
  );
  return (
    '<div class="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end sm:justify-between">' +
    `<h2 id="listing-results" class="font-sans text-base font-semibold text-neutral-800">${text(
      t('listing.results', { count: total }),
    )}</h2><div class="flex flex-wrap items-end gap-3"><fieldset class="flex items-center gap-1">` +
    `<legend class="sr-only">${text(t('listing.view'))}</legend>${views}</fieldset>${sort}${perPage}` +
    `<noscript><button type="submit"${attr('form', form)} class="min-h-11 rounded-control bg-primary-800 px-4 text-sm font-semibold text-white">` +
    `${text(t('filter.apply'))}</button></noscript></div></div>`
  );
}

/** The filters applied, each a link that removes it, then a link that removes them all. */
export function activeFiltersHtml(
  path: string,
  params: ListingParams,
  chips: readonly ActiveFilter[],
): string {
  if (chips.length === 0) return '';
  return (
    `<div class="flex flex-wrap items-center gap-2"><h3 class="sr-only">${text(t('listing.activeFilters'))}</h3>` +
    '<ul class="flex flex-wrap gap-2">' +
    chips
      .map(
        (chip) =>
          `<li><a${attr('href', chip.href)}${attr('aria-label', t('filter.remove', { label: chip.label }))}` +
          ` class="chip-filter">${text(chip.label)}<svg aria-hidden="true" width="14" height="14" viewBox="0 0 24 24"` +
          ` fill="none" stroke="currentColor" stroke-width="2"><path${attr('d', ICONS.close)}></path></svg></a></li>`,
      )
      .join('') +
    `</ul><a${attr('href', listingHref(path, params, { filters: NO_FILTERS }))}` +
    ` class="text-sm font-medium text-primary-700 underline underline-offset-4">${text(t('filter.reset'))}</a></div>`
  );
}

/**
 * What a listing page without products says: nothing matches the filters, the page is past
 * the last (with a link to the first), or the category is empty.
 */
export function emptyListingHtml(
  path: string,
  params: ListingParams,
  pagination: Pick<Pagination, 'currentPage' | 'total'>,
  filtered: boolean,
): string {
  const pastLast = pagination.currentPage > 1 && pagination.total > 0;
  const message = filtered
    ? t('No products found matching your search criteria.')
    : pastLast
      ? t('listing.pageOutOfRange')
      : t('listing.empty');
  return (
    `<div class="rounded-card bg-neutral-50 px-6 py-12 text-center text-neutral-700"><p>${text(message)}</p>` +
    (pastLast
      ? `<a${attr('href', listingHref(path, params, { page: 1 }))} class="mt-3 inline-block font-medium text-primary-700 underline underline-offset-4">${text(t('listing.firstPage'))}</a>`
      : '') +
    '</div>'
  );
}

/** The names an item of a list carries besides the product's own (GA4 item_brand, item_category). */
export type ItemNames = (product: Product) => {
  brand?: string | undefined;
  category?: string | undefined;
};

/**
 * spec §9 analytics: the items of a list of product cards (GA4 shape, EUR) as JSON in the page,
 * for its view_item_list push and the cards' select_item and add_to_cart, without what the list
 * gives them (its name, their place from `offset`, quantity one: `listedItem`); with their
 * brand and main category when `names` says them. Nothing for an empty list. `scriptJson`:
 * `<` escaped, the data cannot leave its script element.
 */
export function analyticsListHtml(
  name: string,
  products: readonly Product[],
  offset = 0,
  names?: ItemNames,
  filter?: VariantFilter,
): string {
  if (products.length === 0) return '';
  const items = products.map((product) => {
    const known = names?.(product) ?? {};
    // Priced as its card (`productOffer`: the variant the card shows and adds); named by
    // that variant only when a size or colour filter chose it, not for a "from" price.
    const offer = productOffer(product, filter);
    const item = productItem(product, {
      ...(offer.variant === null ? {} : { variant: offer.variant }),
      ...(known.brand ? { brand: known.brand } : {}),
      ...(known.category ? { category: known.category } : {}),
    });
    if (!offer.narrowed) delete item.item_variant;
    return listedItem(item);
  });
  return `<script type="application/json" data-analytics-list>${scriptJson({ name, offset, items })}</script>`;
}

/**
 * The names of a category listing's items: the brand from the source's brands, the category
 * the most specific of the listing's own tree (its sub-categories, itself, its parents) that
 * lists the product, which is the product's main category whenever it lies in that tree.
 */
export function listingItemNames(
  source: Pick<ListingSource, 'brands' | 'category' | 'children' | 'trail'>,
): ItemNames {
  const brands = new Map(source.brands.map((brand) => [brand.id, brand.name]));
  const tree = [
    ...source.children,
    { id: source.category.id, name: source.category.name },
    ...[...source.trail].reverse(),
  ];
  return (product) => {
    const ids = new Set(product.categories);
    return {
      brand: brands.get(product.brandId),
      category: tree.find((category) => ids.has(category.id))?.name ?? source.category.name,
    };
  };
}

/**
 * The listing's GET form, which its fields name (`form=`): the category's path as its action,
 * and a search term it was opened with as a hidden field.
 */
export function listingFormHtml(form: string, path: string, term: string): string {
  return (
    `<form${attr('id', form)} method="get"${attr('action', path)} data-listing-form>` +
    (term === ''
      ? ''
      : `<input type="hidden"${attr('name', LISTING_PARAMS.term)}${attr('value', term)}>`) +
    '</form>'
  );
}

/** Id of a listing's GET form, which its fields name. */
export const LISTING_FORM = 'listing-form';

/** The parts of a listing that change from one view of it to another, as markup. */
export interface ListingPartsHtml {
  form: string;
  filters: string;
  controls: string;
  /** The active filters' chips ('' for none). */
  chips: string;
  /** The view_item_list JSON of the shown products ('' for none). */
  analytics: string;
  /** What the listing says when it shows no product ('' when it shows some). */
  empty: string;
  pagination: string;
}

/**
 * The changing parts of the listing of `source` viewed with `params` (`result` is its
 * `applyListing`): CategoryListing.astro writes them, and listing-assembly.ts puts a view's
 * into its pre-rendered page 1 in place of page 1's.
 */
export function listingPartsHtml(
  source: ListingSource,
  params: ListingParams,
  result: ListingResult,
): ListingPartsHtml {
  const path = source.category.path;
  const { pagination, facets } = result;
  return {
    form: listingFormHtml(LISTING_FORM, path, params.term),
    filters: filtersHtml({
      facets,
      filters: params.filters,
      form: LISTING_FORM,
      total: pagination.total,
    }),
    controls: listingControlsHtml({ total: pagination.total, params, form: LISTING_FORM }),
    chips: activeFiltersHtml(path, params, activeFilters(path, params, source.brands)),
    analytics: analyticsListHtml(
      source.category.name,
      result.items,
      (pagination.currentPage - 1) * params.perPage,
      listingItemNames(source),
      variantFilter(params.filters),
    ),
    empty:
      result.items.length > 0
        ? ''
        : emptyListingHtml(path, params, pagination, hasFilters(params.filters)),
    pagination: paginationHtml({
      current: pagination.currentPage,
      total: pagination.totalPages,
      href: (page: number) => listingHref(path, params, { page }),
    }),
  };
}
