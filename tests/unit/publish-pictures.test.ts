/**
 * The kept build's pictures (src/server/publish/publish-pictures.ts): Astro's registration put back,
 * each remote picture a page asks for encoded once, before its page, only when its file is
 * missing; no URL names a file outside the assets folder; a picture that cannot be fetched
 * gets the placeholder and a log line, and the flush goes on.
 */
import {
  copyFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
  mkdirSync,
  readdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  installPicturePublisher,
  type CapturedPictures,
  type EncodePicture,
} from '../../src/server/publish/publish-pictures.ts';
import type { AddStaticImage, AstroAssetScope } from '../../src/server/pictures/astro-asset.ts';
import type { PictureEntry } from '../../src/shop/loaders/listing-store.ts';
import { transformKey } from '../../src/server/pictures/picture-key.ts';
import {
  PLACEHOLDER_PICTURE,
  type PictureOwners,
} from '../../src/server/pictures/picture-fallback.ts';

let client = '';
beforeEach(() => {
  client = mkdtempSync(path.join(tmpdir(), 'publish-pictures-'));
});
afterEach(() => {
  rmSync(client, { recursive: true, force: true });
});

/** Astro's function, as far as the publisher sees it: a transform to `/_astro/{name}_{w}.webp`. */
const astroLike: AddStaticImage = (options) => {
  const src = String(options.src);
  const name = path.posix.basename(new URL(src, 'http://x').pathname).replace(/\.\w+$/, '');
  return `/_astro/${encodeURI(name)}_${String(options.width)}.webp`;
};

function setUp(
  encode: EncodePicture,
  record?: (entries: readonly PictureEntry[]) => void,
  owners?: PictureOwners,
) {
  const scope: AstroAssetScope = {};
  const captured: CapturedPictures = {
    addStaticImage: astroLike,
    imageConfig: {
      service: { entrypoint: 'sharp', config: {} },
    } as CapturedPictures['imageConfig'],
    assetsDir: '_astro',
  };
  const publisher = installPicturePublisher({
    captured,
    clientDir: client,
    encode,
    scope,
    ...(record ? { record } : {}),
    ...(owners ? { owners } : {}),
  });
  const add = scope.astroAsset?.addStaticImage;
  if (add === undefined) throw new Error('the publisher installed no addStaticImage');
  return { publisher, add };
}

describe('installPicturePublisher', () => {
  test('puts the registration back: the URL is Astro’s, new remote pictures are encoded once', async () => {
    const calls: string[] = [];
    const recorded: PictureEntry[] = [];
    const { publisher, add } = setUp(
      (src, transform) => {
        calls.push(`${src} ${String(transform.width)}`);
        return Promise.resolve(new TextEncoder().encode(`${src}@${String(transform.width)}`));
      },
      (entries) => recorded.push(...entries),
    );
    expect(add({ src: 'https://cdn.example/a/matelas.jpg', width: 400 }, [], undefined)).toBe(
      '/_astro/matelas_400.webp',
    );
    add({ src: 'https://cdn.example/a/matelas.jpg', width: 400 }, [], undefined);
    add({ src: 'https://cdn.example/a/matelas.jpg', width: 800 }, [], undefined);
    // A picture of the project's own files is the build's, never fetched.
    add({ src: '/src/assets/logo.png', width: 100 }, [], undefined);

    const written = await publisher.flush();
    expect(written.map((file) => path.relative(client, file)).sort()).toEqual([
      '_astro/matelas_400.webp',
      '_astro/matelas_800.webp',
    ]);
    expect(calls.sort()).toEqual([
      'https://cdn.example/a/matelas.jpg 400',
      'https://cdn.example/a/matelas.jpg 800',
    ]);
    expect(readFileSync(path.join(client, '_astro/matelas_800.webp'), 'utf8')).toBe(
      'https://cdn.example/a/matelas.jpg@800',
    );
    // The release's picture table is told each new file, with its page URL.
    const src = 'https://cdn.example/a/matelas.jpg';
    expect(recorded.sort()).toEqual(
      [
        [transformKey(src, { src, width: 400 }), '/_astro/matelas_400.webp'],
        [transformKey(src, { src, width: 800 }), '/_astro/matelas_800.webp'],
      ].sort(),
    );
    // Asked again later: already written, not encoded again.
    add({ src: 'https://cdn.example/a/matelas.jpg', width: 800 }, [], undefined);
    expect(await publisher.flush()).toEqual([]);
    expect(calls).toHaveLength(2);
    expect(recorded).toHaveLength(2);
    // No temporary file is left beside them.
    expect(readdirSync(path.join(client, '_astro')).sort()).toEqual([
      'matelas_400.webp',
      'matelas_800.webp',
    ]);
  });

  test('a picture the build already wrote is not encoded again', async () => {
    mkdirSync(path.join(client, '_astro'));
    writeFileSync(path.join(client, '_astro/sommier_400.webp'), 'the build’s');
    let encoded = 0;
    const { publisher, add } = setUp(() => {
      encoded += 1;
      return Promise.resolve(new Uint8Array(1));
    });
    add({ src: 'https://cdn.example/sommier.jpg', width: 400 }, [], undefined);
    expect(await publisher.flush()).toEqual([]);
    expect(encoded).toBe(0);
    expect(readFileSync(path.join(client, '_astro/sommier_400.webp'), 'utf8')).toBe('the build’s');
  });

  test('a picture that cannot be fetched stops nothing: its file is the placeholder, encoded by sharp, and logged', async () => {
    copyFileSync(path.join('public', PLACEHOLDER_PICTURE), path.join(client, PLACEHOLDER_PICTURE));
    const lines: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    const recorded: PictureEntry[] = [];
    const { publisher, add } = setUp(
      (src) =>
        src.includes('absente')
          ? Promise.reject(new Error(`the picture ${src} answered 404`))
          : Promise.resolve(new Uint8Array([1, 2])),
      (entries) => recorded.push(...entries),
      () => [4242],
    );
    const broken = { src: 'https://cdn.example/absente.jpg', width: 64, format: 'webp' };
    add(broken, [], undefined);
    add({ src: 'https://cdn.example/oreiller.jpg', width: 200 }, [], undefined);
    const written = await publisher.flush('/p/4242/matelas-absent');
    warn.mockRestore();
    expect(written.map((file) => path.relative(client, file)).sort()).toEqual([
      '_astro/absente_64.webp',
      '_astro/oreiller_200.webp',
    ]);
    // The placeholder, encoded to the variant's size and format by the sharp service.
    const placeholder = await sharp(path.join(client, '_astro/absente_64.webp')).metadata();
    expect(placeholder.format).toBe('webp');
    expect(placeholder.width).toBe(64);
    expect(recorded.map(([, url]) => url).sort()).toEqual([
      '/_astro/absente_64.webp',
      '/_astro/oreiller_200.webp',
    ]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('https://cdn.example/absente.jpg');
    expect(lines[0]).toContain('product 4242');
    expect(lines[0]).toContain('404');
    expect(lines[0]).toContain('/p/4242/matelas-absent');
  });
});
