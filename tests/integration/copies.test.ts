/**
 * Several copies, one build (`src/server/rebuild/coordination.ts`) over HTTP: two supervised
 * servers (`node src/server/serve.ts`) on one Redis and one releases folder outside the project,
 * on a tiny dist made here, the build a quick copy of it with the release's name in its home
 * page. The first copy holds the build lease; a webhook sent to the second gives one build,
 * which both serve (the second follows `current.json`) with no failed request; a new publish
 * count in the pointer has the other copy's workers drop their renders; a pointer nobody should
 * have written is logged and ignored; when the builder stops, the other copy takes the lease
 * and builds the next webhook itself.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  copyStatusFile,
  readReleasePointer,
  writeCurrentRelease,
  type ReleasePointer,
} from '../../src/server/rebuild/releases.ts';
import {
  readStatus,
  sendPublish,
  settledAfter,
  startServe,
  statusWhen,
  writeTinyDist,
  type ShopChild,
} from './helpers/rebuild.ts';
import { redisAvailable, startRedis, type TestRedis } from './helpers/redis.ts';

const SECRET = 'c'.repeat(64);
const COMMAND = [
  'set -e',
  'cp -r "$FIXTURE_DIST/." "$RELEASE_DIR"',
  'name=$(basename "$RELEASE_DIR")',
  'echo "<h1>release $name</h1>" > "$RELEASE_DIR/client/index.html"',
  // A complete release whose server cannot start (its workers exit before they listen).
  `if [ -f "$BROKEN_FLAG" ]; then echo "throw new Error('broken release')" > "$RELEASE_DIR/server/entry.mjs"; fi`,
].join('\n');

describe.runIf(redisAvailable())('two copies, one Redis, one releases folder', () => {
  let redis: TestRedis;
  let root: string;
  let dist: string;
  let releases: string;
  let brokenFlag: string;
  let a: ShopChild | undefined;
  let b: ShopChild | undefined;
  const copies = () => {
    if (a === undefined || b === undefined) throw new Error('the copies did not start');
    return { a, b };
  };

  const startCopy = async (): Promise<ShopChild> =>
    startServe({
      dist,
      releases,
      rebuild: { command: COMMAND, secret: SECRET, debounceMs: 300 },
      env: { REDIS_URL: redis.url, BROKEN_FLAG: brokenFlag, LOG_LEVEL: 'info' },
    });

  const home = async (copy: ShopChild) => (await fetch(`${copy.base}/`)).text();
  const buildLines = () =>
    [a, b].flatMap((copy) =>
      (copy?.output() ?? '').split('\n').filter((line) => line.includes('[rebuild] building ')),
    );
  const releaseDirs = async () =>
    (await readdir(releases)).filter((name) => /^r\d{8}-\d{6}-[0-9a-f]{4}$/.test(name)).sort();
  const pointer = async (): Promise<ReleasePointer> => {
    const read = await readReleasePointer(releases);
    if (read === null || 'problem' in read) throw new Error('no release pointer');
    return read;
  };

  /** Fetches the home page of each copy in a loop until `done()`; the failures seen. */
  function hammer(done: () => boolean) {
    const failures: string[] = [];
    let requests = 0;
    const loop = async (copy: ShopChild) => {
      while (!done()) {
        try {
          const response = await fetch(`${copy.base}/`);
          await response.text();
          requests += 1;
          if (response.status !== 200) failures.push(`${copy.base}: ${String(response.status)}`);
        } catch (error) {
          failures.push(`${copy.base}: ${String(error)}`);
        }
      }
    };
    const { a: first, b: second } = copies();
    const running = Promise.all([first, second, first, second].map(loop));
    return { failures, requests: () => requests, finished: running };
  }

  beforeAll(async () => {
    redis = await startRedis();
    root = await mkdtemp(path.join(os.tmpdir(), 'copies-'));
    dist = path.join(root, 'dist');
    releases = path.join(root, 'shared', 'releases');
    brokenFlag = path.join(root, 'broken');
    await writeTinyDist(dist);
    a = await startCopy();
    await statusWhen(a.base, (status) => status.copies?.role === 'builder');
    b = await startCopy();
    await statusWhen(b.base, (status) => (status.copies?.builder ?? null) !== null);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis.stop();
    await rm(root, { recursive: true, force: true });
  });

  test('the first copy builds, the second follows it; each says so in its own status', async () => {
    const { a: first, b: second } = copies();
    const statusA = await readStatus(first.base);
    await expect
      .poll(async () => (await readStatus(second.base)).copies)
      .toEqual({
        name: expect.stringMatching(/-\d+$/) as string,
        role: 'follower',
        builder: statusA.copies?.name,
        redis: 'reachable',
      });
    expect(statusA.copies).toMatchObject({ role: 'builder', builder: statusA.copies?.name });
    const statusB = await readStatus(second.base);
    expect(statusB.current.id).toBe('dist');
    // One status file per copy in the shared folder.
    const fileB = JSON.parse(
      await readFile(copyStatusFile(releases, statusB.copies?.name ?? '?'), 'utf8'),
    ) as { copies: { role: string } };
    expect(fileB.copies.role).toBe('follower');
  });

  test('a webhook to the follower: one build, served by both within 5 s, no failed request', async () => {
    const { a: first, b: second } = copies();
    let switched = false;
    const load = hammer(() => switched);
    await expect.poll(load.requests).toBeGreaterThan(20);
    expect(await sendPublish(second.base, 'entree-copie', SECRET)).toBe(202);
    const built = await settledAfter(first.base, 1);
    expect(built.lastBuild).toMatchObject({ result: 'succeeded' });
    const { id } = built.current;
    await expect
      .poll(async () => (await readStatus(second.base)).current.id, { timeout: 10_000 })
      .toBe(id);
    switched = true;
    await load.finished;
    expect(load.failures).toEqual([]);
    // One build across both copies, and one release in the shared folder.
    const statusB = await readStatus(second.base);
    expect([built.builds, statusB.builds]).toEqual([1, 0]);
    expect(buildLines()).toHaveLength(1);
    expect(await releaseDirs()).toEqual([id]);
    expect((await pointer()).release.id).toBe(id);
    // The follower switched within 5 s of the pointer's write.
    const written = (await stat(path.join(releases, 'current.json'))).mtimeMs;
    const switchMs = Date.parse(statusB.current.servingSince) - written;
    expect(switchMs).toBeLessThan(5_000);
    expect(await home(first)).toContain(`release ${id}`);
    expect(await home(second)).toContain(`release ${id}`);
    // It had started the release's workers while the builder swapped its own.
    expect(second.output()).toContain(`[rebuild] ${id} is about to go live`);
    expect(second.output()).toContain(`[rebuild] ${id} is live: switched in`);
  }, 60_000);

  test('a publish count in the pointer: the other copy drops its cached renders', async () => {
    const { a: first, b: second } = copies();
    const before = await pointer();
    // As the builder writes it after a publish into the live release.
    await writeCurrentRelease(releases, before.release, before.generation + 1);
    const generation = before.generation + 1;
    await expect
      .poll(async () => (await readStatus(second.base)).current.generation)
      .toBe(generation);
    await expect
      .poll(second.output)
      .toContain(`cached renders dropped (publish ${String(generation)})`);
    expect(second.output()).toContain(`publish ${String(generation)} by another copy`);
    // Same release: no switch, no build.
    const statusB = await readStatus(second.base);
    expect(statusB.current.id).toBe(before.release.id);
    expect((await readStatus(first.base)).builds).toBe(1);
  });

  test('a pointer nobody should have written is logged once and ignored', async () => {
    const { a: first, b: second } = copies();
    const before = await pointer();
    const file = path.join(releases, 'current.json');
    await writeFile(file, JSON.stringify({ ...before.release, id: '../../etc' }));
    await expect.poll(second.output).toContain('current.json names no release id: not followed');
    await writeFile(file, '{');
    await expect.poll(second.output).toContain('current.json is not JSON: not followed');
    expect(second.output().split('names no release id').length - 1).toBe(1);
    for (const copy of [first, second]) {
      expect(await home(copy)).toContain(`release ${before.release.id}`);
    }
    await writeCurrentRelease(releases, before.release, before.generation);
  });

  test('a release that does not start: both copies keep theirs, the early workers go', async () => {
    const { a: first, b: second } = copies();
    const before = await readStatus(first.base);
    await writeFile(brokenFlag, '');
    try {
      expect(await sendPublish(second.base, 'entree-cassee', SECRET)).toBe(202);
      const after = await settledAfter(first.base, before.builds + 1);
      expect(after.state).toBe('failed');
      expect(after.lastBuild?.error).toContain('the new release did not start');
      const broken = after.lastBuild?.id ?? '?';
      // The follower had started its workers ahead; they failed, and it serves what it served.
      await expect.poll(second.output).toContain(`[rebuild] ${broken} is about to go live`);
      expect((await readStatus(second.base)).current.id).toBe(before.current.id);
      expect(second.output()).not.toContain(`switch to ${broken}`);
      expect((await pointer()).release.id).toBe(before.current.id);
      for (const copy of [first, second]) {
        expect(await home(copy)).toContain(`release ${before.current.id}`);
      }
    } finally {
      await rm(brokenFlag, { force: true });
    }
  }, 60_000);

  test('the builder stops: the other copy takes the lease and builds the next webhook', async () => {
    const { a: first, b: second } = copies();
    const before = await readStatus(second.base);
    expect(await first.stop()).toBe(0);
    a = undefined;
    // Freed on close: no wait for the lease to expire.
    await expect.poll(async () => (await readStatus(second.base)).copies?.role).toBe('builder');
    expect(await sendPublish(second.base, 'apres-le-depart', SECRET)).toBe(202);
    const after = await settledAfter(second.base, before.builds + 1);
    expect(after.lastBuild).toMatchObject({ result: 'succeeded' });
    expect(after.current.id).not.toBe(before.current.id);
    expect((await pointer()).release.id).toBe(after.current.id);
    expect(await home(second)).toContain(`release ${after.current.id}`);
  }, 60_000);
});
