/**
 * Copies sharing one releases folder (`src/server/rebuild/releases.ts`,
 * `src/server/rebuild/build-settings.ts`), in a temporary folder, without Redis: each copy's heartbeat
 * (`serving/{copy}.json`) names the releases it uses, and whichever copy prunes keeps those of
 * every copy whose heartbeat is fresh (and the ones the pointers name), while a heartbeat
 * seen unchanged past its lifetime protects nothing. Freshness is judged on a clock the test
 * moves (no sleeping). A copy whose build settings differ from the folder's refuses to share
 * it while another copy is live there, with a message naming the settings and RELEASES_DIR;
 * `src/server/serve.ts` exits with it at start. End to end: two supervised servers without Redis
 * on one folder (each building alone, a quick copy of a tiny dist), the second one's builds
 * never delete the release the first serves.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { sendPublish, startServe, writeTinyDist, type ShopChild } from './helpers/rebuild.ts';
import {
  SETTINGS_FILE,
  shareReleasesFolder,
  settingsFingerprints,
} from '../../src/server/rebuild/build-settings.ts';
import {
  createServingHeartbeat,
  liveCopies,
  pruneReleases,
  servingFile,
  writeCurrentRelease,
  type Heartbeat,
  type ServingHeartbeat,
} from '../../src/server/rebuild/releases.ts';

const R1 = 'r20251123-180102-1a2b';
const R2 = 'r20251124-090000-3c4d';
const R3 = 'r20251125-101010-5e6f';
const R4 = 'r20251126-111111-7a8b';

let root: string;
const heartbeats: ServingHeartbeat[] = [];

async function makeRelease(id: string): Promise<void> {
  await mkdir(path.join(root, id, 'server'), { recursive: true });
  await mkdir(path.join(root, id, 'client'), { recursive: true });
  await writeFile(path.join(root, id, 'server/entry.mjs'), '');
  await writeFile(path.join(root, id, 'client/index.html'), '');
}

const releasesOnDisk = async () =>
  (await readdir(root)).filter((name) => /^r\d{8}-/.test(name)).sort();

/** A copy's heartbeat that writes only when told (`beat`), on the test's clock. */
function copyUsing(copy: string, ids: string[], clock: () => number): ServingHeartbeat {
  const heartbeat = createServingHeartbeat({
    releasesDir: root,
    copy,
    inUse: () => ids,
    everyMs: 1e9,
    checkEveryMs: 1e9,
    staleMs: 30_000,
    monotonic: clock,
  });
  heartbeats.push(heartbeat);
  return heartbeat;
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'release-sharing-'));
});
afterEach(async () => {
  await Promise.all(heartbeats.splice(0).map((h) => h.stop()));
  await rm(root, { recursive: true, force: true });
});

describe('pruning keeps what live copies announce', () => {
  test("a fresh heartbeat's releases are kept, a stale one's pruned, its file removed", async () => {
    for (const id of [R1, R2, R3, R4]) await makeRelease(id);
    let now = 0;
    const clock = () => now;
    const pruner = copyUsing('shop-a-4321', [R4], clock);
    const live = copyUsing('shop-b-4322', [R1], clock);
    const dead = copyUsing('shop-c-4323', [R2], clock);
    await Promise.all([pruner.beat(), live.beat(), dead.beat()]);
    expect(await pruner.inUse()).toEqual(new Set([R4, R1, R2]));

    // 40 s later: b said it again (a new beat), c did not (killed: its file stays as it was).
    now = 40_000;
    await live.beat();
    const keep = await pruner.inUse();
    expect(keep).toEqual(new Set([R4, R1]));
    expect((await pruneReleases(root, keep)).sort()).toEqual([R2, R3]);
    expect(await releasesOnDisk()).toEqual([R1, R4]);
    // The stale heartbeat is gone; the live ones stay.
    const files = (await readdir(path.join(root, 'serving'))).sort();
    expect(files).toEqual(['shop-a-4321.json', 'shop-b-4322.json']);
    const written = JSON.parse(
      await readFile(servingFile(root, 'shop-b-4322'), 'utf8'),
    ) as Heartbeat;
    expect(written).toMatchObject({ copy: 'shop-b-4322', releases: [R1], pid: process.pid });
  });

  test('a copy seen for the first time counts as live until seen unchanged past the lifetime', async () => {
    await makeRelease(R1);
    let now = 1_000_000;
    const other = copyUsing('shop-b-4322', [R1], () => 0);
    await other.beat();
    const pruner = copyUsing('shop-a-4321', [], () => now);
    // Its file may be days old: this copy has not watched it yet, so it keeps R1.
    expect(await pruner.inUse()).toEqual(new Set([R1]));
    now += 29_000;
    expect(await pruner.inUse()).toEqual(new Set([R1]));
    now += 2_000;
    expect(await pruner.inUse()).toEqual(new Set());
  });

  test('what is used is read once the folder is listed: a build named meanwhile is kept', async () => {
    await makeRelease(R1);
    await makeRelease(R2);
    await makeRelease(R3);
    const pruner = copyUsing('shop-a-4321', [], () => 0);
    const uses = [R1];
    const builder = copyUsing('shop-b-4322', uses, () => 0);
    await builder.beat();
    // B names its new build R2 (and makes it) between the pruner's listing and its reading.
    const removed = await pruneReleases(root, async () => {
      uses.push(R2);
      await builder.beat();
      return pruner.inUse();
    });
    expect(removed).toEqual([R3]);
    // Read as null (Redis cannot say what the copies use): nothing goes.
    uses.splice(0);
    await builder.beat();
    expect(await pruneReleases(root, () => Promise.resolve(null))).toEqual([]);
    expect(await releasesOnDisk()).toEqual([R1, R2]);
  });

  test('the releases current.json and next.json name are kept, whoever wrote them', async () => {
    for (const id of [R1, R2, R3]) await makeRelease(id);
    await writeCurrentRelease(root, { id: R1, dir: path.join(root, R1), builtAt: 1 });
    await writeFile(path.join(root, 'next.json'), JSON.stringify({ id: R2 }));
    const pruner = copyUsing('shop-a-4321', [], () => 0);
    const keep = await pruner.inUse();
    expect(keep).toEqual(new Set([R1, R2]));
    expect(await pruneReleases(root, keep)).toEqual([R3]);
  });

  test('hostile heartbeat files name nothing and break nothing', async () => {
    await makeRelease(R1);
    await mkdir(path.join(root, 'serving'), { recursive: true });
    const bad = [
      ['x.json', 'not json'],
      [
        'y.json',
        JSON.stringify({ copy: 'y', host: 'h', pid: 1, beat: 1, releases: ['../../etc'], at: 0 }),
      ],
      [
        'z.json',
        JSON.stringify({ copy: 'other-name', host: 'h', pid: 1, beat: 1, releases: [R1], at: 0 }),
      ],
      ['..json', '{}'],
    ];
    for (const [name, text] of bad)
      await writeFile(path.join(root, 'serving', name ?? ''), text ?? '');
    const pruner = copyUsing('shop-a-4321', [], () => 0);
    expect(await pruner.inUse()).toEqual(new Set());
  });

  test("stopping removes the copy's heartbeat", async () => {
    const copy = copyUsing('shop-a-4321', [R1], () => 0);
    await copy.beat();
    await copy.stop();
    await expect(readFile(servingFile(root, 'shop-a-4321'), 'utf8')).rejects.toThrow();
  });

  test('a change of what a copy uses is written within a check, not a full period', async () => {
    const ids = [R1];
    const heartbeat = createServingHeartbeat({
      releasesDir: root,
      copy: 'shop-a-4321',
      inUse: () => ids,
      everyMs: 1e9,
      checkEveryMs: 10,
    });
    heartbeats.push(heartbeat);
    await heartbeat.beat();
    ids.push(R2); // a build starts
    await expect
      .poll(
        async () =>
          JSON.parse(await readFile(servingFile(root, 'shop-a-4321'), 'utf8')) as Heartbeat,
      )
      .toMatchObject({ releases: [R1, R2] });
  });
});

describe('liveCopies: copies whose heartbeat changes while watched', () => {
  test('a heartbeat rewritten during the wait is live; an unchanged one is not', async () => {
    let now = 0;
    const live = copyUsing('shop-b-4322', [R1], () => now);
    const dead = copyUsing('shop-c-4323', [R2], () => now);
    await Promise.all([live.beat(), dead.beat()]);
    // The wait is the start-up check's: b writes again during it, c does not.
    const found = await liveCopies(root, {
      wait: async () => {
        now = 1;
        await live.beat();
      },
    });
    expect(found.map((heartbeat) => heartbeat.copy)).toEqual(['shop-b-4322']);
    // Its own old heartbeat is no other copy.
    expect(await liveCopies(root, { exclude: 'shop-b-4322', wait: () => live.beat() })).toEqual([]);
  });
});

describe('a copy with other build settings', () => {
  const shopA = { FEATURE_RESELLER_AREA: 'false', SITE_URL: 'https://shop.example' };
  const shopB = { FEATURE_RESELLER_AREA: 'true', SITE_URL: 'https://shop.example' };
  const someone: Heartbeat = {
    copy: 'shop-a-4321',
    host: 'h',
    pid: 42,
    beat: 3,
    releases: [R1],
    at: 0,
  };

  test('the first copy records its settings; the same settings share', async () => {
    expect(await shareReleasesFolder({ releasesDir: root, env: shopA })).toMatchObject({
      ok: true,
      recorded: 'recorded',
    });
    const record = JSON.parse(await readFile(path.join(root, SETTINGS_FILE), 'utf8')) as {
      settings: Record<string, string | null>;
    };
    expect(record.settings).toEqual(settingsFingerprints(shopA));
    // No value in the record: only hashes.
    expect(JSON.stringify(record)).not.toContain('shop.example');
    expect(
      await shareReleasesFolder({
        releasesDir: root,
        env: shopA,
        liveCopies: () => Promise.resolve([someone]),
      }),
    ).toMatchObject({ ok: true, recorded: 'same' });
  });

  test('refused while another copy is live there, with the settings and what to do', async () => {
    await shareReleasesFolder({ releasesDir: root, env: shopA });
    const share = await shareReleasesFolder({
      releasesDir: root,
      env: shopB,
      self: 'shop-b-4391',
      liveCopies: (_dir, self) => {
        expect(self).toBe('shop-b-4391');
        return Promise.resolve([someone]);
      },
    });
    expect(share.ok).toBe(false);
    if (share.ok) return;
    expect(share.differ).toEqual(['FEATURE_RESELLER_AREA']);
    expect(share.message).toContain(`RELEASES_DIR ${root}`);
    expect(share.message).toContain('FEATURE_RESELLER_AREA differs');
    expect(share.message).toContain('shop-a-4321 (pid 42)');
    expect(share.message).toContain('Set RELEASES_DIR to a folder');
    // The record is still the first shop's.
    const record = JSON.parse(await readFile(path.join(root, SETTINGS_FILE), 'utf8')) as {
      settings: unknown;
    };
    expect(record.settings).toEqual(settingsFingerprints(shopA));
  });

  test('with no live copy, the new settings take the folder over', async () => {
    await shareReleasesFolder({ releasesDir: root, env: shopA });
    const share = await shareReleasesFolder({
      releasesDir: root,
      env: shopB,
      liveCopies: () => Promise.resolve([]),
    });
    expect(share).toMatchObject({
      ok: true,
      recorded: 'replaced',
      differ: ['FEATURE_RESELLER_AREA'],
    });
    expect(await shareReleasesFolder({ releasesDir: root, env: shopB })).toMatchObject({
      ok: true,
      recorded: 'same',
    });
  });

  test('two copies starting at once: one record, the other compares with it', async () => {
    const shares = await Promise.all(
      [shopA, shopB].map((env) =>
        shareReleasesFolder({
          releasesDir: root,
          env,
          liveCopies: () => Promise.resolve([someone]),
        }),
      ),
    );
    expect(shares.filter((share) => share.ok)).toHaveLength(1);
    expect(shares.filter((share) => !share.ok)).toHaveLength(1);
  });

  test('src/server/serve.ts exits at start with the message, serving nothing', async () => {
    await shareReleasesFolder({ releasesDir: root, env: shopA });
    // A live copy of shop A: its heartbeat changes while the new copy watches.
    const heartbeat = createServingHeartbeat({
      releasesDir: root,
      copy: 'shop-a-4321',
      inUse: () => [R1],
      everyMs: 100,
      checkEveryMs: 50,
    });
    heartbeats.push(heartbeat);
    const child = spawn(process.execPath, ['src/server/serve.ts'], {
      env: {
        ...process.env,
        ...shopB,
        RELEASES_DIR: root,
        DIST_DIR: path.join(root, 'no-dist'),
        CONTENTFUL_WEBHOOK_SECRET: 'c'.repeat(64),
        PORT: '0',
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, output).toBe(1);
    expect(output).toContain(
      `[serve] RELEASES_DIR ${root} holds the releases of a shop built with other settings`,
    );
    expect(output).toContain('FEATURE_RESELLER_AREA differs');
    expect(output).toContain('Set RELEASES_DIR');
  }, 30_000);
});

describe('two copies without Redis on one folder', () => {
  const SECRET = 'd'.repeat(64);
  const COMMAND = [
    'set -e',
    'cp -r "$FIXTURE_DIST/." "$RELEASE_DIR"',
    'echo "<h1>release $(basename "$RELEASE_DIR")</h1>" > "$RELEASE_DIR/client/index.html"',
  ].join('\n');
  const children: ShopChild[] = [];
  afterEach(async () => {
    await Promise.all(children.splice(0).map((child) => child.stop()));
  });

  const start = async (name: string): Promise<ShopChild> => {
    const dist = path.join(root, `dist-${name}`);
    await writeTinyDist(dist);
    const child = await startServe({
      dist,
      releases: path.join(root, 'shared'),
      rebuild: { command: COMMAND, secret: SECRET, debounceMs: 50 },
      env: { LOG_LEVEL: 'info' },
    });
    children.push(child);
    return child;
  };
  /** The releases a copy went live on, from its log (without Redis both write one status.json). */
  const lives = (copy: ShopChild) =>
    [...copy.output().matchAll(/\[rebuild\] (r\d{8}-\d{6}-[0-9a-f]{4}) is live: built/g)].map(
      ([, id]) => id ?? '',
    );

  test("the second copy's builds keep the release the first one serves", async () => {
    const a = await start('a');
    const b = await start('b');
    expect(await sendPublish(a.base, 'entry-a', SECRET)).toBe(202);
    await expect.poll(() => lives(a), { timeout: 60_000 }).toHaveLength(1);
    const [served = ''] = lives(a);
    // B builds three times into the same folder, pruning after each.
    for (const [n, id] of [
      [1, 'entry-b1'],
      [2, 'entry-b2'],
      [3, 'entry-b3'],
    ] as const) {
      expect(await sendPublish(b.base, id, SECRET)).toBe(202);
      await expect
        .poll(() => lives(b), { timeout: 60_000 })
        .toHaveLength(n)
        .catch((error: unknown) => {
          throw new Error(`${String(error)}\n${b.output()}\n${a.output()}`);
        });
    }
    const onDisk = (await readdir(path.join(root, 'shared'))).filter((name) =>
      /^r\d{8}-/.test(name),
    );
    expect(onDisk).toContain(served);
    // B's first release is gone: nobody uses it any more (pruning still prunes).
    expect(onDisk).not.toContain(lives(b)[0]);
    // A still serves it, its on-demand pages included (its SSR entry is in that folder).
    // (Polled: the test's kept-alive connection from its webhook may still reach A's old
    // worker, which drains it with `Connection: close`.)
    await expect
      .poll(async () => (await fetch(`${a.base}/`)).text())
      .toContain(`release ${served}`);
    const missing = await fetch(`${a.base}/une-page-absente`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Introuvable');
    // Each copy announces what it uses.
    const beats = (await readdir(path.join(root, 'shared', 'serving'))).sort();
    expect(beats).toHaveLength(2);
  }, 150_000);
});
