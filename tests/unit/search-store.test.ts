import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import fc from 'fast-check';
import { product as fixtureProduct } from './fixtures.ts';
import { ApiReplyError, record, stubShopApi } from './helpers/shop-api.ts';
import type { Product } from '../../src/lib/commerce/types.ts';
import type { CategoryNode } from '../../src/lib/commerce/types.ts';

type SearchStore = typeof import('../../src/lib/stores/search.ts');
let store: SearchStore;

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  store = await import('../../src/lib/stores/search.ts');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const product = (id: number, name: string, categories: number[] = []): Product =>
  fixtureProduct({
    id,
    name,
    categories,
    images: [
      {
        id: 1,
        urlStandard: 'https://cdn.example/std.jpg',
        urlZoom: '',
        urlThumbnail: 'https://cdn.example/thumb.jpg',
        isThumbnail: true,
        sortOrder: 0,
        description: '',
      },
    ],
  });

const reply = (products: Product[], categories: { label: string; slug: string }[] = []) => ({
  products,
  pagination: {
    total: products.length,
    count: products.length,
    perPage: 6,
    currentPage: 1,
    totalPages: 1,
  },
  categories,
});

describe('debounce (spec §9: 1000 ms after the last keystroke)', () => {
  test('typing m, ma, mat within the delay sends one search, for the trimmed last term', async () => {
    const calls = stubShopApi({ getProductsWithFilter: () => reply([product(1, 'Matelas Aube')]) });
    const states = record(store.$search);
    store.setSearchInput('m');
    await vi.advanceTimersByTimeAsync(400);
    store.setSearchInput('ma');
    await vi.advanceTimersByTimeAsync(400);
    store.setSearchInput(' mat ');
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await vi.runAllTimersAsync();
    expect(calls).toEqual([
      { method: 'getProductsWithFilter', args: [{ searchTerm: 'mat', limit: 6 }] },
    ]);
    expect(states.map((s) => [s.term, s.status])).toEqual([
      ['m', 'loading'],
      ['ma', 'loading'],
      ['mat', 'loading'],
      ['mat', 'done'],
    ]);
    expect(store.$search.get().products).toEqual([
      {
        id: 1,
        name: 'Matelas Aube',
        href: '/p/1/matelas-aube',
        image: 'https://cdn.example/thumb.jpg',
        price: { regular: 49_900, special: null },
        from: false,
      },
    ]);
  });

  test('a typo the server corrected: the suggestions say for which term', async () => {
    stubShopApi({
      getProductsWithFilter: () => ({
        ...reply([product(1, 'Matelas Aube')]),
        correctedTerm: 'matelas',
      }),
    });
    store.setSearchInput('matelat');
    await vi.runAllTimersAsync();
    expect(store.$search.get()).toMatchObject({
      term: 'matelat',
      status: 'done',
      correctedTerm: 'matelas',
    });
    expect(store.$search.get().products.map((p) => p.name)).toEqual(['Matelas Aube']);
    // A reply without the field (an older server): the typed term's own suggestions.
    stubShopApi({ getProductsWithFilter: () => reply([product(2, 'Couette Nuage')]) });
    store.setSearchInput('couette');
    await vi.runAllTimersAsync();
    expect(store.$search.get()).toMatchObject({ term: 'couette', correctedTerm: null });
  });

  test('the same term again (spaces aside) sends nothing more; empty resets at once', async () => {
    const calls = stubShopApi({ getProductsWithFilter: () => reply([]) });
    store.setSearchInput('couette');
    await vi.runAllTimersAsync();
    store.setSearchInput('couette  ');
    await vi.runAllTimersAsync();
    expect(calls).toHaveLength(1);
    expect(store.$search.get()).toMatchObject({ term: 'couette', status: 'done', products: [] });
    store.setSearchInput('   ');
    expect(store.$search.get()).toEqual(store.IDLE_SEARCH);
  });
});

describe('stale replies are ignored', () => {
  test('a slow reply for an older term never replaces the newer one', async () => {
    const pending = new Map<string, (value: unknown) => void>();
    stubShopApi({
      getProductsWithFilter: (query: { searchTerm: string }) =>
        new Promise((resolve) => pending.set(query.searchTerm, resolve)),
    });
    store.setSearchInput('oreiller');
    await vi.advanceTimersByTimeAsync(1000);
    store.setSearchInput('oreillers');
    await vi.advanceTimersByTimeAsync(1000);
    pending.get('oreillers')?.(reply([product(2, 'Oreiller Nuage')]));
    await vi.runAllTimersAsync();
    pending.get('oreiller')?.(reply([product(3, 'Ancien résultat')]));
    await vi.runAllTimersAsync();
    expect(store.$search.get().term).toBe('oreillers');
    expect(store.$search.get().products.map((p) => p.name)).toEqual(['Oreiller Nuage']);
  });

  test('a reply arriving after the input was cleared is ignored', async () => {
    let release: (value: unknown) => void = () => undefined;
    stubShopApi({
      getProductsWithFilter: () =>
        new Promise((resolve) => {
          release = resolve;
        }),
    });
    store.setSearchInput('drap');
    await vi.advanceTimersByTimeAsync(1000);
    store.clearSearch();
    release(reply([product(4, 'Drap housse')]));
    await vi.runAllTimersAsync();
    expect(store.$search.get()).toEqual(store.IDLE_SEARCH);
  });

  test('a failure fills the search error slot; typing again clears it', async () => {
    let fail = true;
    stubShopApi({
      getProductsWithFilter: () => {
        if (fail) throw new ApiReplyError('error.upstreamTimeout', 504);
        return reply([product(5, 'Surmatelas')]);
      },
    });
    store.setSearchInput('surmatelas');
    await vi.runAllTimersAsync();
    expect(store.$search.get().status).toBe('error');
    expect(store.$searchErrors.get().search).toBe('error.upstreamTimeout');
    fail = false;
    store.setSearchInput('surmatelas');
    await vi.runAllTimersAsync();
    expect(store.$search.get().status).toBe('done');
    expect(store.$searchErrors.get().search).toBeNull();
  });
});

describe('search rules (spec §3, §5)', () => {
  test('Enter opens the results page only for a non-empty trimmed term', async () => {
    const { searchResultsPath } = await import('../../src/lib/commerce/search.ts');
    expect(searchResultsPath('  matelas ferme ')).toBe('/resultats-de-recherche/matelas%20ferme');
    expect(searchResultsPath('   ')).toBeNull();
    expect(searchResultsPath('')).toBeNull();
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (raw) => {
        const path = searchResultsPath(raw);
        if (raw.trim() === '') return path === null;
        // One path segment of the shop, whatever was typed (slashes, dots, `?`, `#`...).
        return (
          path !== null &&
          path.startsWith('/resultats-de-recherche/') &&
          !path.slice('/resultats-de-recherche/'.length).includes('/') &&
          !/[?#\s]/.test(path)
        );
      }),
    );
  });

  test('categories derived from the products: shown ones only, most found first, once each', async () => {
    const { searchCategories } = await import('../../src/lib/commerce/search.ts');
    const node = (id: number, name: string, url: string, children: CategoryNode[] = []) => ({
      id,
      parentId: 0,
      name,
      url,
      isVisible: true,
      children,
    });
    const tree = [
      node(1, 'Matelas', '/matelas/', [node(2, 'Matelas mousse', '/matelas/mousse/')]),
      node(3, 'Oreillers', '/oreillers/'),
    ];
    const products = [product(1, 'A', [1, 2, 99]), product(2, 'B', [2, 2]), product(3, 'C', [3])];
    expect(searchCategories(products, tree)).toEqual([
      { label: 'Matelas mousse', slug: '/c/matelas/mousse' },
      { label: 'Matelas', slug: '/c/matelas' },
      { label: 'Oreillers', slug: '/c/oreillers' },
    ]);
    expect(searchCategories(products, tree, 1)).toHaveLength(1);
    expect(searchCategories([], tree)).toEqual([]);
  });
});
