/**
 * Records shared by several routes and the seed: products as carts and orders see them,
 * prices, countries, order statuses, and the creation of v2 orders (seeded ones and those of
 * the hosted checkout).
 */
import type { DatabaseSync } from 'node:sqlite';
import { ORDER_STATUS_NAMES } from '../../src/lib/sandbox-contract.ts';
import type {
  ImageRecord,
  ModifierRecord,
  OptionRecord,
  ProductBase,
  VariantRecord,
} from './seed/types.ts';

export interface ProductFacts {
  base: ProductBase;
  variants: VariantRecord[];
  images: ImageRecord[];
  options: OptionRecord[];
  modifiers: ModifierRecord[];
}

interface ProductRow {
  base: string;
  variants: string;
  images: string;
  options: string;
  modifiers: string;
}

export function loadProduct(db: DatabaseSync, id: number): ProductFacts | undefined {
  const row = db
    .prepare('SELECT base, variants, images, options, modifiers FROM products WHERE id = ?')
    .get(id) as ProductRow | undefined;
  if (!row) return undefined;
  return {
    base: JSON.parse(row.base) as ProductBase,
    variants: JSON.parse(row.variants) as VariantRecord[],
    images: JSON.parse(row.images) as ImageRecord[],
    options: JSON.parse(row.options) as OptionRecord[],
    modifiers: JSON.parse(row.modifiers) as ModifierRecord[],
  };
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** v2 money: a decimal string with four places ('129.0000'). */
export function money(n: number): string {
  return round2(n).toFixed(4);
}

/** French VAT included in catalogue prices. */
export const VAT_RATE = 0.2;

export function exTax(incTax: number): number {
  return round2(incTax / (1 + VAT_RATE));
}

/** Unit prices of a variant: list (catalogue price) and sale (what is paid). */
export function variantPrices(
  product: ProductFacts,
  variant: VariantRecord,
): { list: number; sale: number } {
  const list = variant.price ?? product.base.price;
  let sale = variant.calculated_price;
  if (variant.sale_price !== null && variant.sale_price > 0) sale = variant.sale_price;
  else if (variant.price === null && product.base.sale_price > 0) sale = product.base.sale_price;
  if (!(sale > 0) || sale > list) sale = list;
  return { list, sale };
}

export function productImage(product: ProductFacts, variant?: VariantRecord): string {
  if (variant?.image_url) return variant.image_url;
  const thumbnail = product.images.find((i) => i.is_thumbnail) ?? product.images[0];
  return thumbnail?.url_standard ?? '';
}

/** Countries the sandbox knows (ISO 3166 alpha-2 -> BigCommerce's English name). */
export const COUNTRIES: Record<string, string> = {
  FR: 'France',
  BE: 'Belgium',
  CH: 'Switzerland',
  LU: 'Luxembourg',
  MC: 'Monaco',
  DE: 'Germany',
  ES: 'Spain',
  IT: 'Italy',
  GB: 'United Kingdom',
  US: 'United States',
};

/** v2 dates: RFC 2822 in UTC (`Wed, 10 Jan 2018 21:05:30 +0000`). */
export function rfc2822(date: Date): string {
  return date.toUTCString().replace('GMT', '+0000');
}

/** Accepts RFC 2822 or ISO 8601 (v2 date filters). */
export function parseDate(value: string): Date | undefined {
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time);
}

export interface OrderAddressInput {
  first_name: string;
  last_name: string;
  company?: string;
  street_1: string;
  street_2?: string;
  city: string;
  zip: string;
  country_iso2: string;
  phone?: string;
  email: string;
}

export interface OrderLineInput {
  product: ProductFacts;
  variant: VariantRecord;
  quantity: number;
  /** The line's modifier values (option id, value id). */
  modifiers?: { option_id: number; value_id: number }[];
}

export interface ShipmentInput {
  date: Date;
  tracking_number: string;
  tracking_carrier: string;
  tracking_link: string;
  shipping_method: string;
  comments?: string;
}

export interface OrderInput {
  customer_id: number;
  status_id: number;
  cart_id: string;
  date: Date;
  billing: OrderAddressInput;
  shipping: OrderAddressInput;
  lines: OrderLineInput[];
  payment_method: 'Credit Card' | 'Test Payment Gateway' | 'Manual' | 'Cash';
  customer_message?: string;
  /** Shipments (the whole order per shipment). */
  shipments?: ShipmentInput[];
}

function address(input: OrderAddressInput): Record<string, string> {
  return {
    first_name: input.first_name,
    last_name: input.last_name,
    company: input.company ?? '',
    street_1: input.street_1,
    street_2: input.street_2 ?? '',
    city: input.city,
    state: '',
    zip: input.zip,
    country: COUNTRIES[input.country_iso2] ?? input.country_iso2,
    country_iso2: input.country_iso2,
    phone: input.phone ?? '',
    email: input.email,
  };
}

const OPTION_TYPES: Record<OptionRecord['type'], { type: string; style: string }> = {
  rectangles: { type: 'Multiple choice', style: 'Rectangle' },
  swatch: { type: 'Swatch', style: 'Swatch' },
  radio_buttons: { type: 'Multiple choice', style: 'Radio' },
  dropdown: { type: 'Multiple choice', style: 'Dropdown' },
};

/** Inserts a v2 order with its products, one shipping address and its shipments; returns its id. */
export function insertOrder(db: DatabaseSync, input: OrderInput): number {
  const last = db.prepare('SELECT MAX(id) AS id FROM orders').get() as { id: number | null };
  const id = Math.max(100, (last.id ?? 99) + 1);
  const last2 = db.prepare('SELECT MAX(id) AS id FROM order_products').get() as {
    id: number | null;
  };
  let productId = Math.max(1, (last2.id ?? 0) + 1);
  const addressId = id * 10 + 1;
  const shipped = (input.shipments ?? []).length > 0;
  const products = input.lines.map((line) => {
    const { sale } = variantPrices(line.product, line.variant);
    const rowId = productId++;
    const total = round2(sale * line.quantity);
    const options = line.variant.option_values.map((value, index) => {
      const option = line.product.options.find((o) => o.id === value.option_id);
      const kind = OPTION_TYPES[option?.type ?? 'dropdown'];
      return {
        id: rowId * 10 + index,
        option_id: value.option_id,
        order_product_id: rowId,
        product_option_id: value.option_id,
        display_name: value.option_display_name,
        display_value: value.label,
        value: String(value.id),
        type: kind.type,
        name: option?.name ?? value.option_display_name,
        display_style: kind.style,
        display_name_customer: value.option_display_name,
        display_name_merchant: value.option_display_name,
        display_value_customer: value.label,
        display_value_merchant: value.label,
      };
    });
    for (const chosen of line.modifiers ?? []) {
      const modifier = line.product.modifiers.find((m) => m.id === chosen.option_id);
      const value = modifier?.option_values.find((v) => v.id === chosen.value_id);
      if (!modifier || !value) continue;
      options.push({
        id: rowId * 10 + options.length,
        option_id: modifier.id,
        order_product_id: rowId,
        product_option_id: modifier.id,
        display_name: modifier.display_name,
        display_value: value.label,
        value: String(value.id),
        type: 'Checkbox',
        name: modifier.name,
        display_style: '',
        display_name_customer: modifier.display_name,
        display_name_merchant: modifier.display_name,
        display_value_customer: value.label,
        display_value_merchant: value.label,
      });
    }
    return {
      id: rowId,
      order_id: id,
      product_id: line.product.base.id,
      variant_id: line.variant.id,
      order_address_id: addressId,
      name: line.product.base.name,
      name_customer: line.product.base.name,
      name_merchant: line.product.base.name,
      sku: line.variant.sku,
      upc: '',
      type: 'physical',
      base_price: money(sale),
      price_ex_tax: money(exTax(sale)),
      price_inc_tax: money(sale),
      price_tax: money(sale - exTax(sale)),
      base_total: money(total),
      total_ex_tax: money(exTax(total)),
      total_inc_tax: money(total),
      total_tax: money(total - exTax(total)),
      weight: line.variant.calculated_weight,
      quantity: line.quantity,
      base_cost_price: '0.0000',
      cost_price_inc_tax: '0.0000',
      cost_price_ex_tax: '0.0000',
      cost_price_tax: '0.0000',
      is_refunded: false,
      refunded_amount: '0.0000',
      return_id: 0,
      wrapping_name: '',
      base_wrapping_cost: '0.0000',
      wrapping_cost_ex_tax: '0.0000',
      wrapping_cost_inc_tax: '0.0000',
      wrapping_cost_tax: '0.0000',
      wrapping_message: '',
      quantity_shipped: shipped ? line.quantity : 0,
      event_name: null,
      event_date: null,
      fixed_shipping_cost: '0.0000',
      ebay_item_id: '',
      ebay_transaction_id: '',
      option_set_id: null,
      parent_order_product_id: null,
      is_bundled_product: false,
      bin_picking_number: '',
      external_id: null,
      applied_discounts: [],
      product_options: options,
    };
  });
  const subtotal = round2(
    input.lines.reduce(
      (sum, line) => sum + variantPrices(line.product, line.variant).sale * line.quantity,
      0,
    ),
  );
  const itemsTotal = input.lines.reduce((sum, line) => sum + line.quantity, 0);
  const itemsShipped = shipped ? itemsTotal : 0;
  const created = rfc2822(input.date);
  const billing = address(input.billing);
  const shipping = {
    id: addressId,
    order_id: id,
    ...address(input.shipping),
    items_total: itemsTotal,
    items_shipped: itemsShipped,
    shipping_method: 'Livraison à domicile',
    base_cost: '0.0000',
    cost_ex_tax: '0.0000',
    cost_inc_tax: '0.0000',
    cost_tax: '0.0000',
    cost_tax_class_id: 2,
    base_handling_cost: '0.0000',
    handling_cost_ex_tax: '0.0000',
    handling_cost_inc_tax: '0.0000',
    handling_cost_tax: '0.0000',
    handling_cost_tax_class_id: 2,
    shipping_zone_id: 1,
    shipping_zone_name: 'France',
    form_fields: [],
  };
  const shipments = (input.shipments ?? []).map((s, index) => ({
    id: id * 10 + index + 1,
    order_id: id,
    customer_id: input.customer_id,
    order_address_id: addressId,
    date_created: rfc2822(s.date),
    tracking_number: s.tracking_number,
    shipping_method: s.shipping_method,
    shipping_provider: '',
    tracking_carrier: s.tracking_carrier,
    tracking_link: s.tracking_link,
    comments: s.comments ?? '',
    billing_address: billing,
    shipping_address: address(input.shipping),
    items: products.map((p) => ({
      order_product_id: p.id,
      product_id: p.product_id,
      quantity: p.quantity,
    })),
  }));
  const status = ORDER_STATUS_NAMES[input.status_id] ?? 'Pending';
  const order = {
    id,
    customer_id: input.customer_id,
    date_created: created,
    date_modified: rfc2822(
      shipments.length > 0 ? (input.shipments?.[0]?.date ?? input.date) : input.date,
    ),
    date_shipped: shipments[0]?.date_created ?? '',
    status_id: input.status_id,
    status,
    custom_status: status,
    subtotal_ex_tax: money(exTax(subtotal)),
    subtotal_inc_tax: money(subtotal),
    subtotal_tax: money(subtotal - exTax(subtotal)),
    base_shipping_cost: '0.0000',
    shipping_cost_ex_tax: '0.0000',
    shipping_cost_inc_tax: '0.0000',
    shipping_cost_tax: '0.0000',
    shipping_cost_tax_class_id: 2,
    base_handling_cost: '0.0000',
    handling_cost_ex_tax: '0.0000',
    handling_cost_inc_tax: '0.0000',
    handling_cost_tax: '0.0000',
    handling_cost_tax_class_id: 2,
    base_wrapping_cost: '0.0000',
    wrapping_cost_ex_tax: '0.0000',
    wrapping_cost_inc_tax: '0.0000',
    wrapping_cost_tax: '0.0000',
    wrapping_cost_tax_class_id: 3,
    total_ex_tax: money(exTax(subtotal)),
    total_inc_tax: money(subtotal),
    total_tax: money(subtotal - exTax(subtotal)),
    items_total: itemsTotal,
    items_shipped: itemsShipped,
    payment_method: input.payment_method,
    payment_provider_id: '',
    payment_status: input.status_id === 5 || input.status_id === 0 ? 'void' : 'captured',
    refunded_amount: '0.0000',
    order_is_digital: false,
    store_credit_amount: '0.0000',
    gift_certificate_amount: '0.0000',
    ip_address: '127.0.0.1',
    geoip_country: 'France',
    geoip_country_iso2: 'FR',
    currency_id: 1,
    currency_code: 'EUR',
    currency_exchange_rate: '1.0000000000',
    default_currency_id: 1,
    default_currency_code: 'EUR',
    staff_notes: '',
    customer_message: input.customer_message ?? '',
    discount_amount: '0.0000',
    coupon_discount: '0.0000',
    shipping_address_count: 1,
    is_deleted: false,
    ebay_order_id: '0',
    cart_id: input.cart_id,
    billing_address: { ...billing, form_fields: [] },
    is_email_opt_in: false,
    credit_card_type: null,
    order_source: 'www',
    channel_id: 1,
    external_source: null,
    external_id: null,
    external_merchant_id: null,
    tax_provider_id: 'BasicTaxProvider',
    store_default_currency_code: 'EUR',
    store_default_to_transactional_exchange_rate: '1.0000000000',
    customer_locale: 'fr',
  };
  db.prepare(
    'INSERT INTO orders (id, customer_id, cart_id, status_id, email, payment_method, total, date_created, date_modified, doc, products, shipping_addresses, shipments) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(
    id,
    input.customer_id,
    input.cart_id,
    input.status_id,
    input.billing.email.toLowerCase(),
    input.payment_method,
    subtotal,
    input.date.toISOString(),
    input.date.toISOString(),
    JSON.stringify(order),
    JSON.stringify(products),
    JSON.stringify([shipping]),
    JSON.stringify(shipments),
  );
  for (const p of products)
    db.prepare('INSERT INTO order_products (id, order_id) VALUES (?, ?)').run(p.id, id);
  return id;
}
