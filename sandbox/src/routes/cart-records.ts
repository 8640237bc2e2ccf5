/**
 * A cart as the sandbox stores it (the request state: items with product, variant, quantity,
 * modifier selections) and as carts.v3.yml answers it: prices, names and pictures read from
 * the catalogue at each reply, as upstream recomputes them; its redirect URLs to the hosted
 * checkout.
 */
import type { DatabaseSync } from 'node:sqlite';
import { single, v3Error, type Reply } from '../http.ts';
import { loadProduct, productImage, round2, variantPrices, type ProductFacts } from '../model.ts';
import type { VariantRecord } from '../seed/types.ts';
import { assertValid, type Errors } from '../validate.ts';
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

export function sameModifiers(
  a: ModifierSelection[] | undefined,
  b: ModifierSelection[] | undefined,
) {
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

export function writeCart(db: DatabaseSync, cart: CartRecord): void {
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
export async function writeWindow(ctx: RouteContext): Promise<void> {
  const ms = ctx.config.cartWriteLatencyMs;
  if (ms > 0) await new Promise((ok) => setTimeout(ok, ms));
}

export function cartNotFound(): Reply {
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
export class Products {
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

export function reply(ctx: RouteContext, status: number, cart: CartRecord): Reply {
  return single(status, cartJson(ctx.db, cart, includes(ctx), ctx.origin));
}
