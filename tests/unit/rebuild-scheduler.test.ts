/**
 * The rebuild scheduler (src/server/rebuild/scheduler.ts) with fake timers and a fake build:
 * a burst of N events gives one build (at most two when it outlasts the quiet time); events
 * during a build give exactly one more; builds never overlap; a failed build is reported and
 * the next event builds again; a stream of events cannot postpone the build forever. Also the
 * run-time settings (src/server/rebuild/config.ts).
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { defaultReleasesDir, readServeConfig } from '../../src/server/rebuild/config.ts';
import {
  createRebuildScheduler,
  type BuildOutcome,
  type RebuildBatch,
  type RebuildEvent,
  retryDelay,
} from '../../src/server/rebuild/scheduler.ts';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

const event = (id: string): RebuildEvent => ({
  source: 'contentful',
  topic: 'Entry.publish',
  id,
  receivedAt: Date.now(),
});

/** A fake build taking `ms`, recording its batches and how many ran at once. */
function fakeBuild(ms: number, outcomes: BuildOutcome[] = []) {
  const batches: RebuildBatch[] = [];
  let running = 0;
  let maxRunning = 0;
  const build = async (batch: RebuildBatch): Promise<BuildOutcome> => {
    batches.push(batch);
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    await new Promise((resolve) => setTimeout(resolve, ms));
    running -= 1;
    return outcomes.shift() ?? { ok: true };
  };
  return {
    build,
    batches,
    maxRunning: () => maxRunning,
  };
}

describe('coalescing', () => {
  test('a burst within the quiet time gives one build for all of it', async () => {
    const fake = fakeBuild(30_000);
    const scheduler = createRebuildScheduler({ debounceMs: 1500, build: fake.build });
    for (let i = 0; i < 50; i++) {
      scheduler.notify(event(`e${i}`));
      await vi.advanceTimersByTimeAsync(20);
    }
    expect(fake.batches).toHaveLength(0);
    expect(scheduler.snapshot()).toMatchObject({ phase: 'waiting', pending: 50 });
    await vi.advanceTimersByTimeAsync(1500);
    expect(fake.batches).toHaveLength(1);
    expect(fake.batches[0]?.count).toBe(50);
    expect(scheduler.snapshot()).toMatchObject({ phase: 'building', pending: 0, builds: 1 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fake.batches).toHaveLength(1);
    expect(scheduler.snapshot().phase).toBe('idle');
  });

  test('events during a build give exactly one more build', async () => {
    const fake = fakeBuild(30_000);
    const scheduler = createRebuildScheduler({ debounceMs: 1000, build: fake.build });
    scheduler.notify(event('first'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.batches).toHaveLength(1);
    for (let i = 0; i < 20; i++) {
      await vi.advanceTimersByTimeAsync(1000);
      scheduler.notify(event(`during${i}`));
    }
    expect(fake.batches).toHaveLength(1);
    expect(scheduler.snapshot()).toMatchObject({ phase: 'building', pending: 20 });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(fake.batches.map((b) => b.count)).toEqual([1, 20]);
    expect(fake.batches[1]?.first.id).toBe('during0');
    expect(fake.batches[1]?.last.id).toBe('during19');
    expect(fake.maxRunning()).toBe(1);
  });

  test('property: a burst shorter than a build gives at most two builds, never overlapping', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 3000 }),
        async (gaps, debounceMs) => {
          // The burst lasts less than one build (builds take 60 s here; gaps sum < 60 s).
          const fake = fakeBuild(60_000);
          const scheduler = createRebuildScheduler({ debounceMs, build: fake.build });
          for (const gap of gaps) {
            scheduler.notify(event('x'));
            await vi.advanceTimersByTimeAsync(gap);
          }
          await vi.advanceTimersByTimeAsync(300_000);
          expect(fake.batches.length).toBeGreaterThanOrEqual(1);
          expect(fake.batches.length).toBeLessThanOrEqual(2);
          expect(fake.batches.reduce((sum, b) => sum + b.count, 0)).toBe(gaps.length);
          expect(fake.maxRunning()).toBe(1);
          expect(scheduler.snapshot()).toMatchObject({ phase: 'idle', pending: 0 });
        },
      ),
      { numRuns: 50 },
    );
  });

  test('a steady stream cannot postpone the build past the longest wait', async () => {
    const fake = fakeBuild(1000);
    const scheduler = createRebuildScheduler({
      debounceMs: 1000,
      maxWaitMs: 5000,
      build: fake.build,
    });
    for (let i = 0; i < 30; i++) {
      scheduler.notify(event(`s${i}`));
      await vi.advanceTimersByTimeAsync(500);
      if (fake.batches.length > 0) break;
    }
    expect(fake.batches).toHaveLength(1);
    expect(fake.batches[0]?.count).toBeLessThanOrEqual(11);
  });

  test('the quiet time follows the events waiting: edits to publish wait less than a full build', async () => {
    const fake = fakeBuild(1_000);
    // Contentful events are edits; a supervisor event (a warm-up) is a full build.
    const isEdit = vi.fn((e: RebuildEvent) => e.source === 'contentful');
    const ms = vi.fn((): number | null => 300);
    const scheduler = createRebuildScheduler({
      debounceMs: 1500,
      editQuiet: { isEdit, ms },
      build: fake.build,
    });
    scheduler.notify(event('a'));
    await vi.advanceTimersByTimeAsync(299);
    expect(fake.batches).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.batches.map((b) => b.events.map((e) => e.id))).toEqual([['a']]);
    await vi.advanceTimersByTimeAsync(1_000);
    // One event that needs a full build among them: the whole batch waits the long quiet time.
    scheduler.notify(event('b'));
    scheduler.notify({ source: 'supervisor', topic: 'warm-up', id: 'w', receivedAt: Date.now() });
    await vi.advanceTimersByTimeAsync(1_499);
    expect(fake.batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.batches[1]?.events.map((e) => e.id)).toEqual(['b', 'w']);
    // Each event asked about once.
    expect(isEdit).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1_000);
    // Edits that cannot be published now (no kept build): the long quiet time.
    ms.mockReturnValue(null);
    scheduler.notify(event('c'));
    await vi.advanceTimersByTimeAsync(1_499);
    expect(fake.batches).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.batches[2]?.events.map((e) => e.id)).toEqual(['c']);
    await vi.advanceTimersByTimeAsync(1_000);
    await scheduler.stop();
  });

  test('settled() resolves once the builds are done', async () => {
    const fake = fakeBuild(5000);
    const scheduler = createRebuildScheduler({ debounceMs: 100, build: fake.build });
    let settled = false;
    await scheduler.settled(); // nothing to do
    scheduler.notify(event('a'));
    void scheduler.settled().then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(2000);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(4000);
    expect(settled).toBe(true);
  });
});

describe('failures', () => {
  test('a failed build is reported and the next event builds again', async () => {
    const fake = fakeBuild(1000, [{ ok: false, error: 'astro build failed' }]);
    const built: BuildOutcome[] = [];
    const scheduler = createRebuildScheduler({
      debounceMs: 100,
      build: fake.build,
      onBuilt: (outcome) => built.push(outcome),
    });
    scheduler.notify(event('a'));
    await vi.advanceTimersByTimeAsync(5000);
    expect(built).toEqual([{ ok: false, error: 'astro build failed' }]);
    expect(scheduler.snapshot()).toMatchObject({ phase: 'idle', pending: 0, builds: 1 });
    scheduler.notify(event('b'));
    await vi.advanceTimersByTimeAsync(5000);
    expect(built).toEqual([{ ok: false, error: 'astro build failed' }, { ok: true }]);
  });

  test('a build that throws counts as failed', async () => {
    const built: BuildOutcome[] = [];
    const scheduler = createRebuildScheduler({
      debounceMs: 0,
      build: () => Promise.reject(new Error('boom')),
      onBuilt: (outcome) => built.push(outcome),
    });
    scheduler.notify(event('a'));
    await vi.advanceTimersByTimeAsync(10);
    expect(built).toEqual([{ ok: false, error: 'boom' }]);
    expect(scheduler.snapshot().phase).toBe('idle');
  });

  test('stop() waits for the running build and ignores later events', async () => {
    const fake = fakeBuild(3000);
    const scheduler = createRebuildScheduler({ debounceMs: 0, build: fake.build });
    scheduler.notify(event('a'));
    await vi.advanceTimersByTimeAsync(1);
    scheduler.notify(event('b'));
    let stopped = false;
    void scheduler.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(3000);
    expect(stopped).toBe(true);
    scheduler.notify(event('c'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fake.batches).toHaveLength(1);
  });
});

describe('retries of a transient failure', () => {
  const transient = (error = 'BigCommerce GET v3/catalog/products answered 503'): BuildOutcome => ({
    ok: false,
    error,
    retry: true,
  });

  test('the backoff: 5 s doubling, capped at 5 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 100].map((n) => retryDelay(n))).toEqual([
      5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000,
    ]);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 60_000, max: 3_600_000 }),
        (attempts, firstMs, maxMs) => {
          const delay = retryDelay(attempts, { firstMs, maxMs });
          const next = retryDelay(attempts + 1, { firstMs, maxMs });
          return delay >= firstMs && delay <= maxMs && next >= delay;
        },
      ),
    );
  });

  test('a transient failure is built again after the backoff, with its events, until it succeeds', async () => {
    const fake = fakeBuild(1_000, [transient(), transient(), transient('timed out')]);
    const scheduler = createRebuildScheduler({ debounceMs: 100, build: fake.build });
    scheduler.notify(event('renamed'));
    await vi.advanceTimersByTimeAsync(100 + 1_000);
    expect(fake.batches).toHaveLength(1);
    expect(scheduler.snapshot()).toMatchObject({
      phase: 'waiting',
      pending: 1,
      retry: { attempts: 1, at: Date.now() + 5_000 },
    });
    expect(scheduler.snapshot().retry?.error).toContain('503');
    // Not before the backoff.
    await vi.advanceTimersByTimeAsync(4_999);
    expect(fake.batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1 + 1_000);
    expect(fake.batches).toHaveLength(2);
    expect(scheduler.snapshot().retry).toMatchObject({ attempts: 2, at: Date.now() + 10_000 });
    await vi.advanceTimersByTimeAsync(10_000 + 1_000);
    expect(fake.batches).toHaveLength(3);
    expect(scheduler.snapshot().retry).toMatchObject({ attempts: 3, error: 'timed out' });
    await vi.advanceTimersByTimeAsync(20_000 + 1_000);
    expect(fake.batches).toHaveLength(4);
    for (const batch of fake.batches) {
      expect(batch.events.map((e) => e.id)).toEqual(['renamed']);
    }
    expect(scheduler.snapshot()).toMatchObject({ phase: 'idle', pending: 0, retry: null });
    await scheduler.settled();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(fake.batches).toHaveLength(4);
  });

  test('events during the backoff join the retry, which still waits for its time', async () => {
    const fake = fakeBuild(1_000, [transient()]);
    const scheduler = createRebuildScheduler({ debounceMs: 100, build: fake.build });
    scheduler.notify(event('a'));
    await vi.advanceTimersByTimeAsync(1_100);
    for (let i = 0; i < 10; i++) {
      scheduler.notify(event(`b${i}`));
      await vi.advanceTimersByTimeAsync(200);
    }
    scheduler.notify(event('a')); // again: kept once, at its latest place
    expect(fake.batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(fake.batches).toHaveLength(2);
    const retried = fake.batches[1];
    expect(retried?.count).toBe(12);
    expect(retried?.first.id).toBe('a');
    expect(retried?.events.map((e) => e.id)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `b${i}`),
      'a',
    ]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(scheduler.snapshot()).toMatchObject({ phase: 'idle', retry: null });
  });

  test('events during a failed build are built with it after the backoff, not before', async () => {
    const fake = fakeBuild(10_000, [transient()]);
    const scheduler = createRebuildScheduler({ debounceMs: 100, build: fake.build });
    scheduler.notify(event('a'));
    await vi.advanceTimersByTimeAsync(100);
    await vi.advanceTimersByTimeAsync(1_000);
    scheduler.notify(event('during'));
    await vi.advanceTimersByTimeAsync(9_000);
    expect(scheduler.snapshot()).toMatchObject({ pending: 2, retry: { attempts: 1 } });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(fake.batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.batches).toHaveLength(2);
    expect(fake.batches[1]?.events.map((e) => e.id)).toEqual(['a', 'during']);
  });

  test('a failure that is not transient is not retried, and ends the retries', async () => {
    const fake = fakeBuild(1_000, [transient(), { ok: false, error: 'no matching static path' }]);
    const scheduler = createRebuildScheduler({ debounceMs: 100, build: fake.build });
    scheduler.notify(event('a'));
    await vi.advanceTimersByTimeAsync(1_100 + 5_000 + 1_000);
    expect(fake.batches).toHaveLength(2);
    expect(scheduler.snapshot()).toMatchObject({ phase: 'idle', pending: 0, retry: null });
    await vi.advanceTimersByTimeAsync(600_000);
    expect(fake.batches).toHaveLength(2);
  });

  test('stop ends the retries', async () => {
    const fake = fakeBuild(1_000, [transient()]);
    const scheduler = createRebuildScheduler({ debounceMs: 100, build: fake.build });
    scheduler.notify(event('a'));
    await vi.advanceTimersByTimeAsync(1_100);
    await scheduler.stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(fake.batches).toHaveLength(1);
  });

  test('any sequence of outcomes: every event is built by a success, or its failure was not transient', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<'ok' | 'transient' | 'failed'>('ok', 'transient', 'failed'), {
          maxLength: 12,
        }),
        fc.array(fc.integer({ min: 0, max: 400_000 }), { minLength: 1, maxLength: 8 }),
        async (results, gaps) => {
          const outcomes: BuildOutcome[] = results.map((r) =>
            r === 'ok' ? { ok: true } : r === 'failed' ? { ok: false, error: 'bad' } : transient(),
          );
          const fake = fakeBuild(2_000, outcomes);
          const delivered = new Set<string>();
          const dropped = new Set<string>();
          const scheduler = createRebuildScheduler({
            debounceMs: 100,
            build: fake.build,
            onBuilt: (outcome, batch) => {
              if (outcome.ok) for (const e of batch.events) delivered.add(e.id);
              else if (outcome.retry !== true) for (const e of batch.events) dropped.add(e.id);
            },
          });
          const sent: string[] = [];
          for (const [i, gap] of gaps.entries()) {
            sent.push(`e${i}`);
            scheduler.notify(event(`e${i}`));
            await vi.advanceTimersByTimeAsync(gap);
          }
          // Long enough for every outcome, each retry waiting at most 5 minutes.
          await vi.advanceTimersByTimeAsync((results.length + 2) * 310_000);
          expect(scheduler.snapshot()).toMatchObject({ phase: 'idle', pending: 0 });
          for (const id of sent) expect(delivered.has(id) || dropped.has(id), id).toBe(true);
          await scheduler.stop();
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('readServeConfig', () => {
  const hex64 = 'ab'.repeat(32);

  test('defaults: no webhooks, no rebuilds', () => {
    expect(readServeConfig({})).toEqual({
      contentfulSecret: undefined,
      bigcommerceSecret: undefined,
      statusToken: undefined,
      releasesDir: 'dist-releases',
      workers: 1,
      debounceMs: 1500,
      publishDebounceMs: 300,
      buildTimeoutMs: 1_800_000,
      buildCommand: undefined,
      publishEdits: true,
      fullBuildEveryMs: 24 * 3_600_000,
      publishTimeoutMs: 90_000,
      fetchTimeoutMs: 30_000,
      shutdownDelayMs: 5_000,
      shutdownTimeoutMs: 25_000,
      rebuilds: false,
      logLevel: 'error',
    });
  });

  test('the releases folder follows DIST_DIR unless RELEASES_DIR is set', () => {
    expect(readServeConfig({ DIST_DIR: 'dist' }).releasesDir).toBe('dist-releases');
    expect(readServeConfig({ DIST_DIR: 'dist-test' }).releasesDir).toBe('dist-test-releases');
    expect(readServeConfig({ DIST_DIR: '/srv/shop/dist/' }).releasesDir).toBe(
      '/srv/shop/dist-releases',
    );
    expect(readServeConfig({ DIST_DIR: ' ' }).releasesDir).toBe('dist-releases');
    expect(readServeConfig({ DIST_DIR: 'dist-test', RELEASES_DIR: '/shared' }).releasesDir).toBe(
      '/shared',
    );
  });

  test('two builds in different folders never get one releases folder by default', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
    const folder = fc
      .tuple(fc.boolean(), fc.array(segment, { minLength: 1, maxLength: 3 }), fc.boolean())
      .map(
        ([absolute, parts, slash]) => `${absolute ? '/' : ''}${parts.join('/')}${slash ? '/' : ''}`,
      );
    const normal = (dir: string) => dir.replace(/\/+$/, '');
    fc.assert(
      fc.property(folder, folder, (a, b) => {
        fc.pre(normal(a) !== normal(b));
        const [ra, rb] = [defaultReleasesDir(a), defaultReleasesDir(b)];
        expect(ra).not.toBe(rb);
        // Never the build itself, nor a folder inside it (a build replaces its folder).
        expect(ra.startsWith(`${normal(a)}/`)).toBe(false);
        expect(ra).not.toBe(normal(a));
      }),
    );
  });

  test('edits are published unless turned off or the build is a test command', () => {
    expect(readServeConfig({ PUBLISH_EDITS: '0' }).publishEdits).toBe(false);
    expect(readServeConfig({ PUBLISH_EDITS: '1' }).publishEdits).toBe(true);
    expect(readServeConfig({ REBUILD_COMMAND: 'cp -r a "$RELEASE_DIR"' }).publishEdits).toBe(false);
    expect(readServeConfig({ FULL_BUILD_EVERY_HOURS: '0' }).fullBuildEveryMs).toBe(0);
    expect(readServeConfig({ FULL_BUILD_EVERY_HOURS: '6' }).fullBuildEveryMs).toBe(6 * 3_600_000);
  });

  test('the deadlines of a publish and of a fetch', () => {
    expect(
      readServeConfig({ PUBLISH_TIMEOUT_MS: '120000', FETCH_TIMEOUT_MS: '5000' }),
    ).toMatchObject({ publishTimeoutMs: 120_000, fetchTimeoutMs: 5_000 });
  });

  test('blank values are unset', () => {
    expect(readServeConfig({ CONTENTFUL_WEBHOOK_SECRET: ' ', SERVER_WORKERS: '' })).toMatchObject({
      contentfulSecret: undefined,
      workers: 1,
      rebuilds: false,
    });
  });

  test('a secret turns rebuilds on', () => {
    expect(
      readServeConfig({
        CONTENTFUL_WEBHOOK_SECRET: hex64,
        SERVER_WORKERS: '2',
        REBUILD_DEBOUNCE_MS: '0',
        RELEASES_DIR: '/srv/releases',
      }),
    ).toMatchObject({
      contentfulSecret: hex64,
      workers: 2,
      debounceMs: 0,
      releasesDir: '/srv/releases',
      rebuilds: true,
    });
  });

  test.each([
    ['CONTENTFUL_WEBHOOK_SECRET', 'short', /CONTENTFUL_WEBHOOK_SECRET must be 64 characters/],
    ['CONTENTFUL_WEBHOOK_SECRET', `${'a'.repeat(63)} `, /printable/],
    [
      'BIGCOMMERCE_WEBHOOK_SECRET',
      'x'.repeat(31),
      /BIGCOMMERCE_WEBHOOK_SECRET must be at least 32/,
    ],
    ['REBUILD_STATUS_TOKEN', 'x'.repeat(10), /REBUILD_STATUS_TOKEN must be at least 32/],
    ['SERVER_WORKERS', '0', /SERVER_WORKERS/],
    ['SERVER_WORKERS', 'two', /SERVER_WORKERS must be a whole number/],
    ['REBUILD_DEBOUNCE_MS', '-5', /REBUILD_DEBOUNCE_MS/],
    ['REBUILD_TIMEOUT_MS', '5', /REBUILD_TIMEOUT_MS/],
    ['LOG_LEVEL', 'verbose', /LOG_LEVEL/],
    ['PUBLISH_EDITS', 'yes', /PUBLISH_EDITS/],
    ['FULL_BUILD_EVERY_HOURS', '1.5', /FULL_BUILD_EVERY_HOURS must be a whole number/],
    ['PUBLISH_TIMEOUT_MS', '10', /PUBLISH_TIMEOUT_MS/],
    ['FETCH_TIMEOUT_MS', '0', /FETCH_TIMEOUT_MS/],
    ['FETCH_TIMEOUT_MS', '3e4', /FETCH_TIMEOUT_MS must be a whole number/],
  ])('%s=%j is refused with a clear message', (name, value, message) => {
    expect(() => readServeConfig({ [name]: value })).toThrow(message);
  });

  test('the message never quotes a secret', () => {
    const value = 'very-secret-but-short';
    let message = '';
    try {
      readServeConfig({ BIGCOMMERCE_WEBHOOK_SECRET: value, REBUILD_STATUS_TOKEN: value });
    } catch (error) {
      message = error instanceof Error ? error.message : '';
    }
    expect(message).toContain('BIGCOMMERCE_WEBHOOK_SECRET');
    expect(message).toContain('REBUILD_STATUS_TOKEN');
    expect(message).not.toContain(value);
  });
});
