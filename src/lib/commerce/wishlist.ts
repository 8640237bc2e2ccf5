/**
 * The wishlist's rules (spec §3 wishlist and wishlist item as displayed, §4 wishlist, §5 guest
 * duplicates, §9 page size 50): pure, shared by the store, the islands and the tests.
 */
import { variantLabel } from './item-options.ts';
import { displayPrice, type DisplayPrice } from './price.ts';
import { productPath } from './slug.ts';
import { isPurchasable, stockLevel, stockStatus, type StockStatus } from './stock.ts';
import type { Product, Variant } from './types.ts';

/** spec §9: the wishlist's products are fetched 50 a page. */
export const WISHLIST_PAGE_SIZE = 50;
/** Items a wishlist may hold (a guest's local copy is cut to it). */
export const MAX_WISHLIST_ITEMS = 200;
/**
 * Wishlists a customer may keep (creating them was unlimited). The shop itself uses
 * one (spec §4: the customer's first wishlist); the cap leaves room for lists of their own.
 */
export const MAX_WISHLISTS_PER_CUSTOMER = 20;

/** Whether a customer who has `count` wishlists may create another. */
export function mayCreateWishlist(count: number): boolean {
  return count < MAX_WISHLISTS_PER_CUSTOMER;
}

/** Name of the wishlist made for a customer who has none (BigCommerce requires a name). */
export const DEFAULT_WISHLIST_NAME = 'Mes favoris';

/** A wishlist line (spec §3: id, product_id, variant_id); a guest line has no upstream id. */
export interface WishlistLine {
  id: number | null;
  productId: number;
  variantId: number;
}

/** spec §4: an item is in the wishlist when product and variant both match. */
export function hasLine(
  lines: readonly Pick<WishlistLine, 'productId' | 'variantId'>[],
  productId: number,
  variantId: number,
): boolean {
  return lines.some((line) => line.productId === productId && line.variantId === variantId);
}

/**
 * spec §5: a guest add is ignored when the product and variant pair is already there; the
 * list keeps at most MAX_WISHLIST_ITEMS (the oldest go).
 */
export function addGuestLine(
  lines: readonly WishlistLine[],
  productId: number,
  variantId: number,
): WishlistLine[] {
  if (hasLine(lines, productId, variantId)) return [...lines];
  return [...lines, { id: null, productId, variantId }].slice(-MAX_WISHLIST_ITEMS);
}

/** The guest lines not yet in the customer's wishlist, each pair once (login merge, spec §4). */
export function linesToMerge(
  guest: readonly WishlistLine[],
  customer: readonly WishlistLine[],
): { product_id: number; variant_id: number }[] {
  const merged: WishlistLine[] = [...customer];
  const added: { product_id: number; variant_id: number }[] = [];
  for (const line of guest) {
    if (hasLine(merged, line.productId, line.variantId)) continue;
    merged.push(line);
    added.push({ product_id: line.productId, variant_id: line.variantId });
  }
  return added;
}

const isId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/**
 * The guest wishlist read back from local storage: valid lines only, duplicates dropped,
 * anything else (tampered, another version's shape) read as empty rather than breaking pages.
 */
export function parseGuestLines(json: string | undefined): WishlistLine[] {
  if (json === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  let lines: WishlistLine[] = [];
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { productId, variantId } = entry as Record<string, unknown>;
    if (isId(productId) && isId(variantId)) lines = addGuestLine(lines, productId, variantId);
  }
  return lines;
}

/** Pages of product ids to fetch (spec §9: 50 a page), each id once. */
export function productIdPages(lines: readonly Pick<WishlistLine, 'productId'>[]): number[][] {
  const ids = [...new Set(lines.map((line) => line.productId))];
  const pages: number[][] = [];
  for (let i = 0; i < ids.length; i += WISHLIST_PAGE_SIZE) {
    pages.push(ids.slice(i, i + WISHLIST_PAGE_SIZE));
  }
  return pages;
}

const COLOUR = /couleur|coloris|colou?r/i;
const SIZE = /taille|dimension|size/i;

/** spec §3 wishlist item as displayed. */
export interface WishlistItemView {
  /** The line's key: its upstream id, else product and variant. */
  key: string;
  line: WishlistLine;
  sku: string;
  image: string | null;
  name: string;
  href: string;
  price: Pick<DisplayPrice, 'regular' | 'special'> | null;
  /** Units left (null when not tracked) and the stock state. */
  stock: number | null;
  stockStatus: StockStatus;
  color: string | null;
  size: string | null;
  /** The variant's option values ("160x200 / Gris", `variantLabel`); null without options. */
  variantLabel: string | null;
  variantId: number;
  purchasable: boolean;
}

/**
 * The item of a line with its product (null when the product is gone or hidden: the line is
 * then not shown). The variant is the line's, else the product's base variant.
 */
export function wishlistItemView(
  line: WishlistLine,
  product: Product | undefined,
): WishlistItemView | null {
  if (product === undefined) return null;
  const variant: Variant | undefined =
    product.variants.find((v) => v.id === line.variantId) ??
    product.variants.find((v) => v.id === product.baseVariantId) ??
    product.variants[0];
  const price = displayPrice(product, variant);
  // Upstream sends '' for no picture: the variant's, else the product's thumbnail.
  const thumbnail = (product.images.find((i) => i.isThumbnail) ?? product.images[0])?.urlThumbnail;
  const image =
    [variant?.imageUrl, thumbnail].find((url) => url !== undefined && url !== '') ?? null;
  const value = (pattern: RegExp) =>
    variant?.optionValues.find((v) => pattern.test(v.optionDisplayName))?.label ?? null;
  return {
    key: line.id === null ? `${line.productId}:${line.variantId}` : String(line.id),
    line,
    sku: variant?.sku ?? product.sku,
    image,
    name: product.name,
    href: productPath(product),
    price: price.hidden ? null : { regular: price.regular, special: price.special },
    stock: stockLevel(product, variant),
    stockStatus: stockStatus(product, variant),
    color: value(COLOUR),
    size: value(SIZE),
    variantLabel: variantLabel(variant) ?? null,
    variantId: variant?.id ?? line.variantId,
    purchasable: isPurchasable(product, variant) && !product.isPriceHidden,
  };
}

/** The two labels of a wishlist heart, written into its markup (WishlistHeart.astro). */
export interface HeartLabels {
  /** "Mettre {name} en favori" (`wishlist.heart`). */
  add: string;
  /** "Retirer {name} des favoris" (`wishlist.removeItem`). */
  remove: string;
}

/**
 * What a heart says for its state: `aria-pressed` and the label of what a press
 * does, so a pressed heart reads "Retirer … des favoris", not "Mettre … en favori". A heart
 * whose markup lost a label keeps the one it has (`current`).
 */
export function heartView(
  inWishlist: boolean,
  labels: Partial<HeartLabels>,
  current: string,
): { pressed: 'true' | 'false'; label: string } {
  const label = inWishlist ? labels.remove : labels.add;
  return {
    pressed: inWishlist ? 'true' : 'false',
    label: label !== undefined && label.trim() !== '' ? label : current,
  };
}
