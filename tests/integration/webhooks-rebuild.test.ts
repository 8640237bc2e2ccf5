/**
 * The supervisor over HTTP (`node src/server/serve.ts`: cluster primary, rebuild scheduler,
 * releases), on a tiny dist made here and a quick build command (`REBUILD_COMMAND`, copying
 * that dist into the new release with a marker): a burst of signed publishes gives at most two
 * builds and the new release is served; requests running across a swap finish, and a client
 * hammering the shop meanwhile sees no error; a page of the old release still finds its
 * assets; a failed or incomplete build keeps the current release, logs one line and says
 * "failed" in the status; old releases are pruned; a restart resumes from `current.json`.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { initialRelease } from '../../src/server/serve.ts';
import {
  readStatus,
  sendPublish,
  settledAfter as settledAfterOn,
  startServe,
  type ShopChild,
  type StatusReply,
} from './helpers/rebuild.ts';

const SECRET = 'd'.repeat(64);

let root: string;
let dist: string;
let releases: string;
let failFlag: string;
let incompleteFlag: string;
let shop: ShopChild | undefined;

// The quick build: the fixture with this release's name in its home page; the old-only asset
// removed and a new one added (a page of either release must find its scripts).
const COMMAND = [
  'set -e',
  'if [ -f "$FAIL_FLAG" ]; then echo "astro build failed: boom in src/pages/index.astro" >&2; exit 1; fi',
  'if [ -f "$INCOMPLETE_FLAG" ]; then mkdir -p "$RELEASE_DIR/client"; exit 0; fi',
  'cp -r "$FIXTURE_DIST/." "$RELEASE_DIR"',
  'name=$(basename "$RELEASE_DIR")',
  'echo "<h1>release $name</h1>" > "$RELEASE_DIR/client/index.html"',
  'rm "$RELEASE_DIR/client/_astro/old.js"',
  'echo "new()" > "$RELEASE_DIR/client/_astro/new-$name.js"',
].join('\n');

function startShop(): Promise<NonNullable<typeof shop>> {
  return startServe({
    dist,
    releases,
    rebuild: { command: COMMAND, secret: SECRET, debounceMs: 300 },
    env: {
      FAIL_FLAG: failFlag,
      INCOMPLETE_FLAG: incompleteFlag,
      SERVER_WORKERS: '2',
      // The rebuild lines this test reads are info (spec §9: the default is error only).
      LOG_LEVEL: 'info',
    },
  });
}

async function stopShop(): Promise<number | null> {
  const current = shop;
  shop = undefined;
  return (await current?.stop()) ?? null;
}

const base = () => shop?.base ?? '';

/** The server's rebuild and worker log lines so far. */
const rebuildLines = () =>
  (shop?.output() ?? '')
    .split('\n')
    .filter((line) => line.startsWith('[rebuild]') || line.startsWith('[serve]'))
    .join('\n');

const publish = (id: string) => sendPublish(base(), id, SECRET);

type Status = StatusReply;

const status = () => readStatus(base());

/** Waits until no build is pending or running and `builds` builds have run. */
const settledAfter = (builds: number) => settledAfterOn(base(), builds);

const home = async () => (await fetch(`${base()}/`)).text();

/** How many /lent requests a worker has started so far. */
const slowStarted = () => (shop?.output() ?? '').split('[lent] started').length - 1;

let slowRequests = 0;
/**
 * A /lent request, running on a worker once this resolves; `finish()` lets it answer. `read`
 * takes its reply.
 */
async function slowRequest<T>(read: (response: Response) => Promise<T>) {
  const flag = path.join(root, `lent-${String((slowRequests += 1))}`);
  const started = slowStarted();
  const reply = fetch(`${base()}/lent?until=${encodeURIComponent(flag)}`).then(read);
  await expect.poll(slowStarted).toBe(started + 1);
  return { reply, finish: () => writeFile(flag, '') };
}

/**
 * The home page once it shows `text`: a kept-alive connection to a worker being retired gets
 * one more reply from it (its last, with `Connection: close`), so the new release shows on the
 * next request.
 */
async function homeShowing(text: string): Promise<string> {
  let html = '';
  for (let i = 0; i < 20 && !html.includes(text); i++) {
    html = await home();
    if (!html.includes(text)) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return html;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'webhooks-rebuild-'));
  dist = path.join(root, 'dist');
  releases = path.join(root, 'releases');
  failFlag = path.join(root, 'fail');
  incompleteFlag = path.join(root, 'incomplete');
  await mkdir(path.join(dist, 'client/_astro'), { recursive: true });
  await mkdir(path.join(dist, 'server'), { recursive: true });
  await writeFile(path.join(dist, 'client/index.html'), '<h1>release initial</h1>');
  await writeFile(path.join(dist, 'client/_astro/old.js'), 'old()');
  // The SSR side: /lent, a request in flight across a swap: it says when it starts
  // (\`[lent] started\`) and answers once the file ?until= names exists (the test's say); else 404.
  await writeFile(
    path.join(dist, 'server/entry.mjs'),
    `import { existsSync, watch } from 'node:fs';
    import path from 'node:path';
    export async function handler(req, res) {
      const url = new URL(req.url, 'http://shop');
      if (url.pathname === '/lent') {
        console.log('[lent] started');
        const until = url.searchParams.get('until') ?? '';
        // Its folder's change events, not a timer, tell when the file comes.
        await new Promise((resolve) => {
          const watcher = watch(path.dirname(until), check);
          function check() {
            if (!existsSync(until)) return;
            watcher.close();
            resolve();
          }
          check();
        });
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('lent ' + process.env.SERVE_DIST_DIR);
        return;
      }
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Introuvable</h1>');
    }`,
  );
  shop = await startShop();
});

afterAll(async () => {
  await stopShop();
  await rm(root, { recursive: true, force: true });
});

describe('rebuilds', () => {
  test('at start: the dist, idle', async () => {
    expect(await home()).toContain('release initial');
    expect(await status()).toMatchObject({ state: 'idle', builds: 0, current: { id: 'dist' } });
  });

  test('a burst of ten publishes: at most two builds, then the new release is served', async () => {
    const statuses = await Promise.all(Array.from({ length: 10 }, (_, i) => publish(`e${i}`)));
    expect(statuses).toEqual(Array.from({ length: 10 }, () => 202));
    const after = await settledAfter(1);
    expect(after.builds).toBeLessThanOrEqual(2);
    expect(after).toMatchObject({ state: 'idle', lastBuild: { result: 'succeeded' } });
    expect(after.current.id).toMatch(/^r\d{8}-\d{6}-[0-9a-f]{4}$/);
    expect(await homeShowing(`release ${after.current.id}`)).toContain(
      `release ${after.current.id}`,
    );
    const pointer = JSON.parse(await readFile(path.join(releases, 'current.json'), 'utf8')) as {
      id: string;
    };
    expect(pointer.id).toBe(after.current.id);
    expect(shop?.output()).toContain(`[rebuild] ${after.current.id} is live`);
  }, 60_000);

  test('across a swap: a slow request finishes, a busy client sees no error, old assets load', async () => {
    const before = (await status()).current.id;
    const slow = await slowRequest(async (r) => ({ status: r.status, text: await r.text() }));
    // A client keeping connections alive, 8 at a time, until the swap is done.
    let swapped = false;
    let requests = 0;
    const failures: string[] = [];
    const hammer = async () => {
      while (!swapped) {
        try {
          const response = await fetch(`${base()}/`);
          await response.text();
          requests += 1;
          if (response.status !== 200) failures.push(`status ${response.status}`);
        } catch (error) {
          failures.push(String(error));
        }
      }
    };
    const hammers = Array.from({ length: 8 }, hammer);
    // The swap comes once every hammer has its answers (the slow request runs already).
    await expect.poll(() => requests).toBeGreaterThanOrEqual(8);
    expect(await publish('swap')).toBe(202);
    const after = await settledAfter((await status()).builds + 1);
    swapped = true;
    await Promise.all(hammers);
    expect(after.current.id).not.toBe(before);
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(50);
    // The slow request, begun on the release before, ends now, after the swap.
    await slow.finish();
    const slowReply = await slow.reply;
    expect(slowReply.status).toBe(200);
    expect(slowReply.text).toContain('lent');
    // Each release has its own asset; a page of the release before still finds its own.
    const newAsset = `/_astro/new-${after.current.id}.js`;
    expect((await fetch(`${base()}${newAsset}`)).status).toBe(200);
    expect((await fetch(`${base()}/_astro/new-${before}.js`)).status).toBe(200);
    expect((await fetch(`${base()}/_astro/nowhere.js`)).status).toBe(404);
  }, 60_000);

  test('a failed build keeps the current release, logs one line and reports failed', async () => {
    const before = await status();
    await writeFile(failFlag, '');
    try {
      expect(await publish('broken')).toBe(202);
      const after = await settledAfter(before.builds + 1);
      expect(after.state).toBe('failed');
      expect(after.current.id).toBe(before.current.id);
      expect(after.lastBuild?.result).toBe('failed');
      expect(after.lastBuild?.error).toContain('exit code 1');
      expect(after.lastBuild?.error).toContain('boom in src/pages/index.astro');
      expect(await homeShowing(`release ${before.current.id}`)).toContain(
        `release ${before.current.id}`,
      );
      const line = shop
        ?.output()
        .split('\n')
        .find((l) => l.includes(`build ${after.lastBuild?.id ?? '?'} failed`));
      expect(line).toContain(`still serving ${before.current.id}`);
      const statusFile = JSON.parse(
        await readFile(path.join(releases, 'status.json'), 'utf8'),
      ) as Status;
      expect(statusFile.state).toBe('failed');
      expect(existsSync(path.join(releases, after.lastBuild?.id ?? '?'))).toBe(false);
    } finally {
      await rm(failFlag, { force: true });
    }
  }, 60_000);

  test('an incomplete build is a failed one', async () => {
    const before = await status();
    await writeFile(incompleteFlag, '');
    try {
      expect(await publish('incomplete')).toBe(202);
      const after = await settledAfter(before.builds + 1);
      expect(after.state).toBe('failed');
      expect(after.lastBuild?.error).toContain('server/entry.mjs is missing');
      expect(after.current.id).toBe(before.current.id);
    } finally {
      await rm(incompleteFlag, { force: true });
    }
  }, 60_000);

  test('the next good build recovers; only the current and previous releases are kept', async () => {
    const first = await status();
    // A request in flight on the first release keeps it across two swaps, no longer.
    const slow = await slowRequest((r) => r.text());
    expect(await publish('recover')).toBe(202);
    const before = await settledAfter(first.builds + 1);
    // On a failure, say what the build and the server said (a flaky swap is otherwise mute).
    const why = (status: Status) => `${JSON.stringify(status.lastBuild)}\n${rebuildLines()}`;
    expect(before.state, why(before)).toBe('idle');
    expect(before.current.id, why(before)).not.toBe(first.current.id);
    expect(await publish('again')).toBe(202);
    const after = await settledAfter(before.builds + 1);
    expect(after.current.id, why(after)).not.toBe(before.current.id);
    const kept = async () =>
      (await readdir(releases)).filter((name) => name.startsWith('r')).sort();
    const inFlight = await kept();
    if (!inFlight.includes(first.current.id)) {
      throw new Error(`the release serving a request was deleted: ${inFlight.join(', ')}`);
    }
    await slow.finish();
    expect(await slow.reply).toContain(first.current.id);
    // Once its workers exit, it goes.
    await expect
      .poll(kept, { timeout: 40_000, interval: 250 })
      .toEqual([before.current.id, after.current.id].sort());
  }, 90_000);

  test('a restart: npm start resumes the current release, npm run serve serves DIST_DIR', async () => {
    const current = (await status()).current.id;
    expect(await stopShop()).toBe(0);
    const resumed = await initialRelease({ distDir: dist, distBuiltAt: 0, releasesDir: releases });
    expect(resumed.id).toBe(current);
    expect(resumed.dir).toBe(path.join(releases, current));
    // Not when the dist is newer, nor when the release was built before the sources changed.
    const newerDist = await initialRelease({
      distDir: dist,
      distBuiltAt: Date.now(),
      releasesDir: releases,
    });
    expect(newerDist.id).toBe('dist');
    const staleRelease = await initialRelease({
      distDir: dist,
      distBuiltAt: 0,
      releasesDir: releases,
      notBefore: Date.now(),
    });
    expect(staleRelease.id).toBe('dist');
    shop = await startShop();
    expect(await home()).toContain('release initial');
  }, 60_000);
});
