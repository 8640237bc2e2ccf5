/**
 * A picture that cannot be fetched never fails a build (src/server/pictures/picture-fallback.ts):
 * before Astro's image step, its variants are moved under the placeholder picture's
 * file, which Astro then encodes into the files the pages name; one line names the picture,
 * its products and the reason. The probe itself is checked over HTTP in
 * tests/integration/picture-fallback.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import type { AstroAsset } from '../../src/server/pictures/astro-asset.ts';
import sharpService from 'astro/assets/services/sharp';
import sharp from 'sharp';
import {
  astroWillFetch,
  encodeOrPlaceholder,
  productsShowing,
  replaceUnreachablePictures,
} from '../../src/server/pictures/picture-fallback.ts';
import { rasterFormat } from '../../src/server/pictures/raster-format.ts';

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

describe("encodeOrPlaceholder (a fetched source Astro's image step cannot encode)", () => {
  const placeholderPng = (): Promise<Buffer> =>
    sharp({ create: { width: 40, height: 20, channels: 3, background: '#446688' } })
      .png()
      .toBuffer();
  const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const imageConfig = { service: { entrypoint: 'astro/assets/services/sharp', config: {} } };
  const encodeWith =
    (src: string) =>
    async (bytes: Uint8Array): Promise<Uint8Array> =>
      (
        await sharpService.transform(
          bytes,
          { src, width: 20, format: 'webp' },
          imageConfig as never,
          logger,
        )
      ).data;

  test('an SVG with a script shows the placeholder, encoded to WebP, and one line names it and its products', async () => {
    const placeholder = await placeholderPng();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    const lines: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    const src = 'https://cdn.test/piege-svg.jpg';
    const out = await encodeOrPlaceholder(
      src,
      svg,
      encodeWith(src),
      () => placeholder,
      () => [182],
    );
    warn.mockRestore();
    expect(rasterFormat(out)).toBe('webp');
    expect((await sharp(out).metadata()).width).toBe(20);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('product 182');
    expect(lines[0]).toContain('piege-svg.jpg');
    expect(lines[0]).toContain('not a raster picture');
  });

  test('any bytes give a WebP: the source encoded when it is a picture, else the placeholder (never the bytes given)', async () => {
    const placeholder = await placeholderPng();
    const picture = await sharp({
      create: { width: 30, height: 30, channels: 3, background: '#aa2211' },
    })
      .jpeg()
      .toBuffer();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 64 }),
          fc.string().map((text) => Buffer.from(`<svg>${text}</svg>`)),
          fc.string().map((text) => Buffer.from(`\uFEFF<?xml version="1.0"?><html>${text}`)),
          // A picture's signature, then junk (truncated or damaged).
          fc
            .uint8Array({ maxLength: 64 })
            .map((junk) =>
              Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), junk]),
            ),
          fc.constant(picture),
        ),
        async (bytes) => {
          const src = 'https://cdn.test/photo.jpg';
          const used: Uint8Array[] = [];
          const encode = encodeWith(src);
          const out = await encodeOrPlaceholder(
            src,
            bytes,
            (source) => {
              used.push(source);
              return encode(source);
            },
            () => placeholder,
          );
          expect(rasterFormat(out)).toBe('webp');
          const last = used.at(-1);
          if (bytes === picture) expect(last).toBe(picture);
          else expect(last).toBe(placeholder);
        },
      ),
      { numRuns: 60 },
    );
    warn.mockRestore();
  });
});
