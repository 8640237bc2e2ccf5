/**
 * Catalogue writes (catalog.v3.yml, issue 8), minimal but in the shapes the shop reads:
 * `POST /v3/catalog/products` (name, type, weight, price required; sku, description,
 * categories, brand_id, visibility, stock, sale price, custom fields, pictures by `image_url`,
 * variants with `option_values` building the options), `PUT /v3/catalog/products/{id}` (the
 * same fields, partially; custom fields are replaced by the given list), `DELETE` (204), and
 * `PUT /v3/catalog/categories/{id}` / `PUT /v3/catalog/brands/{id}` (name, description,
 * visibility, sort order, `custom_url`). Each write sends the matching store webhook
 * (`store/product/created|updated|deleted`, `store/product/inventory/updated`,
 * `store/category/updated`, `store/brand/updated`) to the hooks of routes/hooks.ts.
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
import {
  assertValid,
  bool,
  int,
  isObject,
  num,
  objectBody,
  str,
  type Errors,
  type Obj,
} from '../validate.ts';
import type { RouteContext } from './context.ts';
import { emitStoreEvent } from './hooks.ts';

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
function nextId(
  db: DatabaseSync,
  column: 'variants' | 'images' | 'custom_fields' | 'options',
  floor: number,
): number {
  const row = db
    .prepare(
      `SELECT MAX(json_extract(j.value, '$.id')) AS n FROM products, json_each(products.${column}) AS j`,
    )
    .get() as { n: number | null };
  return Math.max(row.n ?? 0, floor) + 1;
}

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

function intList(body: Obj, key: string, errors: Errors): number[] | undefined {
  const raw = body[key];
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'number' || !Number.isSafeInteger(v))) {
    errors[key] = `${key} must be an array of integers`;
    return undefined;
  }
  return raw as number[];
}

interface Fields {
  name?: string;
  type?: string;
  weight?: number;
  price?: number;
  sale_price?: number;
  sku?: string;
  description?: string;
  categories?: number[];
  brand_id?: number;
  is_visible?: boolean;
  is_featured?: boolean;
  inventory_level?: number;
  inventory_tracking?: string;
  custom_fields?: { id?: number; name: string; value: string }[];
  related_products?: number[];
  custom_url?: string;
  meta_description?: string;
  page_title?: string;
}

/** The writable fields of a product body; `create` makes name, type, weight and price required. */
function readFields(db: DatabaseSync, body: Obj, create: boolean): Fields {
  const errors: Errors = {};
  const fields: Fields = {};
  const set = <K extends keyof Fields>(key: K, value: Fields[K] | undefined): void => {
    if (value !== undefined) fields[key] = value;
  };
  set('name', str(body, 'name', errors, '', { required: create, min: 1, max: 250 }));
  const type = str(body, 'type', errors, '', { required: create });
  if (type !== undefined && type !== 'physical' && type !== 'digital')
    errors.type = 'type must be physical or digital';
  set('type', type);
  set('weight', num(body, 'weight', errors, '', { required: create, min: 0 }));
  set('price', num(body, 'price', errors, '', { required: create, min: 0 }));
  set('sale_price', num(body, 'sale_price', errors, '', { min: 0 }));
  set('sku', str(body, 'sku', errors, '', { max: 255 }));
  set('description', str(body, 'description', errors, '', { max: 65_535 }));
  set('categories', intList(body, 'categories', errors));
  set('related_products', intList(body, 'related_products', errors));
  set('brand_id', int(body, 'brand_id', errors, '', { min: 0 }));
  set('is_visible', bool(body, 'is_visible', errors));
  set('is_featured', bool(body, 'is_featured', errors));
  set('inventory_level', int(body, 'inventory_level', errors, '', { min: 0, max: 2_147_483_647 }));
  const tracking = str(body, 'inventory_tracking', errors);
  if (tracking !== undefined && !['none', 'product', 'variant'].includes(tracking)) {
    errors.inventory_tracking = 'inventory_tracking must be none, product or variant';
  }
  set('inventory_tracking', tracking);
  set('meta_description', str(body, 'meta_description', errors, '', { max: 65_535 }));
  set('page_title', str(body, 'page_title', errors, '', { max: 255 }));
  set('custom_url', customUrl(body, errors));
  if (body.custom_fields !== undefined) {
    if (!Array.isArray(body.custom_fields)) errors.custom_fields = 'custom_fields must be an array';
    else {
      const list: NonNullable<Fields['custom_fields']> = [];
      body.custom_fields.forEach((f: unknown, index) => {
        if (!isObject(f)) {
          errors[`custom_fields.${index}`] = 'must be an object';
          return;
        }
        const name = str(f, 'name', errors, `custom_fields.${index}`, {
          required: true,
          min: 1,
          max: 250,
        });
        const value = str(f, 'value', errors, `custom_fields.${index}`, {
          required: true,
          min: 1,
          max: 250,
        });
        const id = int(f, 'id', errors, `custom_fields.${index}`, { min: 1 });
        if (name !== undefined && value !== undefined)
          list.push({ ...(id !== undefined ? { id } : {}), name, value });
      });
      fields.custom_fields = list;
    }
  }
  for (const id of fields.categories ?? []) {
    if (!db.prepare('SELECT 1 FROM categories WHERE id = ?').get(id))
      errors.categories = `Category ${id} does not exist`;
  }
  if (
    fields.brand_id !== undefined &&
    fields.brand_id !== 0 &&
    !db.prepare('SELECT 1 FROM brands WHERE id = ?').get(fields.brand_id)
  ) {
    errors.brand_id = `Brand ${fields.brand_id} does not exist`;
  }
  assertValid(errors, 'The request body is not valid.');
  return fields;
}

function conflict(db: DatabaseSync, fields: Fields, id: number): Reply | undefined {
  if (
    fields.name !== undefined &&
    db.prepare('SELECT 1 FROM products WHERE name = ? AND id != ?').get(fields.name, id)
  ) {
    return v3Error(409, 'The product name is a duplicate', {
      name: `The product name "${fields.name}" is already in use.`,
    });
  }
  if (
    fields.sku !== undefined &&
    fields.sku !== '' &&
    db.prepare('SELECT 1 FROM skus WHERE sku = ? AND product_id != ?').get(fields.sku, id)
  ) {
    return v3Error(409, 'The product sku is a duplicate', {
      sku: `The SKU "${fields.sku}" is already in use.`,
    });
  }
  return undefined;
}

function customFields(
  db: DatabaseSync,
  list: NonNullable<Fields['custom_fields']>,
  before: CustomFieldRecord[],
): CustomFieldRecord[] {
  let next = nextId(db, 'custom_fields', 9000);
  return list.map((f) => {
    const kept = before.find((b) => (f.id !== undefined ? b.id === f.id : b.name === f.name));
    return { id: kept?.id ?? next++, name: f.name, value: f.value };
  });
}

interface VariantInput {
  sku?: string;
  price?: number;
  sale_price?: number;
  inventory_level?: number;
  option_values: { option_display_name: string; label: string }[];
}

function readVariants(body: Obj): VariantInput[] | undefined {
  if (body.variants === undefined) return undefined;
  const errors: Errors = {};
  if (!Array.isArray(body.variants)) errors.variants = 'variants must be an array';
  const list: VariantInput[] = [];
  (Array.isArray(body.variants) ? body.variants : []).forEach((v: unknown, index) => {
    const path = `variants.${index}`;
    if (!isObject(v)) {
      errors[path] = 'must be an object';
      return;
    }
    const values: VariantInput['option_values'] = [];
    if (!Array.isArray(v.option_values))
      errors[`${path}.option_values`] = 'option_values must be an array';
    else {
      v.option_values.forEach((o: unknown, j) => {
        const at = `${path}.option_values.${j}`;
        if (!isObject(o)) {
          errors[at] = 'must be an object';
          return;
        }
        const option = str(o, 'option_display_name', errors, at, {
          required: true,
          min: 1,
          max: 255,
        });
        const label = str(o, 'label', errors, at, { required: true, min: 1, max: 255 });
        if (option !== undefined && label !== undefined)
          values.push({ option_display_name: option, label });
      });
    }
    const sku = str(v, 'sku', errors, path, { max: 255 });
    const price = num(v, 'price', errors, path, { min: 0 });
    const sale = num(v, 'sale_price', errors, path, { min: 0 });
    const level = int(v, 'inventory_level', errors, path, { min: 0 });
    list.push({
      option_values: values,
      ...(sku !== undefined ? { sku } : {}),
      ...(price !== undefined ? { price } : {}),
      ...(sale !== undefined ? { sale_price: sale } : {}),
      ...(level !== undefined ? { inventory_level: level } : {}),
    });
  });
  assertValid(errors, 'The request body is not valid.');
  return list;
}

function variant(productId: number, id: number, sku: string, input?: VariantInput): VariantRecord {
  return {
    id,
    product_id: productId,
    sku,
    sku_id: null,
    price: input?.price ?? null,
    calculated_price: input?.sale_price ?? input?.price ?? 0,
    sale_price: input?.sale_price ?? null,
    retail_price: null,
    map_price: null,
    weight: null,
    calculated_weight: 0,
    width: null,
    height: null,
    depth: null,
    is_free_shipping: false,
    fixed_cost_shipping_price: null,
    purchasing_disabled: false,
    purchasing_disabled_message: '',
    image_url: '',
    cost_price: null,
    upc: '',
    mpn: '',
    gtin: '',
    inventory_level: input?.inventory_level ?? 0,
    inventory_warning_level: 0,
    bin_picking_number: '',
    option_values: [],
  };
}

function readImages(
  db: DatabaseSync,
  body: Obj,
  productId: number,
  now: string,
): ImageRecord[] | undefined {
  if (body.images === undefined) return undefined;
  const errors: Errors = {};
  const images: ImageRecord[] = [];
  let next = nextId(db, 'images', 3000);
  if (!Array.isArray(body.images)) errors.images = 'images must be an array';
  (Array.isArray(body.images) ? body.images : []).forEach((raw: unknown, index) => {
    if (!isObject(raw)) {
      errors[`images.${index}`] = 'must be an object';
      return;
    }
    const url = str(raw, 'image_url', errors, `images.${index}`, { required: true, max: 2048 });
    const ok =
      url !== undefined && (/^\/images\/[\w/.-]+$/.test(url) || /^https?:\/\/[^\s]+$/.test(url));
    if (url !== undefined && !ok)
      errors[`images.${index}.image_url`] = 'image_url must be an http(s) URL';
    const description = str(raw, 'description', errors, `images.${index}`, { max: 1000 }) ?? '';
    const thumbnail = bool(raw, 'is_thumbnail', errors, `images.${index}`);
    if (!ok) return;
    images.push({
      id: next++,
      product_id: productId,
      is_thumbnail: thumbnail ?? index === 0,
      sort_order: index,
      description,
      image_file: url.split('/').pop() ?? '',
      url_zoom: url,
      url_standard: url,
      url_thumbnail: url,
      url_tiny: url,
      date_modified: now,
    });
  });
  assertValid(errors, 'The request body is not valid.');
  return images;
}

/** Options and variants from variants' option_values (one option per display name). */
function optionsAndVariants(
  db: DatabaseSync,
  productId: number,
  sku: string,
  inputs: VariantInput[],
): { options: OptionRecord[]; variants: VariantRecord[] } {
  let nextVariant = nextId(db, 'variants', 1000);
  if (inputs.length === 0 || inputs.every((v) => v.option_values.length === 0)) {
    return { options: [], variants: [variant(productId, nextVariant, sku, inputs[0])] };
  }
  let nextOption = nextId(db, 'options', 200);
  let nextValue =
    (
      db
        .prepare(
          "SELECT MAX(json_extract(v.value, '$.id')) AS n FROM products, json_each(products.options) AS o, json_each(json_extract(o.value, '$.option_values')) AS v",
        )
        .get() as { n: number | null }
    ).n ?? 500;
  const options: OptionRecord[] = [];
  const variants = inputs.map((input, index) => {
    const record = variant(productId, nextVariant++, input.sku ?? `${sku}-${index + 1}`, input);
    record.option_values = input.option_values.map((ov) => {
      let option = options.find((o) => o.display_name === ov.option_display_name);
      if (!option) {
        option = {
          id: nextOption++,
          product_id: productId,
          name: `${ov.option_display_name}-${productId}`,
          display_name: ov.option_display_name,
          type: 'dropdown',
          sort_order: options.length,
          config: {},
          option_values: [],
        };
        options.push(option);
      }
      let value = option.option_values.find((v) => v.label === ov.label);
      if (!value) {
        value = {
          id: ++nextValue,
          label: ov.label,
          sort_order: option.option_values.length,
          value_data: null,
          is_default: false,
        };
        option.option_values.push(value);
      }
      return {
        id: value.id,
        label: value.label,
        option_id: option.id,
        option_display_name: option.display_name,
      };
    });
    return record;
  });
  return { options, variants };
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

/**
 * `custom_url: { url }` of a write: a path starting with `/`, without white space (as
 * BigCommerce; anything else it stores as given, dot segments included).
 */
function customUrl(body: Record<string, unknown>, errors: Errors): string | undefined {
  if (body.custom_url === undefined) return undefined;
  const url = isObject(body.custom_url)
    ? str(body.custom_url, 'url', errors, 'custom_url', { required: true, max: 255 })
    : undefined;
  if (url !== undefined && !/^\/[^\s]*$/.test(url))
    errors['custom_url.url'] = 'url must be a path starting with /';
  else if (url === undefined && !isObject(body.custom_url))
    errors.custom_url = 'custom_url must be { url }';
  return url;
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
