/**
 * A short in-process cache of upstream reads, with single flight: concurrent reads of one key
 * share one load, a value is served fresh for `ttlMs`, and for `graceMs` more when its reload
 * fails (the upstream is down: the last good copy beats an error page). Failed loads are never
 * stored. Bounded in entries and optionally in weight (bytes), least recently used first out.
 * The catalogue reads of the API (`api/handle.ts`) and the live listing source use it.
 *
 * Every cache made here can be emptied at once (`clearUpstreamCaches`): a publish of an edit into
 * the live release (src/server/rebuild/) means upstream data changed, so the server processes
 * forget what they read. The registry lives on `globalThis` under a registered symbol, since the
 * server script and the SSR bundle each hold their own copy of this module.
 */

const REGISTRY = Symbol.for('literie.upstream-read-caches');

/** The caches made so far in this process (weakly held: a dropped cache goes). */
function registry(): Set<WeakRef<{ clear(): void }>> {
  const holder = globalThis as { [REGISTRY]?: Set<WeakRef<{ clear(): void }>> };
  holder[REGISTRY] ??= new Set();
  return holder[REGISTRY];
}

/**
 * Empties every upstream read cache of this process (loads under way are not stored either);
 * returns how many caches it emptied.
 */
export function clearUpstreamCaches(): number {
  const caches = registry();
  let cleared = 0;
  for (const ref of caches) {
    const cache = ref.deref();
    if (cache === undefined) {
      caches.delete(ref);
      continue;
    }
    cache.clear();
    cleared += 1;
  }
  return cleared;
}

export interface CacheOptions<T> {
  /** How long a stored value is served without asking upstream, in ms. */
  ttlMs: number;
  /** How long past `ttlMs` a value is still served when its reload fails, in ms (default 0). */
  graceMs?: number;
  /** Most values kept. */
  maxEntries: number;
  /** Most total weight kept (with `weigh`); a value heavier than this is not stored. */
  maxWeight?: number;
  /** Weight of a value (e.g. bytes of a reply); default 1. */
  weigh?: (value: T) => number;
  /** Clock in ms (tests pass a fake one); default `performance.now`. */
  now?: () => number;
  /** Told when a reload failed and the stale value is served instead. */
  onStale?: (key: string, error: unknown) => void;
}

export interface Cache<T> {
  /**
   * The value of `key`: stored and fresh, or the load already under way for it, or `load()`'s
   * (stored when it succeeds). When `load` fails, the stored value if still within grace,
   * else the failure.
   */
  get(key: string, load: () => Promise<T>): Promise<T>;
  delete(key: string): void;
  clear(): void;
  /** Values stored (fresh or stale). */
  readonly size: number;
  /** Total weight stored. */
  readonly weight: number;
}

interface Entry<T> {
  value: T;
  storedAt: number;
  weight: number;
}

/** Creates a cache; see `Cache.get` for what a read does. */
export function createCache<T>(options: CacheOptions<T>): Cache<T> {
  const { ttlMs, maxEntries } = options;
  const graceMs = options.graceMs ?? 0;
  const maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY;
  const weigh = options.weigh ?? (() => 1);
  const now = options.now ?? (() => performance.now());
  const entries = new Map<string, Entry<T>>();
  const loading = new Map<string, Promise<T>>();
  let weight = 0;
  /** Bumped by `clear`: a load started before it is not stored. */
  let epoch = 0;

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    weight -= entry.weight;
  };

  const store = (key: string, value: T) => {
    remove(key);
    const entryWeight = weigh(value);
    if (entryWeight > maxWeight) return;
    entries.set(key, { value, storedAt: now(), weight: entryWeight });
    weight += entryWeight;
    // Map order is insertion order, and a hit re-inserts: the first key is the least recent.
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries && weight <= maxWeight) break;
      remove(oldest);
    }
  };

  const reload = async (key: string, load: () => Promise<T>): Promise<T> => {
    const startedIn = epoch;
    try {
      // Awaited first so that even a load throwing synchronously settles after `loading` is set.
      await Promise.resolve();
      const value = await load();
      if (startedIn === epoch) store(key, value);
      return value;
    } catch (error) {
      const stale = entries.get(key);
      if (stale !== undefined && now() < stale.storedAt + ttlMs + graceMs) {
        options.onStale?.(key, error);
        return stale.value;
      }
      if (startedIn === epoch) remove(key);
      throw error;
    } finally {
      if (startedIn === epoch) loading.delete(key);
    }
  };

  const cache: Cache<T> = {
    get(key, load) {
      const entry = entries.get(key);
      if (entry !== undefined && now() < entry.storedAt + ttlMs) {
        entries.delete(key);
        entries.set(key, entry);
        return Promise.resolve(entry.value);
      }
      const pending = loading.get(key);
      if (pending !== undefined) return pending;
      const started = reload(key, load);
      loading.set(key, started);
      return started;
    },
    delete: remove,
    clear() {
      entries.clear();
      loading.clear();
      weight = 0;
      epoch += 1;
    },
    get size() {
      return entries.size;
    },
    get weight() {
      return weight;
    },
  };
  registry().add(new WeakRef(cache));
  return cache;
}

/**
 * A cache key from normalised arguments: JSON with object keys sorted and `undefined` members
 * dropped, so `{ a: 1, b: undefined }` and `{ a: 1 }` read the same entry.
 */
export function cacheKey(...parts: readonly unknown[]): string {
  return JSON.stringify(parts, (_key, value: unknown) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort()
        .map((k) => [k, record[k]]),
    );
  });
}
