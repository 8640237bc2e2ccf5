/**
 * /v3/wishlists (wishlists.v3.yml): list (by `customer_id`, paged), create (name and
 * customer_id required, items optional), read, update, delete a wishlist; add items, delete an
 * item. Replies `{ data, meta }` (wishlist_Full: id, customer_id, name, is_public, token,
 * items [{ id, product_id, variant_id }]); 422 with per-field errors for bad input, 404 for an
 * unknown wishlist or item, 204 for a deleted wishlist. Unknown customers and products or
 * variants that do not belong to the product are refused (422), as upstream does. Adding a
 * product and variant already in the wishlist keeps the one item (BigCommerce merges them).
 */
import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import {
  collection,
  InvalidBody,
  noContent,
  pagination,
  paging,
  single,
  v3Error,
  type Reply,
} from '../http.ts';
import { assertValid, bool, int, isObject, objectBody, str, type Errors } from '../validate.ts';
import type { RouteContext } from './context.ts';

interface ItemRecord {
  id: number;
  product_id: number;
  variant_id: number;
}

interface WishlistRecord {
  id: number;
  customer_id: number;
  name: string;
  is_public: boolean;
  token: string;
  items: ItemRecord[];
}

/** The table, created when missing (a reset drops every table; see brevo-contacts.ts). */
function db(ctx: RouteContext): DatabaseSync {
  ctx.db.exec(`
CREATE TABLE IF NOT EXISTS wishlists (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  customer_id INTEGER NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS wishlists_customer ON wishlists (customer_id);
CREATE TABLE IF NOT EXISTS wishlist_item_ids (id INTEGER PRIMARY KEY AUTOINCREMENT);`);
  return ctx.db;
}

const notFound = () => v3Error(404, 'Wishlist not found');

function load(ctx: RouteContext, id: number): WishlistRecord | null {
  const row = db(ctx).prepare('SELECT doc FROM wishlists WHERE id = ?').get(id) as
    { doc: string } | undefined;
  return row ? (JSON.parse(row.doc) as WishlistRecord) : null;
}

function save(ctx: RouteContext, wishlist: WishlistRecord): void {
  db(ctx)
    .prepare('UPDATE wishlists SET customer_id = ?, doc = ? WHERE id = ?')
    .run(wishlist.customer_id, JSON.stringify(wishlist), wishlist.id);
}

function nextItemId(ctx: RouteContext): number {
  const result = db(ctx).prepare('INSERT INTO wishlist_item_ids DEFAULT VALUES').run();
  return Number(result.lastInsertRowid);
}

/** Items of a body (`items`), each product existing and its variant belonging to it. */
function readItems(ctx: RouteContext, value: unknown, errors: Errors): ItemRecord[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    errors.items = 'items must be an array';
    return [];
  }
  const items: ItemRecord[] = [];
  for (const [index, entry] of (value as unknown[]).entries()) {
    const path = `items.${String(index)}`;
    if (!isObject(entry)) {
      errors[path] = 'item must be an object';
      continue;
    }
    const productId = int(entry, 'product_id', errors, path, { required: true, min: 1 });
    const variantId = int(entry, 'variant_id', errors, path, { min: 1 });
    if (productId === undefined) continue;
    const row = ctx.db.prepare('SELECT variants FROM products WHERE id = ?').get(productId) as
      { variants: string } | undefined;
    if (!row) {
      errors[`${path}.product_id`] = `Product ${String(productId)} does not exist.`;
      continue;
    }
    const variants = JSON.parse(row.variants) as { id: number }[];
    const variant = variantId ?? variants[0]?.id ?? 0;
    if (!variants.some((v) => v.id === variant)) {
      errors[`${path}.variant_id`] =
        `Variant ${String(variant)} does not belong to product ${String(productId)}.`;
      continue;
    }
    items.push({ id: 0, product_id: productId, variant_id: variant });
  }
  return items;
}

/** Adds `items` to the wishlist's, a product and variant already there once. */
function merge(ctx: RouteContext, current: ItemRecord[], items: ItemRecord[]): ItemRecord[] {
  const merged = [...current];
  for (const item of items) {
    const known = merged.some(
      (m) => m.product_id === item.product_id && m.variant_id === item.variant_id,
    );
    if (!known) merged.push({ ...item, id: nextItemId(ctx) });
  }
  return merged;
}

function customerExists(ctx: RouteContext, id: number): boolean {
  return ctx.db.prepare('SELECT 1 FROM customers WHERE id = ?').get(id) !== undefined;
}

/** GET /v3/wishlists?customer_id=&page=&limit= */
export function listWishlists(ctx: RouteContext): Reply {
  const paged = paging(ctx.query);
  const customerId = ctx.query.int('customer_id');
  const rows = (customerId === undefined
    ? db(ctx).prepare('SELECT doc FROM wishlists ORDER BY id').all()
    : db(ctx)
        .prepare('SELECT doc FROM wishlists WHERE customer_id = ? ORDER BY id')
        .all(customerId)) as unknown as { doc: string }[];
  const items = rows.slice(paged.offset, paged.offset + paged.limit).map((row) => row.doc);
  return collection(items, { pagination: pagination(ctx.query, paged, rows.length, items.length) });
}

/** POST /v3/wishlists: name and customer_id required (wishlist_Post); 201. */
export function createWishlist(ctx: RouteContext): Reply {
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const customerId = int(body, 'customer_id', errors, '', { required: true, min: 1 });
  const name = str(body, 'name', errors, '', { required: true, min: 1, max: 255 });
  const isPublic = bool(body, 'is_public', errors) ?? false;
  const items = readItems(ctx, body.items, errors);
  if (
    customerId !== undefined &&
    errors.customer_id === undefined &&
    !customerExists(ctx, customerId)
  ) {
    errors.customer_id = `Customer ${String(customerId)} does not exist.`;
  }
  assertValid(errors);
  const result = db(ctx)
    .prepare('INSERT INTO wishlists (customer_id, doc) VALUES (?, ?)')
    .run(customerId ?? 0, '{}');
  const wishlist: WishlistRecord = {
    id: Number(result.lastInsertRowid),
    customer_id: customerId ?? 0,
    name: name ?? '',
    is_public: isPublic,
    token: randomUUID(),
    items: merge(ctx, [], items),
  };
  save(ctx, wishlist);
  return single(201, wishlist);
}

/** GET /v3/wishlists/{id} */
export function getWishlist(ctx: RouteContext): Reply {
  const wishlist = load(ctx, Number(ctx.params.id));
  return wishlist ? single(200, wishlist) : notFound();
}

/** PUT /v3/wishlists/{id}: customer_id required (wishlist_Put); items given replace the list. */
export function updateWishlist(ctx: RouteContext): Reply {
  const wishlist = load(ctx, Number(ctx.params.id));
  if (!wishlist) return notFound();
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const customerId = int(body, 'customer_id', errors, '', { required: true, min: 1 });
  const name = str(body, 'name', errors, '', { min: 1, max: 255 });
  const isPublic = bool(body, 'is_public', errors);
  const items = body.items === undefined ? undefined : readItems(ctx, body.items, errors);
  if (
    customerId !== undefined &&
    errors.customer_id === undefined &&
    !customerExists(ctx, customerId)
  ) {
    errors.customer_id = `Customer ${String(customerId)} does not exist.`;
  }
  assertValid(errors);
  const updated: WishlistRecord = {
    ...wishlist,
    customer_id: customerId ?? wishlist.customer_id,
    name: name ?? wishlist.name,
    is_public: isPublic ?? wishlist.is_public,
    items: items === undefined ? wishlist.items : merge(ctx, [], items),
  };
  save(ctx, updated);
  return single(201, updated);
}

/** DELETE /v3/wishlists/{id}: 204. */
export function deleteWishlist(ctx: RouteContext): Reply {
  const result = db(ctx).prepare('DELETE FROM wishlists WHERE id = ?').run(Number(ctx.params.id));
  return result.changes === 0 ? notFound() : noContent();
}

/** POST /v3/wishlists/{id}/items `{ items }`: 201 with the wishlist. */
export function addItems(ctx: RouteContext): Reply {
  const wishlist = load(ctx, Number(ctx.params.id));
  if (!wishlist) return notFound();
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  if (!Array.isArray(body.items) || body.items.length === 0) {
    throw new InvalidBody('Missing or invalid data', { items: 'items must be a non-empty array' });
  }
  const items = readItems(ctx, body.items, errors);
  assertValid(errors);
  const updated = { ...wishlist, items: merge(ctx, wishlist.items, items) };
  save(ctx, updated);
  return single(201, updated);
}

/** DELETE /v3/wishlists/{id}/items/{itemId}: 200 with the wishlist, 404 for an unknown item. */
export function deleteItem(ctx: RouteContext): Reply {
  const wishlist = load(ctx, Number(ctx.params.id));
  if (!wishlist) return notFound();
  const itemId = Number(ctx.params.itemId);
  if (!wishlist.items.some((item) => item.id === itemId)) return v3Error(404, 'Item not found');
  const updated = { ...wishlist, items: wishlist.items.filter((item) => item.id !== itemId) };
  save(ctx, updated);
  return single(200, updated);
}
