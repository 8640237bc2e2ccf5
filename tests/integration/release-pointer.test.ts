/**
 * The release pointer `current.json` (`src/server/rebuild/releases.ts`) in a temporary folder:
 * what a copy reads from it is checked (a complete release of this folder, found by its id
 * wherever the writer had the folder mounted, with its publish count), and a copy watching it
 * hears of each new pointer at once, or from its poll when no change event comes.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  CURRENT_FILE,
  isSharedRelease,
  readCurrentRelease,
  readReleasePointer,
  watchReleasePointer,
  writeCurrentRelease,
  type Release,
} from '../../src/server/rebuild/releases.ts';

const ID = 'r20251123-180102-1a2b';
/** A pointer as written (the cases below are made before any folder exists). */
const WRITTEN = { id: ID, dir: `/srv/releases/${ID}`, builtAt: 1_700_000_000_000 };
let root: string;
let release: Release;

async function makeRelease(id: string): Promise<Release> {
  const dir = path.join(root, id);
  await mkdir(path.join(dir, 'server'), { recursive: true });
  await mkdir(path.join(dir, 'client'), { recursive: true });
  await writeFile(path.join(dir, 'server/entry.mjs'), '');
  await writeFile(path.join(dir, 'client/index.html'), '');
  return { id, dir, builtAt: 1_700_000_000_000 };
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'release-pointer-'));
  release = await makeRelease(ID);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('reading current.json', () => {
  test('none yet', async () => {
    expect(await readReleasePointer(root)).toBe(null);
  });

  test('a release and its publish count, as written', async () => {
    await writeCurrentRelease(root, release, 3);
    expect(await readReleasePointer(root)).toEqual({ release, generation: 3 });
    expect(await readCurrentRelease(root)).toEqual(release);
    expect(isSharedRelease(root, release)).toBe(true);
    expect(isSharedRelease(root, { ...release, id: 'dist' })).toBe(false);
  });

  test('written on another machine (the folder mounted elsewhere): found here by its id', async () => {
    await writeFile(
      path.join(root, CURRENT_FILE),
      JSON.stringify({ ...release, dir: `/mnt/elsewhere/${ID}`, generation: 1 }),
    );
    expect(await readReleasePointer(root)).toEqual({ release, generation: 1 });
  });

  test('a pointer written before publishes counted them: generation 0', async () => {
    await writeFile(path.join(root, CURRENT_FILE), JSON.stringify(release));
    expect(await readReleasePointer(root)).toEqual({ release, generation: 0 });
  });

  test.each([
    ['not JSON', '{', 'is not JSON'],
    ['another shape', '{"id":1}', 'is not a release pointer'],
    ['a negative count', JSON.stringify({ ...WRITTEN, generation: -1 }), 'not a release pointer'],
    ['a path for an id', JSON.stringify({ ...WRITTEN, id: '../../etc' }), 'names no release id'],
    [
      'an incomplete release',
      JSON.stringify({ ...WRITTEN, id: 'r20251123-180102-ffff' }),
      'lacks server/entry.mjs',
    ],
  ])('%s: a problem, never a release', async (_name, text, problem) => {
    await writeFile(path.join(root, CURRENT_FILE), text);
    const read = await readReleasePointer(root);
    expect(read).toMatchObject({ problem: expect.stringContaining(problem) as string });
    expect(await readCurrentRelease(root)).toBe(null);
  });
});

describe('watching current.json', () => {
  test('each new pointer is heard of at once (change events)', async () => {
    let calls = 0;
    // No poll within the test: a call after the first look is a change event.
    const stop = watchReleasePointer(root, () => (calls += 1), 600_000);
    try {
      await expect.poll(() => calls).toBe(1); // the first look
      await writeCurrentRelease(root, release, 1);
      await expect.poll(() => calls).toBeGreaterThan(1);
    } finally {
      stop();
    }
  });

  test('without change events, the poll sees a new file', async () => {
    let calls = 0;
    // A folder created after the watch started gives no events: the poll alone.
    const later = path.join(root, 'later');
    const stop = watchReleasePointer(later, () => (calls += 1), 50);
    try {
      await expect.poll(() => calls).toBe(1);
      await mkdir(later);
      await writeCurrentRelease(later, release, 2);
      await expect.poll(() => calls).toBe(2);
    } finally {
      stop();
    }
    // Stopped: a watcher started now sees the next pointer; the stopped one does not.
    let witness = 0;
    const stopWitness = watchReleasePointer(later, () => (witness += 1), 50);
    try {
      await expect.poll(() => witness).toBe(1);
      await writeCurrentRelease(later, release, 3);
      await expect.poll(() => witness).toBeGreaterThanOrEqual(2);
      expect(calls).toBe(2);
    } finally {
      stopWitness();
    }
  });
});
