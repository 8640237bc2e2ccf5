/**
 * Carts v3 (carts.v3.yml): create, get, update customer, delete; line items add, update,
 * delete (the last one deletes the cart: 204); redirect URLs to the sandbox's hosted checkout.
 * Beside them: the cart as stored and answered (cart-records.ts), its line items parsed and
 * resolved (cart-lines.ts), cart metafields (cart-metafields.ts) and GET /v3/checkouts/{id}
 * with its billing address (checkouts.ts).
 *
 * Carts are stored as the request state (items with product, variant, quantity); prices, names
 * and pictures are read from the catalogue at each reply, as upstream recomputes them.
 * Every write reads the cart, waits `cartWriteLatencyMs`, then writes it back: concurrent
 * writes to one cart lose updates, as upstream's do (its checkout SDK queues cart actions).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { InvalidBody, noContent, single, v3Error, type Reply } from '../http.ts';
import { assertValid, int, isObject, objectBody, str, type Errors } from '../validate.ts';
import type { RouteContext } from './context.ts';
import {
  type CartItemRecord,
  sameModifiers,
  type CartRecord,
  timestamp,
  readCart,
  writeCart,
  removeCart,
  writeWindow,
  cartNotFound,
  redirectUrls,
  Products,
  reply,
} from './cart-records.ts';
import { parseLine, parseLines, resolveLine, checkQuantities, addLines } from './cart-lines.ts';

function customerExists(db: DatabaseSync, id: number): boolean {
  return db.prepare('SELECT 1 FROM customers WHERE id = ?').get(id) !== undefined;
}

function customerEmail(db: DatabaseSync, id: number): string {
  const row = db.prepare('SELECT email FROM customers WHERE id = ?').get(id) as
    { email: string } | undefined;
  return row?.email ?? '';
}

/** POST /v3/carts: 201; at least one line item (upstream creates no empty cart). */
export function createCart(ctx: RouteContext): Reply {
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const customerId = int(body, 'customer_id', errors, '', { min: 0 }) ?? 0;
  const channelId = int(body, 'channel_id', errors, '', { min: 1 }) ?? 1;
  const locale = str(body, 'locale', errors) ?? 'fr';
  let currency = 'EUR';
  if (body.currency !== undefined) {
    if (!isObject(body.currency)) errors.currency = 'currency must be an object';
    else currency = str(body.currency, 'code', errors, 'currency') ?? 'EUR';
  }
  const lines = parseLines(body, errors);
  assertValid(errors);
  if (currency.toUpperCase() !== 'EUR') {
    throw new InvalidBody(`The currency ${currency} is not enabled on channel ${channelId}.`, {
      'currency.code': 'currency not enabled',
    });
  }
  if (channelId !== 1)
    throw new InvalidBody(`Channel ${channelId} does not exist.`, { channel_id: 'not found' });
  if (customerId !== 0 && !customerExists(ctx.db, customerId)) {
    throw new InvalidBody(`Customer ${customerId} does not exist.`, { customer_id: 'not found' });
  }
  const items = addLines(new Products(ctx.db), [], lines);
  const now = timestamp();
  const cart: CartRecord = {
    id: randomUUID(),
    customer_id: customerId,
    channel_id: channelId,
    currency: 'EUR',
    locale,
    email: customerId ? customerEmail(ctx.db, customerId) : '',
    created_time: now,
    updated_time: now,
    token: randomBytes(24).toString('base64url'),
    items,
  };
  writeCart(ctx.db, cart);
  return reply(ctx, 201, cart);
}

export function getCart(ctx: RouteContext): Reply {
  const cart = readCart(ctx.db, ctx.params.cartId ?? '');
  return cart ? reply(ctx, 200, cart) : cartNotFound();
}

/** PUT /v3/carts/{id} `{ customer_id }` (201 as carts.v3.yml documents). */
export async function updateCart(ctx: RouteContext): Promise<Reply> {
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const customerId = int(body, 'customer_id', errors, '', { required: true, min: 0 });
  assertValid(errors);
  if (customerId === undefined) return cartNotFound();
  const id = ctx.params.cartId ?? '';
  if (!readCart(ctx.db, id)) return cartNotFound();
  if (customerId !== 0 && !customerExists(ctx.db, customerId)) {
    throw new InvalidBody(`Customer ${customerId} does not exist.`, { customer_id: 'not found' });
  }
  const cart = readCart(ctx.db, id);
  await writeWindow(ctx);
  if (!cart) return cartNotFound();
  cart.customer_id = customerId;
  cart.email = customerId ? customerEmail(ctx.db, customerId) : '';
  writeCart(ctx.db, cart);
  return reply(ctx, 201, cart);
}

export function deleteCart(ctx: RouteContext): Reply {
  const id = ctx.params.cartId ?? '';
  if (!readCart(ctx.db, id)) return cartNotFound();
  removeCart(ctx.db, id);
  return noContent();
}

/** POST /v3/carts/{id}/items: 201. */
export async function addItems(ctx: RouteContext): Promise<Reply> {
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const lines = parseLines(body, errors);
  assertValid(errors);
  const cart = readCart(ctx.db, ctx.params.cartId ?? '');
  if (!cart) return cartNotFound();
  await writeWindow(ctx);
  cart.items = addLines(new Products(ctx.db), cart.items, lines);
  writeCart(ctx.db, cart);
  return reply(ctx, 201, cart);
}

/** PUT /v3/carts/{id}/items/{itemId} `{ line_item: { quantity, product_id, variant_id?, option_selections? } }`. */
export async function updateItem(ctx: RouteContext): Promise<Reply> {
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const line = parseLine(body.line_item, 'line_item', errors);
  assertValid(errors);
  const cart = readCart(ctx.db, ctx.params.cartId ?? '');
  if (!cart) return cartNotFound();
  const index = cart.items.findIndex((item) => item.id === ctx.params.itemId);
  const current = cart.items[index];
  if (!current || !line) return v3Error(404, 'Line item not found');
  await writeWindow(ctx);
  const products = new Products(ctx.db);
  const resolved = resolveLine(products, line, 'line_item');
  const { product, variant } = resolved;
  // A line keeps its modifier choices unless the update names them.
  const modifiers = resolved.modifiers ?? current.modifiers ?? [];
  if (product.base.id !== current.product_id) {
    throw new InvalidBody(
      'The product of a line item cannot be changed: remove it and add the other product.',
      {
        'line_item.product_id': 'does not match the line item',
      },
    );
  }
  const updated: CartItemRecord = {
    ...current,
    variant_id: variant.id,
    quantity: line.quantity,
    option_selections: variant.option_values.map((v) => ({
      option_id: v.option_id,
      option_value: v.id,
    })),
    ...(line.list_price !== undefined ? { list_price: line.list_price } : {}),
  };
  if (modifiers.length > 0) updated.modifiers = modifiers;
  else delete updated.modifiers;
  const items = cart.items.map((item, i) => (i === index ? updated : item));
  // A variant change onto a variant already in the cart merges the two lines.
  const twin = items.findIndex(
    (item, i) =>
      i !== index &&
      item.product_id === updated.product_id &&
      item.variant_id === updated.variant_id &&
      sameModifiers(item.modifiers, updated.modifiers),
  );
  if (twin >= 0) {
    const other = items[twin];
    if (other) updated.quantity += other.quantity;
    items.splice(twin, 1);
  }
  checkQuantities(products, items);
  cart.items = items;
  writeCart(ctx.db, cart);
  return reply(ctx, 200, cart);
}

/** DELETE /v3/carts/{id}/items/{itemId}: the cart; 204 with no body when it was the last item (the cart is deleted). */
export async function deleteItem(ctx: RouteContext): Promise<Reply> {
  const cart = readCart(ctx.db, ctx.params.cartId ?? '');
  if (!cart) return cartNotFound();
  if (!cart.items.some((item) => item.id === ctx.params.itemId)) {
    return v3Error(404, 'Line item not found');
  }
  await writeWindow(ctx);
  cart.items = cart.items.filter((item) => item.id !== ctx.params.itemId);
  if (cart.items.length === 0) {
    removeCart(ctx.db, cart.id);
    return noContent();
  }
  writeCart(ctx.db, cart);
  return reply(ctx, 200, cart);
}

/** POST /v3/carts/{id}/redirect_urls: 201 `{ data: { cart_url, checkout_url, embedded_checkout_url } }`. */
export function createRedirectUrls(ctx: RouteContext): Reply {
  const cart = readCart(ctx.db, ctx.params.cartId ?? '');
  if (!cart) return cartNotFound();
  return single(201, redirectUrls(cart, ctx.origin));
}
