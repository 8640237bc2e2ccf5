/**
 * A product as one row of the `products` table: the one list of its columns and the one
 * writer of them, used by the seed (db.ts) and the catalogue writes (routes/catalog-writes.ts).
 * The record is stored as the JSON BigCommerce sends (`base` and its sub-records); the other
 * columns are what filters, sorts and the site rating read, derived from it here.
 */
import type { DatabaseSync } from 'node:sqlite';
import { fold } from './seed/random.ts';
import { ratingCounts } from './seed/ratings.ts';
import type { ProductRecord } from './seed/types.ts';

/** The products table's columns, in the order of its schema (db.ts). */
export const PRODUCT_COLUMNS = [
  'id',
  'name',
  'sku',
  'price',
  'brand_id',
  'is_visible',
  'total_sold',
  'inventory_level',
  'date_modified',
  'search',
  'base',
  'variants',
  'images',
  'custom_fields',
  'options',
  'modifiers',
  'date_created',
  'rated_1',
  'rated_2',
  'rated_3',
  'rated_4',
  'rated_5',
] as const;

type ProductColumn = (typeof PRODUCT_COLUMNS)[number];

/** Every column's value of `product`'s row. */
export function productRow(product: ProductRecord): Record<ProductColumn, string | number> {
  const b = product.base;
  const [rated1, rated2, rated3, rated4, rated5] = ratingCounts(b);
  return {
    id: b.id,
    name: b.name,
    sku: b.sku,
    price: b.price,
    brand_id: b.brand_id,
    is_visible: b.is_visible ? 1 : 0,
    total_sold: b.total_sold,
    inventory_level: b.inventory_level,
    date_modified: b.date_modified,
    search: fold(
      `${b.name} ${b.sku} ${b.description.replace(/<[^>]+>/g, ' ')} ${product.brandName}`,
    ),
    base: JSON.stringify(b),
    variants: JSON.stringify(product.variants),
    images: JSON.stringify(product.images),
    custom_fields: JSON.stringify(product.custom_fields),
    options: JSON.stringify(product.options),
    modifiers: JSON.stringify(product.modifiers),
    date_created: b.date_created,
    // The site rating's sums (routes/guaranteed-reviews.ts): the seeded reviews' stars.
    rated_1: rated1,
    rated_2: rated2,
    rated_3: rated3,
    rated_4: rated4,
    rated_5: rated5,
  };
}

const INSERT = `INSERT INTO products (${PRODUCT_COLUMNS.join(', ')})
  VALUES (${PRODUCT_COLUMNS.map((column) => `:${column}`).join(', ')})`;
const UPDATE = `UPDATE products SET ${PRODUCT_COLUMNS.filter((column) => column !== 'id')
  .map((column) => `${column} = :${column}`)
  .join(', ')} WHERE id = :id`;

/**
 * A writer of whole product rows on `db`: `insert` adds a row, `update` rewrites every column
 * of an existing one (prepared once: the seed writes thousands).
 */
export function productWriter(db: DatabaseSync): {
  insert(product: ProductRecord): void;
  update(product: ProductRecord): void;
} {
  const insert = db.prepare(INSERT);
  const update = db.prepare(UPDATE);
  return {
    insert: (product) => {
      insert.run(productRow(product));
    },
    update: (product) => {
      update.run(productRow(product));
    },
  };
}
