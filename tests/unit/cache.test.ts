/**
 * The upstream read cache on a fake clock: TTL, grace (stale served only when a reload fails),
 * single flight, failures never stored, bounds in entries and weight (least recently used out),
 * and normalised keys; properties over generated operation sequences.
 */
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import {
  cacheKey,
  clearUpstreamCaches,
  createCache,
  type CacheOptions,
} from '../../src/shop/connectors/http/cache.ts';

function setup(options: Partial<CacheOptions<string>> = {}) {
  let time = 0;
  const onStale = vi.fn();
  const cache = createCache<string>({
    ttlMs: 30_000,
    graceMs: 60_000,
    maxEntries: 3,
    now: () => time,
    onStale,
    ...options,
  });
  return {
    cache,
    onStale,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

const ok = (value: string) => vi.fn(() => Promise.resolve(value));
const fail = (message = 'upstream down') => vi.fn(() => Promise.reject(new Error(message)));

describe('freshness', () => {
  test.each([
    [0, 1],
    [29_999, 1],
    [30_000, 2],
    [45_000, 2],
  ])('a read %i ms after the load makes %i load(s) in all', async (after, loads) => {
    const { cache, advance } = setup();
    const load = ok('arbre');
    expect(await cache.get('tree', load)).toBe('arbre');
    advance(after);
    expect(await cache.get('tree', load)).toBe('arbre');
    expect(load).toHaveBeenCalledTimes(loads);
  });

  test('a reload that succeeds replaces the value and restarts the TTL', async () => {
    const { cache, advance } = setup();
    await cache.get('k', ok('v1'));
    advance(30_000);
    expect(await cache.get('k', ok('v2'))).toBe('v2');
    advance(29_000);
    const load = ok('v3');
    expect(await cache.get('k', load)).toBe('v2');
    expect(load).not.toHaveBeenCalled();
  });
});

describe('single flight', () => {
  test.each([2, 10, 100])('%i concurrent reads of one key make one upstream call', async (n) => {
    const { cache } = setup();
    let release: (value: string) => void = () => undefined;
    const load = vi.fn(
      () =>
        new Promise<string>((resolve) => {
          release = resolve;
        }),
    );
    const reads = Array.from({ length: n }, () => cache.get('tree', load));
    await vi.waitFor(() => {
      expect(load).toHaveBeenCalled();
    });
    release('arbre');
    expect(await Promise.all(reads)).toEqual(Array.from({ length: n }, () => 'arbre'));
    expect(load).toHaveBeenCalledTimes(1);
  });

  test('concurrent reads share one failure, and the next read tries again', async () => {
    const { cache } = setup();
    const load = fail();
    const reads = await Promise.allSettled(Array.from({ length: 5 }, () => cache.get('k', load)));
    expect(reads.every((r) => r.status === 'rejected')).toBe(true);
    expect(load).toHaveBeenCalledTimes(1);
    expect(cache.size).toBe(0);
    expect(await cache.get('k', ok('v'))).toBe('v');
  });

  test('a load that throws synchronously is a failure like another', async () => {
    const { cache } = setup();
    const load = vi.fn((): Promise<string> => {
      throw new Error('bug');
    });
    await expect(cache.get('k', load)).rejects.toThrow('bug');
    expect(await cache.get('k', ok('v'))).toBe('v');
  });

  test('different keys load separately', async () => {
    const { cache } = setup();
    const load = ok('v');
    await Promise.all([cache.get('a', load), cache.get('b', load), cache.get('a', load)]);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('failures and grace', () => {
  test('failures are never stored', async () => {
    const { cache } = setup();
    const load = fail();
    await expect(cache.get('k', load)).rejects.toThrow('upstream down');
    await expect(cache.get('k', load)).rejects.toThrow('upstream down');
    expect(load).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
  });

  test.each([
    ['just expired', 30_000, 'stale'],
    ['late in the grace', 89_999, 'stale'],
    ['past the grace', 90_000, 'error'],
  ])('a failed reload %s serves: %s', async (_case, after, outcome) => {
    const { cache, advance, onStale } = setup();
    await cache.get('k', ok('ancien'));
    advance(after);
    const read = cache.get('k', fail());
    if (outcome === 'stale') {
      expect(await read).toBe('ancien');
      expect(onStale).toHaveBeenCalledWith('k', new Error('upstream down'));
    } else {
      await expect(read).rejects.toThrow('upstream down');
      expect(onStale).not.toHaveBeenCalled();
      expect(cache.size).toBe(0);
    }
  });

  test('a stale copy is not served while upstream answers, only when it fails', async () => {
    const { cache, advance } = setup();
    await cache.get('k', ok('v1'));
    advance(40_000);
    expect(await cache.get('k', fail())).toBe('v1');
    const load = ok('v2');
    expect(await cache.get('k', load)).toBe('v2');
    expect(load).toHaveBeenCalledTimes(1);
  });

  test('without grace, an expired value is never served', async () => {
    const { cache, advance } = setup({ graceMs: 0 });
    await cache.get('k', ok('v1'));
    advance(30_000);
    await expect(cache.get('k', fail())).rejects.toThrow('upstream down');
  });
});

describe('bounds', () => {
  test('the least recently used value goes first', async () => {
    const { cache } = setup({ maxEntries: 2 });
    await cache.get('a', ok('A'));
    await cache.get('b', ok('B'));
    await cache.get('a', ok('unused'));
    await cache.get('c', ok('C'));
    expect(cache.size).toBe(2);
    const reloadB = ok('B2');
    const keepA = ok('unused');
    expect(await cache.get('a', keepA)).toBe('A');
    expect(await cache.get('b', reloadB)).toBe('B2');
    expect(keepA).not.toHaveBeenCalled();
    expect(reloadB).toHaveBeenCalledTimes(1);
  });

  test('weight: total kept under maxWeight; a value heavier than it is not stored', async () => {
    const { cache } = setup({ maxEntries: 100, maxWeight: 10, weigh: (v) => v.length });
    await cache.get('a', ok('xxxx'));
    await cache.get('b', ok('yyyy'));
    await cache.get('c', ok('zzzz'));
    expect(cache.weight).toBe(8);
    expect(cache.size).toBe(2);
    expect(await cache.get('big', ok('x'.repeat(11)))).toBe('x'.repeat(11));
    expect(cache.weight).toBe(8);
    expect(cache.size).toBe(2);
  });

  test('delete and clear', async () => {
    const { cache } = setup({ weigh: (v) => v.length, maxWeight: 100 });
    await cache.get('a', ok('aa'));
    await cache.get('b', ok('bbb'));
    cache.delete('a');
    expect([cache.size, cache.weight]).toEqual([1, 3]);
    cache.clear();
    expect([cache.size, cache.weight]).toEqual([0, 0]);
  });
});

describe('clearUpstreamCaches (a publish changed upstream data)', () => {
  test('empties every cache of the process', async () => {
    const a = setup();
    const b = setup();
    await a.cache.get('k', ok('a1'));
    await b.cache.get('k', ok('b1'));
    expect(clearUpstreamCaches()).toBeGreaterThanOrEqual(2);
    expect([a.cache.size, b.cache.size]).toEqual([0, 0]);
    expect(await a.cache.get('k', ok('a2'))).toBe('a2');
  });

  test('a load under way when it runs is not stored, and does not disturb the next one', async () => {
    const { cache } = setup();
    let finishOld: (value: string) => void = () => undefined;
    const old = cache.get('k', () => new Promise<string>((resolve) => (finishOld = resolve)));
    await Promise.resolve();
    cache.clear();
    // A read after the clear does not join the old load: it reads again.
    let finishNew: (value: string) => void = () => undefined;
    const fresh = cache.get('k', () => new Promise<string>((resolve) => (finishNew = resolve)));
    finishOld('before the edit');
    expect(await old).toBe('before the edit');
    expect(cache.size).toBe(0);
    // The old load ending did not end the new one's single flight.
    const joined = cache.get('k', ok('a third load'));
    finishNew('after the edit');
    expect(await fresh).toBe('after the edit');
    expect(await joined).toBe('after the edit');
    expect(await cache.get('k', ok('not read'))).toBe('after the edit');
  });
});

describe('properties', () => {
  const op = fc.record({
    key: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
    wait: fc.integer({ min: 0, max: 50_000 }),
    fails: fc.boolean(),
    size: fc.integer({ min: 1, max: 12 }),
  });

  test('bounds hold, no value older than TTL + grace is served, a fresh value is never reloaded', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
        const { cache, advance } = setup({
          maxEntries: 3,
          maxWeight: 20,
          weigh: (v) => v.length,
        });
        let time = 0;
        // What each key last loaded successfully, and when.
        const loaded = new Map<string, { value: string; at: number }>();
        for (const [index, { key, wait, fails, size }] of ops.entries()) {
          advance(wait);
          time += wait;
          const value = String(index % 10).repeat(size);
          const load = fails ? fail() : ok(value);
          const before = loaded.get(key);
          const outcome = await cache.get(key, load).then(
            (v) => ({ v }),
            () => undefined,
          );
          expect(cache.size).toBeLessThanOrEqual(3);
          expect(cache.weight).toBeLessThanOrEqual(20);
          if (outcome === undefined) {
            expect(fails).toBe(true);
            continue;
          }
          if (load.mock.calls.length === 0) {
            // Served without a load: the last successful load, fresh.
            expect(before).toBeDefined();
            expect(outcome.v).toBe(before?.value);
            expect(time - (before?.at ?? -Infinity)).toBeLessThan(30_000);
          } else if (fails) {
            // Stale: the last successful load, within TTL + grace.
            expect(outcome.v).toBe(before?.value);
            expect(time - (before?.at ?? -Infinity)).toBeLessThan(90_000);
          } else {
            expect(outcome.v).toBe(value);
            loaded.set(key, { value, at: time });
          }
        }
      }),
    );
  });

  test('concurrent reads of any mix of keys make one load per distinct key', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1 }),
        async (keys) => {
          const { cache } = setup({ maxEntries: 10 });
          const load = vi.fn(() => Promise.resolve('v'));
          await Promise.all(keys.map((key) => cache.get(key, load)));
          expect(load).toHaveBeenCalledTimes(new Set(keys).size);
        },
      ),
    );
  });
});

describe('cacheKey', () => {
  test.each([
    [[{ a: 1, b: 2 }], [{ b: 2, a: 1 }]],
    [[{ a: 1, b: undefined }], [{ a: 1 }]],
    [
      [1, 'getProducts', { q: { z: [3, 1], y: 'x' } }],
      [1, 'getProducts', { q: { y: 'x', z: [3, 1] } }],
    ],
  ])('%j and %j are one key', (left, right) => {
    expect(cacheKey(...left)).toBe(cacheKey(...right));
  });

  test.each([
    [[{ a: 1 }], [{ a: '1' }]],
    [[{ z: [1, 3] }], [{ z: [3, 1] }]],
    [
      [1, 'getCategory', 2],
      [2, 'getCategory', 2],
    ],
    [
      ['getCategory', 2],
      ['getProductById', 2],
    ],
  ])('%j and %j are different keys', (left, right) => {
    expect(cacheKey(...left)).not.toBe(cacheKey(...right));
  });
});
