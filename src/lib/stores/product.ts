/**
 * The product page's selection: which variant of which product the shopper has chosen, and how
 * many units. The variant picker island writes it; the add-to-cart island (next issue) reads it.
 * Initial value `null` on the server and in the browser until the picker mounts.
 */
import { atom } from 'nanostores';
import { discountBadge, displayPrice, type DisplayPrice } from '../commerce/price.ts';
import {
  findVariant,
  isPurchasable,
  stockLevel,
  stockStatus,
  type StockStatus,
} from '../commerce/stock.ts';
import type { Product, Variant } from '../commerce/types.ts';

export interface ProductSelection {
  productId: number;
  /** Option id → option value id, as picked. */
  options: Readonly<Record<number, number>>;
  /** The variant matching `options`, or null when that combination does not exist. */
  variantId: number | null;
  quantity: number;
  /** Checkbox modifier id → ticked, as the shopper set it (unset: the modifier's default). */
  ticked: Readonly<Record<number, boolean>>;
}

export const $productSelection = atom<ProductSelection | null>(null);

/** Sets the selection of the product page (the picker calls it on mount and on every change). */
export function selectProductOptions(
  productId: number,
  options: Readonly<Record<number, number>>,
  variantId: number | null,
): void {
  const current = $productSelection.get();
  const same = current?.productId === productId;
  $productSelection.set({
    productId,
    options,
    variantId,
    quantity: current?.quantity ?? 1,
    ticked: same ? current.ticked : {},
  });
}

/** Ticks or unticks a checkbox modifier of the current selection. */
export function setModifierTicked(modifierId: number, ticked: boolean): void {
  const current = $productSelection.get();
  if (!current) return;
  $productSelection.set({ ...current, ticked: { ...current.ticked, [modifierId]: ticked } });
}

/** Sets the quantity of the current selection (whole number >= 1). */
export function setSelectedQuantity(quantity: number): void {
  const current = $productSelection.get();
  if (!current) return;
  const next = Number.isSafeInteger(quantity) && quantity >= 1 ? quantity : 1;
  $productSelection.set({ ...current, quantity: next });
}

/** The fields of a product the picker and the price/stock view need (island props). */
export type PickerProduct = Pick<
  Product,
  | 'id'
  | 'price'
  | 'salePrice'
  | 'isPriceHidden'
  | 'inventoryTracking'
  | 'inventoryLevel'
  | 'inventoryWarningLevel'
  | 'baseVariantId'
  | 'options'
  | 'modifiers'
> & { variants: Variant[] };

export interface SelectionView {
  variant: Variant | null;
  price: DisplayPrice;
  /** `-N%` (spec §5) or null. */
  discount: string | null;
  status: StockStatus;
  /** Units left, null when stock is not tracked. */
  level: number | null;
  purchasable: boolean;
}

/**
 * What the page shows for a selection, from the pure rules: the variant's display price and
 * discount badge (spec §5), its stock state for the quantity (spec §4, §8). A combination with
 * no variant is `unavailable`, priced like the product.
 */
export function selectionView(
  product: PickerProduct,
  options: Readonly<Record<number, number>>,
  quantity = 1,
): SelectionView {
  const variant = findVariant(product, options) ?? null;
  const price = displayPrice(product, variant);
  const missing = variant === null && product.variants.length > 0;
  const status: StockStatus = missing ? 'unavailable' : stockStatus(product, variant, quantity);
  return {
    variant,
    price,
    discount: discountBadge(price),
    status,
    level: missing ? 0 : stockLevel(product, variant),
    purchasable: !missing && isPurchasable(product, variant) && status !== 'exceeds-stock',
  };
}
