/**
 * The price the shop shows for a product, and the variant it belongs to (the price
 * shown is the price paid): the one function every card, search suggestion, home section,
 * listing sort and price filter reads (`productOffer`). A product page shows the price of its
 * selected variant (`displayPrice` with the variant, `stores/product.ts`).
 *
 * The rule. A shown price is always the price the cart charges for one variant
 * (`displayPrice(product, variant)`, which follows the cart's rule: the variant's price, else
 * the product's; its sale price when set and lower, else the product's sale price for a variant
 * that inherits the product's price). A product-level price that no variant charges is never
 * shown. The card shows the lowest such price among the variants a shopper can buy now
 * (purchasing not disabled, and in stock or stock not tracked: `isPurchasable`), "À partir de"
 * when those prices differ. When no variant can be bought, the lowest price of them all, with
 * the out-of-stock state. A product without variants shows its own price.
 *
 * With a size or colour filter set (`VariantFilter`), only the variants matching it count, and
 * the card links to the one whose price it shows (`?variante=ID`, read by the product page's
 * picker on load, `variantFromSearch`).
 */
import { displayPrice, effectivePrice, type DisplayPrice } from './price.ts';
import { isPurchasable } from './stock.ts';
import { isColourOption } from './swatches.ts';
import type { Product, ProductOption, Variant } from './types.ts';

export { variantPath } from './variant-link.ts';

/** The variant options a listing filters on: size and colour labels (`taille`, `couleur`). */
export interface VariantFilter {
  sizes: readonly string[];
  colours: readonly string[];
}

const SIZE_NAME = /taille|dimension|size/i;

/** Size options: options named like a size ("Taille", "Dimensions"). */
export function isSizeOption(option: Pick<ProductOption, 'displayName'>): boolean {
  return SIZE_NAME.test(option.displayName);
}

const collator = new Intl.Collator('fr', { sensitivity: 'base', numeric: true });

/** Two option labels name the same value (case and accents aside), as the listing compares them. */
export function sameLabel(a: string, b: string): boolean {
  return collator.compare(a.trim(), b.trim()) === 0;
}

/** One spelling of a label, as `sameLabel` compares: lower case, no accents, trimmed. */
function folded(label: string): string {
  return label
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}+/gu, '');
}

function normalised(labels: readonly string[]): string[] {
  return [...new Set(labels.map(folded).filter(Boolean))].sort();
}

/**
 * The variant part of a listing's filters, in one spelling (labels folded, one per value,
 * sorted), or undefined when it sets no size and no colour: the cards' shared markup is named
 * by it (`listingCardKey`), so the same filter gives the same name whatever its order.
 */
export function variantFilter(filters: VariantFilter): VariantFilter | undefined {
  const sizes = normalised(filters.sizes);
  const colours = normalised(filters.colours);
  return sizes.length === 0 && colours.length === 0 ? undefined : { sizes, colours };
}

/**
 * Whether `variant` has each filtered option: one of the filter's sizes on a size option, one
 * of its colours on a colour option (an empty list filters nothing).
 */
export function variantMatches(
  product: Pick<Product, 'options'>,
  variant: Pick<Variant, 'optionValues'>,
  filter: VariantFilter,
): boolean {
  const has = (labels: readonly string[], isKind: (option: ProductOption) => boolean) =>
    labels.length === 0 ||
    variant.optionValues.some((value) => {
      const option = product.options.find((o) => o.id === value.optionId);
      return (
        option !== undefined && isKind(option) && labels.some((l) => sameLabel(l, value.label))
      );
    });
  return has(filter.sizes, isSizeOption) && has(filter.colours, isColourOption);
}

export interface Offer {
  /** The price shown: the cart's price of `variant` (the product's when it has no variant). */
  price: DisplayPrice;
  /** The counted variants are priced differently: "À partir de" the shown price. */
  from: boolean;
  /** The variant whose price is shown; null for a product without variants or a hidden price. */
  variant: Variant | null;
  /**
   * A filter was given and some variants match it: the price is theirs, and a card links to
   * `variant` (`variantPath`).
   */
  narrowed: boolean;
}

type OfferProduct = Pick<
  Product,
  | 'price'
  | 'salePrice'
  | 'isPriceHidden'
  | 'inventoryTracking'
  | 'inventoryLevel'
  | 'options'
  | 'variants'
> &
  Partial<Pick<Product, 'inventoryWarningLevel'>>;

/**
 * The price shown for `product` (the rule in this file's header), narrowed to the variants
 * matching `filter` when some do.
 */
export function productOffer(product: OfferProduct, filter?: VariantFilter): Offer {
  const matching =
    filter === undefined ? [] : product.variants.filter((v) => variantMatches(product, v, filter));
  const narrowed = matching.length > 0;
  const pool = narrowed ? matching : product.variants;
  if (product.isPriceHidden || pool.length === 0) {
    return { price: displayPrice(product), from: false, variant: null, narrowed };
  }
  const buyable = pool.filter((variant) => isPurchasable(product, variant));
  const counted = buyable.length > 0 ? buyable : pool;
  let best: { variant: Variant; price: DisplayPrice; paid: number } | null = null;
  let from = false;
  for (const variant of counted) {
    const price = displayPrice(product, variant);
    const paid = effectivePrice(price);
    if (best !== null && paid !== best.paid) from = true;
    if (best === null || paid < best.paid) best = { variant, price, paid };
  }
  // `counted` is never empty here (pool is not).
  return best === null
    ? { price: displayPrice(product), from: false, variant: null, narrowed }
    : { price: best.price, from, variant: best.variant, narrowed };
}
