import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_SORT_OPTION,
  ITEMS_PER_PAGE_OPTIONS,
  SORT_OPTIONS,
  isListingView,
  itemsPerPage,
  listingQueryString,
  listingViewPath,
  pageNumber,
  parseListingParams,
  shownPath,
  sortOption,
  type ListingFilters,
} from '../../src/lib/commerce/listing.ts';
import {
  applyListing,
  facets,
  sortProducts,
  type Facets,
} from '../../src/lib/commerce/listing-products.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { colourOption, option, product, variant } from './fixtures.ts';

describe('SORT_OPTIONS (spec §3 sort option: id, label, value {sort, direction})', () => {
  test.each(SORT_OPTIONS.map((o) => [o.id, t(o.label), o.value.sort, o.value.direction] as const))(
    'option %i is %s (%s %s)',
    (id, label) => {
      expect(label).not.toBe('');
      expect(sortOption(id).id).toBe(id);
    },
  );

  test('French labels', () => {
    expect(SORT_OPTIONS.map((o) => t(o.label))).toEqual([
      'Pertinence',
      'Prix croissant',
      'Prix décroissant',
      'Nouveautés',
      'Meilleures ventes',
      'Nom A-Z',
      'Nom Z-A',
    ]);
  });
});

describe('spec §5 fallbacks', () => {
  test.each([
    ['items per page: configured option kept', itemsPerPage('40'), 40],
    ['items per page: unknown count → first configured option', itemsPerPage('25'), 20],
    ['items per page: garbage → first configured option', itemsPerPage('abc'), 20],
    ['items per page: other configured options', itemsPerPage(null, [12, 24]), 12],
    ['items per page: no option configured → 20', itemsPerPage('12', []), 20],
    ['page: number kept', pageNumber('3'), 3],
    ['page: missing → 1', pageNumber(null), 1],
    ['page: zero → 1', pageNumber('0'), 1],
    ['page: negative → 1', pageNumber('-2'), 1],
    ['page: decimal → 1', pageNumber('2.5'), 1],
    ['sort: looked up by numeric id', sortOption('3').id, 3],
    ['sort: unknown id → default', sortOption('99').id, DEFAULT_SORT_OPTION.id],
    ['sort: missing → default', sortOption(undefined).id, DEFAULT_SORT_OPTION.id],
  ])('%s', (_case, actual, expected) => {
    expect(actual).toBe(expected);
  });

  test('default items-per-page options', () => {
    expect(ITEMS_PER_PAGE_OPTIONS).toEqual([20, 40, 60]);
  });
});

describe('parseListingParams', () => {
  test.each([
    [
      'nothing',
      '',
      {
        page: 1,
        perPage: 20,
        sortId: 1,
        term: '',
        filters: {
          brands: [],
          priceMin: null,
          priceMax: null,
          sizes: [],
          colours: [],
          inStock: false,
        },
      },
    ],
    [
      'every parameter',
      'page=2&itemsperpage=40&sort=price&direction=desc&term=%20latex%20&marque=3,5&marque=3&prix-min=100&prix-max=499.90&taille=140x190&taille=160x200&couleur=Gris&disponibilite=en-stock',
      {
        page: 2,
        perPage: 40,
        sortId: 3,
        term: 'latex',
        filters: {
          brands: [3, 5],
          priceMin: 10000,
          priceMax: 49990,
          sizes: ['140x190', '160x200'],
          colours: ['Gris'],
          inStock: true,
        },
      },
    ],
    [
      'sort given as option id',
      'sort=6',
      {
        page: 1,
        perPage: 20,
        sortId: 6,
        term: '',
        filters: {
          brands: [],
          priceMin: null,
          priceMax: null,
          sizes: [],
          colours: [],
          inStock: false,
        },
      },
    ],
    [
      'sort field without direction takes its first option',
      'sort=name',
      {
        page: 1,
        perPage: 20,
        sortId: 6,
        term: '',
        filters: {
          brands: [],
          priceMin: null,
          priceMax: null,
          sizes: [],
          colours: [],
          inStock: false,
        },
      },
    ],
    [
      'empty filter lists dropped, unreadable values ignored',
      'marque=&marque=abc&taille=&couleur=,&prix-min=cher&disponibilite=tout',
      {
        page: 1,
        perPage: 20,
        sortId: 1,
        term: '',
        filters: {
          brands: [],
          priceMin: null,
          priceMax: null,
          sizes: [],
          colours: [],
          inStock: false,
        },
      },
    ],
    [
      'a price bound too large to be a price is no bound',
      `prix-min=${'9'.repeat(400)}&prix-max=1${'0'.repeat(12)}`,
      {
        page: 1,
        perPage: 20,
        sortId: 1,
        term: '',
        filters: {
          brands: [],
          priceMin: null,
          priceMax: null,
          sizes: [],
          colours: [],
          inStock: false,
        },
      },
    ],
    [
      'price bounds swapped when reversed, comma decimals',
      'prix-min=500&prix-max=99,5',
      {
        page: 1,
        perPage: 20,
        sortId: 1,
        term: '',
        filters: {
          brands: [],
          priceMin: 9950,
          priceMax: 50000,
          sizes: [],
          colours: [],
          inStock: false,
        },
      },
    ],
  ])('%s', (_case, query, expected) => {
    const { sort, ...rest } = parseListingParams(new URLSearchParams(query));
    expect({ ...rest, sortId: sort.id }).toEqual(expected);
  });
});

describe('listingQueryString (canonical, defaults and empty filters dropped)', () => {
  test.each([
    ['defaults give nothing', '', ''],
    ['page 1 and first items-per-page dropped', 'page=1&itemsperpage=20&sort=1', ''],
    [
      'fixed order, sorted repeated values, euros',
      'page=3&taille=160x200&taille=140x190&marque=5,3&prix-max=499.90&sort=3&term=latex&disponibilite=en-stock',
      '?term=latex&marque=3&marque=5&prix-max=499.9&taille=140x190&taille=160x200&disponibilite=en-stock&sort=3&page=3',
    ],
    ['empty filter dropped', 'taille=&couleur=Gris', '?couleur=Gris'],
  ])('%s', (_case, query, canonical) => {
    expect(listingQueryString(parseListingParams(query))).toBe(canonical);
  });

  test('round trip', () => {
    const query = '?marque=3&prix-min=100&couleur=Gris&sort=6&itemsperpage=60&page=2';
    expect(listingQueryString(parseListingParams(query))).toBe(query);
  });
});

describe('listing view (on-demand rendering of /c/... with listing parameters)', () => {
  test.each([
    ['category with a filter', '/c/matelas', '?taille=140x190', '/vue/c/matelas?taille=140x190'],
    ['category with a page', '/c/matelas/ressorts', '?page=2', '/vue/c/matelas/ressorts?page=2'],
    ['search without ?', '/c/matelas', 'sort=price', '/vue/c/matelas?sort=price'],
    ['category without listing parameters', '/c/matelas', '?utm_source=mail', null],
    ['category without query', '/c/matelas', '', null],
    ['not a category', '/p/1/matelas', '?page=2', null],
    ['prefix lookalike', '/cgv', '?page=2', null],
    ['trailing slash: the 301 to the canonical path comes first', '/c/matelas/', '?page=2', null],
  ])('%s', (_case, pathname, search, expected) => {
    expect(listingViewPath(pathname, search)).toBe(expected);
  });

  test('shownPath: a view shows its listing page, the only path it rewrites', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom('/c/matelas', '/les-yeux-fermes'), fc.webPath()),
        fc.constantFrom('', '?sort=2', '?tag=x&page=2'),
        (pathname, search) => {
          const view = listingViewPath(pathname, search);
          if (view !== null) expect(shownPath(view.split('?')[0] ?? '')).toBe(pathname);
          if (!pathname.startsWith('/vue/')) expect(shownPath(pathname)).toBe(pathname);
        },
      ),
    );
    expect(shownPath('/vue/c/matelas/ressorts')).toBe('/c/matelas/ressorts');
    expect(shownPath('/vue/les-yeux-fermes')).toBe('/les-yeux-fermes');
    expect(shownPath('/vuex/c/matelas')).toBe('/vuex/c/matelas');
  });

  test.each([
    ['empty', '', false],
    ['unrelated', 'utm_source=x', false],
    ['empty listing parameter counts', 'page=', true],
    ['filter', 'couleur=Gris', true],
  ])('isListingView: %s', (_case, query, expected) => {
    expect(isListingView(new URLSearchParams(query))).toBe(expected);
  });
});

const catalogue = [
  product({
    id: 1,
    name: 'Matelas Zen',
    brandId: 10,
    price: 50000,
    salePrice: 40000,
    totalSold: 5,
    dateModified: '2024-03-01T00:00:00Z',
    options: [option(1, 'Taille', ['140x190', '160x200']), colourOption(2, ['Gris'])],
  }),
  product({
    id: 2,
    name: 'Âme de coton',
    brandId: 20,
    price: 20000,
    totalSold: 50,
    dateModified: '2024-05-01T00:00:00Z',
    inventoryTracking: 'product',
    inventoryLevel: 0,
    options: [option(1, 'Taille', ['140x190'])],
  }),
  product({
    id: 3,
    name: 'couette légère',
    brandId: 10,
    price: 9900,
    totalSold: 50,
    dateModified: '2024-01-01T00:00:00Z',
    options: [colourOption(2, ['Bleu', 'Gris'])],
  }),
  product({
    id: 4,
    name: 'Oreiller sur devis',
    brandId: 20,
    price: 3000,
    isPriceHidden: true,
    totalSold: 1,
  }),
  product({
    id: 5,
    name: 'Matelas Latex',
    brandId: 30,
    price: 50000,
    inventoryTracking: 'variant',
    variants: [variant({ inventoryLevel: 0 })],
    options: [option(1, 'Dimensions', ['160x200'])],
  }),
];

function ids(query: string): number[] {
  return applyListing(catalogue, parseListingParams(query)).items.map((p) => p.id);
}

describe('applyListing: sort', () => {
  test.each([
    ['Pertinence: id ascending', '', [1, 2, 3, 4, 5]],
    [
      'Prix croissant: price shown (sale price when on sale), hidden prices last',
      'sort=2',
      [3, 2, 1, 5, 4],
    ],
    ['Prix décroissant: price shown, hidden prices still last', 'sort=3', [5, 1, 2, 3, 4]],
    ['Nouveautés: date_modified descending', 'sort=4', [2, 1, 3, 4, 5]],
    ['Meilleures ventes: total_sold descending', 'sort=5', [2, 3, 1, 4, 5]],
    ['Nom A-Z: accents and case ignored', 'sort=6', [2, 3, 5, 1, 4]],
    ['Nom Z-A', 'sort=7', [4, 1, 5, 3, 2]],
  ])('%s', (_case, query, expected) => {
    expect(ids(query)).toEqual(expected);
  });

  test('sortProducts does not mutate its input', () => {
    const input = [...catalogue].reverse();
    sortProducts(input, { sort: 'id', direction: 'asc' });
    expect(input.map((p) => p.id)).toEqual([5, 4, 3, 2, 1]);
  });
});

describe('applyListing: filters', () => {
  test.each([
    ['brand', 'marque=10', [1, 3]],
    ['several brands', 'marque=10,30', [1, 3, 5]],
    ['price min on the price paid (sale price)', 'prix-min=300', [1, 5]],
    ['price max, hidden prices left out', 'prix-max=400', [1, 2, 3]],
    ['size', 'taille=140x190', [1, 2]],
    ['size from a "Dimensions" option', 'taille=160x200', [1, 5]],
    ['colour, case ignored', 'couleur=gris', [1, 3]],
    ['in stock only', 'disponibilite=en-stock', [1, 3, 4]],
    ['term on name, accents ignored', 'term=ame', [2]],
    ['every word of the term', 'term=matelas%20latex', [5]],
    ['filters combined', 'marque=10&couleur=Gris&prix-max=200', [3]],
  ])('%s', (_case, query, expected) => {
    expect(ids(query)).toEqual(expected);
  });
});

describe('applyListing: pagination', () => {
  test.each([
    [
      'first page',
      'itemsperpage=20',
      { total: 5, count: 5, perPage: 20, currentPage: 1, totalPages: 1 },
    ],
    ['no product', 'marque=99', { total: 0, count: 0, perPage: 20, currentPage: 1, totalPages: 0 }],
    [
      'page past the last',
      'page=4',
      { total: 5, count: 0, perPage: 20, currentPage: 4, totalPages: 1 },
    ],
  ])('%s', (_case, query, pagination) => {
    expect(applyListing(catalogue, parseListingParams(query)).pagination).toEqual(pagination);
  });

  test('pages of 2', () => {
    const params = { ...parseListingParams(''), perPage: 2, page: 3 };
    const result = applyListing(catalogue, params);
    expect(result.items.map((p) => p.id)).toEqual([5]);
    expect(result.pagination).toEqual({
      total: 5,
      count: 1,
      perPage: 2,
      currentPage: 3,
      totalPages: 3,
    });
  });
});

describe('facets', () => {
  test('over the whole list', () => {
    expect(
      facets(catalogue, undefined, [
        { id: 10, name: 'Zéphyr' },
        { id: 20, name: 'Alizé' },
      ]),
    ).toEqual({
      brands: [
        { id: 30, name: '', count: 1 },
        { id: 20, name: 'Alizé', count: 2 },
        { id: 10, name: 'Zéphyr', count: 2 },
      ],
      sizes: [
        { label: '140x190', count: 2 },
        { label: '160x200', count: 2 },
      ],
      colours: [
        { label: 'Gris', colors: ['#000000'], count: 2 },
        { label: 'Bleu', colors: ['#000000'], count: 1 },
      ],
      price: { min: 9900, max: 50000 },
      inStock: 3,
    });
  });

  test.each([
    [
      'a chosen brand keeps the other brands counted',
      'marque=10',
      'brands',
      [
        { id: 10, name: '', count: 2 },
        { id: 20, name: '', count: 2 },
        { id: 30, name: '', count: 1 },
      ],
    ],
    [
      'a chosen brand narrows the sizes',
      'marque=10',
      'sizes',
      [
        { label: '140x190', count: 1 },
        { label: '160x200', count: 1 },
      ],
    ],
    ['a price filter narrows availability', 'prix-max=150', 'inStock', 1],
    [
      'a price filter does not narrow the price range',
      'prix-max=150',
      'price',
      { min: 9900, max: 50000 },
    ],
  ] as const)('%s', (_case, query, facet, expected) => {
    expect(applyListing(catalogue, parseListingParams(query)).facets[facet]).toEqual(expected);
  });
});

describe('applyListing keeps what a list without term or filter computes', () => {
  test('any sort and page of the same list equals the listing of a fresh copy of it', () => {
    const list = fc.array(
      fc.record({
        id: fc.integer({ min: 1, max: 10_000 }),
        name: fc.string({ maxLength: 12 }),
        price: fc.integer({ min: 0, max: 200_000 }),
        brandId: fc.integer({ min: 0, max: 5 }),
        totalSold: fc.integer({ min: 0, max: 50 }),
        isPriceHidden: fc.boolean(),
      }),
      { maxLength: 60 },
    );
    const query = fc.record({
      sort: fc.integer({ min: 1, max: 7 }),
      page: fc.integer({ min: 1, max: 5 }),
      perPage: fc.constantFrom(20, 40, 60),
    });
    fc.assert(
      fc.property(list, fc.array(query, { minLength: 1, maxLength: 6 }), (rows, queries) => {
        const products = rows.map((row) => product(row));
        for (const q of queries) {
          const params = parseListingParams(
            `sort=${String(q.sort)}&page=${String(q.page)}&itemsperpage=${String(q.perPage)}`,
          );
          const kept = applyListing(products, params);
          expect(kept).toEqual(applyListing([...products], params));
          // What the caller gets is its own page: changing it changes no later listing.
          kept.items.reverse();
          expect(applyListing(products, params).items).toEqual(
            applyListing([...products], params).items,
          );
        }
      }),
    );
  });
});

describe('facets over generated lists and filters', () => {
  const SIZES = ['140x190', '160x200', '90x190'];
  const COLOURS = ['Gris', 'Bleu', 'blanc'];
  const products = fc.uniqueArray(
    fc.record({
      id: fc.integer({ min: 1, max: 10_000 }),
      brandId: fc.integer({ min: 0, max: 4 }),
      price: fc.integer({ min: 0, max: 100_000 }),
      salePrice: fc.option(fc.integer({ min: 0, max: 100_000 })),
      isPriceHidden: fc.boolean(),
      stock: fc.option(fc.integer({ min: 0, max: 3 })),
      sizes: fc.subarray(SIZES),
      colours: fc.subarray(COLOURS),
    }),
    { selector: (row) => row.id, maxLength: 30 },
  );
  const filters = fc.record({
    brands: fc.subarray([1, 2, 3, 9]),
    priceMin: fc.option(fc.integer({ min: 0, max: 100_000 })),
    priceMax: fc.option(fc.integer({ min: 0, max: 100_000 })),
    sizes: fc.subarray([...SIZES, '140X190', 'rond']),
    colours: fc.subarray([...COLOURS, 'BLANC', 'Rose']),
    inStock: fc.boolean(),
  });
  const BRANDS = [
    { id: 1, name: 'Dormelune' },
    { id: 2, name: 'Alizé' },
  ];
  /** Each facet, and the filters without its own. */
  const OTHER_FILTERS: Record<keyof Facets, Partial<ListingFilters>> = {
    brands: { brands: [] },
    sizes: { sizes: [] },
    colours: { colours: [] },
    price: { priceMin: null, priceMax: null },
    inStock: { inStock: false },
  };

  test("each facet counts the products that pass every other filter, as listing them without that filter's own does", () => {
    fc.assert(
      fc.property(products, filters, (rows, chosen) => {
        const list = rows.map((row) =>
          product({
            id: row.id,
            brandId: row.brandId,
            price: row.price,
            ...(row.salePrice === null ? {} : { salePrice: row.salePrice }),
            isPriceHidden: row.isPriceHidden,
            ...(row.stock === null
              ? {}
              : { inventoryTracking: 'product' as const, inventoryLevel: row.stock }),
            options: [
              ...(row.sizes.length > 0 ? [option(1, 'Taille', row.sizes)] : []),
              ...(row.colours.length > 0 ? [colourOption(2, row.colours)] : []),
            ],
          }),
        );
        const counted = facets(list, chosen, BRANDS);
        for (const [facet, cleared] of Object.entries(OTHER_FILTERS) as [
          keyof Facets,
          Partial<ListingFilters>,
        ][]) {
          const params = { ...parseListingParams('itemsperpage=60'), perPage: 10_000 };
          const listed = applyListing(list, { ...params, filters: { ...chosen, ...cleared } });
          const expected = facets(listed.items, undefined, BRANDS);
          // Values in first-seen order, a colour's swatch from its first product: the
          // listing's order is another one. Compared: which values, how many each.
          const unordered = (value: unknown) =>
            Array.isArray(value)
              ? value
                  .map((entry: { id?: number; label?: string; count: number }) =>
                    JSON.stringify([entry.id ?? entry.label, entry.count]),
                  )
                  .sort()
              : value;
          expect(unordered(counted[facet])).toEqual(unordered(expected[facet]));
        }
      }),
      { numRuns: 300 },
    );
  });
});
