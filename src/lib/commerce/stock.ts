import type { MessageKey } from '../i18n/index.ts';
import type { Product, Variant } from './types.ts';

type StockProduct = Pick<Product, 'inventoryTracking' | 'inventoryLevel'> &
  Partial<Pick<Product, 'inventoryWarningLevel'>>;
type StockVariant = Pick<
  Variant,
  'inventoryLevel' | 'inventoryWarningLevel' | 'purchasingDisabled'
>;

/**
 * spec §4 stock: tracking `none` is always available; `product` needs the product's
 * inventory_level >= 1; `variant` needs the selected variant's level >= 1 (none selected: no).
 */
export function isInStock(product: StockProduct, variant?: StockVariant | null): boolean {
  switch (product.inventoryTracking) {
    case 'none':
      return true;
    case 'product':
      return product.inventoryLevel >= 1;
    case 'variant':
      return (variant?.inventoryLevel ?? 0) >= 1;
  }
}

/** In stock and the selected variant's purchasing is not disabled. */
export function isPurchasable(product: StockProduct, variant?: StockVariant | null): boolean {
  return variant?.purchasingDisabled !== true && isInStock(product, variant);
}

/**
 * Whether any variant of the product can be bought now (listing "en stock" filter): the
 * product-level rule for `none` / `product` tracking, any purchasable variant for `variant`.
 */
export function isProductAvailable(
  product: StockProduct & { variants: readonly StockVariant[] },
): boolean {
  if (product.inventoryTracking === 'variant') {
    return product.variants.some((variant) => isPurchasable(product, variant));
  }
  return (
    isInStock(product) &&
    (product.variants.length === 0 || product.variants.some((v) => !v.purchasingDisabled))
  );
}

export type StockStatus =
  'in-stock' | 'low-stock' | 'out-of-stock' | 'unavailable' | 'exceeds-stock';

/** Message keys of `fr.json` per status (spec §8 stock dictionary messages). */
export const STOCK_MESSAGE_KEYS = {
  'in-stock': 'stock.inStock',
  'low-stock': 'stock.lowStock',
  'out-of-stock': 'Out of stock',
  'exceeds-stock': 'The selected quantity exceeds available stock.',
  unavailable: 'Currently unavailable',
} as const satisfies Record<StockStatus, string>;

/** Units left for the selection, or null when stock is not tracked. */
export function stockLevel(product: StockProduct, variant?: StockVariant | null): number | null {
  switch (product.inventoryTracking) {
    case 'none':
      return null;
    case 'product':
      return product.inventoryLevel;
    case 'variant':
      return variant?.inventoryLevel ?? 0;
  }
}

/**
 * The stock state of a selection for `quantity` units (default 1), in this order:
 * `unavailable` when purchasing is disabled or variant tracking has no variant selected;
 * `out-of-stock` when not in stock (spec §4); `exceeds-stock` when quantity is above the tracked
 * level; `low-stock` when the level is at or under the warning level (when one is set, > 0);
 * otherwise `in-stock`.
 */
export function stockStatus(
  product: StockProduct,
  variant?: StockVariant | null,
  quantity = 1,
): StockStatus {
  if (variant?.purchasingDisabled === true) return 'unavailable';
  if (product.inventoryTracking === 'variant' && !variant) return 'unavailable';
  if (!isInStock(product, variant)) return 'out-of-stock';
  const level = stockLevel(product, variant);
  if (level === null) return 'in-stock';
  if (quantity > level) return 'exceeds-stock';
  const warning =
    product.inventoryTracking === 'variant'
      ? (variant?.inventoryWarningLevel ?? 0)
      : (product.inventoryWarningLevel ?? 0);
  return warning > 0 && level <= warning ? 'low-stock' : 'in-stock';
}

/**
 * French text of a stock status through `translate` (`t`, or an island's translator);
 * `low-stock` says how many units are left.
 */
export function stockMessage(
  status: StockStatus,
  level: number | null | undefined,
  translate: (key: MessageKey, options: { count: number }) => string,
): string {
  return translate(STOCK_MESSAGE_KEYS[status], { count: level ?? 0 });
}

/** Option value ids of a variant keyed by option id (the shape `findVariant` takes). */
export function variantSelection(variant: Pick<Variant, 'optionValues'>): Record<number, number> {
  const selection: Record<number, number> = {};
  for (const value of variant.optionValues) selection[value.optionId] = value.id;
  return selection;
}

/**
 * The variant whose option values are exactly `selection` (option id → option value id), or
 * undefined. A product without options matches its single (base) variant with `{}`.
 */
export function findVariant(
  product: Pick<Product, 'variants'>,
  selection: Readonly<Record<number, number>>,
): Variant | undefined {
  const entries = Object.entries(selection).map(([option, value]) => [Number(option), value]);
  return product.variants.find(
    (variant) =>
      variant.optionValues.length === entries.length &&
      entries.every(([optionId, valueId]) =>
        variant.optionValues.some((v) => v.optionId === optionId && v.id === valueId),
      ),
  );
}

/**
 * spec §4 default variant: the variant of each option's default value (else its first value);
 * when that variant does not exist or cannot be bought, the first purchasable in-stock
 * variant; when none can be bought, the default selection's variant (so the page can say
 * "Out of stock"), else the base variant, else the first one.
 */
export function defaultVariant(
  product: Pick<
    Product,
    'variants' | 'options' | 'inventoryTracking' | 'inventoryLevel' | 'baseVariantId'
  > &
    Partial<Pick<Product, 'inventoryWarningLevel'>>,
): Variant | undefined {
  const selection: Record<number, number> = {};
  for (const option of product.options) {
    const value = option.values.find((v) => v.isDefault) ?? option.values[0];
    if (value) selection[option.id] = value.id;
  }
  const chosen =
    product.options.length > 0
      ? findVariant(product, selection)
      : (product.variants.find((v) => v.id === product.baseVariantId) ?? product.variants[0]);
  if (chosen && isPurchasable(product, chosen)) return chosen;
  return (
    product.variants.find((variant) => isPurchasable(product, variant)) ??
    chosen ??
    product.variants.find((v) => v.id === product.baseVariantId) ??
    product.variants[0]
  );
}
