/**
 * A picture that cannot be fetched never fails a build (src/lib/server/picture-fallback.ts,
 * issue 29): before Astro's image step, its variants are moved under the placeholder picture's
 * file, which Astro then encodes into the files the pages name; one line names the picture,
 * its products and the reason. The probe itself is checked over HTTP in
 * tests/integration/picture-fallback.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import type { AstroAsset } from '../../src/lib/server/astro-asset.ts';
import {
  astroWillFetch,
  productsShowing,
  replaceUnreachablePictures,
} from '../../src/lib/server/picture-fallback.ts';

type Images = NonNullable<AstroAsset['staticImages']>;

function images(sources: Record<string, string[]>): Images {
  return new Map(
    Object.entries(sources).map(([src, files]) => [
      src,
      {
        transforms: new Map(
          files.map((file) => [file, { finalPath: file, transform: { src, width: 100 } }]),
        ),
      },
    ]),
  );
}

const PLACEHOLDER = '../../public/og-default.png';

describe('replaceUnreachablePictures', () => {
  test('unreachable sources go under the placeholder with their files; the others stay; one line each', async () => {
    const list = images({
      'https://cdn.test/ok.jpg': ['/_astro/ok_1.webp'],
      'https://cdn.test/absente.jpg': ['/_astro/absente_1.webp', '/_astro/absente_2.webp'],
      'https://cdn.test/lente.jpg': ['/_astro/lente_1.webp'],
      '/src/assets/logo.png': ['/_astro/logo_1.webp'],
    });
    const probed: string[] = [];
    const lines: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    const failed = await replaceUnreachablePictures(
      list,
      PLACEHOLDER,
      (src) => {
        probed.push(src);
        if (src.includes('absente')) return Promise.resolve('answered 404');
        if (src.includes('lente')) return Promise.resolve('no answer within 15000 ms');
        return Promise.resolve(null);
      },
      productsShowing([
        {
          id: 101,
          images: [
            {
              urlStandard: 'https://cdn.test/absente.jpg',
              urlZoom: 'https://cdn.test/absente.jpg',
              urlThumbnail: 'x',
            },
          ],
        },
      ]),
    );
    warn.mockRestore();
    // Only remote sources are fetched.
    expect(probed.sort()).toEqual([
      'https://cdn.test/absente.jpg',
      'https://cdn.test/lente.jpg',
      'https://cdn.test/ok.jpg',
    ]);
    expect(failed.map((f) => f.src).sort()).toEqual([
      'https://cdn.test/absente.jpg',
      'https://cdn.test/lente.jpg',
    ]);
    expect([...list.keys()].sort()).toEqual(
      [PLACEHOLDER, 'https://cdn.test/ok.jpg', '/src/assets/logo.png'].sort(),
    );
    // Every variant file the pages name is still made, from the placeholder.
    expect([...(list.get(PLACEHOLDER)?.transforms.keys() ?? [])].sort()).toEqual([
      '/_astro/absente_1.webp',
      '/_astro/absente_2.webp',
      '/_astro/lente_1.webp',
    ]);
    expect(lines).toHaveLength(2);
    const absent = lines.find((line) => line.includes('absente')) ?? '';
    expect(absent).toContain('product 101');
    expect(absent).toContain('answered 404');
  });

  test('property: the variant files are the same set before and after, whatever fails', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.webUrl(),
          fc.uniqueArray(fc.stringMatching(/^\/_astro\/[a-z]{1,8}\.webp$/), { maxLength: 3 }),
          { maxKeys: 12 },
        ),
        fc.func(fc.boolean()),
        async (sources, fails) => {
          // Distinct files across sources, as Astro's hashes make them.
          const seen = new Set<string>();
          const unique = Object.fromEntries(
            Object.entries(sources).map(([src, files]) => [
              src,
              files.map((f) => `${f}-${src}`).filter((f) => !seen.has(f) && seen.add(f)),
            ]),
          );
          const list = images(unique);
          const files = () =>
            [...list.values()].flatMap(({ transforms }) => [...transforms.keys()]).sort();
          const before = files();
          const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
          await replaceUnreachablePictures(list, PLACEHOLDER, (src) =>
            Promise.resolve(fails(src) ? 'answered 500' : null),
          );
          warn.mockRestore();
          expect(files()).toEqual(before);
          for (const src of list.keys()) {
            if (src !== PLACEHOLDER) expect(fails(src)).toBe(false);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('astroWillFetch', () => {
  test('a source is fetched unless every variant is in Astro’s cache, fresh or revalidatable', () => {
    const cache = mkdtempSync(path.join(tmpdir(), 'astro-assets-'));
    try {
      const now = 1_000_000;
      const meta = (file: string, value: unknown) => {
        writeFileSync(path.join(cache, `${file}.json`), JSON.stringify(value));
      };
      meta('fresh.webp', { expires: now + 1 });
      meta('stale.webp', { expires: now - 1 });
      meta('tagged.webp', { expires: now - 1, etag: '"x"' });
      meta('broken.webp', { etag: '"x"' });
      const entry = (...files: string[]) =>
        images({ 'https://cdn.test/a.jpg': files.map((f) => `/_astro/${f}`) }).get(
          'https://cdn.test/a.jpg',
        ) ?? { transforms: new Map() };
      expect(astroWillFetch(entry('fresh.webp'), cache, now)).toBe(false);
      expect(astroWillFetch(entry('fresh.webp', 'tagged.webp'), cache, now)).toBe(false);
      expect(astroWillFetch(entry('fresh.webp', 'stale.webp'), cache, now)).toBe(true);
      expect(astroWillFetch(entry('missing.webp'), cache, now)).toBe(true);
      expect(astroWillFetch(entry('broken.webp'), cache, now)).toBe(true);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
