/**
 * The in-process `SharedStore`: one Map with lifetimes, bounded in entries and bytes (the
 * oldest entries go first when full, so a flood of new keys cannot grow memory). For one
 * server copy and for tests; several copies share Redis instead (`redis.ts`).
 */
import type { SharedStore } from './types.ts';

interface Entry {
  value: string | Buffer;
  expiresAt: number;
  bytes: number;
}

export interface MemoryStoreOptions {
  /** Most entries kept (default 100,000). */
  maxEntries?: number;
  /** Most bytes of values kept (default 256 MiB). */
  maxBytes?: number;
  /** Milliseconds since the epoch (tests). */
  now?: () => number;
}

export function createMemoryStore(options: MemoryStoreOptions = {}): SharedStore {
  const maxEntries = options.maxEntries ?? 100_000;
  const maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let bytes = 0;

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now()) {
      remove(key);
      return undefined;
    }
    return entry;
  };
  const put = (key: string, value: string | Buffer, ttlMs: number) => {
    remove(key);
    const size = typeof value === 'string' ? Buffer.byteLength(value) : value.length;
    entries.set(key, { value, expiresAt: now() + Math.max(1, ttlMs), bytes: size + key.length });
    bytes += size + key.length;
    if (entries.size <= maxEntries && bytes <= maxBytes) return;
    const at = now();
    for (const [k, entry] of entries) if (entry.expiresAt <= at) remove(k);
    // Maps iterate in insertion order: the first keys are the oldest writes.
    for (const k of entries.keys()) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break;
      if (k !== key) remove(k);
    }
  };

  return {
    kind: 'memory',
    get(key) {
      const value = live(key)?.value;
      if (value === undefined) return Promise.resolve(null);
      return Promise.resolve(typeof value === 'string' ? value : value.toString('utf8'));
    },
    getBuffer(key) {
      const value = live(key)?.value;
      if (value === undefined) return Promise.resolve(null);
      return Promise.resolve(typeof value === 'string' ? Buffer.from(value) : value);
    },
    set(key, value, ttlMs) {
      put(key, value, ttlMs);
      return Promise.resolve();
    },
    setIfAbsent(key, value, ttlMs) {
      if (live(key) !== undefined) return Promise.resolve(false);
      put(key, value, ttlMs);
      return Promise.resolve(true);
    },
    increment(key, ttlMs) {
      const entry = live(key);
      if (entry === undefined) {
        put(key, '1', ttlMs);
        return Promise.resolve(1);
      }
      const count = Number(entry.value.toString()) + 1;
      entry.value = String(count);
      return Promise.resolve(count);
    },
    ttl(key) {
      const entry = live(key);
      return Promise.resolve(entry === undefined ? null : entry.expiresAt - now());
    },
    delete(key) {
      remove(key);
      return Promise.resolve();
    },
    deleteIfEquals(key, value) {
      const entry = live(key);
      if (entry?.value.toString() !== value) return Promise.resolve(false);
      remove(key);
      return Promise.resolve(true);
    },
    extendIfEquals(key, value, ttlMs) {
      const entry = live(key);
      if (entry?.value.toString() !== value) return Promise.resolve(false);
      entry.expiresAt = Math.max(entry.expiresAt, now() + Math.max(1, ttlMs));
      return Promise.resolve(true);
    },
    close() {
      entries.clear();
      bytes = 0;
      return Promise.resolve();
    },
  };
}
