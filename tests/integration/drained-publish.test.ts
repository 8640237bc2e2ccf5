/**
 * A publish under way when a stop begins (`stopRebuilds` of src/server/rebuild/supervisor.ts,
 * called by src/server/shutdown.ts on SIGTERM), on a tiny dist and the kept build's stand-in
 * (helpers/kept-build.ts): one that answers within the stop's bound is finished (published,
 * its publish count written); one that does not is given up at the bound (its kept build
 * stopped, the status says `failed`, no full build starts) and the stop still ends.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RebuildEvent } from '../../src/server/rebuild/scheduler.ts';
import type { Supervisor } from '../../src/server/rebuild/supervisor.ts';
import { startKeptSupervisor } from './helpers/kept-supervisor.ts';
import { writeTinyDist } from './helpers/rebuild.ts';

let root = '';
let dist = '';

const edit = (id: string): RebuildEvent => ({
  source: 'bigcommerce',
  topic: 'store/product/updated',
  id,
  receivedAt: Date.now(),
});

/** A supervisor publishing through the stand-in (behaviour file `behaviour`), warmed up. */
async function startShop(name: string, behaviour: string): Promise<Supervisor> {
  const shop = await startKeptSupervisor({
    dist,
    releasesDir: path.join(root, name),
    keptEnv: { KEPT_BEHAVIOUR: behaviour },
  });
  // The warm-up full build gives it its kept build.
  await expect.poll(() => shop.status().builds, { timeout: 60_000 }).toBe(1);
  await shop.settled();
  return shop;
}

/** Sends an edit and waits until its publish is under way. */
async function publishing(shop: Supervisor, id: string) {
  shop.notify(edit(id));
  await expect
    .poll(() => shop.status().lastBuild, { timeout: 20_000 })
    .toMatchObject({ kind: 'publish', result: 'running' });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'drained-publish-'));
  dist = path.join(root, 'dist');
  await writeTinyDist(dist);
  // The workers (forked from here) read these.
  Object.assign(process.env, { STATE_DIR: ':memory:', REDIS_URL: '', LOG_LEVEL: 'error' });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('a publish under way when a stop begins', () => {
  test('answered within the bound: published, its count written', async () => {
    const behaviour = path.join(root, 'finish-behaviour');
    const shop = await startShop('finish', behaviour);
    try {
      const served = shop.status().current.id;
      await writeFile(behaviour, 'wait');
      await publishing(shop, '201');
      const stopped = shop.stopRebuilds(30_000);
      await writeFile(`${behaviour}.go`, '1'); // the kept build answers now
      await stopped;
      const status = shop.status();
      expect(status.lastBuild, JSON.stringify(status.lastBuild)).toMatchObject({
        kind: 'publish',
        result: 'succeeded',
      });
      expect(status.current).toMatchObject({ id: served, generation: 1 });
      const pointer = JSON.parse(
        await readFile(path.join(root, 'finish', 'current.json'), 'utf8'),
      ) as { id: string; generation: number };
      expect(pointer).toMatchObject({ id: served, generation: 1 });
    } finally {
      await shop.close();
    }
  });

  test('no answer within the bound: given up, the kept build stopped, no full build', async () => {
    const behaviour = path.join(root, 'hang-behaviour');
    const shop = await startShop('hang', behaviour);
    try {
      const served = shop.status().current.id;
      await writeFile(behaviour, 'hang');
      await publishing(shop, '202');
      await shop.stopRebuilds(300);
      const status = shop.status();
      expect(status.lastBuild).toMatchObject({
        kind: 'publish',
        result: 'failed',
        error: 'stopped (server shutting down)',
      });
      expect(status.builds).toBe(2); // the warm-up and the publish: no full build after it
      expect(status.current).toMatchObject({ id: served, generation: 0 });
      const releases = path.join(root, 'hang');
      const log = await readFile(path.join(releases, 'logs', `${served}.log`), 'utf8');
      expect(log).toContain(`[kept] ${served} stopped`);
      expect(existsSync(`${behaviour}.go`)).toBe(false);
    } finally {
      await shop.close();
    }
  });
});
