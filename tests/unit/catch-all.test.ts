/**
 * The catch-all route's dispatch (src/lib/catch-all.ts, `src/pages/[...path].astro`): which kind
 * of page a path can be, which service it reads, which published entry it shows.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { catchAllSource, catchAllTarget, contentEntryOf } from '../../src/lib/catch-all.ts';
import type { ContentPage, SleepContent } from '../../src/lib/content/types.ts';

describe('catchAllTarget', () => {
  test.each([
    ['p/101/matelas-ressorts', { kind: 'product', productId: 101 }],
    ['p/9999999999/x', { kind: 'product', productId: 9_999_999_999 }],
    ['p/0/matelas', { kind: 'none' }],
    ['p/012/matelas', { kind: 'none' }],
    ['p/101', { kind: 'none' }],
    ['p/101/Matelas', { kind: 'none' }],
    ['p/101/matelas/x', { kind: 'none' }],
    ['les-yeux-fermes/page/2', { kind: 'sleep-list', page: 2 }],
    ['les-yeux-fermes/page/999999', { kind: 'sleep-list', page: 999_999 }],
    ['les-yeux-fermes/page/02', { kind: 'sleep-entry', slug: 'page/02' }],
    ['les-yeux-fermes/bien-dormir', { kind: 'sleep-entry', slug: 'bien-dormir' }],
    ['les-yeux-fermes', { kind: 'none' }],
    ['cgv', { kind: 'content-page', slug: 'cgv' }],
    ['aide/livraison', { kind: 'content-page', slug: 'aide/livraison' }],
    ['a/b/c/d', { kind: 'content-page', slug: 'a/b/c/d' }],
    ['a/b/c/d/e', { kind: 'none' }],
    ['panier/x', { kind: 'none' }],
    ['mon-compte/x', { kind: 'none' }],
    ['Aide', { kind: 'none' }],
    ['matelas/matelas-hybrides', { kind: 'content-page', slug: 'matelas/matelas-hybrides' }],
    ['', { kind: 'none' }],
  ] as const)('%j → %j', (path, expected) => {
    expect(catchAllTarget(path)).toEqual(expected);
  });

  test('reads the commerce service for a product, the content service for content, else nothing', () => {
    expect(catchAllSource(catchAllTarget('p/1/a'))).toBe('commerce');
    expect(catchAllSource(catchAllTarget('les-yeux-fermes/page/3'))).toBe('content');
    expect(catchAllSource(catchAllTarget('les-yeux-fermes/x'))).toBe('content');
    expect(catchAllSource(catchAllTarget('aide/livraison'))).toBe('content');
    expect(catchAllSource(catchAllTarget('api/x'))).toBeNull();
  });

  test('property: any path is exactly one kind, and a product path is never content', () => {
    fc.assert(
      fc.property(fc.webPath(), (webPath) => {
        const path = webPath.replace(/^\/+/, '');
        const target = catchAllTarget(path);
        if (path.startsWith('p/')) expect(['product', 'none']).toContain(target.kind);
        if (target.kind === 'sleep-entry') expect(`les-yeux-fermes/${target.slug}`).toBe(path);
        if (target.kind === 'content-page') expect(target.slug).toBe(path);
      }),
    );
  });
});

describe('contentEntryOf', () => {
  const entry = { slug: 'bien-dormir', title: 'Bien dormir' } as unknown as SleepContent;
  const page = { slug: 'aide/livraison', title: 'Livraison' } as unknown as ContentPage;
  const content = { sleepContents: [entry], pages: [page] };

  test('the published entry of the slug, else none (404)', () => {
    expect(contentEntryOf(catchAllTarget('les-yeux-fermes/bien-dormir'), content)).toEqual({
      kind: 'sleep',
      entry,
    });
    expect(contentEntryOf(catchAllTarget('aide/livraison'), content)).toEqual({
      kind: 'page',
      page,
    });
    expect(contentEntryOf(catchAllTarget('les-yeux-fermes/inconnu'), content)).toBeNull();
    expect(contentEntryOf(catchAllTarget('aide'), content)).toBeNull();
    // A sleep entry's slug is no content page, nor the other way round.
    expect(contentEntryOf(catchAllTarget('bien-dormir'), content)).toBeNull();
    expect(contentEntryOf(catchAllTarget('les-yeux-fermes/aide/livraison'), content)).toBeNull();
    expect(contentEntryOf(catchAllTarget('p/1/a'), content)).toBeNull();
  });
});
