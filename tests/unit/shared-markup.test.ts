import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  isShareableMarkup,
  shareMarkup,
  sharedMarkup,
  sharedValue,
} from '../../src/lib/ui/memo.ts';

const tagged = (tag: string) =>
  fc
    .tuple(fc.string(), fc.constantFrom(tag, tag.toUpperCase()), fc.string(), fc.string())
    .map(
      ([before, name, attributes, after]) =>
        `${before}<${name}${attributes ? ` ${attributes}` : '>'}${after}`,
    );

describe('shared layout markup', () => {
  test('markup with an island, a slot of one or a script is never kept', () => {
    fc.assert(
      fc.property(
        fc.oneof(tagged('astro-island'), tagged('script'), tagged('astro-slot')),
        fc.string(),
        (html, key) => {
          const scope = {};
          expect(isShareableMarkup(html)).toBe(false);
          expect(shareMarkup(scope, key, html)).toBe(false);
          expect(sharedMarkup(scope, key)).toBeUndefined();
        },
      ),
    );
  });

  test('plain markup is kept per scope and key, and never seen from another scope', () => {
    fc.assert(
      fc.property(
        fc.string().filter(isShareableMarkup),
        fc.string(),
        fc.string(),
        (html, key, other) => {
          const scope = {};
          expect(shareMarkup(scope, key, html)).toBe(true);
          expect(sharedMarkup(scope, key)).toBe(html);
          expect(sharedMarkup({}, key)).toBeUndefined();
          if (other !== key) expect(sharedMarkup(scope, other)).toBeUndefined();
        },
      ),
    );
  });

  test('a tag counts in any case; escaped text is not a tag', () => {
    expect(isShareableMarkup('<nav><a href="/c/matelas">Matelas</a></nav>')).toBe(true);
    expect(isShareableMarkup('<SCRIPT src="x.js"></SCRIPT>')).toBe(false);
    expect(isShareableMarkup('<astro-island uid="1"></astro-island>')).toBe(false);
    expect(isShareableMarkup('<p>&lt;script&gt;</p>')).toBe(true);
  });

  test('a scope keeps a bounded number of entries', () => {
    const scope = {};
    const kept = Array.from({ length: 300 }, (_, i) => shareMarkup(scope, `k${i}`, `<p>${i}</p>`));
    expect(kept.filter(Boolean)).toHaveLength(256);
    expect(sharedMarkup(scope, 'k0')).toBe('<p>0</p>');
    expect(sharedMarkup(scope, 'k299')).toBeUndefined();
  });

  test('a shared value is computed once per scope and key', () => {
    const scope = {};
    let calls = 0;
    const compute = () => ({ n: ++calls });
    const first = sharedValue(scope, 'menu', compute);
    expect(sharedValue(scope, 'menu', compute)).toBe(first);
    expect(sharedValue(scope, 'other', compute)).not.toBe(first);
    expect(sharedValue({}, 'menu', compute)).not.toBe(first);
    expect(calls).toBe(3);
    // No scope (astro dev): computed every time, nothing kept.
    expect(sharedValue(undefined, 'menu', compute)).not.toBe(
      sharedValue(undefined, 'menu', compute),
    );
    expect(calls).toBe(5);
  });
});
