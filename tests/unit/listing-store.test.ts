/**
 * The release's listings (listing-store.ts): what the on-demand listing view reads must be what
 * the pre-rendered page 1 renders from (`staticListingSource` over the build's catalogue), after
 * the build wrote it and after any run of publishes brought it up to date; a path that is no
 * shown category has no listing. Property-based over generated catalogues and edits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import type { Product } from '../../src/lib/commerce/types.ts';
import type { Catalogue } from '../../src/shop/loaders/catalogue-index.ts';
import { staticListingSource } from '../../src/shop/loaders/listing-source.ts';
import { DatabaseSync } from 'node:sqlite';
import {
  addPictures,
  openListingStore,
  releasePicture,
  updateListingStore,
  useListingStore,
  writeListingStore,
} from '../../src/shop/loaders/listing-store.ts';
import { builtPictures } from '../../src/server/render-threads/listing-store.ts';
import { transformKey } from '../../src/server/pictures/picture-key.ts';
import { product } from './fixtures.ts';
import {
  catalogueBrand,
  catalogueCategories,
  makeCatalogue,
  type CategorySpec,
} from './helpers/catalogue.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'listing-store-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
let files = 0;
const nextFile = () => path.join(dir, `listings-${String((files += 1))}.sqlite`);

const CATEGORY_IDS = [1, 2, 3, 4, 5, 6];
/** Paths asked that are no shown category (hidden, unknown, the root). */
const OTHER_PATHS = ['/c/archives', '/c/inconnue', '/c/', '/c/matelas/inconnue'];

function tree(names: Record<number, string>, hidden: ReadonlySet<number>): CategorySpec[] {
  const node = (id: number, url: string, children: CategorySpec[] = []): CategorySpec => ({
    id,
    name: names[id] ?? `Catégorie ${String(id)}`,
    url,
    children,
    isVisible: !hidden.has(id),
    description: `<p>${names[id] ?? ''}</p>`,
  });
  return [
    node(1, '/matelas/', [node(2, '/matelas/ressorts/'), node(3, '/matelas/mousse/')]),
    node(4, '/sommiers/', [node(6, '/sommiers/lattes/')]),
    node(5, '/archives/'),
  ];
}

interface Shop {
  products: Product[];
  names: Record<number, string>;
  hidden: Set<number>;
  brands: [number, string][];
}

function catalogueOf(shop: Shop): Catalogue {
  return makeCatalogue(
    shop.products,
    catalogueCategories(tree(shop.names, shop.hidden)),
    shop.brands.map(([id, name]) => catalogueBrand(id, name)),
  );
}

const productSpec = fc.record({
  name: fc.constantFrom('Matelas Elysée', 'Sommier', 'Oreiller'),
  categories: fc.uniqueArray(fc.constantFrom(...CATEGORY_IDS, 99), { maxLength: 3 }),
  price: fc.constantFrom(19900, 49900),
  brandId: fc.constantFrom(0, 10, 11),
});

const shopSpec = fc.record({
  products: fc.uniqueArray(fc.tuple(fc.integer({ min: 1, max: 40 }), productSpec), {
    maxLength: 30,
    selector: ([id]) => id,
  }),
  brands: fc.uniqueArray(
    fc.tuple(fc.constantFrom(10, 11, 12), fc.constantFrom('Epeda', 'Bultex')),
    {
      selector: ([id]) => id,
    },
  ),
});

/** A publish: the shop after it. Unchanged products stay the same objects, as in a patched read. */
type Edit = (shop: Shop) => Shop;

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 40 }), productSpec).map(([id, spec]) => (shop: Shop) => ({
    ...shop,
    products: [...shop.products.filter((p) => p.id !== id), product({ id, ...spec })],
  })),
  fc.integer({ min: 1, max: 40 }).map((id) => (shop: Shop) => ({
    ...shop,
    products: shop.products.filter((p) => p.id !== id),
  })),
  fc
    .tuple(fc.constantFrom(...CATEGORY_IDS), fc.constantFrom('Autre', 'Matelas'))
    .map(([id, name]) => (shop: Shop) => ({ ...shop, names: { ...shop.names, [id]: name } })),
  fc.constantFrom(...CATEGORY_IDS).map((id) => (shop: Shop) => {
    const hidden = new Set(shop.hidden);
    if (!hidden.delete(id)) hidden.add(id);
    return { ...shop, hidden };
  }),
  fc
    .tuple(fc.constantFrom(10, 11, 12), fc.constantFrom('Simmons', 'Épéda'))
    .map(([id, name]) => (shop: Shop) => ({
      ...shop,
      brands: [...shop.brands.filter(([b]) => b !== id), [id, name] as [number, string]],
    })),
);

/** What the store must answer: page 1's listing source, as stored (JSON). */
function expected(cat: Catalogue, at: string): unknown {
  const category = cat.categories.find((c) => c.shown && c.path === at);
  return category
    ? (JSON.parse(JSON.stringify(staticListingSource(cat, category))) as unknown)
    : null;
}

function pathsOf(cat: Catalogue): string[] {
  return [...cat.categories.map((c) => c.path), ...OTHER_PATHS];
}

describe('the release listings', () => {
  test('after the build and after any run of publishes, each listing is page 1 source, byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(shopSpec, fc.array(edit, { maxLength: 6 }), async (spec, edits) => {
        let shop: Shop = {
          products: spec.products.map(([id, p]) => product({ id, ...p })),
          names: {},
          hidden: new Set([5]),
          brands: spec.brands,
        };
        let cat = catalogueOf(shop);
        const file = nextFile();
        await writeListingStore(file, cat);
        const check = () => {
          const store = openListingStore(file);
          try {
            for (const at of pathsOf(cat)) {
              expect(store.listing(at), at).toEqual(expected(cat, at));
            }
          } finally {
            store.close();
          }
        };
        check();
        for (const change of edits) {
          shop = change(shop);
          const next = catalogueOf({ ...shop });
          // Products not edited stay the objects they were (makeCatalogue keeps them).
          updateListingStore(file, cat, next);
          cat = next;
          check();
        }
      }),
      { numRuns: 60 },
    );
  });

  test('a reader open during a publish sees the publish (the servers keep their connection)', async () => {
    const before = catalogueOf({
      products: [product({ id: 1, categories: [1], name: 'Avant' })],
      names: {},
      hidden: new Set(),
      brands: [],
    });
    const file = nextFile();
    await writeListingStore(file, before);
    const reader = openListingStore(file);
    try {
      expect(reader.listing('/c/matelas')?.products.map((p) => p.name)).toEqual(['Avant']);
      const after = catalogueOf({
        products: [product({ id: 1, categories: [1], name: 'Après' })],
        names: {},
        hidden: new Set(),
        brands: [],
      });
      updateListingStore(file, before, after);
      expect(reader.listing('/c/matelas')?.products.map((p) => p.name)).toEqual(['Après']);
      expect(reader.listing('/c/matelas/')?.category.path).toBe('/c/matelas');
    } finally {
      reader.close();
    }
  });
});

describe('the release pictures', () => {
  const empty = () => catalogueOf({ products: [], names: {}, hidden: new Set(), brands: [] });
  const card = {
    src: 'https://cdn.example/p/1/matelas.jpg',
    width: 340,
    height: 340,
    format: 'webp',
  };

  test('the build’s list gives each remote variant the URL its pages show', () => {
    const entries = builtPictures(
      new Map([
        [
          'https://cdn.example/p/1/matelas.jpg',
          {
            transforms: new Map([
              [
                'h1',
                { finalPath: '/_astro/matelas_h1.webp', transform: { ...card, loading: 'lazy' } },
              ],
              ['h2', { finalPath: '/_astro/lit bébé_h2.webp', transform: { ...card, width: 680 } }],
            ]),
          },
        ],
        // A picture of the project's own files is no variant of a remote source.
        [
          '/src/assets/logo.png',
          {
            transforms: new Map([
              ['h3', { finalPath: '/logo_h3.webp', transform: { src: { src: '/logo.png' } } }],
            ]),
          },
        ],
      ]),
    );
    expect(entries).toEqual([
      [transformKey(card.src, card), '/_astro/matelas_h1.webp'],
      [transformKey(card.src, { ...card, width: 680 }), '/_astro/lit%20b%C3%A9b%C3%A9_h2.webp'],
    ]);
    expect(builtPictures(undefined)).toEqual([]);
  });

  test('written by the build, added by a publish, read by the server while it serves', async () => {
    const file = nextFile();
    const key = transformKey(card.src, card);
    await writeListingStore(file, empty(), [[key, '/_astro/matelas_h1.webp']]);
    useListingStore(file);
    try {
      expect(releasePicture(key)).toBe('/_astro/matelas_h1.webp');
      const added = transformKey(card.src, { ...card, width: 680 });
      expect(releasePicture(added)).toBeNull();
      addPictures(file, [[added, '/_astro/matelas_h2.webp']]);
      expect(releasePicture(added)).toBe('/_astro/matelas_h2.webp');
    } finally {
      useListingStore(path.join(dir, 'none.sqlite'));
    }
    // No release file (astro dev, a build): no picture.
    expect(releasePicture(key)).toBeNull();
  });

  test('a release written before the table existed has no pictures, and its listings still read', async () => {
    const file = nextFile();
    await writeListingStore(file, empty());
    const db = new DatabaseSync(file);
    db.exec('DROP TABLE pictures');
    db.close();
    const reader = openListingStore(file);
    try {
      expect(reader.picture(transformKey(card.src, card))).toBeNull();
      expect(reader.listing('/c/inconnue')).toBeNull();
    } finally {
      reader.close();
    }
  });
});
