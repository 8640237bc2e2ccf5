import { describe, expect, test } from 'vitest';
import { listingHead } from '../../src/shop/view-models/catalogue/listing-view.ts';
import { parseListingParams } from '../../src/lib/commerce/listing.ts';
import {
  isPlainListing,
  listingIndexing,
  listingPagePaths,
} from '../../src/lib/commerce/listing-seo.ts';

const PATH = '/c/matelas';

describe('listingIndexing (spec §2 listing parameters: which views search engines index)', () => {
  test.each([
    // query, total pages, canonical, noindex, status
    ['page 1, no query', '', 5, '/c/matelas', false, 200],
    ['?page=1: page 1, canonical without page', 'page=1', 5, '/c/matelas', false, 200],
    ['?page=2: its own canonical, indexed', 'page=2', 5, '/c/matelas?page=2', false, 200],
    ['?page=02: the canonical spelling', 'page=02', 5, '/c/matelas?page=2', false, 200],
    ['the last page', 'page=5', 5, '/c/matelas?page=5', false, 200],
    [
      'defaults spelt out are no refinement',
      'page=3&sort=1&itemsperpage=20',
      5,
      '/c/matelas?page=3',
      false,
      200,
    ],
    ['an unreadable page is page 1', 'page=abc', 5, '/c/matelas', false, 200],
    ['sorted: noindex, canonical to the category', 'sort=2', 5, '/c/matelas', true, 200],
    [
      'sorted page 2: noindex, canonical to the category',
      'sort=2&page=2',
      5,
      '/c/matelas',
      true,
      200,
    ],
    ['other page size', 'itemsperpage=40', 5, '/c/matelas', true, 200],
    ['a term', 'term=latex', 5, '/c/matelas', true, 200],
    ['a brand filter', 'marque=3&page=2', 5, '/c/matelas', true, 200],
    ['a price filter', 'prix-min=100', 5, '/c/matelas', true, 200],
    ['a size filter', 'taille=140x190', 5, '/c/matelas', true, 200],
    ['a colour filter', 'couleur=Gris', 5, '/c/matelas', true, 200],
    ['in stock only', 'disponibilite=en-stock', 5, '/c/matelas', true, 200],
    ['past the last page: 404, no canonical', 'page=6', 5, null, true, 404],
    ['past the last page of a refined view: 404', 'sort=2&page=9', 5, null, true, 404],
    ['an empty listing has its page 1', '', 0, '/c/matelas', false, 200],
    ['an empty listing has no page 2', 'page=2', 0, null, true, 404],
  ] as const)('%s', (_case, query, totalPages, canonical, noindex, status) => {
    expect(listingIndexing(PATH, parseListingParams(query), totalPages)).toEqual({
      canonical,
      noindex,
      status,
    });
  });

  test('a plain listing only pages', () => {
    expect(isPlainListing(parseListingParams('page=7'))).toBe(true);
    expect(isPlainListing(parseListingParams('page=7&sort=3'))).toBe(false);
  });
});

describe('listingPagePaths (the sitemap of pages 2 to N)', () => {
  test.each([
    [0, []],
    [1, []],
    [3, ['/c/matelas?page=2', '/c/matelas?page=3']],
  ] as const)('%i pages', (totalPages, paths) => {
    expect(listingPagePaths(PATH, totalPages)).toEqual(paths);
  });
});

describe('listingHead: each indexed page says its number (French)', () => {
  const source = {
    category: {
      id: 5,
      name: 'Matelas',
      description: '<p>Nos matelas</p>',
      pageTitle: '',
      metaDescription: 'Des matelas pour bien dormir.',
      path: PATH,
    },
    trail: [{ id: 5, name: 'Matelas', path: PATH }],
    children: [],
    products: [],
    brands: [],
  };
  test.each([
    ['page 1', '', 'Matelas', 'Des matelas pour bien dormir.'],
    ['page 2', 'page=2', 'Matelas – Page 2', 'Page 2 – Des matelas pour bien dormir.'],
    [
      'page 12 sorted',
      'page=12&sort=3',
      'Matelas – Page 12',
      'Page 12 – Des matelas pour bien dormir.',
    ],
  ])('%s', (_case, query, title, description) => {
    const head = listingHead(source, parseListingParams(query), 'https://literie.example');
    expect({ title: head.title, description: head.description }).toEqual({ title, description });
  });
});
