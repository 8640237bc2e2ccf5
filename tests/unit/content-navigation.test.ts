/**
 * Navigations (spec §3): raw resolved entries of every link type mapped to `NavigationEntry`
 * trees; invalid links, unknown or hidden categories, unresolved links, cycles and deep nesting
 * dropped or bounded. Also the entry paths of `paths.ts`.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { localPath } from '../../src/lib/commerce/redirect-target.ts';
import {
  categoryPathLookup,
  MAX_NAVIGATION_DEPTH,
  MAX_NAVIGATION_ENTRIES,
  navigationEntries,
  toNavigationEntry,
} from '../../src/lib/content/navigation.ts';
import {
  brandCornerPath,
  contentPagePath,
  entryPath,
  pagePath,
  sleepContentEntryPath,
} from '../../src/lib/content/paths.ts';
import type { NavigationEntry } from '../../src/lib/content/types.ts';

let ids = 0;
const raw = (contentType: string, fields: Record<string, unknown>, id = `e${++ids}`) => ({
  metadata: { tags: [] },
  sys: {
    id,
    type: 'Entry',
    contentType: { sys: { type: 'Link', linkType: 'ContentType', id: contentType } },
  },
  fields,
});
const unresolved = { sys: { type: 'Link', linkType: 'Entry', id: 'gone' } };
const categories: Record<number, string> = { 18: '/c/matelas', 23: '/c/matelas/ressorts' };
const options = { categoryPath: (id: number) => categories[id] ?? null };
const map = (entry: unknown) => toNavigationEntry(entry, options);

const BASE = {
  isExternalLink: false,
  title: 'T',
  label: 'T',
  identifier: null,
  categoryId: null,
  titlePush: null,
  contentPush: null,
  childrens: [],
};

describe('link types', () => {
  test.each<[string, ReturnType<typeof raw>, Partial<NavigationEntry> | null]>([
    [
      'page',
      raw('page', { title: 'T', slug: 'panier' }),
      { type: 'page', url: '/panier', slug: 'panier', isExternalLink: false },
    ],
    ['home page', raw('page', { title: 'T', slug: '' }), { type: 'page', url: '/', slug: '' }],
    [
      'brand corner',
      raw('brandCorner', { title: 'T', slug: 'dunlopillo' }),
      { type: 'brandCorner', url: '/marque/dunlopillo', slug: 'dunlopillo' },
    ],
    [
      'content page',
      raw('contentPage', { title: 'T', slug: 'aide/livraison' }),
      { type: 'contentPage', url: '/aide/livraison', slug: 'aide/livraison' },
    ],
    [
      'category page',
      raw('categoryPage', { title: 'T', categoryId: 23 }),
      { type: 'categoryPage', url: '/c/matelas/ressorts', categoryId: 23 },
    ],
    ['unknown category', raw('categoryPage', { title: 'T', categoryId: 99 }), null],
    ['category id not an integer', raw('categoryPage', { title: 'T', categoryId: '18' }), null],
    [
      'external call to action',
      raw('callToAction', { title: 'T', type: 'external', url: 'https://aide.exemple.fr/faq' }),
      {
        type: 'callToActionExternal',
        url: 'https://aide.exemple.fr/faq',
        isExternalLink: true,
        slug: null,
      },
    ],
    [
      'internal call to action',
      raw('callToAction', { title: 'T', type: 'internal', url: '/panier' }),
      { type: 'callToActionInternal', url: '/panier' },
    ],
    [
      'free call to action',
      raw('callToAction', { title: 'T', type: 'free', url: '/les-yeux-fermes?tag=podcast' }),
      { type: 'callToActionFree', url: '/les-yeux-fermes?tag=podcast' },
    ],
    [
      'javascript external',
      raw('callToAction', { title: 'T', type: 'external', url: 'javascript:alert(1)' }),
      null,
    ],
    [
      'javascript free',
      raw('callToAction', { title: 'T', type: 'free', url: 'javascript:alert(1)' }),
      null,
    ],
    [
      'external with userinfo',
      raw('callToAction', { title: 'T', type: 'external', url: 'https://shop@evil.example/' }),
      null,
    ],
    [
      'internal to another origin',
      raw('callToAction', { title: 'T', type: 'internal', url: '//evil.example/x' }),
      null,
    ],
    [
      'internal absolute URL',
      raw('callToAction', { title: 'T', type: 'internal', url: 'https://exemple.fr/panier' }),
      null,
    ],
    [
      'external relative',
      raw('callToAction', { title: 'T', type: 'external', url: '/panier' }),
      null,
    ],
    ['unknown call type', raw('callToAction', { title: 'T', type: 'popup', url: '/panier' }), null],
    ['no title', raw('page', { title: '  ', slug: 'panier' }), null],
    ['no slug', raw('page', { title: 'T' }), null],
    ['dot-segment slug', raw('contentPage', { title: 'T', slug: '../admin' }), null],
    ['unknown type', raw('productContent', { title: 'T', slug: 'x' }), null],
  ])('%s', (_name, entry, expected) => {
    const mapped = map(entry);
    if (expected === null) expect(mapped).toBeNull();
    else expect(mapped).toEqual({ ...BASE, key: entry.sys.id, slug: null, ...expected });
  });

  test('a category page carries its push', () => {
    const push = {
      nodeType: 'document',
      data: {},
      content: [
        {
          nodeType: 'paragraph',
          data: {},
          content: [{ nodeType: 'text', value: 'Promo', marks: [], data: {} }],
        },
      ],
    };
    const mapped = map(
      raw('categoryPage', {
        title: 'Matelas',
        categoryId: 18,
        titlePush: ' -20 % ',
        contentPush: push,
      }),
    );
    expect(mapped).toMatchObject({ categoryId: 18, titlePush: '-20 %', contentPush: push });
  });

  test('unresolved links and junk are dropped', () => {
    for (const entry of [
      unresolved,
      null,
      'x',
      {},
      { sys: {}, fields: {} },
      { sys: { id: 'a', type: 'Entry' }, fields: {} },
    ]) {
      expect(map(entry)).toBeNull();
    }
  });
});

describe('trees', () => {
  test('groups nest, keep order, drop bad children, dedupe and vanish when empty', () => {
    const cgv = raw('contentPage', { title: 'CGV', slug: 'cgv' }, 'cgv');
    const group = raw(
      'navigation',
      {
        title: 'Aide',
        childrens: [
          cgv,
          unresolved,
          raw('callToAction', { title: 'X', type: 'external', url: 'javascript:alert(1)' }),
          cgv,
          raw('contentPage', { title: 'Contact', slug: 'contact' }, 'contact'),
        ],
      },
      'help',
    );
    const empty = raw('navigation', { title: 'Vide', childrens: [unresolved] }, 'empty');
    const root = raw(
      'navigation',
      { identifier: 'Footer', title: 'Pied', childrens: [group, empty, 'junk'] },
      'footer',
    );
    const entries = navigationEntries(root, options);
    expect(entries).toHaveLength(1);
    const [help] = entries;
    expect(help).toMatchObject({
      key: 'help',
      type: 'group',
      label: 'Aide',
      url: null,
      isExternalLink: false,
    });
    expect(help?.childrens.map((c) => [c.key, c.url])).toEqual([
      ['cgv', '/cgv'],
      ['contact', '/contact'],
    ]);
    expect(navigationEntries(cgv, options)).toEqual([]);
    expect(navigationEntries(unresolved, options)).toEqual([]);
  });

  test('a group without title keeps its links (footer column without heading)', () => {
    const group = raw('navigation', {
      childrens: [raw('page', { title: 'Panier', slug: 'panier' })],
    });
    expect(map(group)).toMatchObject({ type: 'group', label: '', title: null });
  });

  test('cycles are cut', () => {
    const a = raw('navigation', { title: 'A', childrens: [] as unknown[] }, 'A');
    const b = raw(
      'navigation',
      { title: 'B', childrens: [a, raw('page', { title: 'P', slug: 'p' }, 'p')] },
      'B',
    );
    a.fields.childrens = [b];
    const entries = navigationEntries(
      raw('navigation', { identifier: 'Main Navigation', childrens: [a] }, 'root'),
      options,
    );
    // root → A → B → (A again: cut) + P
    expect(entries[0]?.childrens[0]?.childrens.map((c) => c.key)).toEqual(['p']);
    expect(JSON.stringify(entries)).toBeTruthy();
  });

  test('nesting is bounded', () => {
    let entry: ReturnType<typeof raw> = raw('page', { title: 'Fond', slug: 'fond' });
    for (let i = 0; i < 50; i++) entry = raw('navigation', { title: `G${i}`, childrens: [entry] });
    expect(map(entry)).toBeNull();
    let shallow: ReturnType<typeof raw> = raw('page', { title: 'Fond', slug: 'fond' });
    for (let i = 0; i < MAX_NAVIGATION_DEPTH; i++)
      shallow = raw('navigation', { title: `G${i}`, childrens: [shallow] });
    expect(map(shallow)).not.toBeNull();
  });

  test('a graph sharing its groups is bounded', () => {
    // Children lists that count how often one of their entries is looked at: the work done.
    let visits = 0;
    const counted = (children: unknown[]) =>
      new Proxy(children, {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) visits += 1;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
    // Five levels of 40 groups, each with the 40 groups below as children: 40^5 paths.
    let level: unknown[] = counted([raw('page', { title: 'P', slug: 'p' })]);
    for (let depth = 0; depth < 5; depth++) {
      const below = level;
      level = counted(
        Array.from({ length: 40 }, () => raw('navigation', { title: 'G', childrens: below })),
      );
    }
    const entries = navigationEntries(raw('navigation', { childrens: level }), options);
    // The children of the root and of at most MAX_NAVIGATION_ENTRIES groups, not every path.
    expect(visits).toBeLessThanOrEqual(40 * (MAX_NAVIGATION_ENTRIES + 1));
    expect(JSON.stringify(entries).length).toBeLessThan(2_000_000);
  });

  test('every url of any mapped call to action is a local path or an external http(s) URL', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('external', 'internal', 'free', 'x'),
        fc.oneof(fc.string(), fc.webUrl()),
        (type, url) => {
          const mapped = map(raw('callToAction', { title: 'T', type, url }));
          if (mapped === null) return;
          if (mapped.isExternalLink) {
            const parsed = new URL(mapped.url ?? '');
            expect(['http:', 'https:']).toContain(parsed.protocol);
            expect(parsed.username + parsed.password).toBe('');
          } else {
            expect(localPath(mapped.url)).toBe(mapped.url);
          }
        },
      ),
    );
  });

  test('categoryPathLookup reads a tree', () => {
    const lookup = categoryPathLookup([
      {
        id: 1,
        parentId: 0,
        name: 'M',
        url: '/matelas/',
        isVisible: true,
        children: [
          {
            id: 2,
            parentId: 1,
            name: 'R',
            url: '/matelas/ressorts/',
            isVisible: true,
            children: [],
          },
        ],
      },
    ]);
    expect(lookup(2)).toBe('/c/matelas/ressorts');
    expect(lookup(3)).toBeNull();
  });
});

describe('entry paths', () => {
  test.each([
    [pagePath(''), '/'],
    [pagePath('les-yeux-fermes'), '/les-yeux-fermes'],
    [pagePath('/panier/'), '/panier'],
    [contentPagePath('cgv'), '/cgv'],
    [contentPagePath('aide/livraison'), '/aide/livraison'],
    [contentPagePath(''), null],
    [contentPagePath('a//b'), null],
    [contentPagePath('a/./b'), null],
    [contentPagePath('a\\b'), null],
    [contentPagePath('a\nb'), null],
    [contentPagePath('été'), '/%C3%A9t%C3%A9'],
    [contentPagePath('a?b#c'), '/a%3Fb%23c'],
    [brandCornerPath('dunlopillo'), '/marque/dunlopillo'],
    [brandCornerPath('a/b'), null],
    [sleepContentEntryPath('respirer'), '/les-yeux-fermes/respirer'],
    [entryPath('contentPage', 'cgv'), '/cgv'],
    [entryPath('sleepContent', 'x'), '/les-yeux-fermes/x'],
    [entryPath('technology', 'x'), null],
    [entryPath('page', null), null],
  ])('%j → %j', (actual, expected) => {
    expect(actual).toBe(expected);
  });

  test('every path is a clean local path', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('page', 'contentPage', 'brandCorner', 'sleepContent'),
        fc.string(),
        (type, slug) => {
          const path = entryPath(type, slug);
          if (path !== null) expect(localPath(path)).toBe(path);
        },
      ),
    );
  });
});
