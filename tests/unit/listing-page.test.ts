/**
 * The release's listing pages 1 (src/shop/loaders/listing-page.ts): a listing's path maps
 * to its file in the release's client folder and nowhere else, over generated paths; the page is
 * read from there, none without a release.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import {
  listingPageFile,
  releaseListingPage,
  useListingPages,
} from '../../src/shop/loaders/listing-page.ts';

const root = mkdtempSync(path.join(tmpdir(), 'listing-pages-'));
afterAll(() => {
  useListingPages(undefined);
  rmSync(root, { recursive: true, force: true });
});

describe('listingPageFile', () => {
  test('a listing path is its .html file in the folder', () => {
    expect(listingPageFile(root, '/c/matelas')).toBe(path.join(root, 'c', 'matelas.html'));
    expect(listingPageFile(root, '/c/matelas/matelas-latex')).toBe(
      path.join(root, 'c', 'matelas', 'matelas-latex.html'),
    );
  });

  test('anything else has none', () => {
    for (const bad of ['', '/', '/c', '/c/', '/p/1/x', '/c/../secret', '/c/a/../../x', '/c/a\0']) {
      expect(listingPageFile(root, bad)).toBeNull();
    }
  });

  test('no path leaves the folder or names another kind of file', () => {
    const segment = fc.oneof(
      fc.constantFrom('..', '.', '', 'c', 'matelas', '%2e%2e', '\\..', '\0'),
      fc.string({ maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), fc.boolean(), (segments, listing) => {
        const candidate = `${listing ? '/c/' : '/'}${segments.join('/')}`;
        const file = listingPageFile(root, candidate);
        if (file === null) return;
        expect(file.startsWith(path.join(root, 'c') + path.sep)).toBe(true);
        expect(file.endsWith('.html')).toBe(true);
        expect(path.relative(root, file).split(path.sep)).not.toContain('..');
      }),
      { numRuns: 2000 },
    );
  });
});

describe('releaseListingPage', () => {
  test('reads the page of the release it is told about, none without one', async () => {
    mkdirSync(path.join(root, 'c'), { recursive: true });
    writeFileSync(path.join(root, 'c', 'matelas.html'), '<p>page 1</p>');
    useListingPages(undefined);
    expect(releaseListingPage('/c/matelas')).toBeUndefined();
    useListingPages(root);
    await expect(releaseListingPage('/c/matelas')).resolves.toBe('<p>page 1</p>');
    await expect(releaseListingPage('/c/absente')).resolves.toBeNull();
    await expect(releaseListingPage('/c/../c/matelas')).resolves.toBeNull();
  });
});
