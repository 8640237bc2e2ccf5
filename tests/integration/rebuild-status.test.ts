/**
 * The rebuild status while a full build runs (`GET /webhooks/status`, src/server/rebuild/status.ts
 * and activity.ts), read from the supervisor over HTTP (`node src/server/serve.ts`) on a tiny
 * dist, with a build command (`REBUILD_COMMAND`) that holds until the test lets it finish: the
 * status says what is building (the events, their topic, why it is a full build), since when,
 * and its expected end: none known on a fresh releases folder, then the last successful build's
 * duration, still known after a restart (the status file keeps it).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  readStatus,
  sendPublish,
  startServe,
  statusWhen,
  writeTinyDist,
  type ShopChild,
} from './helpers/rebuild.ts';

const SECRET = 'e'.repeat(64);

let root: string;
let dist: string;
let releases: string;
let holds: string;
let shop: ShopChild | undefined;

// The held build: the tiny dist copied, done once the test writes a file named by the release.
const COMMAND = [
  'set -e',
  'name=$(basename "$RELEASE_DIR")',
  'while [ ! -f "$HOLD_DIR/$name" ]; do sleep 0.05; done',
  'cp -r "$FIXTURE_DIST/." "$RELEASE_DIR"',
].join('\n');

function startShop(): Promise<ShopChild> {
  return startServe({
    dist,
    releases,
    rebuild: { command: COMMAND, secret: SECRET, debounceMs: 100 },
    env: { HOLD_DIR: holds },
  });
}

interface Running {
  kind: string;
  since: string;
  expectedMs: number | null;
  expectedEnd: string | null;
  reason: {
    cause: string;
    events: number;
    topics: { source: string; topic: string; count: number }[];
    ids: string[];
    fullBecause: string | null;
  };
}

interface ActivityStatus {
  state: string;
  builds: number;
  lastBuild: { id: string; result: string; startedAt: string; durationMs?: number } | null;
  running: Running | null;
  durations: { build: number[]; publish: number[] };
}

const status = async () => (await readStatus(base())) as unknown as ActivityStatus;
const base = () => shop?.base ?? '';

/** A publish of entry `id`; resolves with the status once its build runs (held). */
async function buildHeld(id: string, builds: number): Promise<ActivityStatus> {
  expect(await sendPublish(base(), id, SECRET)).toBe(202);
  // The scheduler says `building` as the batch starts; the run is named once a full build or a
  // publish is chosen for it.
  const now = await statusWhen(
    base(),
    (s) => s.builds === builds && s.state === 'building' && s.lastBuild?.result === 'running',
  );
  return now as unknown as ActivityStatus;
}

/** Lets the held build finish; resolves with the status once it is live. */
async function release(held: ActivityStatus): Promise<ActivityStatus> {
  const id = held.lastBuild?.id ?? '';
  await writeFile(path.join(holds, id), '');
  const now = await statusWhen(
    base(),
    (s) => s.state === 'idle' && s.lastBuild?.id === id && s.lastBuild.result === 'succeeded',
  );
  return now as unknown as ActivityStatus;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'rebuild-status-'));
  dist = path.join(root, 'dist');
  releases = path.join(root, 'releases');
  holds = path.join(root, 'holds');
  await writeTinyDist(dist);
  await mkdir(holds, { recursive: true });
  shop = await startShop();
});

afterAll(async () => {
  await shop?.stop();
  await rm(root, { recursive: true, force: true });
});

test('idle: nothing runs, no duration known', async () => {
  const now = await status();
  expect(now.running).toBeNull();
  expect(now.durations).toEqual({ build: [], publish: [] });
});

test('during a full build: what, since when; no expected end on a fresh folder', async () => {
  const held = await buildHeld('page-a', 1);
  expect(held.running).toEqual({
    kind: 'build',
    since: held.lastBuild?.startedAt,
    expectedMs: null,
    expectedEnd: null,
    reason: {
      cause: 'events',
      events: 1,
      topics: [{ source: 'contentful', topic: 'Entry.publish', count: 1 }],
      ids: ['contentful:page-a'],
      fullBecause: 'publishing edits is off (PUBLISH_EDITS)',
    },
  });
  const done = await release(held);
  expect(done.running).toBeNull();
  expect(done.durations.build).toEqual([done.lastBuild?.durationMs]);
});

test('the next build expects the last one’s duration, after a restart too', async () => {
  const known = (await status()).durations.build;
  expect(known).toHaveLength(1);
  const [previous = 0] = known;
  const expectEnd = (held: ActivityStatus) => {
    const since = held.running?.since ?? '';
    expect(since).toBe(held.lastBuild?.startedAt);
    expect(held.running?.expectedMs).toBe(previous);
    expect(held.running?.expectedEnd).toBe(new Date(Date.parse(since) + previous).toISOString());
  };
  const held = await buildHeld('page-b', 2);
  expectEnd(held);
  await release(held);
  // Two builds known now: the median of both.
  const both = (await status()).durations.build;
  expect(both).toHaveLength(2);

  await shop?.stop();
  shop = await startShop();
  expect((await status()).durations.build).toEqual(both);
  const afterRestart = await buildHeld('page-c', 1);
  const since = Date.parse(afterRestart.running?.since ?? '');
  const median = Math.round(((both[0] ?? 0) + (both[1] ?? 0)) / 2);
  expect(afterRestart.running?.expectedMs).toBe(median);
  expect(afterRestart.running?.expectedEnd).toBe(new Date(since + median).toISOString());
  await release(afterRestart);
});
