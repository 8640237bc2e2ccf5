/**
 * Deadlines and retries of the supervisor (src/server/rebuild/supervisor.ts), on a tiny dist and
 * the stand-in kept build (helpers/kept-build.ts), with a short publish deadline and backoff:
 * - a publish that fails while reading its edits on an upstream 503 keeps the kept build and is
 *   asked again after the backoff until it succeeds; meanwhile the status says `retrying`, when,
 *   after how many attempts and why;
 * - a kept build that does not answer within the deadline is stopped, and the edit gets a full
 *   build;
 * - a full build failing on a transient cause is retried; its status carries the build's own
 *   cause, not a stack line;
 * - a full build that fails for good keeps the kept build: the next edit is still published.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RebuildEvent } from '../../src/server/rebuild/scheduler.ts';
import type { RebuildStatus, Supervisor } from '../../src/server/rebuild/supervisor.ts';
import { startKeptSupervisor } from './helpers/kept-supervisor.ts';
import { writeTinyDist } from './helpers/rebuild.ts';

let root = '';
let dist = '';
let releases = '';
let behaviour = '';
let failFlag = '';
let supervisor: Supervisor | null = null;

/** Waits for the status to say `retrying`, and returns it. */
async function retrying(): Promise<RebuildStatus> {
  await expect
    .poll(() => shop().status().state, { timeout: 20_000, interval: 20 })
    .toBe('retrying');
  return shop().status();
}

const shop = (): Supervisor => {
  if (supervisor === null) throw new Error('the supervisor did not start');
  return supervisor;
};

const event = (source: RebuildEvent['source'], topic: string, id: string): RebuildEvent => ({
  source,
  topic,
  id,
  receivedAt: Date.now(),
});

const releaseLog = (id: string) =>
  readFile(path.join(releases, 'logs', `${id}.log`), 'utf8').catch(() => '');

/** The home page once it contains `text`. */
async function homeShowing(text: string): Promise<string> {
  let html = '';
  await expect
    .poll(
      async () => {
        html = await (await fetch(`http://127.0.0.1:${String(shop().port)}/`)).text();
        return html;
      },
      { timeout: 20_000 },
    )
    .toContain(text);
  return html;
}

/** Sends `event` and waits for the build it makes to start. */
async function send(each: RebuildEvent) {
  const before = shop().status().builds;
  shop().notify(each);
  await expect.poll(() => shop().status().builds, { timeout: 30_000 }).toBeGreaterThan(before);
}

/** Sends `event` and waits until nothing is pending, retries included; returns the status. */
async function settle(each: RebuildEvent) {
  await send(each);
  await shop().settled();
  return shop().status();
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'rebuild-retry-'));
  dist = path.join(root, 'dist');
  releases = path.join(root, 'releases');
  behaviour = path.join(root, 'behaviour');
  failFlag = path.join(root, 'fail');
  await writeTinyDist(dist);
  Object.assign(process.env, { STATE_DIR: ':memory:', REDIS_URL: '', LOG_LEVEL: 'error' });
  supervisor = await startKeptSupervisor({
    dist,
    releasesDir: releases,
    keptEnv: { KEPT_BEHAVIOUR: behaviour, FAIL_FLAG: failFlag },
    rebuild: {
      // The deadline of a one-edit publish: 1 s + 2 s.
      publishTimeoutMs: 1_000,
      retry: { firstMs: 500, maxMs: 1_000 },
    },
    logError: () => undefined,
  });
  // The warm-up build that gives the shop a kept build (scheduled as it starts).
  await shop().settled();
  if (shop().status().lastBuild?.result !== 'succeeded') throw new Error('no warm-up build');
}, 90_000);

afterAll(async () => {
  await supervisor?.close();
  await rm(root, { recursive: true, force: true });
});

describe('retries and deadlines', () => {
  test('a publish failing on an upstream 503 keeps the kept build and is retried until published', async () => {
    const served = shop().status().current.id;
    await writeFile(behaviour, 'transient 2');
    await send(event('bigcommerce', 'store/product/updated', '101'));
    // Meanwhile: the status says it waits for a retry, when, after how many attempts, and why.
    const waiting = await retrying();
    expect(waiting.retry).toMatchObject({
      attempts: 1,
      cause: 'BigCommerce GET v3/catalog/products answered 503',
    });
    expect(Date.parse(waiting.retry?.at ?? '')).toBeGreaterThan(Date.parse(waiting.updatedAt) - 1);
    expect(waiting.lastBuild).toMatchObject({
      kind: 'publish',
      result: 'failed',
      error: 'BigCommerce GET v3/catalog/products answered 503',
    });
    expect(waiting.queuedEvents).toBe(1);
    await shop().settled();
    const status = shop().status();
    // Published into the same release, by the same kept build: no full build.
    expect(status.current.id).toBe(served);
    expect(status).toMatchObject({
      state: 'idle',
      retry: null,
      lastBuild: { kind: 'publish', result: 'succeeded' },
    });
    expect(await homeShowing('published')).toContain('"id":101');
    const log = await releaseLog(served);
    expect(log.match(/asked to publish \[\{"resource":"product","id":101\}\]/g)).toHaveLength(3);
    expect(log).not.toContain(`[kept] ${served} stopped`);
  });

  test('a kept build that does not answer within the deadline is stopped: a full build', async () => {
    const served = shop().status().current.id;
    await writeFile(behaviour, 'hang');
    const status = await settle(event('bigcommerce', 'store/product/updated', '102'));
    expect(status.lastBuild).toMatchObject({ kind: 'build', result: 'succeeded' });
    expect(status.current.id).not.toBe(served);
    await expect.poll(() => releaseLog(served)).toContain(`[kept] ${served} stopped`);
    await writeFile(behaviour, 'publish');
  });

  test('a full build failing on a transient cause is retried; the status says the real cause', async () => {
    const served = shop().status().current.id;
    await writeFile(failFlag, 'transient 2');
    await send(event('contentful', 'ContentType.publish', 'page'));
    const waiting = await retrying();
    expect(waiting).toMatchObject({
      current: { id: served },
      retry: { cause: 'BigCommerce GET v3/catalog/products answered 503' },
      lastBuild: {
        kind: 'build',
        result: 'failed',
        error: 'BigCommerce GET v3/catalog/products answered 503',
      },
    });
    await shop().settled();
    const status = shop().status();
    expect(status).toMatchObject({ state: 'idle', retry: null });
    expect(status.lastBuild).toMatchObject({ kind: 'build', result: 'succeeded' });
    expect(status.current.id).not.toBe(served);
    expect(await readFile(`${failFlag}.count`, 'utf8')).toBe('3');
    await rm(failFlag);
    await rm(`${failFlag}.count`, { force: true });
  });

  test('a full build failing for good keeps the kept build: the next edit is published', async () => {
    const served = shop().status().current.id;
    await writeFile(failFlag, 'permanent');
    const failed = await settle(event('contentful', 'ContentType.publish', 'page'));
    expect(failed).toMatchObject({
      state: 'failed',
      retry: null,
      current: { id: served },
      lastBuild: {
        kind: 'build',
        result: 'failed',
        error: '[NoMatchingStaticPathFound] no matching static path for /c/../x',
      },
    });
    await rm(failFlag);
    await writeFile(behaviour, 'publish');
    const next = await settle(event('bigcommerce', 'store/product/updated', '103'));
    expect(next.lastBuild).toMatchObject({ kind: 'publish', result: 'succeeded' });
    expect(next.current.id).toBe(served);
    expect(await homeShowing('"id":103')).toContain(`release ${served}`);
  });
});
