/**
 * The catalogue writes (`routes/catalog-writes.ts`) write a product's whole row with the seed's
 * one list of columns (`product-row.ts`): a product created or updated through the API reads
 * back with every column, its derived columns (search, sort and rating columns) those of its
 * record, and its modifiers (a sub-resource these routes do not write) kept on an update.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PRODUCT_COLUMNS, productRow } from '../src/product-row.ts';
import { sandboxApi, startTestSandbox, type TestSandbox } from '../src/testing.ts';

let sandbox: TestSandbox;
let api: ReturnType<typeof sandboxApi>;
let db: DatabaseSync;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  api = sandboxApi(sandbox);
  db = new DatabaseSync(join(sandbox.dataDir, 'sandbox.db'), { readOnly: true });
});

afterAll(async () => {
  db.close();
  await sandbox.close();
});

type Row = Record<string, string | number>;

const rowOf = (id: number): Row => db.prepare('SELECT * FROM products WHERE id = ?').get(id) as Row;

/** The row the seed would write for the record `row` stores (its JSON and brand name). */
function expectedRow(row: Row): Row {
  const base = JSON.parse(String(row.base)) as { brand_id: number };
  const brand = db.prepare('SELECT name FROM brands WHERE id = ?').get(base.brand_id) as
    { name: string } | undefined;
  const parse = (column: string) => JSON.parse(String(row[column])) as never;
  return productRow({
    base: parse('base'),
    variants: parse('variants'),
    images: parse('images'),
    custom_fields: parse('custom_fields'),
    options: parse('options'),
    modifiers: parse('modifiers'),
    brandName: brand?.name ?? '',
  });
}

describe('one list of the product columns', () => {
  test('the products table has exactly the columns of PRODUCT_COLUMNS, in order', () => {
    const columns = (db.prepare('PRAGMA table_info(products)').all() as { name: string }[]).map(
      (column) => column.name,
    );
    expect(columns).toEqual([...PRODUCT_COLUMNS]);
  });

  test('a seeded product reads back as the writer writes it', () => {
    const row = rowOf(101);
    expect(row).toEqual(expectedRow(row));
  });
});

describe('a product written through the catalogue routes reads back with every column', () => {
  test('POST: every column, no modifiers', async () => {
    const created = await api<{ data: { id: number } }>('POST', '/v3/catalog/products', {
      name: 'Matelas Colonnes',
      type: 'physical',
      weight: 20,
      price: 499,
      sku: 'COL-1',
      description: '<p>Ressorts <strong>ensachés</strong></p>',
      categories: [22],
      brand_id: 40,
      inventory_tracking: 'product',
      inventory_level: 7,
    });
    expect(created.status).toBe(200);
    const row = rowOf(created.body.data.id);
    expect(Object.keys(row)).toEqual([...PRODUCT_COLUMNS]);
    expect(row).toEqual(expectedRow(row));
    expect(row).toMatchObject({
      name: 'Matelas Colonnes',
      sku: 'COL-1',
      price: 499,
      brand_id: 40,
      inventory_level: 7,
      modifiers: '[]',
    });
    expect(String(row.search)).toContain('ensaches');
  });

  test('PUT: every column rewritten from the record, the modifiers kept', async () => {
    const { id } = db
      .prepare("SELECT id FROM products WHERE modifiers <> '[]' ORDER BY id LIMIT 1")
      .get() as { id: number };
    const before = rowOf(id);
    expect(JSON.parse(String(before.modifiers))).not.toEqual([]);

    const updated = await api('PUT', `/v3/catalog/products/${String(id)}`, {
      name: 'Matelas Renommé',
      price: 612,
      inventory_level: 3,
    });
    expect(updated.status).toBe(200);
    const after = rowOf(id);
    expect(after).toEqual(expectedRow(after));
    expect(after).toMatchObject({ name: 'Matelas Renommé', price: 612, inventory_level: 3 });
    expect(after.modifiers).toBe(before.modifiers);
    expect(after.date_created).toBe(before.date_created);

    const read = await api<{ data: { modifiers: unknown[] } }>(
      'GET',
      `/v3/catalog/products/${String(id)}?include=modifiers`,
    );
    expect(read.body.data.modifiers).toEqual(JSON.parse(String(before.modifiers)));
  });
});
