import { lstat, mkdir, mkdtemp, readdir, readlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareOutDir } from '../../scripts/build.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');

describe('prepareOutDir: builds in any folder', () => {
  it('leaves a folder inside the project to Astro', async () => {
    expect(await prepareOutDir(path.join(projectRoot, 'dist-somewhere'))).toEqual({
      keepOutDir: false,
    });
    expect(await prepareOutDir('dist')).toEqual({ keepOutDir: false });
  });

  it('empties a folder outside the project and links the project packages into it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'shop-out-'));
    await mkdir(path.join(dir, 'client/old'), { recursive: true });
    await writeFile(path.join(dir, 'client/old/index.html'), 'stale');
    await writeFile(path.join(dir, 'leftover.txt'), 'stale');

    expect(await prepareOutDir(dir)).toEqual({ keepOutDir: true });
    expect(await readdir(dir)).toEqual(['node_modules']);
    const link = path.join(dir, 'node_modules');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(path.join(projectRoot, 'node_modules'));

    // Again: the link is kept, not made twice.
    expect(await prepareOutDir(dir)).toEqual({ keepOutDir: true });
    expect(await readdir(dir)).toEqual(['node_modules']);
  });

  it('creates a folder that does not exist yet', async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'shop-out-'));
    const dir = path.join(parent, 'releases/r1');
    expect(await prepareOutDir(dir)).toEqual({ keepOutDir: true });
    expect(await readdir(dir)).toEqual(['node_modules']);
  });

  it('refuses a folder that holds the project, or the root', async () => {
    await expect(prepareOutDir(path.dirname(projectRoot))).rejects.toThrow(/holds the project/);
    await expect(prepareOutDir('/')).rejects.toThrow(/holds the project or is the root/);
  });
});
