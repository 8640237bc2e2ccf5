/**
 * A product as a catalogue write gives it (catalog.v3.yml): its fields, custom fields,
 * variants with their option values, and pictures by `image_url`, each read and checked, and
 * the options and variants built from them; a name or SKU another product has is a conflict.
 */
import type { DatabaseSync } from 'node:sqlite';
import { v3Error, type Reply } from '../http.ts';
import type { CustomFieldRecord, ImageRecord, OptionRecord, VariantRecord } from '../seed/types.ts';
import { assertValid, bool, int, isObject, num, str, type Errors, type Obj } from '../validate.ts';

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
export function readFields(db: DatabaseSync, body: Obj, create: boolean): Fields {
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

export function conflict(db: DatabaseSync, fields: Fields, id: number): Reply | undefined {
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

export function customFields(
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

export function readVariants(body: Obj): VariantInput[] | undefined {
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

export function readImages(
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
export function optionsAndVariants(
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

/**
 * `custom_url: { url }` of a write: a path starting with `/`, without white space (as
 * BigCommerce; anything else it stores as given, dot segments included).
 */
export function customUrl(body: Record<string, unknown>, errors: Errors): string | undefined {
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
