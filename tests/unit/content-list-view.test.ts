/**
 * The sleep-content list's routes (src/lib/content/list-view.ts and content-routes.ts, src/shop/view-models/content/sleep-list.ts):
 * which requests go to the on-demand view filtered by tag, its canonical query, the page and
 * tag rules (404 otherwise), and which slugs are content pages.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { sleepListPage } from '../../src/shop/view-models/content/sleep-list.ts';
import { isContentSlug, isStaticContentSlug } from '../../src/lib/content/content-routes.ts';
import { listingViewPath } from '../../src/lib/commerce/listing.ts';
import {
  parseSleepListQuery,
  sleepContentViewPath,
  sleepListPageOf,
  sleepListPath,
  sleepListQueryString,
} from '../../src/lib/content/list-view.ts';
import type { ContentTag, SleepContent } from '../../src/lib/content/types.ts';

describe('sleepContentViewPath', () => {
  test.each([
    ['/les-yeux-fermes', '?tag=formatPodcast', '/vue/les-yeux-fermes?tag=formatPodcast'],
    [
      '/les-yeux-fermes/page/3',
      '?tag=formatPodcast',
      '/vue/les-yeux-fermes?tag=formatPodcast&page=3',
    ],
    ['/les-yeux-fermes', '?tag=<script>', '/vue/les-yeux-fermes?tag=%3Cscript%3E&page=1'],
    ['/les-yeux-fermes', '', null],
    ['/les-yeux-fermes', '?utm_source=x', null],
    ['/les-yeux-fermes/page/2', '', null],
    ['/les-yeux-fermes/page/02', '?tag=a', null],
    ['/les-yeux-fermes/page/x', '?tag=a', null],
    ['/les-yeux-fermes/respirer', '?tag=a', null],
    ['/cgv', '?tag=a', null],
  ])('%s%s → %s', (path, search, expected) => {
    expect(sleepContentViewPath(path, search)).toBe(expected);
    expect(listingViewPath(path, search)).toBe(expected);
  });

  test('property: a view path carries a query the view parses or answers 404 to (none: the whole list)', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 999 }), (tag, page) => {
        const path = page === 1 ? '/les-yeux-fermes' : `/les-yeux-fermes/page/${page}`;
        const view = sleepContentViewPath(path, `?${new URLSearchParams({ tag })}`);
        // An empty tag is no filter: the view of the whole list, with no query at page 1.
        expect(view).toMatch(/^\/vue\/les-yeux-fermes(?:\?|$)/);
        const query = parseSleepListQuery(new URL(view ?? '', 'http://x').searchParams);
        if (query !== null) expect(sleepListQueryString(query)).not.toContain('<');
      }),
    );
  });
});

describe('sleepListPageOf', () => {
  test.each([
    ['/les-yeux-fermes/page/2', 2],
    ['/les-yeux-fermes/page/1', 1],
    ['/les-yeux-fermes/page/999999', 999_999],
    ['/les-yeux-fermes/page/1000000', null],
    ['/les-yeux-fermes/page/02', null],
    ['/les-yeux-fermes/page/0', null],
    ['/les-yeux-fermes/page/', null],
    ['/les-yeux-fermes/page/2/', null],
    ['/les-yeux-fermes', null],
    ['/les-yeux-fermes/page', null],
    ['les-yeux-fermes/page/2', null],
    ['/x/les-yeux-fermes/page/2', null],
  ])('%s → %j', (path, expected) => {
    expect(sleepListPageOf(path)).toBe(expected);
  });

  test('every page path of sleepListPath reads back as its page', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 999_999 }), (page) => {
        expect(sleepListPageOf(sleepListPath(page))).toBe(page);
      }),
    );
  });
});

describe('parseSleepListQuery and sleepListPath', () => {
  test('canonical query and public paths', () => {
    expect(parseSleepListQuery(new URLSearchParams('tag=themeCalme&page=2'))).toEqual({
      tag: 'themeCalme',
      page: 2,
    });
    expect(parseSleepListQuery(new URLSearchParams('page=0'))).toBeNull();
    expect(parseSleepListQuery(new URLSearchParams('page=1e3'))).toBeNull();
    expect(parseSleepListQuery(new URLSearchParams('tag=a b'))).toBeNull();
    expect(sleepListQueryString({ tag: null, page: 1 })).toBe('');
    expect(sleepListQueryString({ tag: 'x', page: 3 })).toBe('?tag=x&page=3');
    expect(sleepListPath(1)).toBe('/les-yeux-fermes');
    expect(sleepListPath(2, 'formatVideo')).toBe('/les-yeux-fermes/page/2?tag=formatVideo');
  });
});

function tag(id: string, label: string): ContentTag {
  const at = label.indexOf(':');
  return at === -1
    ? { id, label, type: null, name: label }
    : { id, label, type: label.slice(0, at), name: label.slice(at + 1) };
}

const PODCAST = tag('formatPodcast', 'format:podcast');
const ARTICLE = tag('formatArticle', 'format:article');
const UNUSED = tag('formatVideo', 'format:video');

function entry(index: number, tags: ContentTag[]): SleepContent {
  return {
    id: `e${index}`,
    title: `Épisode ${index}`,
    slug: `episode-${index}`,
    excerpt: '',
    episode: index,
    duration: 10,
    image: null,
    audio: null,
    video: null,
    body: null,
    tags,
    related: [],
    publishedAt: '2026-01-01',
  };
}

describe('sleepListPage', () => {
  const all = Array.from({ length: 30 }, (_, i) =>
    entry(i + 1, i % 3 === 0 ? [PODCAST] : [ARTICLE]),
  );

  test('pages of 12; the tags offered are those some entry carries', () => {
    const first = sleepListPage(all, [PODCAST, ARTICLE, UNUSED], null, 1);
    expect(first?.entries.length).toBe(12);
    expect(first?.totalPages).toBe(3);
    expect(first?.tags.map((t) => t.id)).toEqual(['formatPodcast', 'formatArticle']);
    expect(sleepListPage(all, [PODCAST, ARTICLE], null, 3)?.entries.length).toBe(6);
  });

  test('filtered by tag', () => {
    const podcasts = sleepListPage(all, [PODCAST, ARTICLE], 'formatPodcast', 1);
    expect(podcasts?.total).toBe(10);
    expect(podcasts?.entries.every((e) => e.tags.includes(PODCAST))).toBe(true);
  });

  test('the filter may name its tag by name (an editor link): the page knows it by id', () => {
    const byName = sleepListPage(all, [PODCAST, ARTICLE], 'podcast', 1);
    expect(byName?.activeTag).toBe('formatPodcast');
    expect(byName?.total).toBe(10);
  });

  test('an unknown or unused tag, or a page past the last, is no page (404)', () => {
    expect(sleepListPage(all, [PODCAST, ARTICLE, UNUSED], 'formatVideo', 1)).toBeNull();
    expect(sleepListPage(all, [PODCAST, ARTICLE], 'nope', 1)).toBeNull();
    expect(sleepListPage(all, [PODCAST, ARTICLE], null, 4)).toBeNull();
    expect(sleepListPage(all, [PODCAST, ARTICLE], null, 0)).toBeNull();
    expect(sleepListPage([], [], null, 1)?.entries).toEqual([]);
  });
});

describe('content slugs', () => {
  test.each([
    ['cgv', true, true],
    ['mentions-legales', true, true],
    ['aide/livraison', false, true],
    ['panier', false, false],
    ['les-yeux-fermes', false, false],
    // The offline page's route: a content page there would be shadowed, or taken for it.
    ['hors-ligne', false, false],
    ['p/12/x', false, false],
    ['CGV', false, false],
    ['a--b', false, false],
    ['-a', false, false],
    ['a/b/c/d/e', false, false],
    ['', false, false],
  ])('%s: static %s, content %s', (slug, isStatic, isContent) => {
    expect(isStaticContentSlug(slug)).toBe(isStatic);
    expect(isContentSlug(slug)).toBe(isContent);
  });
});
