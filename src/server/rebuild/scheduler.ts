/**
 * The rebuild scheduler: accepted webhook events in, builds out, coalesced. An event starts a
 * quiet-time timer (`debounceMs`, restarted by each further event but never past `maxWaitMs`
 * from the first); when it fires, ONE build runs for every event so far. Events arriving while
 * a build runs are counted, and exactly one more build follows it (after the same quiet time).
 * So a burst of N publishes gives at most two builds, and a build never runs twice at once.
 * Holds counts and at most MAX_BATCH_EVENTS distinct events: a flood cannot grow its memory. Timers are the global ones (tests
 * use fake timers); the build function is given (tests use a fake one).
 *
 * A build that failed on a transient cause (`retry: true`: an upstream 5xx, a timeout, a lost
 * connection) is retried: its events go back to the pending ones, and the next build starts no
 * sooner than the backoff (`retry.firstMs`, doubling each failed attempt in a row, at most
 * `retry.maxMs`), whatever events come meanwhile (they join it). So no edit stays stale once
 * the upstream answers again. A success, or a failure that is not transient, ends the retries
 * (the events of a failure that is not transient are dropped: the next event builds again).
 */

/**
 * One accepted webhook notification, or the supervisor's own reason for a full build (`warm-up`:
 * a build kept alive to publish edits; `schedule`: the served build is too old).
 */
export interface RebuildEvent {
  source: 'contentful' | 'bigcommerce' | 'supervisor';
  /** `Entry.publish`, `store/product/updated`... */
  topic: string;
  /** The changed entity's id. */
  id: string;
  /** Milliseconds since the epoch. */
  receivedAt: number;
}

/** The events one build covers. */
export interface RebuildBatch {
  count: number;
  first: RebuildEvent;
  last: RebuildEvent;
  /**
   * The distinct events (by source, topic and id), in arrival order, up to MAX_BATCH_EVENTS:
   * what a publish of just these edits reads again.
   */
  events: RebuildEvent[];
  /** False when more distinct events came than `events` keeps (then only a full build). */
  complete: boolean;
}

/** Distinct events a batch names at most; more, and it asks for a full build. */
export const MAX_BATCH_EVENTS = 1000;

/**
 * A build's result. `retry`: it failed on a transient cause; its events are built again after
 * the backoff.
 */
export type BuildOutcome = { ok: true } | { ok: false; error: string; retry?: boolean };

/** A retry waiting for its time: after `attempts` failed attempts in a row, at `at`. */
export interface PendingRetry {
  attempts: number;
  /** When the next attempt may start (the scheduler's clock, ms). */
  at: number;
  /** The last failure's cause. */
  error: string;
}

/** Backoff of the retries of a build that failed on a transient cause. */
export interface RetrySettings {
  /** Wait before the first retry (ms, default 5 s). */
  firstMs: number;
  /** Longest wait between two attempts (ms, default 5 min). */
  maxMs: number;
}

export const DEFAULT_RETRY: RetrySettings = { firstMs: 5_000, maxMs: 300_000 };

/** The wait before retry number `attempts` (1, 2...): `firstMs` doubling, capped at `maxMs`. */
export function retryDelay(attempts: number, retry: RetrySettings = DEFAULT_RETRY): number {
  const doublings = Math.min(Math.max(0, attempts - 1), 30);
  return Math.min(retry.maxMs, retry.firstMs * 2 ** doublings);
}

export interface SchedulerSnapshot {
  /** idle: nothing to do; waiting: events are in, the quiet time runs; building: a build runs. */
  phase: 'idle' | 'waiting' | 'building';
  /** Events no started build covers yet. */
  pending: number;
  /** Builds started so far. */
  builds: number;
  /** The newest event. */
  lastEvent: RebuildEvent | null;
  /** A failed build waiting to be retried (null: none). */
  retry: PendingRetry | null;
}

export interface SchedulerOptions {
  /** Quiet time after the last event before a build starts (ms). */
  debounceMs: number;
  /**
   * A shorter quiet time for a batch of edits, which the kept build publishes in seconds
   * (`PUBLISH_DEBOUNCE_MS`): `isEdit` is asked once per event; `ms` when the timer is armed and
   * every event waiting is an edit (and kept), answering the quiet time, or null when edits
   * cannot be published now (then `debounceMs`). Capped by `maxWaitMs` all the same.
   */
  editQuiet?: { isEdit(event: RebuildEvent): boolean; ms(): number | null };
  /** Longest wait from the first pending event (ms; default ten quiet times, at least 10 s). */
  maxWaitMs?: number;
  /** Builds and swaps; should not throw (a throw counts as a failed build). */
  build(batch: RebuildBatch): Promise<BuildOutcome>;
  /** Backoff of the retries of a transient failure (default DEFAULT_RETRY). */
  retry?: RetrySettings;
  /** Called on every change of the snapshot. */
  onChange?(snapshot: SchedulerSnapshot): void;
  /** Called when a build ends. */
  onBuilt?(outcome: BuildOutcome, batch: RebuildBatch): void;
  now?: () => number;
}

export interface RebuildScheduler {
  /** Records an event; a build follows (coalesced). Ignored once stopped. */
  notify(event: RebuildEvent): void;
  snapshot(): SchedulerSnapshot;
  /** Resolves when nothing is pending, waiting or building. */
  settled(): Promise<void>;
  /** Stops scheduling: the timer is cleared, a running build is awaited. */
  stop(): Promise<void>;
}

export function createRebuildScheduler(options: SchedulerOptions): RebuildScheduler {
  const now = options.now ?? Date.now;
  const debounceMs = Math.max(0, options.debounceMs);
  const maxWaitMs = Math.max(debounceMs, options.maxWaitMs ?? Math.max(10_000, debounceMs * 10));
  let pending = 0;
  let distinct = new Map<string, RebuildEvent>();
  let complete = true;
  // Whether every pending event is an edit (`editQuiet`).
  let allEdits = true;
  let first: RebuildEvent | null = null;
  let last: RebuildEvent | null = null;
  // When the first and last pending events came in, by this scheduler's clock.
  let firstAt = 0;
  let lastAt = 0;
  let lastEvent: RebuildEvent | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let builds = 0;
  let stopped = false;
  let waiters: (() => void)[] = [];
  const retrySettings = options.retry ?? DEFAULT_RETRY;
  const isEdit = (event: RebuildEvent) => options.editQuiet?.isEdit(event) ?? false;
  let retry: PendingRetry | null = null;

  const snapshot = (): SchedulerSnapshot => ({
    phase: running ? 'building' : timer ? 'waiting' : 'idle',
    pending,
    builds,
    lastEvent,
    retry,
  });

  const changed = () => {
    options.onChange?.(snapshot());
    if (!running && !timer && (pending === 0 || stopped)) {
      const settledWaiters = waiters;
      waiters = [];
      for (const resolve of settledWaiters) resolve();
    }
  };

  /** (Re)starts the quiet-time timer, from the last event, capped from the first. */
  const arm = () => {
    if (stopped || running || pending === 0 || first === null || last === null) return;
    if (timer) clearTimeout(timer);
    const t = now();
    const editMs = complete && allEdits ? (options.editQuiet?.ms() ?? null) : null;
    const wait = editMs ?? debounceMs;
    const quiet = Math.max(0, Math.min(wait - (t - lastAt), maxWaitMs - (t - firstAt)));
    // A retry waits for its backoff, whatever came meanwhile.
    const delay = retry === null ? quiet : Math.max(quiet, retry.at - t);
    timer = setTimeout(start, delay);
  };

  /** Puts a failed batch's events back before those that came since (it is built again). */
  const requeue = (batch: RebuildBatch) => {
    const since = distinct;
    distinct = new Map();
    for (const event of batch.events)
      distinct.set(`${event.source} ${event.topic} ${event.id}`, event);
    for (const [key, event] of since) {
      if (distinct.has(key)) distinct.delete(key);
      if (distinct.size < MAX_BATCH_EVENTS) distinct.set(key, event);
      else complete = false;
    }
    complete = complete && batch.complete;
    allEdits = allEdits && batch.events.every(isEdit);
    pending += batch.count;
    if (first === null) firstAt = now();
    first = batch.first;
    last ??= batch.last;
  };

  function start() {
    timer = null;
    if (stopped || running || pending === 0 || first === null || last === null) {
      changed();
      return;
    }
    const batch: RebuildBatch = {
      count: pending,
      first,
      last,
      events: [...distinct.values()],
      complete,
    };
    pending = 0;
    distinct = new Map();
    complete = true;
    allEdits = true;
    first = null;
    last = null;
    builds += 1;
    running = (async () => {
      let outcome: BuildOutcome;
      try {
        outcome = await options.build(batch);
      } catch (error) {
        outcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
      running = null;
      if (outcome.ok) retry = null;
      else if (outcome.retry === true) {
        const attempts = (retry?.attempts ?? 0) + 1;
        retry = { attempts, at: now() + retryDelay(attempts, retrySettings), error: outcome.error };
        requeue(batch);
      } else retry = null;
      options.onBuilt?.(outcome, batch);
      // Events that came in during the build: exactly one more build, after the quiet time.
      arm();
      changed();
    })();
    changed();
  }

  return {
    notify(event) {
      if (stopped) return;
      pending += 1;
      const key = `${event.source} ${event.topic} ${event.id}`;
      if (distinct.has(key)) distinct.delete(key); // kept once, at its latest place
      if (distinct.size < MAX_BATCH_EVENTS) distinct.set(key, event);
      else complete = false;
      allEdits = allEdits && isEdit(event);
      if (first === null) {
        first = event;
        firstAt = now();
      }
      last = event;
      lastAt = now();
      lastEvent = event;
      arm();
      changed();
    },
    snapshot,
    settled() {
      if (!running && !timer && (pending === 0 || stopped)) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
      changed();
    },
  };
}
