/**
 * The build's render threads (src/server/render-threads/parallel-prerender.ts): how many a build starts,
 * and the public files whose paths a thread leaves to Astro.
 * That their pages have the bytes of the main thread's is held by tests/scale/publish.test.ts,
 * which compares a build with a thread to one without, page by page.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { publicPages, renderThreads } from '../../src/server/render-threads/parallel-prerender.ts';

describe('renderThreads', () => {
  test('by default one per core beyond the first, at most two (each holds a copy of the data)', () => {
    expect(renderThreads(undefined, 1)).toBe(0);
    expect(renderThreads(undefined, 2)).toBe(1);
    expect(renderThreads('', 3)).toBe(2);
    expect(renderThreads(undefined, 64)).toBe(2);
  });

  test('BUILD_RENDER_THREADS sets it, 0 for none', () => {
    expect(renderThreads('0', 8)).toBe(0);
    expect(renderThreads('4', 2)).toBe(4);
  });

  test('property: anything but a whole number from 0 to 99 is refused, naming the variable', () => {
    fc.assert(
      fc.property(
        fc.string().filter((value) => value !== '' && !/^\d{1,2}$/.test(value)),
        (value) => {
          expect(() => renderThreads(value, 2)).toThrow(/BUILD_RENDER_THREADS/);
        },
      ),
    );
  });
});

describe('publicPages', () => {
  test('the .html files of the public folder, at any depth, as page paths; none without one', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'public-pages-'));
    try {
      mkdirSync(path.join(dir, 'aide', 'faq'), { recursive: true });
      writeFileSync(path.join(dir, 'offline.html'), '');
      writeFileSync(path.join(dir, 'aide', 'faq', 'index.html'), '');
      writeFileSync(path.join(dir, 'robots.txt'), '');
      expect([...publicPages(dir)].sort()).toEqual(['/aide/faq/index.html', '/offline.html']);
      expect(publicPages(path.join(dir, 'absent')).size).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
