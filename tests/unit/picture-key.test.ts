/**
 * The picture rules of src/server/pictures/picture-key.ts: a picture URL names a file directly inside
 * the release's assets folder or is refused, whatever the URL; the URL pages show for an emitted
 * file names that file back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isRemotePicture, pictureFile, pictureUrl } from '../../src/server/pictures/picture-key.ts';

let client = '';
beforeEach(() => {
  client = mkdtempSync(path.join(tmpdir(), 'picture-key-'));
});
afterEach(() => {
  rmSync(client, { recursive: true, force: true });
});

describe('pictureUrl and pictureFile', () => {
  test('the URL of an emitted file names that file again, whatever its name', () => {
    fc.assert(
      fc.property(
        // The names Astro gives emitted files (propsToFilename turns these characters into `_`).
        fc.string({ minLength: 1, maxLength: 20, unit: 'binary' }).filter(
          (name) =>
            // eslint-disable-next-line no-control-regex
            !/[\u0000-\u001F"#$%&*+,:;<=>?[\]^`{|}\u007F/\\]/.test(name) &&
            !/^\.{1,2}$/.test(name) &&
            name.isWellFormed(),
        ),
        (name) => {
          const url = pictureUrl(`/_astro/${name}_Z1.webp`);
          expect(url.startsWith('/_astro/')).toBe(true);
          expect(pictureFile(url, client, '_astro')).toBe(
            path.join(client, '_astro', `${name}_Z1.webp`),
          );
        },
      ),
    );
  });

  test('a remote picture is one on a picture host', () => {
    expect(isRemotePicture('https://cdn.example/a.jpg')).toBe(true);
    expect(isRemotePicture('HTTP://cdn.example/a.jpg')).toBe(true);
    expect(isRemotePicture('/src/assets/logo.png')).toBe(false);
    expect(isRemotePicture('data:image/png;base64,AA')).toBe(false);
    expect(isRemotePicture({ src: '/logo.png' })).toBe(false);
  });

  test('any URL names a file directly inside the assets folder, or is refused', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.webUrl({ withQueryParameters: true, withFragments: true }),
          fc.string(),
          fc
            .array(fc.constantFrom('..', '.', '%2e%2e', '%2F', 'a', '_astro', '', '\\'), {
              maxLength: 6,
            })
            .map((parts) => `/${parts.join('/')}`),
        ),
        (url) => {
          let file: string;
          try {
            file = pictureFile(url, client, '_astro');
          } catch {
            return;
          }
          expect(path.dirname(file)).toBe(path.join(client, '_astro'));
          expect(path.basename(file)).not.toMatch(/^\.{1,2}$/);
        },
      ),
    );
  });

  test('the file of a final URL', () => {
    expect(pictureFile('/_astro/matelas%20bleu_Z1a.webp', client, '_astro')).toBe(
      path.join(client, '_astro', 'matelas bleu_Z1a.webp'),
    );
    expect(pictureFile('https://cdn.example/shop/_astro/a_1.webp?v=1', client, '_astro')).toBe(
      path.join(client, '_astro', 'a_1.webp'),
    );
  });
});
