/**
 * The build's render threads (src/integrations/parallel-prerender.ts): how many a build starts.
 * That their pages have the bytes of the main thread's is held by tests/scale/publish.test.ts,
 * which compares a build with a thread to one without, page by page.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { renderThreads } from '../../src/integrations/parallel-prerender.ts';

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
