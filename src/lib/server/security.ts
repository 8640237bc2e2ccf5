/**
 * Request checks and in-process guards of the API middleware: same-origin and JSON checks of
 * state-changing calls (issue 3 "Session and security"), a bounded in-memory rate limiter
 * (login attempts) and a per-key promise queue (writes to one cart run one at a time).
 * In memory: each server copy keeps its own counters and queues.
 */

/**
 * A state-changing call must come from the shop's own pages: `Sec-Fetch-Site: same-origin`,
 * or an `Origin` equal to the request's origin. `Sec-Fetch-Site: none` (a typed URL, a
 * bookmark) and cross-site requests are refused; so is a request that says neither.
 */
export function isSameOriginRequest(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null) return site === 'same-origin';
  const origin = request.headers.get('origin');
  if (origin === null || origin === 'null') return false;
  return origin === new URL(request.url).origin;
}

/** The body is declared JSON (`application/json`, any parameters). */
export function isJsonRequest(request: Request): boolean {
  const type = request.headers.get('content-type');
  if (type === null) return false;
  return type.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

export interface RateLimitRule {
  /** Failures allowed in the window; the next attempt is refused. */
  limit: number;
  windowMs: number;
}

export interface RateLimiter {
  /** Whether `key` may try again now. */
  allows(key: string): boolean;
  /** Counts a failure of `key`. */
  fail(key: string): void;
  /** Forgets `key` (after a success). */
  reset(key: string): void;
}

/**
 * Failures per key in a fixed window starting at the first failure. At most `maxKeys` keys
 * are kept: when full, expired entries go first, then the oldest (a flood of new keys cannot
 * grow memory).
 */
export function createRateLimiter(
  rule: RateLimitRule & { maxKeys?: number; now?: () => number },
): RateLimiter {
  const maxKeys = rule.maxKeys ?? 10_000;
  const now = rule.now ?? Date.now;
  const entries = new Map<string, { count: number; resetAt: number }>();

  const current = (key: string) => {
    const entry = entries.get(key);
    if (entry !== undefined && entry.resetAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };

  const makeRoom = () => {
    if (entries.size < maxKeys) return;
    const at = now();
    for (const [key, entry] of entries) if (entry.resetAt <= at) entries.delete(key);
    // Maps iterate in insertion order: the first keys are the oldest windows.
    for (const key of entries.keys()) {
      if (entries.size < maxKeys) break;
      entries.delete(key);
    }
  };

  return {
    allows: (key) => (current(key)?.count ?? 0) < rule.limit,
    fail(key) {
      const entry = current(key);
      if (entry !== undefined) {
        entry.count += 1;
        return;
      }
      makeRoom();
      entries.set(key, { count: 1, resetAt: now() + rule.windowMs });
    },
    reset(key) {
      entries.delete(key);
    },
  };
}

export interface KeyedQueue {
  /** Runs `task` after every earlier task of the same key has settled. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** Keys with a task running or waiting (tests). */
  readonly size: number;
}

/**
 * One promise chain per key; a key's entry is removed when its last task settles, so idle
 * keys cost nothing. A failed task does not stop the ones after it.
 */
export function createKeyedQueue(): KeyedQueue {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(task, task);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    get size() {
      return tails.size;
    },
  };
}
