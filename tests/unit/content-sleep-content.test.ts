/**
 * "Les yeux fermés" rules (spec §2, §9): card paths, episode and duration labels, the page
 * segment (digits only, 1..total, else 404), the scroll offset, the tag filter and pages.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  durationLabel,
  durationMinutes,
  episodeLabel,
  episodeNumber,
  filterByTag,
  pageCount,
  paginate,
  parsePageNumber,
  SLEEP_CONTENT_PAGE_SIZE,
  sleepContentPagePath,
  sleepContentPath,
  sleepScrollOffset,
  sortNewestFirst,
  usedTags,
} from '../../src/lib/content/sleep-content.ts';
import { toContentTag } from '../../src/lib/content/tags.ts';

describe('paths', () => {
  test('cards link to /les-yeux-fermes/{url}', () => {
    expect(sleepContentPath('respirer-pour-dormir')).toBe('/les-yeux-fermes/respirer-pour-dormir');
    expect(sleepContentPath(' a b ')).toBe('/les-yeux-fermes/a%20b');
    expect(sleepContentPath('../x')).toBe('/les-yeux-fermes/..%2Fx');
  });
  test('a card path is one segment below the list, whatever the slug', () => {
    fc.assert(
      fc.property(fc.string(), (slug) => {
        const path = sleepContentPath(slug);
        expect(path.startsWith('/les-yeux-fermes/')).toBe(true);
        expect(path.slice('/les-yeux-fermes/'.length)).not.toMatch(/[/?#\\]/);
      }),
    );
  });
  test('list pages', () => {
    expect(sleepContentPagePath(1)).toBe('/les-yeux-fermes');
    expect(sleepContentPagePath(2)).toBe('/les-yeux-fermes/page/2');
  });
});

describe('labels', () => {
  test.each([
    [1, '01'],
    [9, '09'],
    [12, '12'],
    [123, '123'],
    [0, '00'],
  ])('episode %d → %s', (n, label) => {
    expect(episodeLabel(n)).toBe(label);
  });
  test.each([
    [3, 3],
    [0, null],
    [-1, null],
    [1.5, null],
    ['3', null],
    [null, null],
  ])('episodeNumber(%j) = %j', (value, expected) => {
    expect(episodeNumber(value)).toBe(expected);
  });
  test.each([
    [12, 12],
    [0.4, 1],
    [12.6, 13],
    [0, null],
    [-5, null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
    ['12', null],
  ])('durationMinutes(%j) = %j', (value, expected) => {
    expect(durationMinutes(value)).toBe(expected);
  });
  test('durationLabel goes through the translator', () => {
    const t = (key: string, values: { count: number }) => `${key}:${values.count}`;
    expect(durationLabel(25, t)).toBe('sleep.duration:25');
    expect(durationLabel(null, t)).toBe('');
  });
  test('episode labels have at least two digits and read back as the number', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }), (n) => {
        const label = episodeLabel(n);
        expect(label).toMatch(/^\d{2,}$/);
        expect(Number(label)).toBe(n);
      }),
    );
  });
});

describe('parsePageNumber', () => {
  test.each([
    ['1', 3, 1],
    ['3', 3, 3],
    ['4', 3, null],
    ['0', 3, null],
    ['01', 3, null],
    ['+1', 3, null],
    ['-1', 3, null],
    ['', 3, null],
    [' 1', 3, null],
    ['1 ', 3, null],
    ['1.0', 3, null],
    ['1e0', 3, null],
    ['0x1', 3, null],
    ['١', 3, null],
    ['99999999999999999999', Number.MAX_SAFE_INTEGER, null],
    [undefined, 3, null],
    [null, 3, null],
  ])('%j of %d → %j', (segment, total, expected) => {
    expect(parsePageNumber(segment, total)).toBe(expected);
  });
  test('accepts exactly the canonical numbers 1..total', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 500 }), (segment, total) => {
        const page = parsePageNumber(segment, total);
        if (page !== null) {
          expect(String(page)).toBe(segment);
          expect(page).toBeGreaterThanOrEqual(1);
          expect(page).toBeLessThanOrEqual(total);
        }
      }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 500 }),
        (n, total) => {
          expect(parsePageNumber(String(n), total)).toBe(n <= total ? n : null);
        },
      ),
    );
  });
});

test.each([
  [320, 500],
  [767, 500],
  [768, 900],
  [1440, 900],
])('scroll offset at %d px: %d', (width, offset) => {
  expect(sleepScrollOffset(width)).toBe(offset);
});

describe('lists', () => {
  const tags = {
    podcast: toContentTag('formatPodcast', 'format:podcast'),
    video: toContentTag('formatVideo', 'format:video'),
    sleep: toContentTag('themeEndormissement', 'theme:endormissement'),
  };
  const entries = [
    { title: 'B', publishedAt: '2024-02-01', tags: [tags.podcast, tags.sleep] },
    { title: 'A', publishedAt: '2024-03-01', tags: [tags.video] },
    { title: 'C', publishedAt: 'not a date', tags: [] },
    { title: 'D', publishedAt: '2024-02-01', tags: [tags.podcast] },
  ];

  test('filterByTag by name, label or id; no filter keeps all', () => {
    expect(filterByTag(entries, 'podcast').map((e) => e.title)).toEqual(['B', 'D']);
    expect(filterByTag(entries, 'format:video').map((e) => e.title)).toEqual(['A']);
    expect(filterByTag(entries, 'themeEndormissement').map((e) => e.title)).toEqual(['B']);
    expect(filterByTag(entries, 'inconnu')).toEqual([]);
    expect(filterByTag(entries, '')).toHaveLength(4);
    expect(filterByTag(entries, null)).toHaveLength(4);
  });

  test('usedTags keeps the tags some entry carries', () => {
    const unused = toContentTag('themeRespiration', 'theme:respiration');
    expect(usedTags([tags.video, unused, tags.podcast], entries)).toEqual([
      tags.video,
      tags.podcast,
    ]);
  });

  test('sortNewestFirst: newest first, unreadable dates last, then by title', () => {
    expect(sortNewestFirst(entries).map((e) => e.title)).toEqual(['A', 'B', 'D', 'C']);
  });

  test('paginate: 12 per page, the listing shape', () => {
    const items = Array.from({ length: 25 }, (_, i) => i);
    expect(SLEEP_CONTENT_PAGE_SIZE).toBe(12);
    expect(paginate(items, 1).items).toEqual(items.slice(0, 12));
    expect(paginate(items, 3)).toEqual({
      items: [24],
      pagination: { total: 25, count: 1, perPage: 12, currentPage: 3, totalPages: 3 },
    });
    expect(paginate(items, 4).items).toEqual([]);
    expect(paginate([], 1).pagination.totalPages).toBe(1);
  });

  test('pages cover every entry once, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { maxLength: 100 }),
        fc.integer({ min: 1, max: 20 }),
        (items, size) => {
          const pages = pageCount(items.length, size);
          const all = Array.from(
            { length: pages },
            (_, i) => paginate(items, i + 1, size).items,
          ).flat();
          expect(all).toEqual(items);
          expect(paginate(items, 1, size).pagination.totalPages).toBe(pages);
        },
      ),
    );
  });
});
