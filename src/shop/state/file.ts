/**
 * The single-server `SharedStore` that survives restarts: one SQLite file (`node:sqlite`) in
 * the state directory (`STATE_DIR`, default `.data/`). Every operation is one SQL statement,
 * so `setIfAbsent`, `increment`, `deleteIfEquals` and `extendIfEquals` are atomic, also between processes that
 * share the file (WAL journal, busy timeout). Expired rows are deleted every minute (and every
 * few thousand writes); past the size bounds, the rows closest to expiry go first, so the
 * week-long session records outlive a flood of short-lived counters (a record lost anyway logs
 * its shopper out, never in).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { SharedStore } from './types.ts';

export interface FileStoreOptions {
  /** Directory of the database file (created when missing, mode 0700). */
  dir: string;
  /** File name inside `dir` (default `store.sqlite`). */
  fileName?: string;
  /** Most rows kept (default 1,000,000). */
  maxEntries?: number;
  /** Most bytes of live database pages (default 512 MiB). */
  maxBytes?: number;
  /** Milliseconds between clean-ups of expired rows (default 60 s). */
  cleanupEveryMs?: number;
  /** Milliseconds since the epoch (tests). */
  now?: () => number;
}

/** The default file of the store in a state directory. */
export const STORE_FILE_NAME = 'store.sqlite';

// A clean-up also runs after this many writes, so a flood cannot outgrow the bounds for long.
const WRITES_PER_CLEANUP = 5_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS entries (
  key TEXT PRIMARY KEY,
  value ANY NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS entries_expires_at ON entries (expires_at);
`;

const lifetime = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs));

const toBuffer = (value: unknown): Buffer | null => {
  if (typeof value === 'string') return Buffer.from(value);
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.length);
  return null;
};

export function createFileStore(options: FileStoreOptions): SharedStore {
  const maxEntries = options.maxEntries ?? 1_000_000;
  const maxBytes = options.maxBytes ?? 512 * 1024 * 1024;
  const now = options.now ?? Date.now;
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  const db = new DatabaseSync(path.join(options.dir, options.fileName ?? STORE_FILE_NAME));
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
  db.exec(SCHEMA);

  const select = db.prepare('SELECT value FROM entries WHERE key = ? AND expires_at > ?');
  const upsert = db.prepare(
    `INSERT INTO entries (key, value, expires_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
  );
  // The conflicting row is replaced only when it has expired (Redis SET NX PX).
  const insertAbsent = db.prepare(
    `INSERT INTO entries (key, value, expires_at) VALUES ($key, $value, $expiresAt)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
     WHERE entries.expires_at <= $now`,
  );
  // A fixed window: an expired counter starts again at 1 with a new lifetime.
  const incrementRow = db.prepare(
    `INSERT INTO entries (key, value, expires_at) VALUES ($key, '1', $expiresAt)
     ON CONFLICT (key) DO UPDATE SET
       value = CASE WHEN expires_at <= $now THEN '1'
                    ELSE CAST(CAST(value AS INTEGER) + 1 AS TEXT) END,
       expires_at = CASE WHEN expires_at <= $now THEN excluded.expires_at ELSE expires_at END
     RETURNING value`,
  );
  const selectExpiry = db.prepare(
    'SELECT expires_at FROM entries WHERE key = ? AND expires_at > ?',
  );
  const deleteRow = db.prepare('DELETE FROM entries WHERE key = ?');
  const deleteEqual = db.prepare(
    'DELETE FROM entries WHERE key = ? AND value = ? AND expires_at > ?',
  );
  const extendEqual = db.prepare(
    `UPDATE entries SET expires_at = max(expires_at, $expiresAt)
     WHERE key = $key AND value = $value AND expires_at > $now`,
  );
  const deleteExpired = db.prepare('DELETE FROM entries WHERE expires_at <= ?');
  const countRows = db.prepare('SELECT count(*) AS n FROM entries');
  const deleteSoonest = db.prepare(
    'DELETE FROM entries WHERE key IN (SELECT key FROM entries ORDER BY expires_at LIMIT ?)',
  );
  const pages = db.prepare(
    'SELECT (page_count - freelist_count) * page_size AS bytes FROM pragma_page_count(), pragma_freelist_count(), pragma_page_size()',
  );

  let writes = 0;
  const liveBytes = () => (pages.get() as { bytes: number }).bytes;
  const rowCount = () => (countRows.get() as { n: number }).n;

  /** Deletes expired rows, then the soonest-expiring ones while over a bound. */
  const cleanup = () => {
    writes = 0;
    deleteExpired.run(now());
    const excess = rowCount() - maxEntries;
    if (excess > 0) deleteSoonest.run(excess);
    // Deleted rows free pages: a tenth of the rows at a time until the live pages fit.
    while (liveBytes() > maxBytes) {
      const rows = rowCount();
      if (rows === 0) break;
      deleteSoonest.run(Math.max(1, Math.ceil(rows / 10)));
    }
  };
  const wrote = () => {
    writes += 1;
    if (writes >= WRITES_PER_CLEANUP) cleanup();
  };
  const timer = setInterval(cleanup, options.cleanupEveryMs ?? 60_000);
  timer.unref();

  // node:sqlite is synchronous: each call settles at once, errors become rejections.
  const attempt = <T>(work: () => T): Promise<T> => {
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };
  const read = (key: string): unknown =>
    (select.get(key, now()) as { value: unknown } | undefined)?.value;

  return {
    kind: 'file',
    get: (key) =>
      attempt(() => {
        const value = read(key);
        if (value === undefined) return null;
        return typeof value === 'string' ? value : (toBuffer(value)?.toString('utf8') ?? null);
      }),
    getBuffer: (key) => attempt(() => toBuffer(read(key))),
    set: (key, value, ttlMs) =>
      attempt(() => {
        upsert.run(key, value, now() + lifetime(ttlMs));
        wrote();
      }),
    setIfAbsent: (key, value, ttlMs) =>
      attempt(() => {
        const at = now();
        const { changes } = insertAbsent.run({
          key,
          value,
          expiresAt: at + lifetime(ttlMs),
          now: at,
        });
        wrote();
        return changes === 1;
      }),
    increment: (key, ttlMs) =>
      attempt(() => {
        const at = now();
        const row = incrementRow.get({ key, expiresAt: at + lifetime(ttlMs), now: at }) as {
          value: string;
        };
        wrote();
        return Number(row.value);
      }),
    ttl: (key) =>
      attempt(() => {
        const at = now();
        const row = selectExpiry.get(key, at) as { expires_at: number } | undefined;
        return row === undefined ? null : row.expires_at - at;
      }),
    delete: (key) =>
      attempt(() => {
        deleteRow.run(key);
      }),
    deleteIfEquals: (key, value) => attempt(() => deleteEqual.run(key, value, now()).changes === 1),
    extendIfEquals: (key, value, ttlMs) =>
      attempt(() => {
        const at = now();
        const expiresAt = at + lifetime(ttlMs);
        return extendEqual.run({ key, value, expiresAt, now: at }).changes === 1;
      }),
    close: () =>
      attempt(() => {
        clearInterval(timer);
        if (db.isOpen) db.close();
      }),
  };
}
