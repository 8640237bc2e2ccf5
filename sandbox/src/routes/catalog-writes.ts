/**
 * Catalogue writes (catalog.v3.yml, for the rebuild and publish checks), minimal but in the shapes the shop reads:
 * `POST /v3/catalog/products` (name, type, weight, price required; sku, description,
 * categories, brand_id, visibility, stock, sale price, custom fields, pictures by `image_url`,
 * variants with `option_values` building the options), `PUT /v3/catalog/products/{id}` (the
 * same fields, partially; custom fields are replaced by the given list), `DELETE` (204), and
 * `PUT /v3/catalog/categories/{id}` / `PUT /v3/catalog/brands/{id}` (name, description,
 * visibility, sort order, `custom_url`). Each write sends the matching store webhook
 * (`store/product/created|updated|deleted`, `store/product/inventory/updated`,
 * `store/category/updated`, `store/brand/updated`) to the hooks of routes/hooks.ts. A
 * product's fields, variants and pictures are read and checked by product-inputs.ts; its row
 * is written by product-row.ts.
 */
import type { DatabaseSync } from 'node:sqlite';
import { single, v3Error, type Reply } from '../http.ts';
import { productWriter } from '../product-row.ts';
import { fold, isoDate, slugify } from '../seed/random.ts';
import type {
  BrandRecord,
  CategoryRecord,
  CustomFieldRecord,
  ImageRecord,
  ModifierRecord,
  OptionRecord,
  ProductBase,
  ProductRecord,
  VariantRecord,
} from '../seed/types.ts';
import { assertValid, bool, int, objectBody, str, type Errors } from '../validate.ts';
import type { RouteContext } from './context.ts';
import { emitStoreEvent } from './hooks.ts';
import {
  readFields,
  conflict,
  customFields,
  readVariants,
  readImages,
  optionsAndVariants,
  customUrl,
} from './product-inputs.ts';

interface Row {
  base: string;
  variants: string;
  images: string;
  custom_fields: string;
  options: string;
  modifiers: string;
}

/** A stored product: its record and sub-records (the brand name is read when it is written). */
type Product = Omit<ProductRecord, 'brandName'>;

function load(db: DatabaseSync, id: number): Product | undefined {
  const row = db
    .prepare(
      'SELECT base, variants, images, custom_fields, options, modifiers FROM products WHERE id = ?',
    )
    .get(id) as Row | undefined;
  if (!row) return undefined;
  return {
    base: JSON.parse(row.base) as ProductBase,
    variants: JSON.parse(row.variants) as VariantRecord[],
    images: JSON.parse(row.images) as ImageRecord[],
    custom_fields: JSON.parse(row.custom_fields) as CustomFieldRecord[],
    options: JSON.parse(row.options) as OptionRecord[],
    // Not written by these routes (BigCommerce's modifiers are a sub-resource of their own):
    // kept as they are.
    modifiers: JSON.parse(row.modifiers) as ModifierRecord[],
  };
}

/** Next free id of a sub-record kind, over every product (`$.id` of the JSON arrays). */
function brandName(db: DatabaseSync, id: number): string {
  const row = db.prepare('SELECT name FROM brands WHERE id = ?').get(id) as
    { name: string } | undefined;
  return row?.name ?? '';
}

function save(db: DatabaseSync, p: Product, insert: boolean): void {
  const b = p.base;
  const writer = productWriter(db);
  const record = { ...p, brandName: brandName(db, b.brand_id) };
  if (insert) writer.insert(record);
  else writer.update(record);
  db.prepare('DELETE FROM product_categories WHERE product_id = ?').run(b.id);
  for (const c of b.categories)
    db.prepare('INSERT OR IGNORE INTO product_categories VALUES (?, ?)').run(c, b.id);
  db.prepare('DELETE FROM skus WHERE product_id = ?').run(b.id);
  for (const v of p.variants) db.prepare('INSERT INTO skus VALUES (?, ?)').run(v.sku, b.id);
}

export function createProduct(ctx: RouteContext): Reply {
  const body = objectBody(ctx.body);
  const fields = readFields(ctx.db, body, true);
  const inputs = readVariants(body) ?? [];
  const id = (
    ctx.db.prepare('SELECT COALESCE(MAX(id), 100) + 1 AS n FROM products').get() as { n: number }
  ).n;
  const clash = conflict(ctx.db, fields, id);
  if (clash) return clash;
  for (const v of inputs) {
    if (v.sku && ctx.db.prepare('SELECT 1 FROM skus WHERE sku = ?').get(v.sku)) {
      return v3Error(409, 'The variant sku is a duplicate', {
        sku: `The SKU "${v.sku}" is already in use.`,
      });
    }
  }
  const now = isoDate(Date.now());
  const name = fields.name ?? '';
  const sku = fields.sku ?? `SBX-${id}`;
  const price = fields.price ?? 0;
  const sale = fields.sale_price ?? 0;
  const { options, variants } = optionsAndVariants(ctx.db, id, sku, inputs);
  const tracking = (fields.inventory_tracking ?? 'none') as ProductBase['inventory_tracking'];
  const base: ProductBase = {
    id,
    name,
    type: 'physical',
    sku,
    description: fields.description ?? '',
    weight: fields.weight ?? 0,
    width: 0,
    depth: 0,
    height: 0,
    price,
    cost_price: 0,
    retail_price: 0,
    sale_price: sale,
    map_price: 0,
    tax_class_id: 0,
    product_tax_code: '',
    calculated_price: sale > 0 && sale < price ? sale : price,
    categories: fields.categories ?? [],
    brand_id: fields.brand_id ?? 0,
    option_set_id: null,
    option_set_display: 'right',
    inventory_level:
      fields.inventory_level ?? variants.reduce((sum, v) => sum + v.inventory_level, 0),
    inventory_warning_level: 0,
    inventory_tracking: tracking,
    reviews_rating_sum: 0,
    reviews_count: 0,
    total_sold: 0,
    fixed_cost_shipping_price: 0,
    is_free_shipping: false,
    is_visible: fields.is_visible ?? true,
    is_featured: fields.is_featured ?? false,
    related_products: fields.related_products ?? [],
    warranty: '',
    bin_picking_number: '',
    layout_file: 'product.html',
    upc: '',
    mpn: '',
    gtin: '',
    search_keywords: '',
    availability: 'available',
    availability_description: '',
    gift_wrapping_options_type: 'any',
    gift_wrapping_options_list: [],
    sort_order: 0,
    condition: 'New',
    is_condition_shown: false,
    order_quantity_minimum: 0,
    order_quantity_maximum: 0,
    page_title: fields.page_title ?? '',
    meta_keywords: [],
    meta_description: fields.meta_description ?? '',
    view_count: 0,
    preorder_release_date: null,
    preorder_message: '',
    is_preorder_only: false,
    is_price_hidden: false,
    price_hidden_label: '',
    custom_url: {
      url: fields.custom_url ?? `/${slugify(name) || String(id)}`,
      is_customized: fields.custom_url !== undefined,
    },
    base_variant_id: options.length === 0 ? (variants[0]?.id ?? null) : null,
    open_graph_type: 'product',
    open_graph_title: '',
    open_graph_description: '',
    open_graph_use_meta_description: true,
    open_graph_use_product_name: true,
    open_graph_use_image: true,
    date_created: now,
    date_modified: now,
  };
  const product: Product = {
    base,
    variants,
    images: readImages(ctx.db, body, id, now) ?? [],
    custom_fields: customFields(ctx.db, fields.custom_fields ?? [], []),
    options,
    // A product created here has no modifiers.
    modifiers: [],
  };
  save(ctx.db, product, true);
  emitStoreEvent(ctx.db, ctx.config, 'store/product/created', { type: 'product', id });
  return single(200, base);
}

export function updateProduct(ctx: RouteContext): Reply {
  const id = Number(ctx.params.id);
  const product = load(ctx.db, id);
  if (!product) return v3Error(404, 'The requested product was not found.');
  const body = objectBody(ctx.body);
  const fields = readFields(ctx.db, body, false);
  const clash = conflict(ctx.db, fields, id);
  if (clash) return clash;
  const now = isoDate(Date.now());
  const b = product.base;
  const levelBefore = b.inventory_level;
  const { custom_fields: cf, custom_url: url, inventory_tracking: tracking, ...plain } = fields;
  // The type stays 'physical' (the sandbox sells no digital products).
  delete plain.type;
  Object.assign(b, plain);
  if (tracking !== undefined) b.inventory_tracking = tracking as ProductBase['inventory_tracking'];
  if (url !== undefined) b.custom_url = { url, is_customized: true };
  b.calculated_price = b.sale_price > 0 && b.sale_price < b.price ? b.sale_price : b.price;
  b.date_modified = now;
  if (fields.sku !== undefined && product.options.length === 0 && product.variants[0])
    product.variants[0].sku = fields.sku;
  if (cf !== undefined) product.custom_fields = customFields(ctx.db, cf, product.custom_fields);
  const images = readImages(ctx.db, body, id, now);
  if (images !== undefined) product.images = images;
  save(ctx.db, product, false);
  emitStoreEvent(ctx.db, ctx.config, 'store/product/updated', { type: 'product', id });
  if (b.inventory_level !== levelBefore) {
    emitStoreEvent(ctx.db, ctx.config, 'store/product/inventory/updated', {
      type: 'product',
      id,
      inventory: { product_id: id, method: 'absolute', value: b.inventory_level },
    });
  }
  return single(200, b);
}

export function deleteProduct(ctx: RouteContext): Reply {
  const id = Number(ctx.params.id);
  if (!ctx.db.prepare('SELECT 1 FROM products WHERE id = ?').get(id)) {
    return v3Error(404, 'The requested product was not found.');
  }
  ctx.db.prepare('DELETE FROM products WHERE id = ?').run(id);
  ctx.db.prepare('DELETE FROM product_categories WHERE product_id = ?').run(id);
  ctx.db.prepare('DELETE FROM skus WHERE product_id = ?').run(id);
  emitStoreEvent(ctx.db, ctx.config, 'store/product/deleted', { type: 'product', id });
  return { status: 204, body: '' };
}

export function updateCategory(ctx: RouteContext): Reply {
  const id = Number(ctx.params.id);
  const row = ctx.db.prepare('SELECT doc FROM categories WHERE id = ?').get(id) as
    { doc: string } | undefined;
  if (!row) return v3Error(404, 'The requested category was not found.');
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const name = str(body, 'name', errors, '', { min: 1, max: 50 });
  const description = str(body, 'description', errors, '', { max: 65_535 });
  const visible = bool(body, 'is_visible', errors);
  const sortOrder = int(body, 'sort_order', errors, '', {
    min: -2_147_483_648,
    max: 2_147_483_647,
  });
  const url = customUrl(body, errors);
  assertValid(errors, 'The request body is not valid.');
  const category = JSON.parse(row.doc) as CategoryRecord;
  if (url !== undefined) category.custom_url = { url, is_customized: true };
  if (name !== undefined) category.name = name;
  if (description !== undefined) category.description = description;
  if (visible !== undefined) category.is_visible = visible;
  if (sortOrder !== undefined) category.sort_order = sortOrder;
  ctx.db
    .prepare(
      'UPDATE categories SET name = ?, is_visible = ?, sort_order = ?, search = ?, doc = ? WHERE id = ?',
    )
    .run(
      category.name,
      category.is_visible ? 1 : 0,
      category.sort_order,
      fold(category.name),
      JSON.stringify(category),
      id,
    );
  emitStoreEvent(ctx.db, ctx.config, 'store/category/updated', { type: 'category', id });
  return single(200, category);
}

export function updateBrand(ctx: RouteContext): Reply {
  const id = Number(ctx.params.id);
  const row = ctx.db.prepare('SELECT doc FROM brands WHERE id = ?').get(id) as
    { doc: string } | undefined;
  if (!row) return v3Error(404, 'The requested brand was not found.');
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const name = str(body, 'name', errors, '', { min: 1, max: 255 });
  const description = str(body, 'meta_description', errors, '', { max: 65_535 });
  const url = customUrl(body, errors);
  assertValid(errors, 'The request body is not valid.');
  const brand = JSON.parse(row.doc) as BrandRecord;
  if (url !== undefined) brand.custom_url = { url, is_customized: true };
  if (name !== undefined) brand.name = name;
  if (description !== undefined) brand.meta_description = description;
  ctx.db
    .prepare('UPDATE brands SET name = ?, doc = ? WHERE id = ?')
    .run(brand.name, JSON.stringify(brand), id);
  emitStoreEvent(ctx.db, ctx.config, 'store/brand/updated', { type: 'brand', id });
  return single(200, brand);
}
