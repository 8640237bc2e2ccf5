/**
 * What the pages write of their analytics items as JSON, and its reading back in the browser:
 * `listedItem` (an item of a list of cards as the page writes it), `parsePageList` and
 * `pageListItem` (a list, an item's list name and place), `parsePageItem` (the product page's
 * item), `parseJson`; and the product page's item as the shopper chose (`chosenVariantItem`),
 * with `toEuros`, the one rule of cents to euros. Everything read is checked: null for anything else (a page edited by
 * hand, an extension), so its events are not sent rather than wrong. Apart from the event
 * builders (`datalayer.ts`), which only the analytics store needs, fetched later
 * (`src/lib/stores/track.ts`): the page scripts that read these stay small.
 */
import { effectivePrice, type DisplayPrice } from '../commerce/price.ts';
import { variantLabel } from '../commerce/item-options.ts';
import type { Cents } from '../commerce/types.ts';
import { readJson } from '../script-json.ts';
/** A GA4 ecommerce item. */
export interface AnalyticsItem {
  /** The product's id (the shop's `/p/{id}/…`), the same on every event and in the cart. */
  item_id: string;
  item_name: string;
  item_brand?: string;
  /** The product's main category name (its most specific category the shop shows). */
  item_category?: string;
  /** The variant's option values ("160x200", "160x200 / Gris"), never a SKU. */
  item_variant?: string;
  item_list_name?: string;
  index?: number;
  /** Unit price paid, in euros. */
  price: number;
  quantity: number;
}

/** Integer cents to euros with at most 2 decimals (12990 → 129.9). */
export function toEuros(cents: Cents): number {
  return Math.round(cents) / 100;
}

/**
 * The product page's item (`productItem` of the default variant) as the shopper chose: the
 * chosen variant's label and the price the page shows for it (`displayPrice`: its special
 * price when lower, a hidden price 0).
 */
export function chosenVariantItem(
  item: AnalyticsItem,
  variant: Parameters<typeof variantLabel>[0],
  price: DisplayPrice,
): AnalyticsItem {
  const chosen: AnalyticsItem = { ...item, price: toEuros(effectivePrice(price)) };
  const label = variantLabel(variant);
  if (label === undefined) delete chosen.item_variant;
  else chosen.item_variant = label;
  return chosen;
}

/**
 * An item of a list of cards as the page writes it (AnalyticsList.astro): `productItem`'s
 * fields but those the list gives (its name, each item's place) and the quantity (one).
 */
export type ListedItem = Omit<AnalyticsItem, 'quantity' | 'item_list_name' | 'index'>;

/** What the page writes of an item of a list. */
export function listedItem(item: AnalyticsItem): ListedItem {
  const listed: ListedItem = {
    item_id: item.item_id,
    item_name: item.item_name,
    price: item.price,
  };
  if (item.item_brand !== undefined) listed.item_brand = item.item_brand;
  if (item.item_category !== undefined) listed.item_category = item.item_category;
  if (item.item_variant !== undefined) listed.item_variant = item.item_variant;
  return listed;
}

/** The items of a list read back from the page: one of each, placed from `offset`. */
export function listItems(listed: readonly ListedItem[], offset: number): AnalyticsItem[] {
  return listed.map((item, index) => ({ ...item, quantity: 1, index: offset + index }));
}

/** A list of cards as the page writes it (`analyticsListHtml`): its name, first place, items. */
export interface PageList {
  name: string;
  offset: number;
  items: ListedItem[];
}

const isShortText = (value: unknown): value is string =>
  typeof value === 'string' && value !== '' && value.length <= 500;

/** An item's fields but its quantity and list place, checked; null for anything else. */
function readListed(entry: unknown): ListedItem | null {
  if (typeof entry !== 'object' || entry === null) return null;
  const fields = entry as Record<string, unknown>;
  const price = fields.price;
  if (!isShortText(fields.item_id) || !isShortText(fields.item_name)) return null;
  if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) return null;
  const item: ListedItem = { item_id: fields.item_id, item_name: fields.item_name, price };
  for (const key of ['item_brand', 'item_category', 'item_variant'] as const) {
    const field = fields[key];
    if (field === undefined) continue;
    if (!isShortText(field)) return null;
    item[key] = field;
  }
  return item;
}

/** JSON the page wrote, parsed; undefined when it is not JSON or too long to be the page's. */
export const parseJson = (raw: string | null | undefined): unknown => readJson(raw, 200_000);

/**
 * The product page's item read back from its JSON (ProductView.astro, for view_item); null
 * when it is not an item's shape.
 */
export function parsePageItem(raw: string | null | undefined): AnalyticsItem | null {
  const value = parseJson(raw);
  const listed = readListed(value);
  const quantity = (value as { quantity?: unknown } | undefined)?.quantity;
  if (listed === null || !Number.isSafeInteger(quantity) || (quantity as number) < 1) return null;
  return { ...listed, quantity: quantity as number };
}

/**
 * A list read back from its JSON in the page; null when it is not the shape the page writes
 * (a page edited by hand, an extension): its events are then not sent rather than wrong.
 */
export function parsePageList(raw: string | null | undefined): PageList | null {
  const value = parseJson(raw);
  if (typeof value !== 'object' || value === null) return null;
  const { name, offset, items } = value as Record<string, unknown>;
  if (!isShortText(name) || !Number.isSafeInteger(offset) || (offset as number) < 0) return null;
  if (!Array.isArray(items)) return null;
  const listed: ListedItem[] = [];
  for (const entry of items as unknown[]) {
    const item = readListed(entry);
    if (item === null) return null;
    listed.push(item);
  }
  return { name, offset: offset as number, items: listed };
}

/**
 * The item of product `productId` in a list, as select_item and a card's add_to_cart send it:
 * with the list's name and its place; null when the list does not show it.
 */
export function pageListItem(list: PageList, productId: number | string): AnalyticsItem | null {
  const id = String(productId);
  const index = list.items.findIndex((item) => item.item_id === id);
  const found = list.items[index];
  if (found === undefined) return null;
  return { ...found, quantity: 1, item_list_name: list.name, index: list.offset + index };
}
