/**
 * Carts v3 (carts.v3.yml): create, get, update customer, delete; line items add, update,
 * delete (the last one deletes the cart: 204); redirect URLs to the sandbox's hosted checkout;
 * cart metafields; and GET /v3/checkouts/{id} with its billing address, added (POST) or
 * replaced (PUT) (checkouts.v3.yml; checkout id = cart id).
 *
 * Carts are stored as the request state (items with product, variant, quantity); prices, names
 * and pictures are read from the catalogue at each reply, as upstream recomputes them.
 * Every write reads the cart, waits `cartWriteLatencyMs`, then writes it back: concurrent
 * writes to one cart lose updates, as upstream's do (its checkout SDK queues cart actions).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import {
  collection,
  InvalidBody,
  json,
  noContent,
  pagination,
  paging,
  single,
  v3Error,
  type Reply,
} from '../http.ts';
import {
  exTax,
  loadProduct,
  productImage,
  round2,
  variantPrices,
  type ProductFacts,
} from '../model.ts';
import type { ModifierRecord, VariantRecord } from '../seed/types.ts';
import {
  assertValid,
  EMAIL,
  int,
  isObject,
  num,
  objectBody,
  str,
  type Errors,
  type Obj,
} from '../validate.ts';
import type { RouteContext } from './context.ts';

export interface CartItemRecord {
  id: string;
  product_id: number;
  variant_id: number;
  quantity: number;
  option_selections: { option_id: number; option_value: number }[];
  /** The chosen values of the product's modifiers (checkbox: its 'Yes' or 'No' value). */
  modifiers?: ModifierSelection[];
  /** Price override of the request (`list_price`), if any. */
  list_price?: number;
}

/** A modifier's chosen value on a line. */
export interface ModifierSelection {
  option_id: number;
  value_id: number;
}

function sameModifiers(a: ModifierSelection[] | undefined, b: ModifierSelection[] | undefined) {
  const key = (list: ModifierSelection[] | undefined) =>
    (list ?? []).map((m) => `${m.option_id}:${m.value_id}`).join(',');
  return key(a) === key(b);
}

/** The options of a line as a cart names them: the variant's, then the modifiers'. */
export function lineOptions(
  product: ProductFacts,
  variant: VariantRecord,
  modifiers: ModifierSelection[] | undefined,
): { name: string; nameId: number; value: string; valueId: number }[] {
  const chosen = (modifiers ?? []).flatMap((selection) => {
    const modifier = product.modifiers.find((m) => m.id === selection.option_id);
    const value = modifier?.option_values.find((v) => v.id === selection.value_id);
    return modifier && value ? [{ modifier, value }] : [];
  });
  return [
    ...variant.option_values.map((value) => ({
      name: value.option_display_name,
      nameId: value.option_id,
      value: value.label,
      valueId: value.id,
    })),
    ...chosen.map(({ modifier, value }) => ({
      name: modifier.display_name,
      nameId: modifier.id,
      value: value.label,
      valueId: value.id,
    })),
  ];
}

export interface CartRecord {
  id: string;
  customer_id: number;
  channel_id: number;
  currency: string;
  locale: string;
  email: string;
  created_time: string;
  updated_time: string;
  /** Secret of the redirect URLs (hosted checkout). */
  token: string;
  items: CartItemRecord[];
  /** The checkout's billing address, once added (the hosted checkout prefills its e-mail). */
  billing_address?: BillingAddressRecord;
}

/** A checkout's billing address (checkouts.v3.yml Address): id, e-mail, country and the rest. */
export interface BillingAddressRecord {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  company: string;
  address1: string;
  address2: string;
  city: string;
  state_or_province: string;
  state_or_province_code: string;
  country_code: string;
  postal_code: string;
  phone: string;
}

/** Carts are valid for 30 days from their last modification (carts.v3.yml). */
export const CART_LIFETIME_MS = 30 * 24 * 3600 * 1000;

const INCLUDES = [
  'redirect_urls',
  'line_items.physical_items.options',
  'line_items.digital_items.options',
] as const;

export function timestamp(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

export function readCart(db: DatabaseSync, id: string): CartRecord | undefined {
  const row = db.prepare('SELECT doc FROM carts WHERE id = ?').get(id) as
    { doc: string } | undefined;
  if (!row) return undefined;
  const cart = JSON.parse(row.doc) as CartRecord;
  if (Date.parse(cart.updated_time) + CART_LIFETIME_MS < Date.now()) {
    removeCart(db, id);
    return undefined;
  }
  return cart;
}

function writeCart(db: DatabaseSync, cart: CartRecord): void {
  cart.updated_time = timestamp();
  db.prepare(
    'INSERT INTO carts (id, customer_id, updated_time, doc) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET customer_id = excluded.customer_id, updated_time = excluded.updated_time, doc = excluded.doc',
  ).run(cart.id, cart.customer_id, cart.updated_time, JSON.stringify(cart));
}

export function removeCart(db: DatabaseSync, id: string): void {
  db.prepare('DELETE FROM carts WHERE id = ?').run(id);
  db.prepare('DELETE FROM cart_metafields WHERE cart_id = ?').run(id);
}

/** The read-then-write window of a cart write. */
async function writeWindow(ctx: RouteContext): Promise<void> {
  const ms = ctx.config.cartWriteLatencyMs;
  if (ms > 0) await new Promise((ok) => setTimeout(ok, ms));
}

function cartNotFound(): Reply {
  return v3Error(404, 'Cart not found');
}

function siteUrl(db: DatabaseSync): string {
  const row = db.prepare("SELECT doc FROM documents WHERE name = 'site:1'").get() as
    { doc: string } | undefined;
  return row ? (JSON.parse(row.doc) as { url: string }).url.replace(/\/$/, '') : '';
}

/** Picture paths of the seed are relative to the sandbox. */
function absolute(path: string, origin: string): string {
  return path.startsWith('/') ? `${origin}${path}` : path;
}

export function redirectUrls(cart: CartRecord, origin: string): Record<string, string> {
  const query = `id=${cart.id}&token=${cart.token}`;
  return {
    cart_url: `${origin}/cart.php?action=load&${query}`,
    checkout_url: `${origin}/cart.php?action=load&${query}`,
    embedded_checkout_url: `${origin}/cart.php?action=load&embedded=1&${query}`,
  };
}

/** Products of a cart, loaded once per reply. */
class Products {
  readonly db: DatabaseSync;
  readonly cache = new Map<number, ProductFacts | undefined>();
  constructor(db: DatabaseSync) {
    this.db = db;
  }
  get(id: number): ProductFacts | undefined {
    if (!this.cache.has(id)) this.cache.set(id, loadProduct(this.db, id));
    return this.cache.get(id);
  }
}

export interface PricedLine {
  item: CartItemRecord;
  product: ProductFacts;
  variant: VariantRecord;
  list: number;
  sale: number;
}

export function pricedLines(db: DatabaseSync, cart: CartRecord): PricedLine[] {
  const products = new Products(db);
  const out: PricedLine[] = [];
  for (const item of cart.items) {
    const product = products.get(item.product_id);
    const variant = product?.variants.find((v) => v.id === item.variant_id);
    if (!product || !variant) continue;
    const prices = variantPrices(product, variant);
    const list = item.list_price ?? prices.list;
    const sale = item.list_price ?? prices.sale;
    out.push({ item, product, variant, list, sale });
  }
  return out;
}

/** The cart as BigCommerce returns it (Cart_Full), amounts in decimal euros. */
export function cartJson(
  db: DatabaseSync,
  cart: CartRecord,
  include: readonly string[],
  origin: string,
): Record<string, unknown> {
  const site = siteUrl(db);
  const withOptions = include.includes('line_items.physical_items.options');
  const lines = pricedLines(db, cart);
  const physical = lines.map(({ item, product, variant, list, sale }) => ({
    id: item.id,
    parent_id: null,
    variant_id: variant.id,
    product_id: product.base.id,
    sku: variant.sku,
    name: product.base.name,
    url: `${site}${product.base.custom_url.url}`,
    quantity: item.quantity,
    is_taxable: true,
    image_url: absolute(productImage(product, variant), origin),
    discounts: [],
    coupons: [],
    discount_amount: 0,
    coupon_amount: 0,
    original_price: list,
    list_price: list,
    sale_price: sale,
    extended_list_price: round2(list * item.quantity),
    extended_sale_price: round2(sale * item.quantity),
    is_require_shipping: true,
    is_mutable: true,
    ...(withOptions ? { options: lineOptions(product, variant, item.modifiers) } : {}),
  }));
  const base = round2(physical.reduce((sum, l) => sum + l.extended_list_price, 0));
  const amount = round2(physical.reduce((sum, l) => sum + l.extended_sale_price, 0));
  return {
    id: cart.id,
    customer_id: cart.customer_id,
    channel_id: cart.channel_id,
    email: cart.email,
    currency: { code: cart.currency },
    tax_included: true,
    base_amount: base,
    discount_amount: 0,
    cart_amount: amount,
    coupons: [],
    discounts: [],
    line_items: {
      physical_items: physical,
      digital_items: [],
      gift_certificates: [],
      custom_items: [],
    },
    created_time: cart.created_time,
    updated_time: cart.updated_time,
    locale: cart.locale,
    ...(include.includes('redirect_urls') ? { redirect_urls: redirectUrls(cart, origin) } : {}),
  };
}

function includes(ctx: RouteContext): string[] {
  const list = ctx.query.list('include') ?? [];
  const errors: Errors = {};
  for (const value of list) {
    if (!(INCLUDES as readonly string[]).includes(value)) {
      errors.include = `include must be one of ${INCLUDES.join(', ')}`;
    }
  }
  assertValid(errors, 'The filter(s): include are invalid.');
  return list;
}

function reply(ctx: RouteContext, status: number, cart: CartRecord): Reply {
  return single(status, cartJson(ctx.db, cart, includes(ctx), ctx.origin));
}

interface LineInput {
  product_id: number;
  variant_id: number | undefined;
  quantity: number;
  /** A value id, or a value's text ('Yes' / 'No' of a checkbox, carts.v3.yml's example). */
  option_selections: { option_id: number; option_value: number | string }[] | undefined;
  list_price: number | undefined;
}

function parseLine(
  raw: unknown,
  path: string,
  errors: Errors,
  minQuantity = 1,
): LineInput | undefined {
  if (!isObject(raw)) {
    errors[path] = 'must be an object';
    return undefined;
  }
  const productId = int(raw, 'product_id', errors, path, { required: true });
  const variantId = int(raw, 'variant_id', errors, path);
  const quantity = int(raw, 'quantity', errors, path, { required: true, min: minQuantity });
  const listPrice = num(raw, 'list_price', errors, path, { min: 0 });
  let selections: LineInput['option_selections'];
  if (raw.option_selections !== undefined && raw.option_selections !== null) {
    if (!Array.isArray(raw.option_selections)) {
      errors[`${path}.option_selections`] = 'option_selections must be an array';
    } else {
      selections = [];
      raw.option_selections.forEach((s: unknown, i) => {
        const at = `${path}.option_selections.${i}`;
        if (!isObject(s)) {
          errors[at] = 'must be an object';
          return;
        }
        const optionId = int(s, 'option_id', errors, at, { required: true });
        const raw = s.option_value;
        const value =
          typeof raw === 'string' && !/^\s*-?\d+\s*$/.test(raw)
            ? str(s, 'option_value', errors, at, { min: 1, max: 255 })
            : int(s, 'option_value', errors, at, { required: true });
        if (optionId !== undefined && value !== undefined) {
          selections?.push({ option_id: optionId, option_value: value });
        }
      });
    }
  }
  if (productId === undefined || quantity === undefined) return undefined;
  return {
    product_id: productId,
    variant_id: variantId,
    quantity,
    option_selections: selections,
    list_price: listPrice,
  };
}

function parseLines(body: Obj, errors: Errors): LineInput[] {
  const raw = body.line_items;
  if (!Array.isArray(raw) || raw.length === 0) {
    errors.line_items = 'line_items is required and must hold at least one item';
    return [];
  }
  const lines: LineInput[] = [];
  raw.forEach((item: unknown, index) => {
    const line = parseLine(item, `line_items.${index}`, errors);
    if (line) lines.push(line);
  });
  return lines;
}

/** Finds the product and variant of a line; throws 422 like upstream when they do not fit. */
function resolveLine(
  products: Products,
  line: LineInput,
  path: string,
): { product: ProductFacts; variant: VariantRecord; modifiers: ModifierSelection[] | null } {
  const product = products.get(line.product_id);
  if (!product) {
    throw new InvalidBody(`Product ${line.product_id} does not exist.`, {
      [`${path}.product_id`]: 'product not found',
    });
  }
  const name = product.base.name;
  let variant: VariantRecord | undefined;
  if (line.variant_id !== undefined) {
    variant = product.variants.find((v) => v.id === line.variant_id);
    if (!variant) {
      throw new InvalidBody(
        `Variant ${line.variant_id} does not belong to product ${product.base.id}.`,
        {
          [`${path}.variant_id`]: 'variant not found on this product',
        },
      );
    }
  }
  // Modifier selections are read apart: they choose no variant.
  const modifierSelections = (line.option_selections ?? []).filter((selection) =>
    product.modifiers.some((m) => m.id === selection.option_id),
  );
  const modifiers = modifierSelections.length > 0 ? resolveModifiers(product, line, path) : null;
  const variantSelections = (line.option_selections ?? []).filter(
    (selection) => !modifierSelections.includes(selection),
  );
  if (variantSelections.length > 0) {
    for (const [i, selection] of variantSelections.entries()) {
      const option = product.options.find((o) => o.id === selection.option_id);
      if (!option) {
        throw new InvalidBody(
          `Option ${selection.option_id} does not belong to product ${product.base.id}.`,
          {
            [`${path}.option_selections.${i}.option_id`]: 'option not found on this product',
          },
        );
      }
      if (!option.option_values.some((v) => v.id === selection.option_value)) {
        throw new InvalidBody(
          `Option value ${String(selection.option_value)} is not a value of option ${option.display_name}.`,
          {
            [`${path}.option_selections.${i}.option_value`]: 'value not found on this option',
          },
        );
      }
    }
    const chosen = variantSelections;
    const matching = product.variants.filter((v) =>
      chosen.every((s) =>
        v.option_values.some((ov) => ov.option_id === s.option_id && ov.id === s.option_value),
      ),
    );
    if (variant) {
      if (!matching.includes(variant)) {
        throw new InvalidBody('The option selections do not match the variant.', {
          [`${path}.option_selections`]: 'options do not match variant_id',
        });
      }
    } else if (matching.length === 1) {
      variant = matching[0];
    }
  }
  if (!variant) {
    if (product.variants.length === 1) variant = product.variants[0];
    else {
      throw new InvalidBody(
        `Please choose the options of ${name}: variant_id or option_selections is required.`,
        {
          [`${path}.variant_id`]: 'variant_id is required for a product with options',
        },
      );
    }
  }
  if (!variant) throw new InvalidBody('Variant not found.');
  if (!product.base.is_visible || product.base.availability === 'disabled') {
    throw new InvalidBody(`${name} cannot be purchased.`, {
      [`${path}.product_id`]: 'product not purchasable',
    });
  }
  if (variant.purchasing_disabled) {
    const why = variant.purchasing_disabled_message
      ? `: ${variant.purchasing_disabled_message}`
      : '.';
    throw new InvalidBody(`${name} (${variant.sku}) cannot be purchased${why}`, {
      [`${path}.variant_id`]: 'purchasing disabled',
    });
  }
  return { product, variant, modifiers };
}

/**
 * The modifier values a line chooses (catalog.v3.yml modifiers, carts.v3.yml option_selections):
 * a value id, or for a checkbox its value's text ('Yes' / 'No', any case). A modifier named twice
 * or a value of another modifier is a 422, like upstream.
 */
function resolveModifiers(
  product: ProductFacts,
  line: LineInput,
  path: string,
): ModifierSelection[] {
  const chosen: ModifierSelection[] = [];
  for (const [i, selection] of (line.option_selections ?? []).entries()) {
    const modifier: ModifierRecord | undefined = product.modifiers.find(
      (m) => m.id === selection.option_id,
    );
    if (!modifier) continue;
    const wanted = selection.option_value;
    const value = modifier.option_values.find((v) =>
      typeof wanted === 'number'
        ? v.id === wanted
        : // Only checkboxes are seeded: a value's text is its 'Yes' / 'No' label.
          v.label.toLowerCase() === wanted.trim().toLowerCase(),
    );
    if (!value || chosen.some((c) => c.option_id === modifier.id)) {
      throw new InvalidBody(
        `Option value ${String(wanted)} is not a value of option ${modifier.display_name}.`,
        { [`${path}.option_selections.${i}.option_value`]: 'value not found on this option' },
      );
    }
    chosen.push({ option_id: modifier.id, value_id: value.id });
  }
  return chosen.sort(
    (a, b) =>
      (product.modifiers.find((m) => m.id === a.option_id)?.sort_order ?? 0) -
      (product.modifiers.find((m) => m.id === b.option_id)?.sort_order ?? 0),
  );
}

/** Stock and per-order quantity rules, on the cart as it would be after the write. */
function checkQuantities(products: Products, items: CartItemRecord[]): void {
  const perProduct = new Map<number, number>();
  const perVariant = new Map<number, number>();
  for (const item of items) {
    perProduct.set(item.product_id, (perProduct.get(item.product_id) ?? 0) + item.quantity);
    perVariant.set(item.variant_id, (perVariant.get(item.variant_id) ?? 0) + item.quantity);
  }
  for (const [productId, quantity] of perProduct) {
    const product = products.get(productId);
    if (!product) continue;
    const { base } = product;
    if (base.order_quantity_maximum > 0 && quantity > base.order_quantity_maximum) {
      throw new InvalidBody(
        `You can only purchase a maximum of ${base.order_quantity_maximum} of the ${base.name} per order.`,
      );
    }
    if (base.order_quantity_minimum > 0 && quantity < base.order_quantity_minimum) {
      throw new InvalidBody(
        `You must purchase a minimum of ${base.order_quantity_minimum} of the ${base.name} per order.`,
      );
    }
    if (base.inventory_tracking === 'product' && quantity > base.inventory_level) {
      throw new InvalidBody(stockTitle(base.name, base.sku, base.inventory_level));
    }
    if (base.inventory_tracking === 'variant') {
      for (const variant of product.variants) {
        const wanted = perVariant.get(variant.id) ?? 0;
        if (wanted > variant.inventory_level) {
          throw new InvalidBody(stockTitle(base.name, variant.sku, variant.inventory_level));
        }
      }
    }
  }
}

export function stockTitle(name: string, sku: string, level: number): string {
  return level <= 0
    ? `Not enough stock: ${name} (${sku}) is out of stock and cannot be added to the cart.`
    : `Not enough stock: only ${level} of ${name} (${sku}) can be added to the cart.`;
}

/** Adds lines to the items, merging a repeated product + variant + options into one line. */
function addLines(
  products: Products,
  items: CartItemRecord[],
  lines: LineInput[],
): CartItemRecord[] {
  const out = items.map((item) => ({ ...item }));
  lines.forEach((line, index) => {
    const resolved = resolveLine(products, line, `line_items.${index}`);
    const { product, variant } = resolved;
    const modifiers = resolved.modifiers ?? [];
    const missing = product.modifiers.find(
      (m) => m.required && !modifiers.some((c) => c.option_id === m.id),
    );
    if (missing) {
      throw new InvalidBody(`Please choose ${missing.display_name} for ${product.base.name}.`, {
        [`line_items.${index}.option_selections`]: `${missing.display_name} is required`,
      });
    }
    const selections = variant.option_values.map((v) => ({
      option_id: v.option_id,
      option_value: v.id,
    }));
    const existing = out.find(
      (item) =>
        item.product_id === product.base.id &&
        item.variant_id === variant.id &&
        sameModifiers(item.modifiers, modifiers) &&
        item.list_price === line.list_price,
    );
    if (existing) existing.quantity += line.quantity;
    else {
      out.push({
        id: randomUUID(),
        product_id: product.base.id,
        variant_id: variant.id,
        quantity: line.quantity,
        option_selections: selections,
        ...(modifiers.length > 0 ? { modifiers } : {}),
        ...(line.list_price !== undefined ? { list_price: line.list_price } : {}),
      });
    }
  });
  checkQuantities(products, out);
  return out;
}

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

// Cart metafields: same shape as the catalogue's, resource_type 'cart' and the cart id as resource_id.
// Each belongs to the app (API account) that wrote it, `owner_client_id` (catalog.v3.yml):
// `app_only` is private to that app (another app neither sees nor finds it), `read` is visible to
// other apps, `write` (and `write_and_sf_access`) also writable by them; namespace, key and
// permission_set change only by their owner (403 otherwise); namespace + key are unique per app
// and resource (409).

const PERMISSION_SETS = [
  'app_only',
  'read',
  'write',
  'read_and_sf_access',
  'write_and_sf_access',
] as const;

const WRITABLE_BY_OTHERS: ReadonlySet<unknown> = new Set(['write', 'write_and_sf_access']);

interface MetafieldRow {
  id: number;
  doc: string;
}

type MetafieldDoc = Record<string, unknown>;

const ownerOf = (doc: MetafieldDoc) =>
  typeof doc.owner_client_id === 'string' ? doc.owner_client_id : '';

/** Whether the app sees the metafield: its own, or another app's that is not `app_only`. */
const visibleTo = (doc: MetafieldDoc, app: string) =>
  ownerOf(doc) === app || doc.permission_set !== 'app_only';

function metafieldInput(body: Obj, errors: Errors, partial: boolean): Obj {
  const key = str(body, 'key', errors, '', { required: !partial, min: 1, max: 64 });
  const value = str(body, 'value', errors, '', { required: !partial, min: 1, max: 65535 });
  const namespace = str(body, 'namespace', errors, '', { required: !partial, min: 1, max: 64 });
  const permission = str(body, 'permission_set', errors, '', { required: !partial });
  const description = str(body, 'description', errors, '', { max: 255 });
  if (permission !== undefined && !(PERMISSION_SETS as readonly string[]).includes(permission)) {
    errors.permission_set = `permission_set must be one of ${PERMISSION_SETS.join(', ')}`;
  }
  const out: Obj = {};
  if (key !== undefined) out.key = key;
  if (value !== undefined) out.value = value;
  if (namespace !== undefined) out.namespace = namespace;
  if (permission !== undefined) out.permission_set = permission;
  if (description !== undefined) out.description = description;
  return out;
}

/** The cart's metafield docs in id order (every app's). */
function cartMetafieldDocs(db: DatabaseSync, cartId: string): MetafieldDoc[] {
  const rows = db
    .prepare('SELECT id, doc FROM cart_metafields WHERE cart_id = ? ORDER BY id')
    .all(cartId) as unknown as MetafieldRow[];
  return rows.map((r) => JSON.parse(r.doc) as MetafieldDoc);
}

function duplicateMetafield(
  db: DatabaseSync,
  cartId: string,
  app: string,
  namespace: unknown,
  key: unknown,
  except = 0,
): boolean {
  return cartMetafieldDocs(db, cartId).some(
    (doc) =>
      ownerOf(doc) === app &&
      doc.namespace === namespace &&
      doc.key === key &&
      Number(doc.id) !== except,
  );
}

function duplicateReply(): Reply {
  return json(409, {
    status: 409,
    title: 'A metafield with the same namespace and key already exists on this resource.',
    type: 'https://developer.bigcommerce.com/api-docs/getting-started/api-status-codes',
    errors: { key: 'duplicate namespace and key' },
  });
}

function forbiddenReply(title: string): Reply {
  return json(403, {
    status: 403,
    title,
    type: 'https://developer.bigcommerce.com/api-docs/getting-started/api-status-codes',
  });
}

export function listMetafields(ctx: RouteContext): Reply {
  const cart = readCart(ctx.db, ctx.params.cartId ?? '');
  if (!cart) return cartNotFound();
  const namespace = ctx.query.string('namespace');
  const key = ctx.query.string('key');
  const paged = paging(ctx.query, 50, 250);
  const docs = cartMetafieldDocs(ctx.db, cart.id).filter(
    (doc) =>
      visibleTo(doc, ctx.app) &&
      (namespace === undefined || doc.namespace === namespace) &&
      (key === undefined || doc.key === key),
  );
  const page = docs.slice(paged.offset, paged.offset + paged.limit);
  return collection(
    page.map((doc) => JSON.stringify(doc)),
    { pagination: pagination(ctx.query, paged, docs.length, page.length) },
  );
}

/** POST /v3/carts/{id}/metafields: 200 like the catalogue's metafields; 409 on a repeated namespace + key of this app. */
export function createMetafield(ctx: RouteContext): Reply {
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const input = metafieldInput(body, errors, false);
  assertValid(errors);
  const cart = readCart(ctx.db, ctx.params.cartId ?? '');
  if (!cart) return cartNotFound();
  if (duplicateMetafield(ctx.db, cart.id, ctx.app, input.namespace, input.key)) {
    return duplicateReply();
  }
  const last = ctx.db.prepare('SELECT MAX(id) AS id FROM cart_metafields').get() as {
    id: number | null;
  };
  const id = (last.id ?? 0) + 1;
  const now = timestamp();
  const doc = {
    id,
    key: input.key,
    value: input.value,
    namespace: input.namespace,
    permission_set: input.permission_set,
    resource_type: 'cart',
    resource_id: cart.id,
    description: input.description ?? '',
    date_created: now,
    date_modified: now,
    owner_client_id: ctx.app,
  };
  ctx.db
    .prepare('INSERT INTO cart_metafields VALUES (?, ?, ?, ?, ?)')
    .run(id, cart.id, String(input.namespace), String(input.key), JSON.stringify(doc));
  return single(200, doc);
}

/** The metafield of the path as the requesting app sees it (another app's app_only: 404). */
function findMetafield(ctx: RouteContext): { cart: CartRecord; doc: MetafieldDoc } | Reply {
  const cart = readCart(ctx.db, ctx.params.cartId ?? '');
  if (!cart) return cartNotFound();
  const row = ctx.db
    .prepare('SELECT doc FROM cart_metafields WHERE id = ? AND cart_id = ?')
    .get(Number(ctx.params.metafieldId), cart.id) as { doc: string } | undefined;
  const doc = row ? (JSON.parse(row.doc) as MetafieldDoc) : undefined;
  if (!doc || !visibleTo(doc, ctx.app)) return v3Error(404, 'Metafield not found');
  return { cart, doc };
}

export function getMetafield(ctx: RouteContext): Reply {
  const found = findMetafield(ctx);
  return 'status' in found ? found : single(200, found.doc);
}

export function updateMetafield(ctx: RouteContext): Reply {
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const input = metafieldInput(body, errors, true);
  assertValid(errors);
  const found = findMetafield(ctx);
  if ('status' in found) return found;
  if (ownerOf(found.doc) !== ctx.app) {
    const changesOwnerFields = (['namespace', 'key', 'permission_set'] as const).some(
      (field) => input[field] !== undefined && input[field] !== found.doc[field],
    );
    if (changesOwnerFields) {
      return forbiddenReply(
        'namespace, key and permission_set can only be modified by the app that created the metafield.',
      );
    }
    if (!WRITABLE_BY_OTHERS.has(found.doc.permission_set)) {
      return forbiddenReply('This metafield is not writable by other apps.');
    }
  }
  const doc: MetafieldDoc = { ...found.doc, ...input, date_modified: timestamp() };
  if (
    duplicateMetafield(ctx.db, found.cart.id, ownerOf(doc), doc.namespace, doc.key, Number(doc.id))
  )
    return duplicateReply();
  ctx.db
    .prepare('UPDATE cart_metafields SET namespace = ?, key = ?, doc = ? WHERE id = ?')
    .run(String(doc.namespace), String(doc.key), JSON.stringify(doc), Number(doc.id));
  return single(200, doc);
}

export function deleteMetafield(ctx: RouteContext): Reply {
  const found = findMetafield(ctx);
  if ('status' in found) return found;
  if (ownerOf(found.doc) !== ctx.app && !WRITABLE_BY_OTHERS.has(found.doc.permission_set)) {
    return forbiddenReply('This metafield is not writable by other apps.');
  }
  ctx.db.prepare('DELETE FROM cart_metafields WHERE id = ?').run(Number(found.doc.id));
  return noContent();
}

/** The checkout of a cart (checkouts.v3.yml Checkout), amounts in decimal euros, VAT included. */
export function checkoutJson(
  db: DatabaseSync,
  cart: CartRecord,
  origin: string,
  include: string[],
): Record<string, unknown> {
  const full = cartJson(
    db,
    cart,
    include.includes('cart.line_items.physical_items.options')
      ? ['line_items.physical_items.options']
      : [],
    origin,
  );
  const total = full.cart_amount as number;
  const tax = round2(total - exTax(total));
  return {
    id: cart.id,
    cart: {
      id: cart.id,
      customer_id: cart.customer_id,
      email: cart.email,
      currency: full.currency,
      base_amount: full.base_amount,
      channel_id: cart.channel_id,
      discount_amount: 0,
      cart_amount_inc_tax: total,
      cart_amount_ex_tax: exTax(total),
      coupons: [],
      discounts: [],
      line_items: full.line_items,
      created_time: cart.created_time,
      updated_time: cart.updated_time,
    },
    // Without one added, upstream answers an empty one carrying the cart's e-mail.
    billing_address: cart.billing_address
      ? { ...cart.billing_address, custom_fields: [] }
      : {
          id: '',
          first_name: '',
          last_name: '',
          email: cart.email,
          company: '',
          address1: '',
          address2: '',
          city: '',
          state_or_province: '',
          state_or_province_code: '',
          country_code: '',
          postal_code: '',
          phone: '',
          custom_fields: [],
        },
    consignments: [],
    taxes: [{ name: 'TVA', amount: tax }],
    coupons: [],
    order_id: null,
    shipping_cost_total_inc_tax: 0,
    shipping_cost_total_ex_tax: 0,
    handling_cost_total_inc_tax: 0,
    handling_cost_total_ex_tax: 0,
    tax_total: tax,
    subtotal_inc_tax: total,
    subtotal_ex_tax: exTax(total),
    grand_total: total,
    created_time: cart.created_time,
    updated_time: cart.updated_time,
    customer_message: '',
  };
}

const ADDRESS_TEXTS = [
  'first_name',
  'last_name',
  'company',
  'address1',
  'address2',
  'city',
  'state_or_province',
  'state_or_province_code',
  'postal_code',
  'phone',
] as const;

/** The billing address of a request body; `email` and `country_code` are required. */
function billingAddress(body: Obj, id: string): BillingAddressRecord {
  const errors: Errors = {};
  const email = str(body, 'email', errors, '', { required: true, max: 255 });
  const country = str(body, 'country_code', errors, '', { required: true, min: 2, max: 2 });
  const texts = Object.fromEntries(
    ADDRESS_TEXTS.map((key) => [key, str(body, key, errors, '', { max: 255 }) ?? '']),
  ) as Record<(typeof ADDRESS_TEXTS)[number], string>;
  if (email !== undefined && !errors.email && !EMAIL.test(email)) {
    errors.email = 'The email is not a valid email address.';
  }
  assertValid(errors);
  return { id, email: email ?? '', country_code: (country ?? '').toUpperCase(), ...texts };
}

/**
 * POST /v3/checkouts/{id}/billing-address (checkouts.v3.yml "Add Checkout Billing Address"):
 * required `email` and `country_code`; the checkout with its new billing address, 200. The
 * hosted checkout then opens with that e-mail.
 */
export function addBillingAddress(ctx: RouteContext): Reply {
  const cart = readCart(ctx.db, ctx.params.checkoutId ?? '');
  if (!cart) return v3Error(404, 'Checkout not found');
  const address = billingAddress(objectBody(ctx.body), String(randomBytes(6).readUIntBE(0, 6)));
  cart.billing_address = address;
  writeCart(ctx.db, cart);
  return single(200, checkoutJson(ctx.db, cart, ctx.origin, ctx.query.list('include') ?? []));
}

/** PUT /v3/checkouts/{id}/billing-address/{addressId}: the address replaced, 200. */
export function updateBillingAddress(ctx: RouteContext): Reply {
  const cart = readCart(ctx.db, ctx.params.checkoutId ?? '');
  if (!cart) return v3Error(404, 'Checkout not found');
  const id = ctx.params.addressId ?? '';
  if (cart.billing_address?.id !== id) return v3Error(404, 'Address not found');
  cart.billing_address = billingAddress(objectBody(ctx.body), id);
  writeCart(ctx.db, cart);
  return single(200, checkoutJson(ctx.db, cart, ctx.origin, ctx.query.list('include') ?? []));
}

/** GET /v3/checkouts/{id} */
export function getCheckout(ctx: RouteContext): Reply {
  const cart = readCart(ctx.db, ctx.params.checkoutId ?? '');
  if (!cart) return v3Error(404, 'Checkout not found');
  return single(200, checkoutJson(ctx.db, cart, ctx.origin, ctx.query.list('include') ?? []));
}
