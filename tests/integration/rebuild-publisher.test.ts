/**
 * The supervisor's publishing path (src/server/rebuild/supervisor.ts with `publisher`), on a
 * tiny dist and a stand-in for the kept build at its IPC boundary (helpers/kept-build.ts; the
 * real one is run end to end by tests/scale/publish-live.test.ts): a shop started without a kept
 * build gets one from a warm-up full build; an edit then goes to it (no new release, the page
 * changes, the status says `publish`), a content entry published, unpublished or deleted too; an answer "only a full build" or a kept build that dies
 * gives a full build and a new kept build, and the old one is stopped; an event that is not an
 * edit is a full build.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RebuildEvent } from '../../src/server/rebuild/scheduler.ts';
import type { Supervisor } from '../../src/server/rebuild/supervisor.ts';
import { startKeptSupervisor } from './helpers/kept-supervisor.ts';
import { writeTinyDist } from './helpers/rebuild.ts';

const QUIET_MS = 2_500;
const PUBLISH_QUIET_MS = 50;

/** How long the last build or publish waited after `sentAt` to start. */
const waited = (sentAt: number) => Date.parse(shop().status().lastBuild?.startedAt ?? '') - sentAt;

let root = '';
let dist = '';
let releases = '';
let behaviour = '';
let failFlag = '';
let supervisor: Supervisor | null = null;

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

/** The home page once it contains `text` (static files are looked up again every second). */
async function homeShowing(text: string): Promise<string> {
  let html = '';
  for (let i = 0; i < 50 && !html.includes(text); i++) {
    html = await (await fetch(`http://127.0.0.1:${String(shop().port)}/`)).text();
    if (!html.includes(text)) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return html;
}

/** Sends `events`, waits for the build or publish they make, returns the status then. */
async function settle(...events: RebuildEvent[]) {
  const before = shop().status().builds;
  for (const each of events) shop().notify(each);
  await expect.poll(() => shop().status().builds, { timeout: 30_000 }).toBeGreaterThan(before);
  await shop().settled();
  return shop().status();
}

const releaseLog = (id: string) =>
  readFile(path.join(releases, 'logs', `${id}.log`), 'utf8').catch(() => '');

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'rebuild-publisher-'));
  dist = path.join(root, 'dist');
  releases = path.join(root, 'releases');
  behaviour = path.join(root, 'behaviour');
  failFlag = path.join(root, 'fail');
  await writeTinyDist(dist);
  // The workers (forked from here) read these.
  Object.assign(process.env, { STATE_DIR: ':memory:', REDIS_URL: '', LOG_LEVEL: 'error' });
  supervisor = await startKeptSupervisor({
    dist,
    releasesDir: releases,
    keptEnv: { KEPT_BEHAVIOUR: behaviour, FAIL_FLAG: failFlag },
    // Far apart, so that which quiet time a batch waited shows (PUBLISH_DEBOUNCE_MS).
    rebuild: { debounceMs: QUIET_MS, publishDebounceMs: PUBLISH_QUIET_MS },
  });
}, 60_000);

afterAll(async () => {
  await supervisor?.close();
  await rm(root, { recursive: true, force: true });
});

describe('publishing through the kept build', () => {
  test('a shop started without a kept build makes one: a warm-up full build', async () => {
    await expect.poll(() => shop().status().builds, { timeout: 60_000 }).toBe(1);
    await shop().settled();
    const status = shop().status();
    expect(status.lastBuild).toMatchObject({ kind: 'build', result: 'succeeded' });
    expect(status.lastEvent).toMatchObject({ source: 'supervisor', topic: 'warm-up' });
    expect(status.current.id).not.toBe('dist');
    expect(await homeShowing(`release ${status.current.id}`)).toContain(status.current.id);
  });

  test('an edit goes to the kept build: same release, the page changes, status publish', async () => {
    const served = shop().status().current.id;
    const sentAt = Date.now();
    const status = await settle(
      event('bigcommerce', 'store/product/updated', '101'),
      event('contentful', 'Entry.publish', 'page-cgv'),
    );
    // Edits the kept build publishes wait the short quiet time, not a full build's.
    expect(waited(sentAt)).toBeLessThan(QUIET_MS - 1_000);
    expect(status.current.id).toBe(served);
    expect(status.lastBuild).toMatchObject({
      kind: 'publish',
      result: 'succeeded',
      pages: { written: 1, removed: 0 },
      events: 2,
    });
    expect(await homeShowing('published')).toContain(
      '[{"resource":"product","id":101},{"resource":"content","topic":"Entry.publish","id":"page-cgv"}]',
    );
  });

  test.each(['Entry.publish', 'Entry.unpublish', 'Entry.delete'])(
    'a content page %s goes to the kept build alone: same release, status publish',
    async (topic) => {
      const served = shop().status().current.id;
      const status = await settle(event('contentful', topic, 'page-nos-engagements'));
      expect(status.current.id).toBe(served);
      expect(status.lastBuild).toMatchObject({ kind: 'publish', result: 'succeeded', events: 1 });
      expect(await homeShowing(topic)).toContain(
        `[{"resource":"content","topic":"${topic}","id":"page-nos-engagements"}]`,
      );
    },
  );

  test('"only a full build": a new release with its own kept build; the old one is stopped', async () => {
    const served = shop().status().current.id;
    await writeFile(behaviour, 'full');
    const status = await settle(event('bigcommerce', 'store/category/updated', '20'));
    expect(status.lastBuild).toMatchObject({ kind: 'build', result: 'succeeded' });
    expect(status.current.id).not.toBe(served);
    await expect.poll(() => releaseLog(served)).toContain(`[kept] ${served} stopped`);
    // The new release's kept build publishes the next edit.
    await writeFile(behaviour, 'publish');
    const next = await settle(event('bigcommerce', 'store/product/updated', '7'));
    expect(next.lastBuild).toMatchObject({ kind: 'publish', result: 'succeeded' });
    expect(next.current.id).toBe(status.current.id);
  });

  test('"only a full build", and that build fails: the old kept build publishes no more', async () => {
    const served = shop().status().current.id;
    await writeFile(behaviour, 'full');
    await writeFile(failFlag, '');
    const failed = await settle(event('bigcommerce', 'store/category/updated', '21'));
    expect(failed.lastBuild).toMatchObject({ kind: 'build', result: 'failed' });
    expect(failed.current.id).toBe(served);
    await expect.poll(() => releaseLog(served)).toContain(`[kept] ${served} stopped`);
    // It holds data its pages do not show: the next edit is a full build, not a publish.
    await rm(failFlag);
    await writeFile(behaviour, 'publish');
    const next = await settle(event('bigcommerce', 'store/product/updated', '8'));
    expect(next.lastBuild).toMatchObject({ kind: 'build', result: 'succeeded' });
    expect(next.current.id).not.toBe(served);
  });

  test('a kept build that dies: the edit gets a full build', async () => {
    const served = shop().status().current.id;
    await writeFile(behaviour, 'exit');
    const status = await settle(event('bigcommerce', 'store/product/deleted', '7'));
    expect(status.lastBuild).toMatchObject({ kind: 'build', result: 'succeeded' });
    expect(status.current.id).not.toBe(served);
    expect(await releaseLog(served)).toContain('asked to publish');
    await writeFile(behaviour, 'publish');
  });

  test('an event that is not an edit is a full build, the kept build untouched by it', async () => {
    const served = shop().status().current.id;
    const sentAt = Date.now();
    const status = await settle(event('contentful', 'ContentType.publish', 'page'));
    expect(waited(sentAt)).toBeGreaterThanOrEqual(QUIET_MS - 50);
    expect(status.lastBuild).toMatchObject({ kind: 'build', result: 'succeeded' });
    expect(status.current.id).not.toBe(served);
    expect(await releaseLog(served)).not.toContain('asked to publish');
  });
});
