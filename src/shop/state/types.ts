/**
 * The shared state of the storefront servers (README.md here): session records and
 * generations, login limits and device cookies, used reset tokens, webhook replays, the
 * per-cart write lock and the render cache all go through this one small interface. One server keeps it in process or
 * in a local file; several copies share Redis (`REDIS_URL`). Keys are namespaced by the caller
 * (`session:`, `limit:`, `lock:`, `page:`...); every entry has a lifetime, so nothing grows
 * without bound.
 */
export interface SharedStore {
  /** Which engine this is, for logs and tests: 'memory', 'file' or 'redis'. */
  readonly kind: 'memory' | 'file' | 'redis';
  /** The value of `key`, or null when absent or expired. */
  get(key: string): Promise<string | null>;
  /** Binary value of `key` (render cache bodies), or null. */
  getBuffer(key: string): Promise<Buffer | null>;
  /** Sets `key` for `ttlMs` milliseconds. */
  set(key: string, value: string | Buffer, ttlMs: number): Promise<void>;
  /**
   * Sets `key` only when it is absent (Redis `SET NX PX`): true when this call set it. The
   * primitive of single-use tokens and locks: of two racing callers, exactly one gets true.
   */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /**
   * Adds 1 to the counter `key` and returns the new count; the lifetime starts at the first
   * increment (a fixed window), later increments keep it.
   */
  increment(key: string, ttlMs: number): Promise<number>;
  /** Milliseconds `key` has left, or null when absent. */
  ttl(key: string): Promise<number | null>;
  /** Deletes `key`. */
  delete(key: string): Promise<void>;
  /**
   * Deletes `key` only while it still holds `value` (releasing a lock one holds, never
   * another holder's): true when deleted.
   */
  deleteIfEquals(key: string, value: string): Promise<boolean>;
  /**
   * While `key` still holds `value`, makes it live at least `ttlMs` more milliseconds (never
   * shortens it): true when it held `value`. Keeps a value alive without ever writing it back,
   * so a value another caller replaced meanwhile stays replaced (a session generation).
   */
  extendIfEquals(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Releases connections and timers. */
  close(): Promise<void>;
}
