/**
 * Loads what the shopper asked for last (the listing's filters in place, listing-filters.ts),
 * without the DOM: a request waits `delayMs` for the next one (quick ticks make one load), a
 * new request aborts the one under way (its `AbortSignal`), and only the latest request's
 * result or failure is handed on, whatever order the replies come back in. Timers are
 * injectable for tests (fake timers).
 */

export interface LatestLoaderOptions<K, T> {
  /** How long a request waits for a newer one, in ms. */
  delayMs: number;
  /** Loads `key`; should stop when `signal` aborts (its result is ignored then anyway). */
  load: (key: K, signal: AbortSignal) => Promise<T>;
  /** The latest request's result. */
  apply: (result: T, key: K) => void;
  /** The latest request's failure. */
  fail: (error: unknown, key: K) => void;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export interface LatestLoader<K> {
  /** Asks for `key` after `delayMs` (0: at once), superseding every earlier request. */
  request: (key: K, delayMs?: number) => void;
  /**
   * Starts a waiting request at once and resolves when the latest request has settled: true
   * when its result was applied, false when it failed (or was superseded and the newer one
   * failed). With nothing asked since, the last request's outcome.
   */
  settle: () => Promise<boolean>;
  /** Whether the latest request is waiting or under way. */
  busy: () => boolean;
}

export function latestLoader<K, T>(options: LatestLoaderOptions<K, T>): LatestLoader<K> {
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer =
    options.clearTimer ??
    ((timer) => {
      clearTimeout(timer as ReturnType<typeof setTimeout>);
    });
  let timer: unknown;
  let waiting: { key: K } | null = null;
  let controller: AbortController | null = null;
  let running: Promise<boolean> = Promise.resolve(true);

  const start = (key: K): Promise<boolean> => {
    controller?.abort();
    const own = new AbortController();
    controller = own;
    const settle = (applied: boolean, run: () => void): boolean => {
      if (own.signal.aborted) return false;
      controller = null;
      run();
      return applied;
    };
    let loading: Promise<T>;
    try {
      loading = options.load(key, own.signal);
    } catch (error) {
      loading = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    running = loading.then(
      (result) =>
        settle(true, () => {
          options.apply(result, key);
        }),
      (error: unknown) =>
        settle(false, () => {
          options.fail(error, key);
        }),
    );
    return running;
  };

  const takeWaiting = (): K | null => {
    clearTimer(timer);
    timer = undefined;
    const next = waiting;
    waiting = null;
    return next === null ? null : next.key;
  };

  return {
    request(key, delayMs = options.delayMs) {
      takeWaiting();
      controller?.abort();
      controller = null;
      if (delayMs <= 0) {
        void start(key);
        return;
      }
      waiting = { key };
      timer = setTimer(() => {
        const next = takeWaiting();
        if (next !== null) void start(next);
      }, delayMs);
    },
    async settle() {
      const next = takeWaiting();
      if (next !== null) void start(next);
      // A newer request may start while this one runs: wait for the latest.
      for (;;) {
        const current = running;
        const applied = await current;
        if (current === running && waiting === null) return applied;
        const again = takeWaiting();
        if (again !== null) void start(again);
      }
    },
    busy: () => waiting !== null || controller !== null,
  };
}
