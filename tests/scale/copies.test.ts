/**
 * Several copies, one build (issue 21): two `npm start --no-build` copies on the build
 * `npm test` made (DIST_DIR), one Redis, one fresh sandbox on the port that build talks to, and
 * one releases folder in a temporary folder outside the project. The rebuild command is a copy
 * of that build with the release's name in `/release.txt` (`REBUILD_COMMAND`: the switch is
 * what is tested). Under autocannon on both copies, ONE signed Contentful publish is sent to
 * the copy that does not hold the build lease: exactly one build runs across both copies, both
 * serve the new release within 5 s of its pointer being written, and not one request fails on
 * either. Run by `npm test` after the build (vitest project `scale`); by hand:
 * `DIST_DIR=dist-x SANDBOX_PORT=N npx vitest run --project scale tests/scale/copies.test.ts`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEST_ENV } from '../../scripts/lib/test-env.ts';
import { startSandbox, type Sandbox } from '../../scripts/sandbox/server.ts';
import {
  readStatus,
  sendPublish,
  settledAfter,
  startShopChild,
  statusWhen,
  type ShopChild,
} from '../integration/helpers/rebuild.ts';
import {
  freePort,
  redisAvailable,
  startRedis,
  type TestRedis,
} from '../integration/helpers/redis.ts';
import { autocannon, failuresOf, loadRequests, NO_FAILURES } from './helpers/load.ts';

const DIST_DIR = process.env.DIST_DIR ?? TEST_ENV.DIST_DIR;
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? TEST_ENV.SANDBOX_PORT);
const SECRET = 'f'.repeat(64);
const READY = 'the shop runs at';

describe.runIf(redisAvailable())('two copies, one build, under load', () => {
  let sandbox: Sandbox;
  let redis: TestRedis;
  let root = '';
  let releases = '';
  let a: ShopChild | undefined;
  let b: ShopChild | undefined;
  const copies = () => {
    if (a === undefined || b === undefined) throw new Error('the copies did not start');
    return { a, b };
  };

  const startCopy = async () =>
    startShopChild(
      ['scripts/start.ts', '--no-build'],
      {
        ...process.env,
        UPSTREAM: 'sandbox',
        SANDBOX_PORT: String(SANDBOX_PORT),
        SANDBOX_DIR: path.join(root, 'sandbox'),
        DIST_DIR,
        REDIS_URL: redis.url,
        SESSION_SECRET: 'copies-scale-test-session-secret-0123456789',
        RELEASES_DIR: releases,
        CONTENTFUL_WEBHOOK_SECRET: SECRET,
        REBUILD_DEBOUNCE_MS: '500',
        LOG_LEVEL: 'info',
        REBUILD_COMMAND: `cp -r "${path.resolve(DIST_DIR)}/." "$RELEASE_DIR" && basename "$RELEASE_DIR" > "$RELEASE_DIR/client/release.txt"`,
      },
      await freePort(),
      READY,
    );

  /** What `/release.txt` of a copy says (the marker the rebuild command writes). */
  const marker = async (copy: ShopChild) => {
    const response = await fetch(`${copy.base}/release.txt`);
    return response.status === 200 ? (await response.text()).trim() : `(${response.status})`;
  };

  beforeAll(async () => {
    if (!existsSync(path.join(DIST_DIR, 'server', 'entry.mjs'))) {
      throw new Error(`No production build at ${DIST_DIR} (npm test builds it first)`);
    }
    root = mkdtempSync(path.join(tmpdir(), 'copies-scale-'));
    releases = path.join(root, 'releases');
    sandbox = await startSandbox({ port: SANDBOX_PORT, dataDir: path.join(root, 'sandbox') });
    redis = await startRedis();
    a = await startCopy();
    // The first copy takes the build lease before the second starts.
    await statusWhen(a.base, (status) => status.copies?.role === 'builder');
    b = await startCopy();
    await statusWhen(b.base, (status) => (status.copies?.builder ?? null) !== null);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis.stop();
    await sandbox.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('one webhook to the follower: one build, both copies on it within 5 s, 0 failed requests', async () => {
    const { a: builder, b: follower } = copies();
    const before = await readStatus(follower.base);
    expect(before.copies).toMatchObject({
      role: 'follower',
      builder: expect.any(String) as string,
    });
    expect((await readStatus(builder.base)).copies?.name).toBe(before.copies?.builder);
    expect(await marker(follower)).toBe('(404)');

    const requests = loadRequests(DIST_DIR);
    const load = (copy: ShopChild) =>
      autocannon({ url: copy.base, connections: 8, duration: 14, requests });
    const loads = Promise.all([load(builder), load(follower)]);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await sendPublish(follower.base, 'entree-deux-copies', SECRET)).toBe(202);
    const built = await settledAfter(builder.base, 1, 60_000);
    expect(built.lastBuild, JSON.stringify(built.lastBuild)).toMatchObject({ result: 'succeeded' });
    const { id } = built.current;
    const switched = await statusWhen(follower.base, (status) => status.current.id === id, 20_000);
    const [resultA, resultB] = await loads;

    // Exactly one build across both copies: one release in the shared folder, one build line.
    expect([built.builds, switched.builds]).toEqual([1, 0]);
    const dirs = (await readdir(releases)).filter((name) => /^r\d{8}-/.test(name));
    expect(dirs).toEqual([id]);
    const buildLines = [builder, follower].flatMap((copy) =>
      copy
        .output()
        .split('\n')
        .filter((line) => line.includes('[rebuild] building ')),
    );
    expect(buildLines).toHaveLength(1);

    // Both serve it: the status, the marker, the pointer.
    const pointer = JSON.parse(await readFile(path.join(releases, 'current.json'), 'utf8')) as {
      id: string;
    };
    expect(pointer.id).toBe(id);
    expect(await marker(builder)).toBe(id);
    expect(await marker(follower)).toBe(id);
    // It started the release's workers while the builder swapped its own (`next.json`).
    expect(follower.output()).toContain(`[rebuild] ${id} is about to go live`);
    expect(follower.output()).toContain(`[rebuild] ${id} is live: switched in`);

    // Within 5 s of the pointer's write (the swaps happened under the load: it ran 14 s).
    const written = (await stat(path.join(releases, 'current.json'))).mtimeMs;
    const complete = (await stat(path.join(releases, 'next.json'))).mtimeMs;
    const servedAt = Date.parse(switched.current.servingSince);
    const switchMs = servedAt - written;
    console.log(
      `[copies] ${id}: the follower served it ${String(Math.round(switchMs))} ms after the pointer was written (${String(Math.round(servedAt - complete))} ms after the build was complete); ${String(resultA.requests.total)} + ${String(resultB.requests.total)} requests`,
    );
    expect(switchMs).toBeLessThan(5_000);

    for (const result of [resultA, resultB]) {
      expect(result.requests.total).toBeGreaterThan(500);
      expect(failuresOf(result)).toEqual(NO_FAILURES);
    }
  }, 120_000);
});
