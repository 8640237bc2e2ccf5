import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  createKeyedQueue,
  createLockedQueue,
  LockTimeoutError,
  withLock,
} from '../../src/shop/state/lock.ts';
import { createMemoryStore } from '../../src/shop/state/memory.ts';

// Fake clock and timers (the lock's retries, from node:timers/promises, and leases; the tasks'
// work): no real waiting, and the order of events is the same on every run.
beforeEach(() => {
  vi.useFakeTimers({ fakeNodeBuiltins: true });
});
afterEach(() => {
  vi.useRealTimers();
});

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `promise` once settled, the fake clock moved from timer to timer until then. */
async function settled<T>(promise: Promise<T>): Promise<T> {
  const state = { done: false };
  const mark = () => {
    state.done = true;
  };
  promise.then(mark, mark);
  while (!state.done) await vi.advanceTimersToNextTimerAsync();
  return promise;
}

describe('in-process keyed queue', () => {
  test('one key runs in order; other keys run beside it; idle keys cost nothing', async () => {
    const queue = createKeyedQueue();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await tick(ms);
      log.push(`end ${name}`);
      return name;
    };
    const results = await settled(
      Promise.all([
        queue.run('cart', task('a1', 20)),
        queue.run('cart', task('a2', 1)),
        queue.run('other', task('b1', 5)),
      ]),
    );
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log).toEqual(['start a1', 'start b1', 'end b1', 'end a1', 'start a2', 'end a2']);
    await settled(tick(0));
    expect(queue.size).toBe(0);
  });

  test('a failed task does not stop the next', async () => {
    const queue = createKeyedQueue();
    const failed = queue.run('k', () => Promise.reject(new Error('boom')));
    const next = queue.run('k', () => Promise.resolve('ok'));
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ok');
  });
});

describe('withLock over a store', () => {
  test('any mix of tasks on a few keys, from several queues: never two at once on a key', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            key: fc.constantFrom('a', 'b', 'c'),
            copy: fc.nat({ max: 2 }),
            ms: fc.nat({ max: 3 }),
            fails: fc.boolean(),
          }),
          { maxLength: 25 },
        ),
        async (tasks) => {
          const store = createMemoryStore();
          const options = { prefix: 'cart:', ttlMs: 10_000, waitMs: 10_000, retryMs: 1 };
          // Three server copies sharing one store, each with its own local queue.
          const copies = [0, 1, 2].map(() => createLockedQueue(store, options));
          const running = new Map<string, number>();
          let overlaps = 0;
          const outcomes = await settled(
            Promise.allSettled(
              tasks.map(({ key, copy, ms, fails }) =>
                (copies[copy] ?? createKeyedQueue()).run(key, async () => {
                  const inside = (running.get(key) ?? 0) + 1;
                  running.set(key, inside);
                  if (inside > 1) overlaps += 1;
                  await tick(ms);
                  running.set(key, (running.get(key) ?? 1) - 1);
                  if (fails) throw new Error('task failed');
                  return key;
                }),
              ),
            ),
          );
          expect(overlaps).toBe(0);
          expect(outcomes.filter((s) => s.status === 'rejected')).toHaveLength(
            tasks.filter((t) => t.fails).length,
          );
          // Every lock was released.
          for (const key of ['a', 'b', 'c']) expect(await store.get(`lock:cart:${key}`)).toBeNull();
        },
      ),
      { numRuns: 30 },
    );
  });

  test('a holder whose lease ran out does not release the next holder’s lock', async () => {
    const store = createMemoryStore();
    const slow = withLock(store, 'k', () => tick(60), { ttlMs: 20, waitMs: 1_000 });
    await vi.advanceTimersByTimeAsync(30);
    // The lease expired: a second holder takes the lock while the first still runs.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const second = withLock(store, 'k', () => held, { ttlMs: 10_000, waitMs: 1_000 });
    await settled(slow);
    // The first finished and tried to release: the second's lock stands.
    expect(await store.get('lock:k')).not.toBeNull();
    await expect(
      settled(withLock(store, 'k', () => Promise.resolve(), { ttlMs: 10_000, waitMs: 30 })),
    ).rejects.toBeInstanceOf(LockTimeoutError);
    release();
    await second;
    expect(await store.get('lock:k')).toBeNull();
  });
});
