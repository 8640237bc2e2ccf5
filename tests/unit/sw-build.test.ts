import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { serviceWorkerFor } from '../../src/integrations/service-worker.ts';

let dir = '';

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sw-build-'));
  await mkdir(path.join(dir, '_astro'));
  await writeFile(path.join(dir, 'hors-ligne.html'), '<h1>Vous êtes hors ligne</h1>');
  await writeFile(path.join(dir, '_astro', 'page.abc123.js'), 'console.log(1)');
  await writeFile(path.join(dir, '_astro', 'Layout.def456.css'), 'body{}');
  await writeFile(path.join(dir, '_astro', 'matelas.Z2cd.webp'), 'RIFF');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the built service worker (spec §7)', () => {
  test('precaches the offline page and the hashed scripts and styles, never pictures', async () => {
    const worker = await serviceWorkerFor(dir);
    expect(worker.precache).toEqual([
      '/hors-ligne',
      '/_astro/Layout.def456.css',
      '/_astro/page.abc123.js',
    ]);
    expect(worker.code).toContain('"/_astro/page.abc123.js"');
    expect(worker.code).not.toContain('webp');
    expect(worker.code).toContain(JSON.stringify(worker.version));
    expect(worker.code).toMatch(/addEventListener\("fetch"/);
    expect(worker.bytes).toBeGreaterThan(0);
  });

  test('a new build (other assets, another offline page) is a new version; the same one is not', async () => {
    const first = await serviceWorkerFor(dir);
    expect((await serviceWorkerFor(dir)).version).toBe(first.version);
    await writeFile(path.join(dir, '_astro', 'page.new789.js'), 'console.log(2)');
    const second = await serviceWorkerFor(dir);
    expect(second.version).not.toBe(first.version);
    await writeFile(path.join(dir, 'hors-ligne.html'), '<h1>Hors ligne</h1>');
    expect((await serviceWorkerFor(dir)).version).not.toBe(second.version);
  });
});
