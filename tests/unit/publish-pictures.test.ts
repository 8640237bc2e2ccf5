/**
 * The kept build's pictures (scripts/lib/publish-pictures.ts): Astro's registration put back,
 * each remote picture a page asks for encoded once, before its page, only when its file is
 * missing; no URL names a file outside the assets folder.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  installPicturePublisher,
  type CapturedPictures,
  type EncodePicture,
} from '../../scripts/lib/publish-pictures.ts';
import type { AddStaticImage, AstroAssetScope } from '../../src/lib/server/astro-asset.ts';
import type { PictureEntry } from '../../src/lib/server/loaders/listing-store.ts';
import { transformKey } from '../../src/lib/server/picture-key.ts';

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

function setUp(encode: EncodePicture, record?: (entries: readonly PictureEntry[]) => void) {
  const scope: AstroAssetScope = {};
  const captured: CapturedPictures = {
    addStaticImage: astroLike,
    imageConfig: {} as CapturedPictures['imageConfig'],
    assetsDir: '_astro',
  };
  const publisher = installPicturePublisher({
    captured,
    clientDir: client,
    encode,
    scope,
    ...(record ? { record } : {}),
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

  test('a picture that cannot be fetched fails the flush, and is asked again next time', async () => {
    let fail = true;
    const { publisher, add } = setUp(() =>
      fail ? Promise.reject(new Error('503')) : Promise.resolve(new Uint8Array([1, 2])),
    );
    add({ src: 'https://cdn.example/oreiller.jpg', width: 200 }, [], undefined);
    await expect(publisher.flush()).rejects.toThrow('503');
    fail = false;
    add({ src: 'https://cdn.example/oreiller.jpg', width: 200 }, [], undefined);
    expect(await publisher.flush()).toHaveLength(1);
  });
});
