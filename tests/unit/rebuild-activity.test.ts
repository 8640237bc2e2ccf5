/**
 * What a full build or a publish under way says in the rebuild status
 * (src/server/rebuild/activity.ts, status.ts): the expected end is the start plus the median of
 * the last successful runs of the same kind (null when none is known), the reason names the
 * events, their topics and why a batch is a full build, and the durations a status file keeps
 * are read back after a restart, checked.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  DURATIONS_KEPT,
  durationsFromStatus,
  expectedDuration,
  notEdits,
  reasonOf,
  runActivity,
  withDuration,
} from '../../src/server/rebuild/activity.ts';
import type { RebuildBatch, RebuildEvent } from '../../src/server/rebuild/scheduler.ts';
import { StatusReport, type RebuildStatus } from '../../src/server/rebuild/status.ts';
import type { SupervisorState } from '../../src/server/rebuild/supervisor-state.ts';

const duration = fc.integer({ min: 0, max: 3_600_000 });

const event = (source: RebuildEvent['source'], topic: string, id: string): RebuildEvent => ({
  source,
  topic,
  id,
  receivedAt: 1_700_000_000_000,
});

const batchOf = (events: RebuildEvent[], complete = true): RebuildBatch => ({
  count: events.length,
  first: events[0] ?? event('contentful', 'Entry.publish', 'x'),
  last: events.at(-1) ?? event('contentful', 'Entry.publish', 'x'),
  events,
  complete,
});

describe('the expected duration', () => {
  test('none known: null', () => {
    expect(expectedDuration([])).toBeNull();
  });

  test('the median of the last runs', () => {
    expect(expectedDuration([30_000])).toBe(30_000);
    expect(expectedDuration([10, 20])).toBe(15);
    expect(expectedDuration([50, 10, 30])).toBe(30);
    // Only the last DURATIONS_KEPT count: the first, far longer one is forgotten.
    expect(expectedDuration([900_000, 2, 3, 4, 5, 100])).toBe(4);
  });

  test('lies between the shortest and the longest of the last runs, whatever their order', () => {
    fc.assert(
      fc.property(fc.array(duration, { minLength: 1, maxLength: 12 }), (durations) => {
        const last = durations.slice(-DURATIONS_KEPT);
        const expected = expectedDuration(durations);
        expect(expected).not.toBeNull();
        expect(expected).toBeGreaterThanOrEqual(Math.min(...last));
        expect(expected).toBeLessThanOrEqual(Math.max(...last));
        expect(expectedDuration(last.toReversed())).toBe(expected);
        expect(expectedDuration([...last].sort((a, b) => b - a))).toBe(expected);
      }),
    );
  });

  test('older runs than the last DURATIONS_KEPT do not count', () => {
    fc.assert(
      fc.property(
        fc.array(duration, { maxLength: 10 }),
        fc.array(duration, { minLength: DURATIONS_KEPT, maxLength: DURATIONS_KEPT }),
        (older, last) => {
          expect(expectedDuration([...older, ...last])).toBe(expectedDuration(last));
        },
      ),
    );
  });

  test('a success is added last, and at most DURATIONS_KEPT are kept', () => {
    fc.assert(
      fc.property(fc.array(duration, { maxLength: 20 }), duration, (durations, ms) => {
        const kept = withDuration(durations, ms);
        expect(kept.length).toBeLessThanOrEqual(DURATIONS_KEPT);
        expect(kept.at(-1)).toBe(ms);
        expect(kept).toEqual([...durations, ms].slice(-DURATIONS_KEPT));
      }),
    );
  });

  test('the expected end: the start plus the expected duration, null when none is known', () => {
    const reason = reasonOf(batchOf([event('contentful', 'Entry.publish', 'a')]), null);
    const run = { kind: 'build', startedAt: '2026-01-01T10:00:00.000Z', reason } as const;
    const known = runActivity(run, { build: [60_000, 120_000, 90_000], publish: [1_000] });
    expect(known).toEqual({
      kind: 'build',
      reason,
      since: '2026-01-01T10:00:00.000Z',
      expectedMs: 90_000,
      expectedEnd: '2026-01-01T10:01:30.000Z',
    });
    // A publish's expected end comes from publishes only.
    expect(runActivity({ ...run, kind: 'publish' }, { build: [60_000], publish: [] })).toEqual({
      kind: 'publish',
      reason,
      since: run.startedAt,
      expectedMs: null,
      expectedEnd: null,
    });
  });

  test('a status file: valid durations are read back, anything else is none', () => {
    expect(durationsFromStatus({ durations: { build: [1, 2], publish: [3] } })).toEqual({
      build: [1, 2],
      publish: [3],
    });
    expect(
      durationsFromStatus({ durations: { build: [1, 2, 3, 4, 5, 6, 7], publish: [] } }).build,
    ).toEqual([3, 4, 5, 6, 7]);
    for (const bad of [
      null,
      'x',
      {},
      { durations: { build: [-1], publish: [] } },
      { durations: { build: ['60000'], publish: [] } },
      { durations: { build: [1.5], publish: [] } },
      { durations: { build: [] } },
    ]) {
      expect(durationsFromStatus(bad)).toEqual({ build: [], publish: [] });
    }
  });
});

describe('the reason', () => {
  test('names the events: their count, topics and entities', () => {
    const events = [
      event('contentful', 'Entry.publish', 'page-a'),
      event('contentful', 'Entry.publish', 'page-b'),
      event('bigcommerce', 'store/product/updated', '7'),
    ];
    expect(reasonOf({ ...batchOf(events), count: 5 }, 'navigation changed')).toEqual({
      cause: 'events',
      events: 5,
      topics: [
        { source: 'contentful', topic: 'Entry.publish', count: 2 },
        { source: 'bigcommerce', topic: 'store/product/updated', count: 1 },
      ],
      ids: ['contentful:page-a', 'contentful:page-b', 'bigcommerce:7'],
      fullBecause: 'navigation changed',
    });
  });

  test('a warm-up or a scheduled build says so; ids and topics are bounded', () => {
    const warmUp = reasonOf(batchOf([event('supervisor', 'warm-up', 'kept build')]), 'x');
    expect(warmUp.cause).toBe('warm-up');
    expect(warmUp.ids).toEqual([]);
    expect(reasonOf(batchOf([event('supervisor', 'schedule', 'old')]), 'x').cause).toBe('schedule');
    const many = Array.from({ length: 50 }, (_, i) =>
      event('contentful', `Entry.topic${String(i)}`, `e${String(i)}`),
    );
    const bounded = reasonOf(batchOf(many), null);
    expect(bounded.ids).toHaveLength(10);
    expect(bounded.topics).toHaveLength(20);
    expect(bounded.events).toBe(50);
  });

  test('why a batch is not edits the kept build publishes', () => {
    const edit = event('contentful', 'Entry.publish', 'page-a');
    expect(notEdits(batchOf([edit, event('bigcommerce', 'store/product/updated', '7')]), 9)).toBe(
      null,
    );
    expect(notEdits(batchOf([edit], false), 1000)).toBe('more than 1000 distinct events');
    expect(notEdits(batchOf([event('supervisor', 'warm-up', 'k')]), 9)).toBe(
      'a warm-up build is a full build',
    );
    expect(notEdits(batchOf([edit, event('contentful', 'Entry.archive', 'b')]), 9)).toBe(
      'contentful Entry.archive is not an edit the kept build publishes',
    );
  });
});

describe('the status', () => {
  const state = (): SupervisorState => ({
    current: { id: 'r1', dir: '/tmp/r1', builtAt: 1_700_000_000_000 },
    previous: null,
    servingSince: 1_700_000_000_000,
    publishes: 0,
    closing: false,
    building: null,
    kept: null,
    coordination: null,
    heartbeat: null,
  });
  const report = (statusFile: string) =>
    new StatusReport({
      state: state(),
      rebuilds: true,
      name: null,
      statusFile,
      scheduler: () => null,
      switchFailed: () => null,
      servingWorkers: () => 2,
      logError: (line) => {
        throw new Error(line);
      },
    });

  test('says what runs, since when and its expected end; the durations survive a restart', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rebuild-activity-'));
    try {
      const file = path.join(dir, 'status.json');
      const first = report(file);
      await first.restore(); // no file yet: none known
      const reason = reasonOf(batchOf([event('contentful', 'Entry.publish', 'nav')]), 'menu');
      const running = {
        id: 'r2',
        startedAt: '2026-01-01T10:00:00.000Z',
        result: 'running',
        kind: 'build',
        events: 1,
        reason,
        log: '/tmp/r2.log',
      } as const;
      first.lastBuild = running;
      expect(first.status().running).toEqual({
        kind: 'build',
        reason,
        since: running.startedAt,
        expectedMs: null,
        expectedEnd: null,
      });
      first.finished({ ...running, result: 'succeeded', durationMs: 80_000 });
      // A failed run does not count.
      first.finished({ ...running, result: 'failed', durationMs: 5, error: 'boom' });
      first.finished({ ...running, kind: 'publish', result: 'succeeded', durationMs: 4_000 });
      const done: RebuildStatus = first.status();
      expect(done.running).toBeNull();
      expect(done.durations).toEqual({ build: [80_000], publish: [4_000] });
      // Existing fields stay.
      expect(done.lastBuild?.result).toBe('succeeded');
      expect(done.current.id).toBe('r1');
      expect(done.workers).toBe(2);
      first.write();
      await first.written();
      expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
        durations: { build: [80_000], publish: [4_000] },
      });

      // A restart: the next build's expected end comes from the durations kept in the file.
      const second = report(file);
      await second.restore();
      second.lastBuild = { ...running, startedAt: '2026-01-02T10:00:00.000Z' };
      expect(second.status().running).toMatchObject({
        since: '2026-01-02T10:00:00.000Z',
        expectedMs: 80_000,
        expectedEnd: '2026-01-02T10:01:20.000Z',
      });
      // A file that is not JSON leaves none known.
      await writeFile(file, '{ not json');
      const third = report(file);
      await third.restore();
      expect(third.status().durations).toEqual({ build: [], publish: [] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
