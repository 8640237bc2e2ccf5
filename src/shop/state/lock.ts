/**
 * A lock over the shared store, for work that must not interleave between server copies (the
 * writes to one cart). Taken with `setIfAbsent` under a random token, retried with jittered
 * backoff until `waitMs`, held for at most `ttlMs` (a lease: a crashed holder cannot block the
 * key for ever), released by compare-and-delete so a holder whose lease ran out never frees
 * the next holder's lock.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SharedStore } from './types.ts';
import { log } from '../config/log.ts';

/** The lock could not be taken within `waitMs`. */
export class LockTimeoutError extends Error {
  override readonly name = 'LockTimeoutError';
  readonly code = 'LOCK_TIMEOUT';
}

export interface LockOptions {
  /** Lease: the lock frees itself after this long (longer than the work it guards). */
  ttlMs: number;
  /** How long to wait for the lock before `LockTimeoutError`. */
  waitMs: number;
  /** First pause between attempts (default 5 ms), doubled up to `maxRetryMs` (default 100 ms). */
  retryMs?: number;
  maxRetryMs?: number;
}

/** Runs `task` holding the lock `lock:{key}`; releases it however the task ends. */
export async function withLock<T>(
  store: SharedStore,
  key: string,
  task: () => Promise<T>,
  options: LockOptions,
): Promise<T> {
  const lockKey = `lock:${key}`;
  const token = randomUUID();
  const deadline = Date.now() + options.waitMs;
  let pause = options.retryMs ?? 5;
  const maxPause = options.maxRetryMs ?? 100;
  while (!(await store.setIfAbsent(lockKey, token, options.ttlMs))) {
    const left = deadline - Date.now();
    if (left <= 0)
      throw new LockTimeoutError(`Lock ${lockKey} not taken within ${options.waitMs} ms`);
    // Jitter spreads the retries of waiting copies, so they do not poll in step.
    await sleep(Math.min(left, pause / 2 + Math.random() * pause));
    pause = Math.min(pause * 2, maxPause);
  }
  try {
    return await task();
  } finally {
    await store.deleteIfEquals(lockKey, token).catch((error: unknown) => {
      // The lease frees the key anyway; the task's own result stands.
      const reason = error instanceof Error ? error.message : String(error);
      log.error({ reason, key: lockKey }, '[lock] could not release a lock');
    });
  }
}

export interface KeyedQueue {
  /** Runs `task` after every earlier task of the same key has settled. */
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** Keys with a task running or waiting in this process (tests). */
  readonly size: number;
}

/**
 * One promise chain per key in this process; a key's entry goes when its last task settles, so
 * idle keys cost nothing. A failed task does not stop the ones after it.
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

/**
 * Tasks of one key run one at a time across every server copy sharing `store`: in order within
 * this process (a local queue, so a process never polls the store against itself), and under
 * the store lock `lock:{prefix}{key}` between processes.
 */
export function createLockedQueue(
  store: SharedStore,
  options: LockOptions & { prefix: string },
): KeyedQueue {
  const local = createKeyedQueue();
  return {
    run: (key, task) =>
      local.run(key, () => withLock(store, `${options.prefix}${key}`, task, options)),
    get size() {
      return local.size;
    },
  };
}
