/**
 * The release's listings: what every shown category's listing is made of, in one SQLite file
 * (`node:sqlite`) beside the server bundle (`dist/server/listings.sqlite`), so the on-demand
 * listing view (`/vue/c/...?query`) renders from the same catalogue as the pre-rendered page 1
 * instead of reading a whole category live (3,339 products in 14 upstream pages for one
 * category at 100,000 products: never within the page's budget).
 *
 * - The build writes it from the catalogue its pages used (`writeListingStore`, called by the
 *   `listing-store` integration of astro.config.mjs).
 * - A build kept alive to publish edits brings it up to date with each publish, in one
 *   transaction, before the servers are told to forget what they rendered
 *   (`updateListingStore`, src/server/publish/publisher-loop.ts).
 * - A server serving the release reads one category at a time (`releaseListingSource`),
 *   kept in a small cache that a publish empties (`clearUpstreamCaches`).
 *
 * Without the file (`astro dev`, a release built before it existed), the view reads live
 * (listing-data.ts). WAL journal: the publisher writes while the servers read.
 *
 * It also holds the release's picture table: for each variant of a remote picture the build
 * (or a publish since) encoded into the release, its URL (`/_astro/{name}_{hash}.webp`), by
 * `transformKey`. The image service of the on-demand pages answers that URL instead of an
 * `/_image?href=...` one encoded on request (`releasePicture`): a listing view's cards show
 * the same files as page 1's.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { findCategoryByPath } from '../../lib/commerce/category.ts';
import type { CategoryNode, Product } from '../../lib/commerce/types.ts';
import { createCache } from '../connectors/http/cache.ts';
import type { Catalogue } from './catalogue-index.ts';
import { staticListingSource, type ListingSource } from './listing-source.ts';

/** The file's name in the release's `server/` folder. */
export const LISTING_STORE_FILE = 'listings.sqlite';

// Written once, whole, into a new file: no journal while it is (a failed build leaves no
// release); then the WAL journal, for the publisher writing while the servers read.
const SCHEMA = `
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
CREATE TABLE products (id INTEGER PRIMARY KEY, json TEXT NOT NULL) STRICT;
CREATE TABLE memberships (
  category_id INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  PRIMARY KEY (category_id, product_id)
) STRICT, WITHOUT ROWID;
CREATE TABLE listings (category_id INTEGER PRIMARY KEY, json TEXT NOT NULL) STRICT;
CREATE TABLE meta (key TEXT PRIMARY KEY, json TEXT NOT NULL) STRICT;
CREATE TABLE pictures (key TEXT PRIMARY KEY, url TEXT NOT NULL) STRICT, WITHOUT ROWID;
`;
// After the rows: a publish finds a product's memberships by product (linear otherwise).
const INDEXES = `
CREATE INDEX memberships_by_product ON memberships (product_id);
PRAGMA journal_mode = WAL;
`;

/** A listing without its products: the category, its trail, its children, the brands. */
type ListingHead = Omit<ListingSource, 'products'>;

function headsOf(cat: Catalogue): Map<number, string> {
  const heads = new Map<number, string>();
  for (const category of cat.categories) {
    if (!category.shown) continue;
    const { category: shown, trail, children, brands } = staticListingSource(cat, category);
    const head: ListingHead = { category: shown, trail, children, brands };
    heads.set(category.id, JSON.stringify(head));
  }
  return heads;
}

function transaction(db: DatabaseSync, work: () => void): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    work();
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

function writer(db: DatabaseSync, fresh = false) {
  const putProduct = db.prepare('INSERT OR REPLACE INTO products (id, json) VALUES (?, ?)');
  const dropProduct = db.prepare('DELETE FROM products WHERE id = ?');
  const dropMemberships = db.prepare('DELETE FROM memberships WHERE product_id = ?');
  const putMembership = db.prepare(
    'INSERT OR IGNORE INTO memberships (category_id, product_id) VALUES (?, ?)',
  );
  const putListing = db.prepare(
    'INSERT OR REPLACE INTO listings (category_id, json) VALUES (?, ?)',
  );
  const dropListing = db.prepare('DELETE FROM listings WHERE category_id = ?');
  const putMeta = db.prepare('INSERT OR REPLACE INTO meta (key, json) VALUES (?, ?)');
  const putPicture = db.prepare('INSERT OR REPLACE INTO pictures (key, url) VALUES (?, ?)');
  return {
    product(product: Product) {
      putProduct.run(product.id, JSON.stringify(product));
      if (!fresh) dropMemberships.run(product.id);
      for (const categoryId of new Set(product.categories)) {
        putMembership.run(categoryId, product.id);
      }
    },
    dropProduct(id: number) {
      dropProduct.run(id);
      dropMemberships.run(id);
    },
    listing: (categoryId: number, json: string) => putListing.run(categoryId, json),
    dropListing: (categoryId: number) => dropListing.run(categoryId),
    tree: (tree: readonly CategoryNode[]) => putMeta.run('tree', JSON.stringify(tree)),
    pictures(pictures: Iterable<PictureEntry>) {
      for (const [key, url] of pictures) putPicture.run(key, url);
    },
  };
}

/** Runs `work` in one transaction on the release's file, written while servers read it. */
function update(file: string, work: (write: ReturnType<typeof writer>) => void): void {
  const db = new DatabaseSync(file);
  try {
    // WAL: a commit is safe without a sync of the database file on each.
    db.exec('PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL');
    const write = writer(db);
    transaction(db, () => {
      work(write);
    });
  } finally {
    db.close();
  }
}

/** A picture variant's key (`transformKey`) and the URL of its file in the release. */
export type PictureEntry = readonly [key: string, url: string];

/**
 * Writes the listings of `cat`, and the release's pictures, into a new file at `file` (one
 * there is replaced).
 */
export async function writeListingStore(
  file: string,
  cat: Catalogue,
  pictures: Iterable<PictureEntry> = [],
): Promise<void> {
  for (const suffix of ['', '-wal', '-shm']) await rm(`${file}${suffix}`, { force: true });
  const db = new DatabaseSync(file);
  try {
    db.exec(SCHEMA);
    const write = writer(db, true);
    transaction(db, () => {
      for (const product of cat.products) write.product(product);
      for (const [id, json] of headsOf(cat)) write.listing(id, json);
      write.tree(cat.shownTree);
      write.pictures(pictures);
    });
    db.exec(INDEXES);
  } finally {
    db.close();
  }
}

/**
 * Brings the file written from `before` to `after` (a publish): the products that are not the
 * same objects (a patched read keeps the others), and the listings whose head changed.
 */
export function updateListingStore(file: string, before: Catalogue, after: Catalogue): void {
  update(file, (write) => {
    for (const product of after.products) {
      if (before.productById.get(product.id) !== product) write.product(product);
    }
    for (const product of before.products) {
      if (!after.productById.has(product.id)) write.dropProduct(product.id);
    }
    const [old, now] = [headsOf(before), headsOf(after)];
    for (const [id, json] of now) if (old.get(id) !== json) write.listing(id, json);
    for (const id of old.keys()) if (!now.has(id)) write.dropListing(id);
    if (JSON.stringify(before.shownTree) !== JSON.stringify(after.shownTree)) {
      write.tree(after.shownTree);
    }
  });
}

/** Adds pictures a publish encoded into the release (files written before, then these rows). */
export function addPictures(file: string, pictures: readonly PictureEntry[]): void {
  if (pictures.length > 0)
    update(file, (write) => {
      write.pictures(pictures);
    });
}

/**
 * Reads listings from a release's file; `listing(path)` is null for no shown category,
 * `picture(key)` null for a variant the release has no file of.
 */
export function openListingStore(file: string) {
  const db = new DatabaseSync(file, { readOnly: true });
  db.exec('PRAGMA busy_timeout = 5000');
  // A release written before the picture table existed has none: its pictures are encoded on
  // request, as they were.
  const hasPictures =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'pictures'").get() !==
    undefined;
  const picture = hasPictures ? db.prepare('SELECT url FROM pictures WHERE key = ?') : null;
  const meta = db.prepare('SELECT json FROM meta WHERE key = ?');
  const head = db.prepare('SELECT json FROM listings WHERE category_id = ?');
  const products = db.prepare(
    `SELECT p.json AS json FROM memberships m JOIN products p ON p.id = m.product_id
     WHERE m.category_id = ? ORDER BY m.product_id`,
  );
  const json = (row: unknown): string => (row as { json: string }).json;
  // The tree, parsed again only when a publish wrote another one.
  let tree = { text: '', nodes: [] as CategoryNode[] };
  const currentTree = (): CategoryNode[] | null => {
    const row = meta.get('tree');
    if (row === undefined) return null;
    const text = json(row);
    if (text !== tree.text) tree = { text, nodes: JSON.parse(text) as CategoryNode[] };
    return tree.nodes;
  };
  return {
    listing(path: string): ListingSource | null {
      const nodes = currentTree();
      if (nodes === null) return null;
      const node = findCategoryByPath(nodes, path);
      if (!node) return null;
      const row = head.get(node.id);
      if (row === undefined) return null;
      return {
        ...(JSON.parse(json(row)) as ListingHead),
        products: products.all(node.id).map((r) => JSON.parse(json(r)) as Product),
      };
    },
    picture(key: string): string | null {
      const row = picture?.get(key) as { url: string } | undefined;
      return row?.url ?? null;
    },
    close: () => {
      db.close();
    },
  };
}

// --- the release a server serves ------------------------------------------------------------

const SLOT = Symbol.for('literie.listing-store');

type Holder = typeof globalThis & {
  [SLOT]?: { file: string; store: ReturnType<typeof openListingStore> | null } | undefined;
};

/**
 * Tells this process which release's file its listing views read (src/server/serve.ts, before it
 * loads the release's pages: one process serves one release). Through `globalThis`, since the
 * pages run from a bundle with its own module instances. A release built without the file
 * (before it existed) has its listing views read live.
 */
export function useListingStore(file: string): void {
  const holder = globalThis as Holder;
  holder[SLOT]?.store?.close();
  // Looked for once: a release is complete before it is served.
  holder[SLOT] = existsSync(file) ? { file, store: null } : undefined;
}

/** The release's file as this process reads it (opened on first use), if it has one. */
function releaseStore(): ReturnType<typeof openListingStore> | undefined {
  const slot = (globalThis as Holder)[SLOT];
  if (slot === undefined) return undefined;
  slot.store ??= openListingStore(slot.file);
  return slot.store;
}

/** Listing sources read in this process: a publish empties it (clearUpstreamCaches). */
const sources = createCache<ListingSource | null>({
  ttlMs: 60 * 60_000,
  maxEntries: 200,
  // Products held at once: a few of the biggest categories at 100,000 products.
  maxWeight: 20_000,
  weigh: (source) => Math.max(1, source?.products.length ?? 0),
});

/**
 * The URL of the release's file for a picture variant (`transformKey`), or null: no file (a
 * picture no page of the release showed), or no release file to read (`astro dev`, a build).
 * Read each time: a publish adds rows, and a row is one indexed lookup.
 */
export function releasePicture(key: string): string | null {
  return releaseStore()?.picture(key) ?? null;
}

/**
 * The listing at a shop path (`/c/...`) from the release's file, null when no shown category
 * has that path; undefined when this process has no file to read (the caller reads live).
 */
export function releaseListingSource(path: string): Promise<ListingSource | null> | undefined {
  const store = releaseStore();
  if (store === undefined) return undefined;
  return sources.get(path, () => Promise.resolve(store.listing(path)));
}
