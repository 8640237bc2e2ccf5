/**
 * The SharedStore contract, the same for memory, the SQLite file and Redis (a redis-server
 * started for this file): NX races with exactly one winner, fixed-window counters, lifetimes,
 * compare-and-delete, binary values; then the lock and the locked queue over each store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createFileStore } from '../../src/shop/state/file.ts';
import { createStore } from '../../src/shop/state/index.ts';
import {
  createLockedQueue,
  LockTimeoutError,
  withLock,
  type KeyedQueue,
} from '../../src/shop/state/lock.ts';
import { createRedisStore, StoreUnavailableError } from '../../src/shop/state/redis.ts';
import type { SharedStore } from '../../src/shop/state/types.ts';
import { freePort } from '../../src/server/free-port.ts';
import { redisAvailable, startRedis, testStores } from './helpers/redis.ts';

let run = 0;
// Keys unique per test: the file and Redis stores outlive one test.
const unique = (name: string) => `test:${++run}:${name}`;

describe.each(testStores())('SharedStore contract: $kind', (kind) => {
  let store: SharedStore;
  beforeAll(async () => {
    await kind.setup();
    store = kind.open();
  });
  afterAll(async () => {
    await store.close();
    await kind.teardown();
  });

  test('kind', () => {
    expect(store.kind).toBe(kind.kind);
  });

  test('get / set / delete, absent is null', async () => {
    const key = unique('plain');
    expect(await store.get(key)).toBeNull();
    expect(await store.ttl(key)).toBeNull();
    await store.set(key, 'valeur é', 60_000);
    expect(await store.get(key)).toBe('valeur é');
    await store.set(key, 'remplacée', 60_000);
    expect(await store.get(key)).toBe('remplacée');
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
  });

  test('50 concurrent setIfAbsent: exactly one winner, whose value stays', async () => {
    const key = unique('nx');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.setIfAbsent(key, `caller-${i}`, 60_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await store.get(key)).toBe(`caller-${results.indexOf(true)}`);
  });

  test('50 concurrent increments count 1..50, the window set by the first', async () => {
    const key = unique('counter');
    const counts = await Promise.all(
      Array.from({ length: 50 }, () => store.increment(key, 60_000)),
    );
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const ttl = await store.ttl(key);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Later increments keep the first lifetime: a fixed window.
    await store.increment(key, 1_000_000);
    expect(await store.ttl(key)).toBeLessThanOrEqual(60_000);
  });

  test('lifetimes: set, setIfAbsent and counters expire; an expired key is free again', async () => {
    // Memory and file stores read the time from the test's clock, moved on below; Redis
    // keeps its own time: the test waits until it has let the keys go.
    let skew = 0;
    const timed = kind.open(() => Date.now() + skew);
    try {
      const [plain, nx, counter] = [unique('ttl'), unique('ttl-nx'), unique('ttl-count')];
      await timed.set(plain, 'x', 150);
      expect(await timed.setIfAbsent(nx, 'first', 150)).toBe(true);
      expect(await timed.increment(counter, 150)).toBe(1);
      expect(await timed.increment(counter, 150)).toBe(2);
      expect(await timed.get(plain)).toBe('x');
      skew += 300;
      await expect.poll(() => timed.get(nx), { timeout: 5_000 }).toBeNull();
      expect(await timed.get(plain)).toBeNull();
      expect(await timed.getBuffer(plain)).toBeNull();
      expect(await timed.ttl(plain)).toBeNull();
      expect(await timed.setIfAbsent(nx, 'second', 60_000)).toBe(true);
      expect(await timed.get(nx)).toBe('second');
      expect(await timed.increment(counter, 60_000)).toBe(1);
    } finally {
      await timed.close();
    }
  });

  test('deleteIfEquals deletes only the matching value', async () => {
    const key = unique('cad');
    await store.set(key, 'token-a', 60_000);
    expect(await store.deleteIfEquals(key, 'token-b')).toBe(false);
    expect(await store.get(key)).toBe('token-a');
    expect(await store.deleteIfEquals(key, 'token-a')).toBe(true);
    expect(await store.get(key)).toBeNull();
    expect(await store.deleteIfEquals(key, 'token-a')).toBe(false);
  });

  test('extendIfEquals lengthens only the matching value, never shortens, never writes', async () => {
    const key = unique('extend');
    expect(await store.extendIfEquals(key, 'gen-a', 60_000)).toBe(false);
    expect(await store.get(key)).toBeNull();
    await store.set(key, 'gen-a', 10_000);
    expect(await store.extendIfEquals(key, 'gen-b', 600_000)).toBe(false);
    expect(await store.ttl(key)).toBeLessThanOrEqual(10_000);
    expect(await store.extendIfEquals(key, 'gen-a', 600_000)).toBe(true);
    expect(await store.ttl(key)).toBeGreaterThan(500_000);
    // A shorter lifetime asked later keeps the longer one.
    expect(await store.extendIfEquals(key, 'gen-a', 1_000)).toBe(true);
    expect(await store.ttl(key)).toBeGreaterThan(500_000);
    // A value replaced meanwhile stays replaced: the extension does not write the old one back.
    await store.set(key, 'gen-b', 60_000);
    expect(await store.extendIfEquals(key, 'gen-a', 600_000)).toBe(false);
    expect(await store.get(key)).toBe('gen-b');
  });

  test('binary values round-trip byte for byte (every byte value, any length)', async () => {
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const key = unique('binary');
    await store.set(key, all, 60_000);
    expect((await store.getBuffer(key))?.equals(all)).toBe(true);
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), async (bytes) => {
        const k = unique('bin-prop');
        const value = Buffer.from(bytes);
        await store.set(k, value, 60_000);
        const back = await store.getBuffer(k);
        return back?.equals(value) === true;
      }),
      { numRuns: 50 },
    );
    const text = unique('text-as-buffer');
    await store.set(text, 'é', 60_000);
    expect((await store.getBuffer(text))?.toString('utf8')).toBe('é');
  });

  test('strings of any unicode round-trip', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 200 }), async (value) => {
        const k = unique('str-prop');
        await store.set(k, value, 60_000);
        return (await store.get(k)) === value;
      }),
      { numRuns: 50 },
    );
  });

  test('withLock: 30 concurrent critical sections never overlap; the lock is released', async () => {
    const key = unique('lock');
    let inside = 0;
    let most = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: 30 }, () =>
        withLock(
          store,
          key,
          async () => {
            inside += 1;
            most = Math.max(most, inside);
            // A turn of the event loop: any other section able to run gets in now.
            await nextTurn();
            inside -= 1;
            done += 1;
          },
          { ttlMs: 10_000, waitMs: 20_000, retryMs: 1, maxRetryMs: 10 },
        ),
      ),
    );
    expect([most, done]).toEqual([1, 30]);
    expect(await store.get(`lock:${key}`)).toBeNull();
  });

  test('withLock releases on failure and times out while another holds it', async () => {
    const key = unique('lock-fail');
    await expect(
      withLock(store, key, () => Promise.reject(new Error('boom')), { ttlMs: 10_000, waitMs: 100 }),
    ).rejects.toThrow('boom');
    expect(await store.get(`lock:${key}`)).toBeNull();
    await store.set(`lock:${key}`, 'someone-else', 10_000);
    await expect(
      withLock(store, key, () => Promise.resolve(1), { ttlMs: 10_000, waitMs: 80 }),
    ).rejects.toBeInstanceOf(LockTimeoutError);
    // Another holder's lock is never released by us.
    expect(await store.get(`lock:${key}`)).toBe('someone-else');
  });

  test('withLock takes over after the lease of a crashed holder', async () => {
    const key = unique('lock-lease');
    await store.set(`lock:${key}`, 'crashed', 100);
    expect(
      await withLock(store, key, () => Promise.resolve('ran'), { ttlMs: 10_000, waitMs: 2_000 }),
    ).toBe('ran');
  });

  test('two locked queues on one store (two server copies) serialise one key', async () => {
    const options = { prefix: unique('queue:'), ttlMs: 10_000, waitMs: 20_000, retryMs: 1 };
    const copies = [createLockedQueue(store, options), createLockedQueue(store, options)];
    let value = 0;
    // A read-modify-write with a pause between: any overlap loses an update.
    const add = async () => {
      const read = value;
      await nextTurn();
      value = read + 1;
    };
    const [one, two] = copies as [KeyedQueue, KeyedQueue];
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).run('cart', add)));
    expect(value).toBe(20);
    expect(copies.map((q) => q.size)).toEqual([0, 0]);
  });
});

describe('file store', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'file-store-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('keeps its entries across a restart (a new store on the same directory)', async () => {
    const first = createFileStore({ dir });
    await first.set('session:x', 'kept', 60_000);
    await first.setIfAbsent('reset:y', '1', 60_000);
    await first.close();
    const second = createFileStore({ dir });
    expect(await second.get('session:x')).toBe('kept');
    expect(await second.setIfAbsent('reset:y', '1', 60_000)).toBe(false);
    await second.close();
  });

  test('two stores on one file (two processes of one server) share NX and counters', async () => {
    const a = createFileStore({ dir, fileName: 'shared.sqlite' });
    const b = createFileStore({ dir, fileName: 'shared.sqlite' });
    const wins = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).setIfAbsent('nx', String(i), 60_000)),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
    await a.increment('n', 60_000);
    expect(await b.increment('n', 60_000)).toBe(2);
    await Promise.all([a.close(), b.close()]);
  });

  test('bounded: past maxEntries the rows closest to expiry go first', async () => {
    let now = 1_000_000;
    const store = createFileStore({
      dir,
      fileName: 'bounded.sqlite',
      maxEntries: 100,
      cleanupEveryMs: 3_600_000,
      now: () => now,
    });
    await store.set('revocation', 'keep', 7 * 86_400_000);
    for (let i = 0; i < 5_000; i += 1) await store.increment(`flood:${i}`, 60_000 + i);
    // The clean-up after 5,000 writes brought it back under the bound.
    expect(await store.get('revocation')).toBe('keep');
    expect(await store.get('flood:4999')).toBe('1');
    expect(await store.get('flood:0')).toBeNull();
    now += 120_000;
    expect(await store.get('flood:4999')).toBeNull();
    expect(await store.get('revocation')).toBe('keep');
    await store.close();
  });

  test('bounded in bytes: the soonest-expiring values go to stay under maxBytes', async () => {
    // The clean-up timer on a fake clock: it runs when the test moves it on.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const store = createFileStore({
        dir,
        fileName: 'bytes.sqlite',
        maxBytes: 1024 * 1024,
        cleanupEveryMs: 20,
      });
      await store.set('keep', 'x', 86_400_000);
      const page = Buffer.alloc(16 * 1024, 7);
      // 300 × 16 KiB: over four times the bound.
      for (let i = 0; i < 300; i += 1) await store.set(`page:${i}`, page, 60_000 + i);
      vi.advanceTimersByTime(20);
      expect(await store.get('keep')).toBe('x');
      expect(await store.getBuffer('page:299')).toEqual(page);
      expect(await store.getBuffer('page:0')).toBeNull();
      await store.close();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('createStore', () => {
  test.each([
    ['STATE_DIR set: the file there', { stateDir: path.join(tmpdir(), 'c1-state') }, 'file'],
    ['STATE_DIR=:memory:', { stateDir: ':memory:' }, 'memory'],
    ['blank REDIS_URL: not Redis', { redisUrl: '  ', stateDir: ':memory:' }, 'memory'],
  ] as const)('%s', async (_case, config, kind) => {
    const store = createStore(config);
    expect(store.kind).toBe(kind);
    await store.close();
    if ('stateDir' in config && kind === 'file') rmSync(config.stateDir, { recursive: true });
  });

  test.each(['http://example.com', 'localhost:6379', 'redis://', 'not a url'])(
    'REDIS_URL %s is refused with a clear message',
    (url) => {
      expect(() => createStore({ redisUrl: url })).toThrow(/REDIS_URL must be redis:\/\/host:port/);
    },
  );
});

describe.runIf(redisAvailable())('Redis store: unreachable, then up', () => {
  test('calls fail with a clear error naming the address (not the password), then recover', async () => {
    const port = await freePort();
    const store = createRedisStore({
      url: `redis://:hunter2-secret@127.0.0.1:${port}`,
      connectTimeoutMs: 300,
    });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args.join(' '));
    try {
      const failure = await store.get('x').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      const message = (failure as Error).message;
      expect(message).toContain(`Redis at redis://:***@127.0.0.1:${port}`);
      expect(message).toContain('is unreachable');
      expect(message).not.toContain('hunter2');
      expect(errors.join('\n')).not.toContain('hunter2');
      const redis = await startRedis(port);
      try {
        await store.set('x', 'back', 60_000);
        expect(await store.get('x')).toBe('back');
      } finally {
        await store.close();
        await redis.stop();
      }
    } finally {
      console.error = original;
    }
  });
});
