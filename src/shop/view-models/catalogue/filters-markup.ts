/**
 * The filter panel of a category listing written as a string (ui/markup.ts), one of the parts
 * of `listing-markup.ts` (which exports it): brand, price, size, colour and availability.
 */
import { formatPrice } from '../../../lib/commerce/money.ts';
import {
  IN_STOCK_VALUE,
  LISTING_PARAMS,
  type ListingFilters,
} from '../../../lib/commerce/listing.ts';
import type { Facets } from '../../../lib/commerce/listing-products.ts';
import { t } from '../../../lib/i18n/index.ts';
import { buttonClass } from '../../../lib/ui/classes.ts';
import { attr, flag, text } from '../../../lib/ui/markup.ts';
import { euroInput, sameLabel } from './listing-view.ts';
import { swatchBackground } from '../../../lib/commerce/swatch.ts';

/** A value of a label facet with its count. */
interface LabelCount {
  label: string;
  count: number;
}

export interface FiltersProps {
  facets: Facets;
  filters: ListingFilters;
  /** Id of the listing's GET form. */
  form: string;
  /** Products in the whole listing (every page), for the "Afficher N produits" button. */
  total: number;
}

/** The text of the filter panel's button that shows the results: "Afficher 3 produits". */
export function showProductsLabel(total: number): string {
  return total > 0 ? t('filter.show', { count: total }) : t('filter.showNone');
}

/** One checkbox of a filter, with its facet count; `swatch` is a colour's background. */
function filterOption(
  form: string,
  name: string,
  value: string | number,
  checked: boolean,
  label: string,
  count: number,
  swatch?: string,
): string {
  return (
    `<label class="filter-option"><input type="checkbox" class="filter-box"${attr('form', form)}` +
    `${attr('name', name)}${attr('value', value)}${flag('checked', checked)}>` +
    (swatch === undefined
      ? ''
      : `<span aria-hidden="true" class="filter-swatch"${attr('style', `background:${swatch}`)}></span>`) +
    `<span>${text(label)}</span><span class="filter-count">${text(t('filter.count', { count }))}</span></label>`
  );
}

function filterSet(legend: string, content: string): string {
  return `<fieldset class="filter-set"><legend class="filter-legend">${text(legend)}</legend>${content}</fieldset>`;
}

/** The values of a label facet (size, colour) worth showing: found in the list, or chosen. */
function shownLabels<T extends LabelCount>(values: readonly T[], chosen: readonly string[]): T[] {
  return values.filter((v) => v.count > 0 || chosen.some((x) => sameLabel(x, v.label)));
}

/** The checkboxes of a label facet (size, colour), the chosen ones checked. */
function labelOptions<T extends LabelCount>(
  form: string,
  name: string,
  values: readonly T[],
  chosen: readonly string[],
  swatch?: (value: T) => string,
): string {
  return values
    .map((value) =>
      filterOption(
        form,
        name,
        value.label,
        chosen.some((x) => sameLabel(x, value.label)),
        value.label,
        value.count,
        swatch?.(value),
      ),
    )
    .join('');
}

/** A bound of the price filter, its placeholder the bound of the facet. */
function priceInput(
  form: string,
  name: string,
  label: string,
  cents: number | null,
  hint?: string,
) {
  return (
    `<label class="flex flex-col gap-1 text-xs text-neutral-700">${text(label)}` +
    `<input type="number" inputmode="decimal" min="0" step="any"${attr('form', form)}${attr('name', name)}` +
    `${attr('value', euroInput(cents))}${attr('placeholder', hint)} class="filter-price"></label>`
  );
}

/**
 * Filter panel of a listing: brand, price range, size, colour and availability, each value
 * with its facet count (spec §5; a facet with nothing to choose is left out). Plain form
 * fields of the listing's GET form (`form` id), so filtering works without JavaScript (the
 * apply button). With JavaScript (`listing-filters.ts`, which marks the panel `data-live`)
 * a change applies in place; on a phone the apply button gives way to a sticky "Afficher N
 * produits" (`filters-show`, components.css), and a failed update is said in `data-listing-error`.
 */
export function filtersHtml({ facets, filters, form, total }: FiltersProps): string {
  const p = LISTING_PARAMS;
  const brands = facets.brands.filter((b) => b.count > 0 || filters.brands.includes(b.id));
  const sizes = shownLabels(facets.sizes, filters.sizes);
  const colours = shownLabels(facets.colours, filters.colours);
  const showPrice = facets.price !== null || filters.priceMin !== null || filters.priceMax !== null;
  const showStock = facets.inStock > 0 || filters.inStock;
  const { price } = facets;

  let html = '<div class="flex flex-col" data-filter-list>';
  if (brands.length > 0) {
    html += filterSet(
      t('filter.brand'),
      brands
        .map((brand) =>
          filterOption(
            form,
            p.brand,
            brand.id,
            filters.brands.includes(brand.id),
            brand.name,
            brand.count,
          ),
        )
        .join(''),
    );
  }
  if (showPrice) {
    html += filterSet(
      t('filter.price'),
      '<div class="grid grid-cols-2 gap-3">' +
        priceInput(
          form,
          p.priceMin,
          t('filter.priceMin'),
          filters.priceMin,
          price ? String(Math.floor(price.min / 100)) : undefined,
        ) +
        priceInput(
          form,
          p.priceMax,
          t('filter.priceMax'),
          filters.priceMax,
          price ? String(Math.ceil(price.max / 100)) : undefined,
        ) +
        '</div>' +
        (price
          ? `<p class="mt-2 text-xs text-neutral-600">${text(
              t('filter.priceRange', {
                min: formatPrice(price.min, { decimals: false }),
                max: formatPrice(price.max, { decimals: false }),
              }),
            )}</p>`
          : ''),
    );
  }
  if (sizes.length > 0) {
    html += filterSet(t('filter.size'), labelOptions(form, p.size, sizes, filters.sizes));
  }
  if (colours.length > 0) {
    html += filterSet(
      t('filter.colour'),
      labelOptions(form, p.colour, colours, filters.colours, (c) => swatchBackground(c.colors)),
    );
  }
  if (showStock) {
    html += filterSet(
      t('filter.availability'),
      filterOption(
        form,
        p.availability,
        IN_STOCK_VALUE,
        filters.inStock,
        t('filter.inStock'),
        facets.inStock,
      ),
    );
  }
  const apply = buttonClass('outline', 'sm', { fullWidth: true });
  const show = buttonClass('primary', 'md', { fullWidth: true, className: 'filters-show' });
  return (
    html +
    '<div class="filters-actions"><p role="alert" class="filters-error" data-listing-error></p>' +
    `<div class="filters-apply pt-2"><button type="submit"${attr('class', apply)}${attr('form', form)}>` +
    `${text(t('filter.apply'))}</button></div>` +
    `<button type="button"${attr('class', show)} data-filters-show${flag('disabled', total === 0)}>` +
    `${text(showProductsLabel(total))}</button></div></div>`
  );
}
