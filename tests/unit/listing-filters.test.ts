/**
 * Filters that stay open: the pure parts of the listing's filters in place
 * (listing-filters.ts). The URL a change of the form loads is the one the form loads without
 * JavaScript and reads back as the same view (property over generated views); a reply is
 * swapped in only when it is that listing; a failure says "hors ligne" when there was no reply;
 * the panel's button counts with the plural rules; and the loader asks once for quick ticks,
 * aborts the stale request and shows only the latest, whatever order replies come back in.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  DEFAULT_SORT_OPTION,
  IN_STOCK_VALUE,
  ITEMS_PER_PAGE_OPTIONS,
  itemsPerPage,
  LISTING_PARAMS,
  parseListingParams,
  SORT_OPTIONS,
  type ListingParams,
} from '../../src/lib/commerce/listing.ts';
import {
  isListingReply,
  listingFailureKey,
  listingFormQuery,
  listingFormUrl,
} from '../../src/lib/commerce/listing-form.ts';
import { latestLoader } from '../../src/browser/catalogue/latest-loader.ts';
import {
  filtersHtml,
  showProductsLabel,
} from '../../src/shop/view-models/catalogue/filters-markup.ts';
import { euroInput } from '../../src/shop/view-models/catalogue/listing-view.ts';
import { t } from '../../src/lib/i18n/index.ts';

const p = LISTING_PARAMS;
const SIZES = ['90x190', '140x190', '160x200', '180x200', 'Enfant'];
const COLOURS = ['Gris', 'Blanc cassé', 'Bleu nuit', 'Écru'];
const DEFAULTS = {
  [p.sort]: String(DEFAULT_SORT_OPTION.id),
  [p.itemsPerPage]: String(itemsPerPage(null)),
};

/** A view of a listing, as its form can state it (page 1, no term). */
const view = fc
  .record({
    brands: fc.uniqueArray(fc.integer({ min: 1, max: 9999 }), { maxLength: 4 }),
    prices: fc.array(fc.option(fc.integer({ min: 0, max: 500_000 }), { nil: null }), {
      minLength: 2,
      maxLength: 2,
    }),
    sizes: fc.uniqueArray(fc.constantFrom(...SIZES), { maxLength: 3 }),
    colours: fc.uniqueArray(fc.constantFrom(...COLOURS), { maxLength: 3 }),
    inStock: fc.boolean(),
    sort: fc.constantFrom(...SORT_OPTIONS),
    perPage: fc.constantFrom(...ITEMS_PER_PAGE_OPTIONS),
  })
  .map(({ prices, ...rest }): ListingParams => {
    const [low = null, high = null] = prices;
    const swap = low !== null && high !== null && low > high;
    return {
      page: 1,
      term: '',
      perPage: rest.perPage,
      sort: rest.sort,
      filters: {
        brands: rest.brands,
        priceMin: swap ? high : low,
        priceMax: swap ? low : high,
        sizes: rest.sizes,
        colours: rest.colours,
        inStock: rest.inStock,
      },
    };
  });

/** What `FormData` of the listing's form holds for `params`, in the panel's order. */
function formEntries(params: ListingParams, pad: (value: string) => string): [string, string][] {
  const f = params.filters;
  return [
    ...f.brands.map((id): [string, string] => [p.brand, pad(String(id))]),
    [p.priceMin, pad(euroInput(f.priceMin))],
    [p.priceMax, pad(euroInput(f.priceMax))],
    ...f.sizes.map((size): [string, string] => [p.size, pad(size)]),
    ...f.colours.map((colour): [string, string] => [p.colour, pad(colour)]),
    ...(f.inStock ? [[p.availability, IN_STOCK_VALUE] as [string, string]] : []),
    [p.sort, String(params.sort.id)],
    [p.itemsPerPage, String(params.perPage)],
  ];
}

const blanks = fc.constantFrom('', ' ', '  ', '\t');

describe('listingFormQuery: the URL of a change is the view the form states', () => {
  test('read back, it is the same view (page 1), with no empty field and no default', () => {
    fc.assert(
      fc.property(view, blanks, blanks, (params, before, after) => {
        const query = listingFormQuery(
          formEntries(params, (value) => `${before}${value}${after}`),
          DEFAULTS,
        );
        const read = parseListingParams(query);
        expect(read.filters.brands.toSorted((a, b) => a - b)).toEqual(
          params.filters.brands.toSorted((a, b) => a - b),
        );
        expect({ ...read, filters: { ...read.filters, brands: [] } }).toEqual({
          ...params,
          filters: { ...params.filters, brands: [] },
        });
        const search = new URLSearchParams(query);
        for (const [name, value] of search) {
          expect(value, name).toBe(value.trim());
          expect(value, name).not.toBe('');
        }
        expect(search.has(p.sort)).toBe(params.sort.id !== DEFAULT_SORT_OPTION.id);
        expect(search.has(p.itemsPerPage)).toBe(params.perPage !== itemsPerPage(null));
      }),
    );
  });

  test('the untouched form loads the listing itself; files and non-strings are ignored', () => {
    expect(
      listingFormQuery(
        [
          [p.priceMin, ''],
          [p.sort, '1'],
          [p.itemsPerPage, '20'],
          ['upload', new Blob(['x'])],
        ],
        DEFAULTS,
      ),
    ).toBe('');
    // A default chosen twice (a hand-edited form) is no default: kept as it is.
    expect(
      listingFormQuery(
        [
          [p.sort, '1'],
          [p.sort, '1'],
        ],
        DEFAULTS,
      ),
    ).toBe('sort=1&sort=1');
  });

  test('listingFormUrl puts the query on the action, without a fragment', () => {
    expect(listingFormUrl('https://shop.test/c/matelas', 'marque=3')).toBe(
      'https://shop.test/c/matelas?marque=3',
    );
    expect(listingFormUrl('https://shop.test/c/matelas?sort=2#x', '')).toBe(
      'https://shop.test/c/matelas',
    );
  });
});

describe('isListingReply: only the listing itself is swapped in', () => {
  test('same origin and path, whatever the query', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true }), fc.webPath(), (url, other) => {
        const action = new URL(url);
        const reply = new URL(action);
        reply.search = '?marque=2';
        expect(isListingReply(reply.href, action.href)).toBe(true);
        const elsewhere = new URL(action);
        elsewhere.pathname = other === '' ? '/x' : other;
        expect(isListingReply(elsewhere.href, action.href)).toBe(
          elsewhere.pathname === action.pathname,
        );
      }),
    );
  });

  test('another origin, or no URL, is not the listing', () => {
    expect(isListingReply('https://evil.test/c/matelas', 'https://shop.test/c/matelas')).toBe(
      false,
    );
    expect(isListingReply('not a url', 'https://shop.test/c/matelas')).toBe(false);
  });
});

test('a failure says the shopper is offline when no reply came or the browser is offline', () => {
  expect(listingFailureKey(null, true)).toBe('offline.action');
  expect(listingFailureKey(503, false)).toBe('offline.action');
  expect(listingFailureKey(503, true)).toBe('filter.updateError');
  expect(t('offline.action')).toBe(
    'Vous êtes hors ligne. Vérifiez votre connexion puis réessayez.',
  );
  expect(t('filter.updateError')).not.toBe('filter.updateError');
});

describe('"Afficher N produits"', () => {
  test('plural rules, and no product says so', () => {
    expect(showProductsLabel(0)).toBe('Aucun produit');
    expect(showProductsLabel(1)).toBe('Afficher 1 produit');
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 100_000 }), (count) => {
        expect(showProductsLabel(count)).toBe(`Afficher ${String(count)} produits`);
      }),
    );
  });

  test('the filter panel carries it, disabled for no product, and the error slot', () => {
    const facets = { brands: [], sizes: [], colours: [], price: null, inStock: 0 };
    const filters = parseListingParams('').filters;
    const panel = (total: number) => filtersHtml({ facets, filters, form: 'f', total });
    expect(panel(12)).toContain(
      '<button type="button" class="btn btn-primary on-dark btn-md w-full filters-show" data-filters-show>Afficher 12 produits</button>',
    );
    expect(panel(0)).toContain('data-filters-show disabled>Aucun produit</button>');
    expect(panel(3)).toContain('<p role="alert" class="filters-error" data-listing-error></p>');
    expect(panel(3)).toContain('data-filter-list');
  });
});

describe('latestLoader: one request for quick ticks, the latest shown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  interface Pending {
    key: string;
    signal: AbortSignal;
    resolve: (value: string) => void;
    reject: (error: unknown) => void;
  }

  function setup(delayMs = 300) {
    const loads: Pending[] = [];
    const applied: string[] = [];
    const failed: string[] = [];
    const loader = latestLoader<string, string>({
      delayMs,
      load: (key, signal) =>
        new Promise<string>((resolve, reject) => {
          loads.push({ key, signal, resolve, reject });
        }),
      apply: (result, key) => {
        applied.push(`${key}=${result}`);
      },
      fail: (_error, key) => {
        failed.push(key);
      },
    });
    return { loader, loads, applied, failed };
  }

  test('ticks within the delay make one load, of the last state', async () => {
    const { loader, loads, applied } = setup();
    loader.request('a');
    await vi.advanceTimersByTimeAsync(100);
    loader.request('ab');
    await vi.advanceTimersByTimeAsync(100);
    loader.request('abc');
    await vi.advanceTimersByTimeAsync(299);
    expect(loads).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(loads.map((load) => load.key)).toEqual(['abc']);
    loads[0]?.resolve('page');
    await vi.advanceTimersByTimeAsync(0);
    expect(applied).toEqual(['abc=page']);
    expect(loader.busy()).toBe(false);
  });

  test('a new tick aborts the request under way; its late reply is never shown', async () => {
    const { loader, loads, applied, failed } = setup();
    loader.request('a', 0);
    loader.request('ab', 0);
    expect(loads.map((load) => load.signal.aborted)).toEqual([true, false]);
    loads[1]?.resolve('two');
    loads[0]?.resolve('one');
    loads[0]?.reject(new Error('aborted'));
    await vi.advanceTimersByTimeAsync(0);
    expect(applied).toEqual(['ab=two']);
    expect(failed).toEqual([]);
  });

  test('the latest failure is said; a superseded one is not', async () => {
    const { loader, loads, failed, applied } = setup();
    loader.request('a', 0);
    loader.request('b', 0);
    loads[0]?.reject(new TypeError('network'));
    loads[1]?.reject(new TypeError('network'));
    await vi.advanceTimersByTimeAsync(0);
    expect(failed).toEqual(['b']);
    expect(applied).toEqual([]);
  });

  test('settle starts a waiting request at once and says whether it was shown', async () => {
    const { loader, loads } = setup();
    loader.request('a');
    const settled = loader.settle();
    expect(loads.map((load) => load.key)).toEqual(['a']);
    loads[0]?.resolve('page');
    await expect(settled).resolves.toBe(true);
    loader.request('b', 0);
    const again = loader.settle();
    loads[1]?.reject(new TypeError('offline'));
    await expect(again).resolves.toBe(false);
  });

  test('property: whatever the ticks, delays and reply order, only the latest is shown, once', async () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('tick' as const), delay: fc.constantFrom(0, 300) }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 400 }) }),
      fc.record({ kind: fc.constant('reply' as const), pick: fc.nat(), ok: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
        let latest: string | null = null;
        const loads: Pending[] = [];
        /** Each outcome, and whether its request was the latest asked when it came. */
        const outcomes: { key: string; latest: boolean }[] = [];
        const loader = latestLoader<string, string>({
          delayMs: 300,
          load: (key, signal) =>
            new Promise<string>((resolve, reject) => {
              loads.push({ key, signal, resolve, reject });
            }),
          apply: (_result, key) => outcomes.push({ key, latest: key === latest }),
          fail: (_error, key) => outcomes.push({ key, latest: key === latest }),
        });
        const replied = new Set<Pending>();
        for (const [index, s] of steps.entries()) {
          if (s.kind === 'tick') {
            latest = `k${String(index)}`;
            loader.request(latest, s.delay);
          } else if (s.kind === 'wait') {
            await vi.advanceTimersByTimeAsync(s.ms);
          } else {
            const waiting = loads.filter((load) => !replied.has(load));
            const load = waiting[s.pick % Math.max(waiting.length, 1)];
            if (load !== undefined) {
              replied.add(load);
              if (s.ok) load.resolve('page');
              else load.reject(new TypeError('network'));
              await vi.advanceTimersByTimeAsync(0);
            }
          }
        }
        // Then every timer runs and every reply comes back, the newest first.
        await vi.advanceTimersByTimeAsync(1000);
        for (const load of loads.filter((l) => !replied.has(l)).reverse()) load.resolve('page');
        await vi.advanceTimersByTimeAsync(0);
        // Everything shown or said was the latest request when it came back, once each.
        expect(outcomes.every((outcome) => outcome.latest)).toBe(true);
        const keys = outcomes.map((outcome) => outcome.key);
        expect(new Set(keys).size).toBe(keys.length);
        // The last tick is always settled (shown, or said to have failed), and last.
        if (latest !== null) expect(keys.at(-1)).toBe(latest);
        // An aborted request is never shown.
        for (const load of loads) {
          if (load.signal.aborted) expect(keys).not.toContain(load.key);
        }
        expect(loader.busy()).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
