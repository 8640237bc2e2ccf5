/**
 * A build given up by a drained stop (src/server/shutdown.ts, `stopRebuilds` in
 * src/server/rebuild/supervisor.ts): two supervised servers (`node src/server/serve.ts`) on one
 * Redis and one releases folder, on a tiny dist, the build a copy of it that waits for the test's
 * word. A webhook starts a build on the copy holding the lease; SIGTERM to that copy while it
 * builds: it exits 0, its release is never made current (and is removed), the pointer stays on
 * the release served, the lease goes at once to the other copy, which builds the same event
 * (it was not recorded as built) and serves its release.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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

const SECRET = 'e'.repeat(64);
// A build that says it started, then waits for the test's `go` file.
const COMMAND = [
  'set -e',
  'cp -r "$FIXTURE_DIST/." "$RELEASE_DIR"',
  'echo "<h1>release $(basename "$RELEASE_DIR")</h1>" > "$RELEASE_DIR/client/index.html"',
  'touch "$STARTED_FILE"',
  'while [ ! -f "$GO_FILE" ]; do sleep 0.05; done',
].join('\n');

/** Polls `until` every 50 ms, at most `timeoutMs`. */
async function waitFor(until: () => boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!until()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${String(timeoutMs)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(redisAvailable())('a build given up by a drained stop', () => {
  let redis: TestRedis;
  let root: string;
  let dist: string;
  let releases: string;
  const started: ShopChild[] = [];

  const startCopy = async (): Promise<ShopChild> => {
    const copy = await startServe({
      dist,
      releases,
      rebuild: { command: COMMAND, secret: SECRET, debounceMs: 200 },
      env: {
        REDIS_URL: redis.url,
        STARTED_FILE: path.join(root, 'started'),
        GO_FILE: path.join(root, 'go'),
        LOG_LEVEL: 'info',
        SHUTDOWN_DELAY_MS: '200',
      },
    });
    started.push(copy);
    return copy;
  };

  beforeAll(async () => {
    redis = await startRedis();
    root = await mkdtemp(path.join(os.tmpdir(), 'drained-stop-'));
    dist = path.join(root, 'dist');
    releases = path.join(root, 'releases');
    await writeTinyDist(dist);
  });
  afterAll(async () => {
    await Promise.all(started.map((copy) => copy.stop()));
    await redis.stop();
    await rm(root, { recursive: true, force: true });
  });

  test('SIGTERM during a build: exit 0, nothing made current, the other copy builds the event', async () => {
    const holder = await startCopy();
    await statusWhen(holder.base, (status) => status.copies?.role === 'builder');
    const other = await startCopy();
    await statusWhen(other.base, (status) => (status.copies?.builder ?? null) !== null);
    const pointerBefore = await readFile(path.join(releases, 'current.json'), 'utf8').catch(
      () => null,
    );

    expect(await sendPublish(other.base, 'entree-arret', SECRET)).toBe(202);
    await waitFor(() => existsSync(path.join(root, 'started')), 'the build started');
    const building = /\[rebuild\] building (r[\w-]+)/.exec(holder.output())?.[1];
    expect(building).toBeDefined();

    const exited = new Promise<number | null>((resolve) => {
      holder.child.once('exit', (code) => {
        resolve(code);
      });
    });
    holder.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(holder.output()).toContain('stopped (server shutting down)');
    expect(holder.output()).toContain('[serve] drained: stopped');
    // Never made current: the pointer is as it was, the release folder gone.
    expect(await readFile(path.join(releases, 'current.json'), 'utf8').catch(() => null)).toBe(
      pointerBefore,
    );
    expect(existsSync(path.join(releases, building ?? 'none'))).toBe(false);

    // The lease went at once; the event was not recorded as built: the other copy builds it.
    await statusWhen(other.base, (status) => status.copies?.role === 'builder', 15_000);
    await writeFile(path.join(root, 'go'), '1');
    const built = await settledAfter(other.base, 1, 30_000);
    expect(built.lastBuild).toMatchObject({ result: 'succeeded' });
    expect(built.current.id).not.toBe(building);
    expect(await (await fetch(`${other.base}/`)).text()).toContain(`release ${built.current.id}`);
    expect((await readStatus(other.base)).lastEvent?.id).toBe('entree-arret');
  }, 60_000);
});
