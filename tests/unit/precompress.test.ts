import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  balancedShares,
  brotliQuality,
  compressionWork,
  precompress,
} from '../../src/server/precompress.ts';

describe('brotliQuality', () => {
  test('what browsers load is compressed hardest, crawler files well but fast', () => {
    for (const file of ['a.js', 'b.mjs', 'c.css', 'd.svg', 'e.json', 'site.webmanifest']) {
      expect(brotliQuality(`/dist/client/_astro/${file}`)).toBe(11);
    }
    for (const file of ['sitemap-0.xml', 'sitemap-index.xml', 'robots.txt']) {
      expect(brotliQuality(`/dist/client/${file}`)).toBe(9);
    }
  });

  test('the work of a file is its bytes at 11, a thirtieth of them at 9', () => {
    expect(compressionWork('x.js', 3000)).toBe(3000);
    expect(compressionWork('sitemap-0.xml', 3000)).toBe(100);
  });
});

describe('balancedShares', () => {
  const files = fc.uniqueArray(
    fc.record({ file: fc.string({ minLength: 1 }), size: fc.nat({ max: 1_000_000 }) }),
    { selector: (f) => f.file, maxLength: 60 },
  );

  test('every file lands in exactly one share, and no share is empty', () => {
    fc.assert(
      fc.property(files, fc.integer({ min: 1, max: 8 }), (list, count) => {
        const shares = balancedShares(list, count);
        expect(shares.length).toBeLessThanOrEqual(count);
        for (const share of shares) expect(share.length).toBeGreaterThan(0);
        expect(shares.flat().sort()).toEqual(list.map((f) => f.file).sort());
      }),
    );
  });

  test('no share outweighs another by more than its heaviest file (greedy, heaviest first)', () => {
    fc.assert(
      fc.property(files, fc.integer({ min: 2, max: 8 }), (list, count) => {
        const size = new Map(list.map((f) => [f.file, f.size]));
        const shares = balancedShares(list, count);
        if (shares.length < count) return; // fewer files than threads: one each
        const weights = shares.map((share) =>
          share.reduce((sum, f) => sum + (size.get(f) ?? 0), 0),
        );
        const heaviest = Math.max(0, ...list.map((f) => f.size));
        expect(Math.max(...weights) - Math.min(...weights)).toBeLessThanOrEqual(heaviest);
      }),
    );
  });
});

describe('precompress', () => {
  let dir: string;
  const css = 'body{margin:0}'.repeat(200);
  const sitemap = `<urlset>${'<url><loc>https://example.test/p/1/a</loc></url>'.repeat(100)}</urlset>`;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'precompress-'));
    await mkdir(path.join(dir, '_astro'), { recursive: true });
    await mkdir(path.join(dir, 'p/1'), { recursive: true });
    await mkdir(path.join(dir, 'p/2/deeper'), { recursive: true });
    await writeFile(path.join(dir, '_astro/app.css'), css);
    await writeFile(path.join(dir, 'sitemap-0.xml'), sitemap);
    await writeFile(path.join(dir, 'p/2/deeper/data.json'), JSON.stringify({ a: 'x'.repeat(900) }));
    await writeFile(path.join(dir, 'p/1/page.html'), `<p>${'page '.repeat(400)}</p>`);
    await writeFile(path.join(dir, '_astro/tiny.js'), 'export{}');
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('writes .br and .gz siblings of the assets in every folder, not of pages or tiny files', async () => {
    expect(await precompress(dir, 2)).toBe(4);
    for (const [file, body] of [
      ['_astro/app.css', css],
      ['sitemap-0.xml', sitemap],
    ] as const) {
      expect(brotliDecompressSync(await readFile(path.join(dir, `${file}.br`))).toString()).toBe(
        body,
      );
      expect(gunzipSync(await readFile(path.join(dir, `${file}.gz`))).toString()).toBe(body);
    }
    expect(await readdir(path.join(dir, 'p/2/deeper'))).toEqual(
      expect.arrayContaining(['data.json.br', 'data.json.gz']),
    );
    expect(await readdir(path.join(dir, 'p/1'))).toEqual(['page.html']);
    expect((await readdir(path.join(dir, '_astro'))).sort()).toEqual([
      'app.css',
      'app.css.br',
      'app.css.gz',
      'tiny.js',
    ]);
  });
});
