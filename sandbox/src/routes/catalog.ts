/** /v3/catalog/*: products, categories (tree, metafields), brands (catalog.v3.yml). */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { CATALOG_SORT_FIELDS, type CatalogSortField } from '../../../src/lib/sandbox-contract.ts';
import {
  collection,
  json,
  pagination,
  paging,
  placeholders,
  projectFields,
  v3Error,
  type Query,
  type Reply,
} from '../http.ts';
import { changeCount } from '../db.ts';
import { fold } from '../seed/random.ts';
import type { CategoryRecord } from '../seed/types.ts';
import type { RouteContext } from './context.ts';

// The catalog's sort values: the shop's table (listing.ts); each one's column here.
const SORT_COLUMNS: Record<CatalogSortField, string> = {
  id: 'id',
  name: 'name',
  sku: 'sku',
  price: 'price',
  date_modified: 'date_modified',
  date_last_imported: 'id',
  inventory_level: 'inventory_level',
  is_visible: 'is_visible',
  total_sold: 'total_sold',
};
const PRODUCT_INCLUDES = [
  'variants',
  'images',
  'custom_fields',
  'bulk_pricing_rules',
  'primary_image',
  'modifiers',
  'options',
  'videos',
] as const;

/** Collects SQL conditions and their parameters. */
class Where {
  readonly clauses: string[] = [];
  readonly params: SQLInputValue[] = [];
  add(clause: string, ...params: SQLInputValue[]): void {
    this.clauses.push(clause);
    this.params.push(...params);
  }
  get sql(): string {
    return this.clauses.length > 0 ? `WHERE ${this.clauses.join(' AND ')}` : '';
  }
}

/** id, id:in, id:not_in, id:min, id:max, id:greater, id:less (FilterId* parameters). */
function idFilters(where: Where, query: Query, column = 'id', name = 'id'): void {
  const id = query.int(name);
  if (id !== undefined) where.add(`${column} = ?`, id);
  const ids = query.intList(`${name}:in`);
  if (ids) where.add(`${column} IN (${placeholders(ids.length)})`, ...ids);
  const notIn = query.intList(`${name}:not_in`);
  if (notIn) where.add(`${column} NOT IN (${placeholders(notIn.length)})`, ...notIn);
  const ops: [string, string][] = [
    ['min', '>='],
    ['max', '<='],
    ['greater', '>'],
    ['less', '<'],
  ];
  for (const [suffix, op] of ops) {
    const value = query.int(`${name}:${suffix}`);
    if (value !== undefined) where.add(`${column} ${op} ?`, value);
  }
}

function likeEscape(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function includes(query: Query): Set<string> {
  const values = query.list('include') ?? [];
  return new Set(values.filter((v) => (PRODUCT_INCLUDES as readonly string[]).includes(v)));
}

interface ProductRow {
  id: number;
  base: string;
  variants: string;
  images: string;
  custom_fields: string;
  options: string;
  modifiers: string;
}

function productJson(row: ProductRow, include: Set<string>, query: Query, origin: string): string {
  const absolute = (text: string): string => text.replaceAll('"/images/', `"${origin}/images/`);
  let base = row.base;
  if (query.string('include_fields') || query.string('exclude_fields')) {
    base = JSON.stringify(projectFields(JSON.parse(row.base) as object, query));
  }
  const parts: string[] = [];
  if (include.has('variants')) parts.push(`"variants":${absolute(row.variants)}`);
  if (include.has('images')) parts.push(`"images":${absolute(row.images)}`);
  if (include.has('primary_image')) {
    const images = JSON.parse(row.images) as { is_thumbnail: boolean }[];
    const primary = images.find((i) => i.is_thumbnail) ?? images[0] ?? null;
    parts.push(`"primary_image":${absolute(JSON.stringify(primary))}`);
  }
  if (include.has('custom_fields')) parts.push(`"custom_fields":${row.custom_fields}`);
  if (include.has('options')) parts.push(`"options":${row.options}`);
  if (include.has('modifiers')) parts.push(`"modifiers":${row.modifiers}`);
  if (include.has('bulk_pricing_rules')) parts.push('"bulk_pricing_rules":[]');
  if (include.has('videos')) parts.push('"videos":[]');
  if (parts.length === 0) return base;
  return base === '{}' ? `{${parts.join(',')}}` : `${base.slice(0, -1)},${parts.join(',')}}`;
}

const PRODUCT_COLUMNS = 'id, base, variants, images, custom_fields, options, modifiers';

/**
 * The columns a reply with these `include`s reads (the others come back as '[]', unused):
 * an options batch reads 3 kB a product instead of 10 kB.
 */
function columnsFor(include: Set<string>): string {
  const wanted = (column: string, ...names: string[]) =>
    names.some((name) => include.has(name)) ? column : `'[]' AS ${column}`;
  return [
    'id',
    'base',
    wanted('variants', 'variants'),
    wanted('images', 'images', 'primary_image'),
    wanted('custom_fields', 'custom_fields'),
    wanted('options', 'options'),
    wanted('modifiers', 'modifiers'),
  ].join(', ');
}

export function listProducts(ctx: RouteContext): Reply {
  const { query, db } = ctx;
  const where = new Where();
  idFilters(where, query);
  const name = query.string('name');
  if (name !== undefined) where.add('name = ?', name);
  const nameLike = query.string('name:like');
  if (nameLike !== undefined) where.add("name LIKE ? ESCAPE '\\'", likeEscape(nameLike));
  const sku = query.string('sku');
  if (sku !== undefined) where.add('sku = ?', sku);
  const skus = query.list('sku:in');
  if (skus) {
    where.add(
      `(sku IN (${placeholders(skus.length)}) OR id IN (SELECT product_id FROM skus WHERE sku IN (${placeholders(skus.length)})))`,
      ...skus,
      ...skus,
    );
  }
  const price = query.number('price');
  if (price !== undefined) where.add('price = ?', price);
  const priceMin = query.number('price:min');
  if (priceMin !== undefined) where.add('price >= ?', priceMin);
  const priceMax = query.number('price:max');
  if (priceMax !== undefined) where.add('price <= ?', priceMax);
  const brandId = query.int('brand_id');
  if (brandId !== undefined) where.add('brand_id = ?', brandId);
  const brandIds = query.intList('brand_id:in');
  if (brandIds) where.add(`brand_id IN (${placeholders(brandIds.length)})`, ...brandIds);
  const visible = query.bool('is_visible');
  if (visible !== undefined) where.add('is_visible = ?', visible ? 1 : 0);
  const featured = query.int('is_featured');
  if (featured !== undefined)
    where.add("json_extract(base, '$.is_featured') = ?", featured ? 1 : 0);
  const category = query.int('categories');
  if (category !== undefined) {
    // catalog.v3.yml: `categories` only returns products in that one category; use categories:in otherwise.
    where.add(
      'id IN (SELECT product_id FROM product_categories GROUP BY product_id HAVING COUNT(*) = 1 AND MAX(category_id) = ?)',
      category,
    );
  }
  const categories = query.intList('categories:in');
  if (categories) {
    where.add(
      `id IN (SELECT product_id FROM product_categories WHERE category_id IN (${placeholders(categories.length)}))`,
      ...categories,
    );
  }
  const inventoryMin = query.int('inventory_level:min');
  if (inventoryMin !== undefined) where.add('inventory_level >= ?', inventoryMin);
  const inventoryMax = query.int('inventory_level:max');
  if (inventoryMax !== undefined) where.add('inventory_level <= ?', inventoryMax);
  const modifiedMin = query.string('date_modified:min');
  if (modifiedMin !== undefined) where.add('date_modified >= ?', modifiedMin);
  const modifiedMax = query.string('date_modified:max');
  if (modifiedMax !== undefined) where.add('date_modified <= ?', modifiedMax);
  query.oneOf('type', ['physical', 'digital'] as const);
  if (query.string('type') === 'digital') where.add('0');
  const keyword = query.string('keyword');
  if (keyword !== undefined) {
    const words = fold(keyword).split(/\s+/).filter(Boolean);
    for (const word of words) where.add("search LIKE ? ESCAPE '\\'", likeEscape(word));
  }

  const sort = query.oneOf('sort', CATALOG_SORT_FIELDS) ?? 'id';
  const direction = query.oneOf('direction', ['asc', 'desc'] as const) ?? 'asc';
  const include = includes(query);
  const paged = paging(query);
  // catalog.v3.yml: with include=options or modifiers, results are limited to 10 per page.
  if (include.has('options') || include.has('modifiers')) {
    paged.limit = Math.min(paged.limit, 10);
    paged.offset = (paged.page - 1) * paged.limit;
  }

  // The matching ids in reply order, once per query while the catalogue is unchanged
  // (`orderedIds`); a page is then its slice, read by primary key: no COUNT(*) and no OFFSET
  // walk per page, which made a whole-catalogue read grow with its square.
  const ids = orderedIds(
    db,
    `SELECT id FROM products ${where.sql} ORDER BY ${SORT_COLUMNS[sort]} ${direction.toUpperCase()}, id ASC`,
    where.params,
    paged.limit,
  );
  const pageIds = ids.slice(paged.offset, paged.offset + paged.limit);
  const rows =
    pageIds.length === 0
      ? []
      : (db
          .prepare(
            `SELECT ${columnsFor(include)} FROM products WHERE id IN (${placeholders(pageIds.length)})`,
          )
          .all(...pageIds) as unknown as ProductRow[]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const items = pageIds.flatMap((id) => {
    const row = byId.get(id);
    return row === undefined ? [] : [productJson(row, include, query, ctx.origin)];
  });
  return collection(items, { pagination: pagination(query, paged, ids.length, items.length) });
}

/** Ordered id lists kept per database: at most this many queries, the least recently used out. */
const MAX_ID_LISTS = 16;
const idLists = new WeakMap<DatabaseSync, Map<string, { version: number; ids: number[] }>>();

/**
 * The ids `sql` selects, in its order. A list longer than one page (`limit`) is kept for the
 * next pages of the same query until the database changes (`changeCount`), so that walking a
 * catalogue of N products in pages costs one indexed pass over the matching ids plus N rows
 * read by primary key, whatever the page. Replies stay those of a fresh query: same order,
 * same totals, and any write starts over.
 */
export function orderedIds(
  db: DatabaseSync,
  sql: string,
  params: readonly SQLInputValue[],
  limit: number,
): number[] {
  const version = changeCount(db);
  let lists = idLists.get(db);
  if (lists === undefined) {
    lists = new Map();
    idLists.set(db, lists);
  }
  const key = `${sql}\u0000${JSON.stringify(params)}`;
  const kept = lists.get(key);
  if (kept !== undefined) {
    lists.delete(key);
    if (kept.version === version) {
      lists.set(key, kept);
      return kept.ids;
    }
  }
  const ids = (db.prepare(sql).all(...params) as { id: number }[]).map((row) => row.id);
  if (ids.length > limit) {
    lists.set(key, { version, ids });
    for (const oldest of lists.keys()) {
      if (lists.size <= MAX_ID_LISTS) break;
      lists.delete(oldest);
    }
  }
  return ids;
}

export function getProduct(ctx: RouteContext): Reply {
  const id = Number(ctx.params.id);
  const row = ctx.db
    .prepare(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE id = ?`)
    .get(id) as unknown as ProductRow | undefined;
  if (!row) return v3Error(404, 'The requested product was not found.');
  return {
    status: 200,
    body: `{"data":${productJson(row, includes(ctx.query), ctx.query, ctx.origin)},"meta":{}}`,
  };
}

interface DocRow {
  doc: string;
}

function categoryFilters(query: Query): Where {
  const where = new Where();
  idFilters(where, query);
  idFilters(where, query, 'parent_id', 'parent_id');
  const name = query.string('name');
  if (name !== undefined) where.add('name = ?', name);
  const nameLike = query.string('name:like');
  if (nameLike !== undefined) where.add("search LIKE ? ESCAPE '\\'", likeEscape(fold(nameLike)));
  const keyword = query.string('keyword');
  if (keyword !== undefined) where.add("search LIKE ? ESCAPE '\\'", likeEscape(fold(keyword)));
  const visible = query.bool('is_visible');
  if (visible !== undefined) where.add('is_visible = ?', visible ? 1 : 0);
  return where;
}

export function listCategories(ctx: RouteContext): Reply {
  const { db, query } = ctx;
  const where = categoryFilters(query);
  const paged = paging(query);
  const total = (
    db.prepare(`SELECT COUNT(*) AS n FROM categories ${where.sql}`).get(...where.params) as {
      n: number;
    }
  ).n;
  const rows = db
    .prepare(`SELECT doc FROM categories ${where.sql} ORDER BY id LIMIT ? OFFSET ?`)
    .all(...where.params, paged.limit, paged.offset) as unknown as DocRow[];
  const items = rows.map((r) =>
    JSON.stringify(projectFields(JSON.parse(r.doc) as CategoryRecord, query)),
  );
  return collection(items, { pagination: pagination(query, paged, total, items.length) });
}

export function getCategory(ctx: RouteContext): Reply {
  const row = ctx.db
    .prepare('SELECT doc FROM categories WHERE id = ?')
    .get(Number(ctx.params.id)) as DocRow | undefined;
  if (!row) return v3Error(404, 'The requested category was not found.');
  return json(200, {
    data: projectFields(JSON.parse(row.doc) as CategoryRecord, ctx.query),
    meta: {},
  });
}

interface TreeNode {
  id: number;
  parent_id: number;
  depth: number;
  path: number[];
  name: string;
  is_visible: boolean;
  children: TreeNode[];
  url: string;
}

/** GET /v3/catalog/categories/tree: every category, nested, in sort order (hidden ones included). */
export function categoryTree(ctx: RouteContext): Reply {
  const rows = ctx.db
    .prepare('SELECT doc FROM categories ORDER BY sort_order, id')
    .all() as unknown as DocRow[];
  const categories = rows.map((r) => JSON.parse(r.doc) as CategoryRecord);
  const build = (parentId: number, depth: number, path: number[]): TreeNode[] =>
    categories
      .filter((c) => c.parent_id === parentId)
      .map((c) => ({
        id: c.id,
        parent_id: c.parent_id,
        depth,
        path: [...path, c.id],
        name: c.name,
        is_visible: c.is_visible,
        children: build(c.id, depth + 1, [...path, c.id]),
        url: c.custom_url.url,
      }));
  return json(200, { data: build(0, 0, []), meta: {} });
}

function metafieldsReply(ctx: RouteContext, where: Where): Reply {
  const { db, query } = ctx;
  const key = query.string('key');
  if (key !== undefined) where.add('key = ?', key);
  const keys = query.list('key:in');
  if (keys) where.add(`key IN (${placeholders(keys.length)})`, ...keys);
  const namespace = query.string('namespace');
  if (namespace !== undefined) where.add('namespace = ?', namespace);
  const namespaces = query.list('namespace:in');
  if (namespaces) where.add(`namespace IN (${placeholders(namespaces.length)})`, ...namespaces);
  const direction = query.oneOf('direction', ['asc', 'desc'] as const) ?? 'asc';
  const paged = paging(query);
  const total = (
    db.prepare(`SELECT COUNT(*) AS n FROM metafields ${where.sql}`).get(...where.params) as {
      n: number;
    }
  ).n;
  const rows = db
    .prepare(
      `SELECT doc FROM metafields ${where.sql} ORDER BY id ${direction.toUpperCase()} LIMIT ? OFFSET ?`,
    )
    .all(...where.params, paged.limit, paged.offset) as unknown as DocRow[];
  return collection(
    rows.map((r) => r.doc),
    { pagination: pagination(query, paged, total, rows.length) },
  );
}

/** GET /v3/catalog/categories/{id}/metafields */
export function categoryMetafields(ctx: RouteContext): Reply {
  const id = Number(ctx.params.id);
  const exists = ctx.db.prepare('SELECT 1 AS ok FROM categories WHERE id = ?').get(id);
  if (!exists) return v3Error(404, 'The requested category was not found.');
  const where = new Where();
  where.add("resource_type = 'category'");
  where.add('resource_id = ?', id);
  return metafieldsReply(ctx, where);
}

/** GET /v3/catalog/categories/metafields: every category metafield (batch). */
export function allCategoryMetafields(ctx: RouteContext): Reply {
  const where = new Where();
  where.add("resource_type = 'category'");
  idFilters(where, ctx.query);
  const resources = ctx.query.intList('resource_id:in');
  if (resources) where.add(`resource_id IN (${placeholders(resources.length)})`, ...resources);
  return metafieldsReply(ctx, where);
}

export function listBrands(ctx: RouteContext): Reply {
  const { db, query } = ctx;
  const where = new Where();
  idFilters(where, query);
  const name = query.string('name');
  if (name !== undefined) where.add('name = ?', name);
  const nameLike = query.string('name:like');
  if (nameLike !== undefined) where.add("name LIKE ? ESCAPE '\\'", likeEscape(nameLike));
  const pageTitle = query.string('page_title');
  if (pageTitle !== undefined) where.add("json_extract(doc, '$.page_title') = ?", pageTitle);
  const paged = paging(query);
  const total = (
    db.prepare(`SELECT COUNT(*) AS n FROM brands ${where.sql}`).get(...where.params) as {
      n: number;
    }
  ).n;
  const rows = db
    .prepare(`SELECT doc FROM brands ${where.sql} ORDER BY id LIMIT ? OFFSET ?`)
    .all(...where.params, paged.limit, paged.offset) as unknown as DocRow[];
  const items = rows.map((r) => JSON.stringify(projectFields(JSON.parse(r.doc) as object, query)));
  return collection(items, { pagination: pagination(query, paged, total, items.length) });
}

export function getBrand(ctx: RouteContext): Reply {
  const row = ctx.db.prepare('SELECT doc FROM brands WHERE id = ?').get(Number(ctx.params.id)) as
    DocRow | undefined;
  if (!row) return v3Error(404, 'The requested brand was not found.');
  return json(200, { data: projectFields(JSON.parse(row.doc) as object, ctx.query), meta: {} });
}
