/**
 * The sandbox database (node:sqlite). Records are stored as the JSON BigCommerce sends, with
 * the columns filters and sorts need beside them, indexed.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import {
  banners,
  channel,
  channelCurrencies,
  redirects,
  storeInformation,
} from './seed/content.ts';
import { insertOrder, loadProduct } from './model.ts';
import { hashPassword } from './passwords.ts';
import { productWriter } from './product-row.ts';
import { seedContentful } from './seed/contentful.ts';
import { CONTENTFUL_SCHEMA } from './seed/contentful-model.ts';
import { orderAddress, SEED_CUSTOMERS } from './seed/customers.ts';
import { hostileBanner, hostileCategory, hostileProduct } from './seed/hostile.ts';
import { buildSkeleton, generateProducts } from './seed/products.ts';
import { fold } from './seed/random.ts';

/**
 * Hash of the seed's source (this file, model.ts, product-row.ts and seed/): editing one
 * re-seeds older databases.
 */
export const SEED_VERSION = (() => {
  const hash = createHash('sha1');
  const here = new URL('.', import.meta.url);
  hash.update(readFileSync(new URL('db.ts', here)));
  hash.update(readFileSync(new URL('model.ts', here)));
  hash.update(readFileSync(new URL('product-row.ts', here)));
  const seedDir = new URL('seed/', here);
  for (const file of readdirSync(seedDir).sort()) hash.update(readFileSync(new URL(file, seedDir)));
  return hash.digest('hex').slice(0, 12);
})();

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE products (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  sku TEXT NOT NULL,
  price REAL NOT NULL,
  brand_id INTEGER NOT NULL,
  is_visible INTEGER NOT NULL,
  total_sold INTEGER NOT NULL,
  inventory_level INTEGER NOT NULL,
  date_modified TEXT NOT NULL,
  search TEXT NOT NULL,
  base TEXT NOT NULL,
  variants TEXT NOT NULL,
  images TEXT NOT NULL,
  custom_fields TEXT NOT NULL,
  options TEXT NOT NULL,
  modifiers TEXT NOT NULL DEFAULT '[]',
  date_created TEXT NOT NULL DEFAULT '',
  rated_1 INTEGER NOT NULL DEFAULT 0,
  rated_2 INTEGER NOT NULL DEFAULT 0,
  rated_3 INTEGER NOT NULL DEFAULT 0,
  rated_4 INTEGER NOT NULL DEFAULT 0,
  rated_5 INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX products_visible ON products (is_visible);
CREATE INDEX products_visible_created ON products (is_visible, date_created);
CREATE INDEX products_visible_rated
  ON products (is_visible, rated_1, rated_2, rated_3, rated_4, rated_5);
CREATE INDEX products_name ON products (name);
CREATE INDEX products_sku ON products (sku);
CREATE INDEX products_price ON products (price);
CREATE INDEX products_brand ON products (brand_id);
CREATE INDEX products_total_sold ON products (total_sold);
CREATE INDEX products_date_modified ON products (date_modified);
CREATE TABLE product_categories (
  category_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  PRIMARY KEY (category_id, product_id)
) WITHOUT ROWID;
CREATE TABLE skus (sku TEXT NOT NULL, product_id INTEGER NOT NULL);
CREATE INDEX skus_sku ON skus (sku);
CREATE TABLE categories (
  id INTEGER PRIMARY KEY,
  parent_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  is_visible INTEGER NOT NULL,
  sort_order INTEGER NOT NULL,
  search TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE TABLE brands (id INTEGER PRIMARY KEY, name TEXT NOT NULL, doc TEXT NOT NULL);
CREATE TABLE metafields (
  id INTEGER PRIMARY KEY,
  resource_type TEXT NOT NULL,
  resource_id INTEGER NOT NULL,
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE TABLE redirects (
  id INTEGER PRIMARY KEY,
  site_id INTEGER NOT NULL,
  from_path TEXT NOT NULL,
  type TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE TABLE banners (id INTEGER PRIMARY KEY, doc TEXT NOT NULL);
CREATE TABLE documents (name TEXT PRIMARY KEY, doc TEXT NOT NULL);
CREATE TABLE carts (
  id TEXT PRIMARY KEY,
  customer_id INTEGER NOT NULL,
  updated_time TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE TABLE cart_metafields (
  id INTEGER PRIMARY KEY,
  cart_id TEXT NOT NULL,
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX cart_metafields_cart ON cart_metafields (cart_id);
CREATE TABLE customers (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password TEXT,
  last_name TEXT NOT NULL,
  date_created TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE TABLE addresses (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE INDEX addresses_customer ON addresses (customer_id);
CREATE TABLE form_field_values (
  customer_id INTEGER,
  address_id INTEGER,
  name TEXT NOT NULL,
  value TEXT NOT NULL
);
CREATE UNIQUE INDEX form_field_values_key
  ON form_field_values (IFNULL(customer_id, 0), IFNULL(address_id, 0), name);
CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL,
  cart_id TEXT NOT NULL,
  status_id INTEGER NOT NULL,
  email TEXT NOT NULL,
  payment_method TEXT NOT NULL,
  total REAL NOT NULL,
  date_created TEXT NOT NULL,
  date_modified TEXT NOT NULL,
  doc TEXT NOT NULL,
  products TEXT NOT NULL,
  shipping_addresses TEXT NOT NULL,
  shipments TEXT NOT NULL
);
CREATE INDEX orders_customer ON orders (customer_id);
CREATE INDEX orders_cart ON orders (cart_id);
CREATE TABLE order_products (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL);
CREATE TABLE reviews (id INTEGER PRIMARY KEY, product_id INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE INDEX reviews_product ON reviews (product_id);
CREATE TABLE outbox (
  uuid TEXT PRIMARY KEY,
  message_id TEXT NOT NULL,
  recipients TEXT NOT NULL,
  date TEXT NOT NULL,
  doc TEXT NOT NULL
);
CREATE TABLE login_tokens (jti TEXT PRIMARY KEY, used_at TEXT NOT NULL);
`;

/**
 * Rows written (inserted, updated or deleted) through this connection since it opened
 * (SQLite's `total_changes()`): the sandbox's one connection makes every write, so a reply
 * computed at one count holds until the count moves. The version of the replies kept for the
 * next request (routes/catalog.ts `orderedIds`, the site rating of guaranteed-reviews.ts).
 */
export function changeCount(db: DatabaseSync): number {
  return (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
}

/** First id of reviews created through the API (derived ones are product id * 1000 + n). */
export const FIRST_STORED_REVIEW_ID = 100_000_000;

export interface SeedOptions {
  storeHash: string;
  /** Catalogue size; undefined means the hand-written seed. */
  products?: number | undefined;
  /**
   * Channel site URL. Given, it is written at each start (it wins over a former PUT); omitted,
   * a fresh seed uses `http://localhost:4321`.
   */
  siteUrl?: string | undefined;
  /** Adds the hostile catalogue (seed/hostile.ts); default false. */
  hostile?: boolean | undefined;
}

export interface SeedReport {
  seeded: boolean;
  products: number;
  ms: number;
}

function seedKey(options: SeedOptions): string {
  return JSON.stringify({
    v: SEED_VERSION,
    storeHash: options.storeHash,
    products: options.products ?? null,
    hostile: options.hostile ?? false,
  });
}

export const DEFAULT_SITE_URL = 'http://localhost:4321';

function siteDocument(url: string): string {
  return JSON.stringify({
    id: 1000,
    url,
    channel_id: 1,
    created_at: '2024-01-02T09:00:00Z',
    updated_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  });
}

/** Opens `{dataDir}/sandbox.db`, creating and seeding it when missing or from another seed. */
export async function openDatabase(
  dataDir: string,
  options: SeedOptions,
): Promise<{ db: DatabaseSync; report: SeedReport }> {
  mkdirSync(dataDir, { recursive: true });
  const db = new DatabaseSync(join(dataDir, 'sandbox.db'));
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  const started = performance.now();
  let current: string | undefined;
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'seed'").get() as
      { value: string } | undefined;
    current = row?.value;
  } catch {
    current = undefined;
  }
  if (current === seedKey(options)) {
    if (options.siteUrl !== undefined) {
      db.prepare("UPDATE documents SET doc = ? WHERE name = 'site:1'").run(
        siteDocument(options.siteUrl),
      );
    }
    const count = db.prepare('SELECT COUNT(*) AS n FROM products').get() as { n: number };
    return { db, report: { seeded: false, products: count.n, ms: performance.now() - started } };
  }
  // scrypt at OWASP's parameters takes ~0.3 s per password: hashed before the transaction, in parallel.
  const passwords = await Promise.all(SEED_CUSTOMERS.map((c) => hashPassword(c.password)));
  const products = seed(db, options, passwords);
  return { db, report: { seeded: true, products, ms: performance.now() - started } };
}

function seed(db: DatabaseSync, options: SeedOptions, passwords: string[]): number {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
    name: string;
  }[];
  db.exec('BEGIN');
  try {
    for (const { name } of tables) db.exec(`DROP TABLE IF EXISTS "${name}"`);
    db.exec(SCHEMA + CONTENTFUL_SCHEMA);
    const skeleton = buildSkeleton();
    const hostile = options.hostile ? hostileRecords(skeleton) : null;
    if (hostile) skeleton.categories.push(hostile.category);

    const insertCategory = db.prepare('INSERT INTO categories VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const c of skeleton.categories) {
      insertCategory.run(
        c.id,
        c.parent_id,
        c.name,
        c.is_visible ? 1 : 0,
        c.sort_order,
        fold(c.name),
        JSON.stringify(c),
      );
    }
    const insertBrand = db.prepare('INSERT INTO brands VALUES (?, ?, ?)');
    for (const b of skeleton.brands) insertBrand.run(b.id, b.name, JSON.stringify(b));
    const insertMetafield = db.prepare('INSERT INTO metafields VALUES (?, ?, ?, ?, ?, ?)');
    for (const m of skeleton.metafields) {
      insertMetafield.run(
        m.id,
        m.resource_type,
        m.resource_id,
        m.namespace,
        m.key,
        JSON.stringify(m),
      );
    }

    const products = productWriter(db);
    const insertLink = db.prepare('INSERT OR IGNORE INTO product_categories VALUES (?, ?)');
    const insertSku = db.prepare('INSERT INTO skus VALUES (?, ?)');
    const productByName = new Map<string, { id: number; url: string }>();
    const technologies = new Set<string>();
    let count = 0;
    const generated = generateProducts(skeleton, { products: options.products });
    for (const p of hostile ? [...generated, hostile.product] : generated) {
      const b = p.base;
      products.insert(p);
      for (const categoryId of b.categories) insertLink.run(categoryId, b.id);
      for (const v of p.variants) insertSku.run(v.sku, b.id);
      for (const f of p.custom_fields) if (f.name === 'technology') technologies.add(f.value);
      if (count < 1000) productByName.set(b.name, { id: b.id, url: b.custom_url.url });
      count++;
    }

    const find = <T>(map: Map<string, T>, name: string): T => {
      const found = map.get(name);
      if (found === undefined) throw new Error(`seed: unknown ${name}`);
      return found;
    };
    const categoryByName = new Map(
      skeleton.categories.map((c) => [c.name, { id: c.id, url: c.custom_url.url }]),
    );
    const brandByName = new Map(
      skeleton.brands.map((b) => [b.name, { id: b.id, url: b.custom_url.url }]),
    );
    const insertRedirect = db.prepare('INSERT INTO redirects VALUES (?, ?, ?, ?, ?)');
    for (const r of redirects({
      productUrl: (name) => find(productByName, name),
      categoryUrl: (name) => find(categoryByName, name),
      brandUrl: (name) => find(brandByName, name),
    })) {
      insertRedirect.run(r.id, r.site_id, r.from_path, r.to.type, JSON.stringify(r));
    }
    const insertBanner = db.prepare('INSERT INTO banners VALUES (?, ?)');
    const matelas = find(categoryByName, 'Matelas');
    const dormelune = find(brandByName, 'Dormelune');
    for (const banner of [
      ...banners(matelas.id, dormelune.id),
      ...(hostile ? [hostile.banner] : []),
    ])
      insertBanner.run(banner.id, JSON.stringify(banner));
    const insertDocument = db.prepare('INSERT INTO documents VALUES (?, ?)');
    insertDocument.run('store', JSON.stringify(storeInformation(options.storeHash)));
    insertDocument.run('channel:1', JSON.stringify(channel()));
    insertDocument.run('channel:1:currencies', JSON.stringify(channelCurrencies()));
    insertDocument.run('site:1', siteDocument(options.siteUrl ?? DEFAULT_SITE_URL));
    seedCustomers(db, passwords);
    seedContentful(db, {
      categories: skeleton.categories,
      brands: skeleton.brands,
      technologies: [...technologies],
      hostile: options.hostile ?? false,
    });
    db.prepare("INSERT INTO meta VALUES ('seed', ?)").run(seedKey(options));
    db.exec('COMMIT');
    return count;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** The hostile category (under Accessoires), its product and the banner. */
function hostileRecords(skeleton: ReturnType<typeof buildSkeleton>) {
  const parent = skeleton.categories.find((c) => c.name === 'Accessoires');
  const leaf = skeleton.leaves.find((l) => l.path[0] === parent?.id);
  if (!parent || !leaf) throw new Error('seed: no Accessoires leaf for the hostile catalogue');
  const category = hostileCategory(parent);
  return { category, product: hostileProduct(skeleton, category, leaf), banner: hostileBanner() };
}

/** Customers, their addresses and form fields, and their orders (needs the catalogue). */
function seedCustomers(db: DatabaseSync, passwords: string[]): void {
  const insertCustomer = db.prepare('INSERT INTO customers VALUES (?, ?, ?, ?, ?, ?)');
  const insertAddress = db.prepare('INSERT INTO addresses VALUES (?, ?, ?)');
  const insertField = db.prepare(
    'INSERT INTO form_field_values (customer_id, address_id, name, value) VALUES (?, NULL, ?, ?)',
  );
  SEED_CUSTOMERS.forEach((c, index) => {
    const doc = {
      id: c.id,
      email: c.email,
      first_name: c.first_name,
      last_name: c.last_name,
      company: c.company,
      phone: c.phone,
      notes: '',
      tax_exempt_category: '',
      registration_ip_address: '',
      customer_group_id: 0,
      date_created: c.date_created,
      date_modified: c.date_created,
      accepts_product_review_abandoned_cart_emails: c.accepts_product_review_abandoned_cart_emails,
      origin_channel_id: 1,
      channel_ids: [1],
      store_credit_amounts: [{ amount: 0 }],
      force_password_reset: false,
    };
    insertCustomer.run(
      c.id,
      c.email,
      passwords[index] ?? null,
      c.last_name,
      c.date_created,
      JSON.stringify(doc),
    );
    for (const f of c.form_fields) insertField.run(c.id, f.name, JSON.stringify(f.value));
    for (const a of c.addresses) {
      insertAddress.run(a.id, c.id, JSON.stringify({ ...a, customer_id: c.id }));
    }
    const home = c.addresses[0];
    if (!home) return;
    for (const o of c.orders) {
      insertOrder(db, {
        customer_id: c.id,
        status_id: o.status_id,
        cart_id: '',
        date: new Date(o.date),
        billing: orderAddress(c, home),
        shipping: orderAddress(c, home),
        payment_method: 'Credit Card',
        lines: o.lines.map((line) => {
          const product = loadProduct(db, line.product_id);
          const variant = product?.variants.find((v) => v.id === line.variant_id);
          if (!product || !variant) throw new Error(`seed: unknown variant ${line.variant_id}`);
          return { product, variant, quantity: line.quantity };
        }),
        ...(o.shipment
          ? {
              shipments: [
                {
                  date: new Date(o.shipment.date),
                  tracking_number: o.shipment.tracking_number,
                  tracking_carrier: 'colissimo',
                  tracking_link: `https://www.laposte.fr/outils/suivre-vos-envois?code=${o.shipment.tracking_number}`,
                  shipping_method: 'Colissimo',
                },
              ],
            }
          : {}),
      });
    }
  });
}
