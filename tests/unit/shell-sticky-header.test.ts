import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  nextStickyState,
  STICKY_TOLERANCE_PX,
  type StickyContext,
  type StickyState,
} from '../../src/browser/shell/sticky-header-state.ts';

// spec §2 Header (sticky, hides on scroll down), §9 "Header hide animation 300 ms".

const context: StickyContext = { locked: false, topThreshold: 150, maxY: 5000 };
const shown = (anchorY: number): StickyState => ({ hidden: false, anchorY });
const hidden = (anchorY: number): StickyState => ({ hidden: true, anchorY });

/** The state after scrolling through `positions` from the top. */
const scrollThrough = (positions: number[], ctx = context): StickyState =>
  positions.reduce((state, y) => nextStickyState(state, y, ctx), shown(0));

describe('nextStickyState', () => {
  test('scrolling down past the header hides it, scrolling up brings it back', () => {
    expect(scrollThrough([100, 400, 800])).toEqual(hidden(800));
    expect(scrollThrough([100, 400, 800, 700])).toEqual(shown(700));
  });

  test('near the top (up to the threshold) it never hides', () => {
    expect(scrollThrough([50, 100, 150])).toEqual(shown(150));
    expect(nextStickyState(hidden(900), 120, context)).toEqual(shown(120));
  });

  test('moves under the tolerance change nothing, but add up from the last decision', () => {
    const state = hidden(800);
    expect(nextStickyState(state, 800 - STICKY_TOLERANCE_PX + 1, context)).toBe(state);
    // Three slow steps up: the third reaches the tolerance from the anchor.
    const slow = [797, 794, 791].reduce((s, y) => nextStickyState(s, y, context), state);
    expect(slow).toEqual(shown(791));
  });

  test('while locked (menu, popover, search open, focus inside) it shows and stays', () => {
    const locked = { ...context, locked: true };
    expect(nextStickyState(hidden(800), 1200, locked)).toEqual(shown(1200));
    expect(scrollThrough([400, 900, 2000], locked)).toEqual(shown(2000));
  });

  test('positions out of the page (overscroll bounces) are clamped', () => {
    // At the bottom (maxY 5000), a bounce to 5060 and back is no scroll up.
    const atBottom = hidden(5000);
    expect(nextStickyState(atBottom, 5060, context)).toBe(atBottom);
    expect(nextStickyState(atBottom, 5000, context)).toBe(atBottom);
    // A bounce above the top shows it.
    expect(nextStickyState(hidden(800), -40, context)).toEqual(shown(0));
  });

  test('a page shorter than the threshold plus the viewport never hides it', () => {
    expect(scrollThrough([100, 300, 600], { ...context, maxY: 120 })).toEqual(shown(120));
  });

  const position = fc.integer({ min: -200, max: 6000 });
  const state = fc.record({ hidden: fc.boolean(), anchorY: fc.integer({ min: 0, max: 5000 }) });
  const ctx = fc.record({
    locked: fc.boolean(),
    topThreshold: fc.integer({ min: 0, max: 400 }),
    maxY: fc.integer({ min: 0, max: 5000 }),
  });

  test('property: never hidden when locked or at or above the threshold', () => {
    fc.assert(
      fc.property(state, position, ctx, (s, y, c) => {
        const next = nextStickyState(s, y, c);
        if (c.locked || Math.min(Math.max(y, 0), c.maxY) <= c.topThreshold) {
          expect(next.hidden).toBe(false);
        }
      }),
    );
  });

  test('property: a scroll down by the tolerance or more hides, up by as much shows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: STICKY_TOLERANCE_PX, max: 2000 }),
        fc.boolean(),
        (from, by, wasHidden) => {
          const ctx0 = { locked: false, topThreshold: 0, maxY: 10_000 };
          const down = nextStickyState({ hidden: wasHidden, anchorY: from }, from + by, ctx0);
          expect(down).toEqual(hidden(from + by));
          const up = nextStickyState({ hidden: wasHidden, anchorY: from + by }, from, ctx0);
          expect(up.hidden).toBe(false);
        },
      ),
    );
  });

  test('property: any scroll sequence ends hidden only after a downward move past the threshold', () => {
    fc.assert(
      fc.property(fc.array(position, { maxLength: 40 }), ctx, (positions, c) => {
        const final = scrollThrough(positions, c);
        if (final.hidden) {
          expect(c.locked).toBe(false);
          expect(final.anchorY).toBeGreaterThan(c.topThreshold);
        }
      }),
    );
  });
});

test('the header slides in spec §9 time, and not at all under reduced motion', () => {
  const header = readFileSync(
    new URL('../../src/components/layout/Header.astro', import.meta.url),
    'utf8',
  );
  const tag = /<header\b[^>]*>/.exec(header)?.[0] ?? '';
  expect(tag).toContain('data-sticky-header');
  expect(tag).toContain('sticky top-0');
  expect(tag).toContain('duration-300');
  expect(tag).toContain('data-header-hidden:-translate-y-full');
  // global.css makes every transition instant under prefers-reduced-motion: reduce.
  const css = readFileSync(new URL('../../src/styles/global.css', import.meta.url), 'utf8');
  expect(css).toMatch(
    /@media \(prefers-reduced-motion: reduce\)[\s\S]*?transition-duration: 0\.01ms !important/,
  );
});
