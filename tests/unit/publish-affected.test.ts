/**
 * Which pre-rendered pages an event touches (src/shop/publish/affected.ts):
 * a table of events on a small hand-made shop, then a property over generated shops and
 * mutations: every page whose data (computed with the pages' own pure functions,
 * `prerenderedPages`) changes is rendered again or removed, or the answer is a full build.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CUSTOM_FIELD_NAMES } from '../../src/lib/commerce/custom-fields.ts';
import { productPath } from '../../src/lib/commerce/slug.ts';
import type { Product } from '../../src/lib/commerce/types.ts';
import type {
  ContentAsset,
  ContentPage,
  ContentTag,
  NavigationEntry,
  Navigations,
  SleepContent,
  Technology,
} from '../../src/lib/content/types.ts';
import {
  indexCatalogue,
  type CatalogueBrand,
  type CatalogueCategory,
} from '../../src/shop/loaders/catalogue-index.ts';
import type { SiteContent } from '../../src/shop/loaders/content-data.ts';
import {
  affectedPages,
  MAX_PARTIAL_PAGES,
  type Affected,
  type PublishEvent,
  type SiteData,
} from '../../src/shop/publish/affected.ts';
import { layoutOf, prerenderedPages } from '../../src/shop/publish/pages.ts';
import { same } from '../../src/shop/publish/same.ts';
import { fields, product } from './fixtures.ts';
import { catalogueBrand, catalogueCategories, type CategorySpec } from './helpers/catalogue.ts';
import { allEntries, editEntries, navEntry, siteNavigations } from './helpers/navigations.ts';

// --- builders ----------------------------------------------------------------------------------

/** A site's raw data, as the publisher holds it before indexing. */
interface Read {
  products: Product[];
  categories: CatalogueCategory[];
  brands: CatalogueBrand[];
  content: SiteContent;
  navigations: Navigations;
}

function site(read: Read): SiteData {
  return {
    catalogue: indexCatalogue(read),
    content: read.content,
    navigations: read.navigations,
  };
}

function tag(id: string, label: string): ContentTag {
  const at = label.indexOf(':');
  return {
    id,
    label,
    type: at === -1 ? null : label.slice(0, at),
    name: at === -1 ? label : label.slice(at + 1),
  };
}

function sleep(id: string, slug: string, overrides: Partial<SleepContent> = {}): SleepContent {
  return {
    id,
    title: `Titre ${slug}`,
    slug,
    excerpt: '',
    episode: null,
    duration: null,
    image: null,
    audio: null,
    video: null,
    body: null,
    tags: [],
    related: [],
    publishedAt: '2024-01-01',
    ...overrides,
  };
}

function contentPage(id: string, slug: string, title = slug): ContentPage {
  return { id, title, slug, description: '', body: null, updatedAt: '2024-01-01' };
}

function technology(id: string, name: string, title = name): Technology {
  return { id, name, title, description: null, image: null };
}

function asset(name: string): ContentAsset {
  return {
    id: `asset-${name}`,
    title: name,
    description: '',
    url: `https://images.example/${encodeURIComponent(name)}.jpg`,
    contentType: 'image/jpeg',
    width: 800,
    height: 600,
  };
}

const withTechnology = (name: string) => fields({ [CUSTOM_FIELD_NAMES.technology]: name });

/** Replaces the item with `id` (by `update`), keeping every other object as it was. */
function replace<T extends { id: number | string }>(
  list: readonly T[],
  id: T['id'],
  update: (item: T) => T,
): T[] {
  return list.map((item) => (item.id === id ? update(item) : item));
}

// --- the hand-made shop ------------------------------------------------------------------------

const TREE: CategorySpec[] = [
  {
    id: 1,
    name: 'Matelas',
    url: '/matelas/',
    children: [
      { id: 2, name: 'Ressorts', url: '/matelas/ressorts/' },
      { id: 3, name: 'Mousse', url: '/matelas/mousse/' },
    ],
  },
  { id: 4, name: 'Sommiers', url: '/sommiers/' },
  { id: 5, name: 'Archives', url: '/archives/', isVisible: false },
];

const PODCAST = tag('formatPodcast', 'format:podcast');

/**
 * Best sellers (8): 101 to 108; on sale and not among them: 112. Category lists by id:
 * 1 [101 102 103 104 105 106 110 111 112], 2 [101 102 105 110 112], 3 [103 104 106 111],
 * 4 [107 108], 5 (hidden) [109]; 113 in none.
 */
function shop(): Read {
  const p = (
    id: number,
    name: string,
    categories: number[],
    brandId: number,
    totalSold: number,
    overrides: Partial<Product> = {},
  ) => product({ id, name, categories, brandId, totalSold, ...overrides });
  const a = sleep('s1', 'respirer', { tags: [PODCAST], publishedAt: '2024-03-01' });
  return {
    products: [
      p(101, 'Matelas Elysée', [1, 2], 10, 90, {
        customFields: withTechnology('Ressorts ensachés'),
      }),
      p(102, 'Matelas Oural', [1, 2], 11, 80),
      p(103, 'Matelas Brume', [1, 3], 10, 70, {
        customFields: withTechnology('Mousse à mémoire de forme'),
      }),
      p(104, 'Matelas Nuage', [1, 3], 11, 60),
      p(105, 'Matelas Alpes', [1, 2], 12, 50),
      p(106, 'Matelas Rivage', [1, 3], 12, 40),
      p(107, 'Sommier Tapissier', [4], 10, 30),
      p(108, 'Sommier Lattes', [4], 11, 20),
      p(109, 'Matelas Vintage', [5], 10, 0),
      p(110, 'Matelas Calme', [1, 2], 11, 1),
      p(111, 'Matelas Zen', [1, 3], 12, 2),
      p(112, 'Matelas Lune', [1, 2], 10, 3, { price: 49900, salePrice: 39900 }),
      p(113, 'Oreiller Plume', [], 0, 0),
    ],
    categories: catalogueCategories(TREE),
    brands: [
      catalogueBrand(10, 'Dunlopillo'),
      catalogueBrand(11, 'Epeda'),
      catalogueBrand(12, 'Simmons'),
    ],
    content: {
      sleepContents: [
        a,
        sleep('s2', 'dormir', { publishedAt: '2024-02-01', related: [a] }),
        sleep('s3', 'nuit', { publishedAt: '2024-01-01' }),
      ],
      pages: [contentPage('c1', 'cgv'), contentPage('c2', 'aide/livraison')],
      technologies: [
        technology('t1', 'Ressorts ensachés'),
        technology('t2', 'Mousse à mémoire de forme'),
      ],
      tags: [PODCAST],
    },
    navigations: siteNavigations(),
  };
}

const UPDATED = (resource: 'product' | 'category' | 'brand', id: number): PublishEvent => ({
  source: 'bigcommerce',
  resource,
  action: 'updated',
  id,
});
const PUBLISHED = (id: string): PublishEvent => ({
  source: 'contentful',
  topic: 'Entry.publish',
  id,
});

/** The answer for a change of the hand-made shop. */
function decide(change: (read: Read) => Read, event: PublishEvent): Affected {
  const read = shop();
  return affectedPages(site(read), site(change(read)), event);
}

function partial(result: Affected) {
  if (result.kind !== 'partial') throw new Error(`expected a partial update: ${result.reason}`);
  return result;
}

const EDITED = <T extends object>(item: T, changes: Partial<T>): T => ({ ...item, ...changes });

// --- the table ---------------------------------------------------------------------------------

describe('products', () => {
  test('price: its page, its listings, its brand page, the pages showing it as related', () => {
    const result = partial(
      decide(
        (read) => ({
          ...read,
          products: replace(read.products, 110, (p) => EDITED(p, { price: 45900 })),
        }),
        UPDATED('product', 110),
      ),
    );
    expect(result).toEqual({
      kind: 'partial',
      render: [
        '/c/matelas',
        '/c/matelas/ressorts',
        '/marque/epeda',
        // Related: 101 102 105 112 in Ressorts, 106 (after Mousse's three) in Matelas.
        '/p/101/matelas-elysee',
        '/p/102/matelas-oural',
        '/p/105/matelas-alpes',
        '/p/106/matelas-rivage',
        '/p/110/matelas-calme',
        '/p/112/matelas-lune',
      ],
      remove: [],
      purgeOnDemand: true,
      pageSetChanged: false,
    });
  });

  test('a best seller: the home page and /produit too', () => {
    const result = partial(
      decide(
        (read) => ({
          ...read,
          products: replace(read.products, 107, (p) => EDITED(p, { price: 19900 })),
        }),
        UPDATED('product', 107),
      ),
    );
    expect(result.render).toEqual([
      '/',
      '/c/sommiers',
      '/marque/dunlopillo',
      '/p/107/sommier-tapissier',
      '/p/108/sommier-lattes',
      '/produit',
    ]);
  });

  test('selling into the best sellers: the home page and /produit', () => {
    const result = partial(
      decide(
        (read) => ({
          ...read,
          products: replace(read.products, 113, (p) => EDITED(p, { totalSold: 500 })),
        }),
        UPDATED('product', 113),
      ),
    );
    expect(result.render).toEqual(['/', '/p/113/oreiller-plume', '/produit']);
  });

  test('renamed: the new path rendered, the old one removed', () => {
    const result = partial(
      decide(
        (read) => ({
          ...read,
          products: replace(read.products, 110, (p) => EDITED(p, { name: 'Matelas Calme Plus' })),
        }),
        UPDATED('product', 110),
      ),
    );
    expect(result.render).toContain('/p/110/matelas-calme-plus');
    expect(result.render).not.toContain('/p/110/matelas-calme');
    expect(result.remove).toEqual(['/p/110/matelas-calme']);
    expect(result.pageSetChanged).toBe(true);
  });

  test('created in a root category: its page, the listing, the tiles, its neighbours', () => {
    const result = partial(
      decide(
        (read) => ({
          ...read,
          products: [...read.products, product({ id: 114, name: 'Sommier Bois', categories: [4] })],
        }),
        { source: 'bigcommerce', resource: 'product', action: 'created', id: 114 },
      ),
    );
    expect(result).toEqual({
      kind: 'partial',
      render: [
        '/',
        '/c/sommiers',
        '/categorie',
        '/p/107/sommier-tapissier',
        '/p/108/sommier-lattes',
        '/p/114/sommier-bois',
        '/produit',
      ],
      remove: [],
      purgeOnDemand: true,
      pageSetChanged: true,
    });
  });

  test('deleted (or hidden: the catalogue holds visible products only): its page removed', () => {
    const result = partial(
      decide((read) => ({ ...read, products: read.products.filter((p) => p.id !== 113) }), {
        source: 'bigcommerce',
        resource: 'product',
        action: 'deleted',
        id: 113,
      }),
    );
    expect(result).toEqual({
      kind: 'partial',
      render: ['/produit'],
      remove: ['/p/113/oreiller-plume'],
      purgeOnDemand: true,
      pageSetChanged: true,
    });
  });

  test('moved to another category: both listings and both sets of neighbours', () => {
    const result = partial(
      decide(
        (read) => ({
          ...read,
          products: replace(read.products, 111, (p) => EDITED(p, { categories: [4] })),
        }),
        UPDATED('product', 111),
      ),
    );
    expect(result.render).toEqual(
      expect.arrayContaining([
        '/c/matelas',
        '/c/matelas/mousse',
        '/c/sommiers',
        '/',
        '/categorie',
        '/p/107/sommier-tapissier',
        '/p/108/sommier-lattes',
      ]),
    );
  });

  test('an update that changes nothing a page shows: nothing to render', () => {
    const result = partial(
      decide(
        (read) => ({
          ...read,
          products: replace(read.products, 110, (p) => EDITED(p, {})),
        }),
        UPDATED('product', 110),
      ),
    );
    expect(result).toEqual({
      kind: 'partial',
      render: [],
      remove: [],
      purgeOnDemand: false,
      pageSetChanged: false,
    });
  });

  test('the listings sitemap when a listing gains a page', () => {
    const extra = Array.from({ length: 19 }, (_, i) =>
      product({ id: 200 + i, name: `Sommier ${String(i)}`, categories: [4] }),
    );
    const read = shop();
    const before = site({ ...read, products: [...read.products, ...extra.slice(1)] });
    const after = site({ ...read, products: [...read.products, ...extra] });
    // Sommiers: 20 products, then 21: a second page.
    const result = partial(
      affectedPages(before, after, {
        source: 'bigcommerce',
        resource: 'product',
        action: 'created',
        id: 200,
      }),
    );
    expect(result.render).toContain('/sitemap-listings.xml');
  });
});

describe('categories', () => {
  test('description: its listing only', () => {
    const result = decide(
      (read) => ({
        ...read,
        categories: replace(read.categories, 2, (c) => EDITED(c, { description: '<p>Neuf</p>' })),
      }),
      UPDATED('category', 2),
    );
    expect(result).toEqual({
      kind: 'partial',
      render: ['/c/matelas/ressorts'],
      remove: [],
      purgeOnDemand: true,
      pageSetChanged: false,
    });
  });

  test('name, url, visibility or order: a full build (every page’s menus)', () => {
    const renamed = decide(
      (read) => ({
        ...read,
        categories: replace(read.categories, 2, (c) => EDITED(c, { name: 'Ressorts ensachés' })),
      }),
      UPDATED('category', 2),
    );
    expect(renamed).toMatchObject({ kind: 'full' });
    const hidden = decide(
      (read) => ({
        ...read,
        categories: replace(read.categories, 3, (c) =>
          EDITED(c, { isVisible: false, shown: false }),
        ),
      }),
      UPDATED('category', 3),
    );
    expect(hidden.kind).toBe('full');
  });

  test('a hidden category: no page shows it', () => {
    const result = decide(
      (read) => ({
        ...read,
        categories: replace(read.categories, 5, (c) => EDITED(c, { description: 'Vieux' })),
      }),
      UPDATED('category', 5),
    );
    expect(result).toMatchObject({ kind: 'partial', render: [], remove: [] });
  });
});

describe('brands', () => {
  test('meta description: its page only', () => {
    const result = decide(
      (read) => ({
        ...read,
        brands: replace(read.brands, 12, (b) => EDITED(b, { metaDescription: 'Literie' })),
      }),
      UPDATED('brand', 12),
    );
    expect(result).toEqual({
      kind: 'partial',
      render: ['/marque/simmons'],
      remove: [],
      purgeOnDemand: false,
      pageSetChanged: false,
    });
  });

  test('name: the brand lists, its products, their listings’ facet; a new slug', () => {
    const result = partial(
      decide(
        (read) => ({
          ...read,
          brands: replace(read.brands, 12, (b) => catalogueBrand(b.id, 'Simmons Pro', b.url)),
        }),
        UPDATED('brand', 12),
      ),
    );
    expect(result).toEqual({
      kind: 'partial',
      render: [
        '/',
        '/c/matelas',
        '/c/matelas/mousse',
        '/c/matelas/ressorts',
        '/marque',
        '/marque/dunlopillo',
        '/marque/epeda',
        '/marque/simmons-pro',
        '/p/105/matelas-alpes',
        '/p/106/matelas-rivage',
        '/p/111/matelas-zen',
        '/produit',
      ],
      remove: ['/marque/simmons'],
      purgeOnDemand: true,
      pageSetChanged: true,
    });
  });
});

describe('content', () => {
  test('a technology block: the product pages naming it', () => {
    const result = decide(
      (read) => ({
        ...read,
        content: {
          ...read.content,
          technologies: replace(read.content.technologies, 't2', (t) =>
            EDITED(t, { title: 'Mémoire de forme' }),
          ),
        },
      }),
      PUBLISHED('t2'),
    );
    expect(result).toEqual({
      kind: 'partial',
      render: ['/p/103/matelas-brume'],
      remove: [],
      purgeOnDemand: true,
      pageSetChanged: false,
    });
  });

  test('a sleep-content entry: the list pages and its page', () => {
    const result = decide(
      (read) => ({
        ...read,
        content: {
          ...read.content,
          sleepContents: replace(read.content.sleepContents, 's3', (s) =>
            EDITED(s, { title: 'La nuit' }),
          ),
        },
      }),
      PUBLISHED('s3'),
    );
    expect(result).toEqual({
      kind: 'partial',
      render: ['/les-yeux-fermes', '/les-yeux-fermes/nuit', '/les-yeux-fermes/page/1'],
      remove: [],
      purgeOnDemand: true,
      pageSetChanged: false,
    });
  });

  test('an entry another one shows as related: both pages (the related copy is resolved)', () => {
    const result = partial(
      decide((read) => {
        const edited = EDITED(read.content.sleepContents[0] ?? sleep('x', 'x'), {
          title: 'Souffle',
        });
        return {
          ...read,
          content: {
            ...read.content,
            sleepContents: read.content.sleepContents.map((s) =>
              s.id === 's1' ? edited : s.id === 's2' ? EDITED(s, { related: [edited] }) : s,
            ),
          },
        };
      }, PUBLISHED('s1')),
    );
    expect(result.render).toEqual(
      expect.arrayContaining(['/les-yeux-fermes/respirer', '/les-yeux-fermes/dormir']),
    );
  });

  test('a content page’s new slug: the new page rendered, the old one removed', () => {
    const result = decide(
      (read) => ({
        ...read,
        content: {
          ...read.content,
          pages: replace(read.content.pages, 'c1', (p) => EDITED(p, { slug: 'conditions' })),
        },
      }),
      PUBLISHED('c1'),
    );
    expect(result).toEqual({
      kind: 'partial',
      render: ['/conditions'],
      remove: ['/cgv'],
      purgeOnDemand: false,
      pageSetChanged: true,
    });
  });

  test('a nested content page: on demand, no pre-rendered page', () => {
    const result = decide(
      (read) => ({
        ...read,
        content: {
          ...read.content,
          pages: replace(read.content.pages, 'c2', (p) => EDITED(p, { title: 'Livraison' })),
        },
      }),
      PUBLISHED('c2'),
    );
    expect(result).toMatchObject({ kind: 'partial', render: [], remove: [] });
  });

  /** The hand-made shop with its content page `slug` retitled, in its page and in the menus. */
  const retitled = (slug: string, title: string) => (read: Read) => ({
    ...read,
    content: {
      ...read.content,
      pages: read.content.pages.map((p) => (p.slug === slug ? EDITED(p, { title }) : p)),
    },
    navigations: editEntries(
      read.navigations,
      (entry) => entry.url === `/${slug}`,
      (entry) => EDITED(entry, { label: title, title }),
    ),
  });

  test('a content page only the legal bar links (fixed label): its page alone', () => {
    const result = decide(retitled('cgv', 'Conditions'), PUBLISHED('page-cgv'));
    expect(result).toEqual({
      kind: 'partial',
      render: ['/cgv'],
      remove: [],
      // The API's cached navigation reads changed.
      purgeOnDemand: true,
      pageSetChanged: false,
    });
  });

  test('a content page a footer column links: its title on every page, a full build', () => {
    const result = decide(
      retitled('aide/livraison', 'Livraison'),
      PUBLISHED('page-aide-livraison'),
    );
    expect(result).toMatchObject({ kind: 'full' });
    if (result.kind === 'full') expect(result.reason).toContain('menus or the footer columns');
  });

  test('a content page unpublished: its page removed, the sitemap written again', () => {
    const result = decide(
      (read) => ({
        ...read,
        content: { ...read.content, pages: read.content.pages.filter((p) => p.slug !== 'cgv') },
        navigations: editEntries(
          read.navigations,
          (e) => e.url === '/cgv',
          () => null,
        ),
      }),
      { source: 'contentful', topic: 'Entry.unpublish', id: 'page-cgv' },
    );
    expect(result).toEqual({
      kind: 'partial',
      render: [],
      remove: ['/cgv'],
      purgeOnDemand: true,
      pageSetChanged: true,
    });
  });

  test.each([
    ['a page (a shop route)', 'route-accueil', { label: 'Accueil du site' }],
    ['a brand corner', 'brand-dunlopillo', { url: '/marque/dunlopillo-2' }],
    ['a category page’s push (mega menu)', 'cat-1', { titlePush: 'Nuits fraîches' }],
    ['a call to action', 'cta-instagram', { url: 'https://www.instagram.com/literie' }],
    ['a navigation (a group’s heading)', 'nav-services', { label: 'Nos services' }],
  ])('%s shown in a menu: a full build', (_what, key, changes) => {
    const result = decide(
      (read) => ({
        ...read,
        navigations: editEntries(
          read.navigations,
          (e) => e.key === key,
          (e) => EDITED(e, changes),
        ),
      }),
      PUBLISHED(key),
    );
    expect(result).toMatchObject({ kind: 'full' });
  });

  test.each(['route-yeux', 'brand-dunlopillo', 'cta-podcasts', 'cat-4'])(
    'entry %s unpublished from a menu: a full build',
    (key) => {
      const result = decide(
        (read) => ({
          ...read,
          navigations: editEntries(
            read.navigations,
            (e) => e.key === key,
            () => null,
          ),
        }),
        { source: 'contentful', topic: 'Entry.unpublish', id: key },
      );
      expect(result).toMatchObject({ kind: 'full' });
    },
  );

  test('an entry field no menu shows (a slug, an identifier): nothing rendered, reads purged', () => {
    const result = decide(
      (read) => ({
        ...read,
        navigations: editEntries(
          read.navigations,
          (e) => e.key === 'page-contact' || e.key === 'nav-legal',
          (e) => EDITED(e, { slug: 'contact-2', identifier: 'Légal' }),
        ),
      }),
      PUBLISHED('page-contact'),
    );
    expect(result).toEqual({
      kind: 'partial',
      render: [],
      remove: [],
      purgeOnDemand: true,
      pageSetChanged: false,
    });
  });

  test('the footer replaced by another navigation: a full build', () => {
    const result = decide(
      (read) => ({
        ...read,
        navigations: { ...read.navigations, footer: [navEntry('n2', 'Conditions', '/aide')] },
      }),
      PUBLISHED('n2'),
    );
    expect(result).toMatchObject({ kind: 'full' });
  });
});

describe('falling back to a full build', () => {
  test('over the page limit', () => {
    const read = shop();
    const after = {
      ...read,
      products: replace(read.products, 110, (p) => EDITED(p, { price: 45900 })),
    };
    expect(
      affectedPages(site(read), site(after), UPDATED('product', 110), { maxPages: 3 }),
    ).toEqual({
      kind: 'full',
      reason: 'product 110 updated: 9 pages to render again, over 3',
    });
    expect(MAX_PARTIAL_PAGES).toBe(5_000);
  });

  test('data changed in place cannot be compared', () => {
    const data = site(shop());
    expect(affectedPages(data, data, UPDATED('product', 110)).kind).toBe('full');
    expect(affectedPages(data, { ...data }, PUBLISHED('s1')).kind).toBe('full');
  });
});

// --- the property ------------------------------------------------------------------------------

const NAMES = ['Matelas Elysée', 'Matelas Oural', 'Sommier', 'Oreiller', 'Surmatelas'];
const TECHNOLOGIES = ['Ressorts ensachés', 'Mousse', 'Latex'];
const BRAND_NAMES = ['Dunlopillo', 'Epeda', 'Épéda', 'Simmons', 'Bultex'];
const SLUGS = ['respirer', 'dormir', 'nuit', 'reve'];
const PAGE_SLUGS = ['cgv', 'aide', 'contact', 'aide/livraison', 'panier'];
const CATEGORY_IDS = [1, 2, 3, 4, 5];
const BRAND_IDS = [0, 10, 11, 12, 13];

const productSpec = fc.record({
  name: fc.constantFrom(...NAMES),
  // Often Matelas and Ressorts, so that a listing passes 20 products (a second page).
  categories: fc.oneof(
    fc.constant<number[]>([1, 2]),
    fc.uniqueArray(fc.constantFrom(...CATEGORY_IDS), { maxLength: 3 }),
  ),
  brandId: fc.constantFrom(...BRAND_IDS),
  price: fc.constantFrom<number>(19900, 49900, 99900),
  salePrice: fc.constantFrom<number>(0, 0, 15900, 39900),
  isPriceHidden: fc.boolean(),
  inventoryTracking: fc.constantFrom('none' as const, 'product' as const),
  inventoryLevel: fc.integer({ min: 0, max: 3 }),
  totalSold: fc.integer({ min: 0, max: 12 }),
  relatedProducts: fc.array(fc.integer({ min: -1, max: 40 }), { maxLength: 2 }),
  technology: fc.constantFrom('', ...TECHNOLOGIES, 'Mousse, Latex'),
  description: fc.constantFrom<string>('<p>Un matelas.</p>', '<p>Ferme.</p>'),
});
type ProductSpec = typeof productSpec extends fc.Arbitrary<infer T> ? T : never;

function toProduct(id: number, spec: ProductSpec): Product {
  const { technology: names, ...rest } = spec;
  return product({
    id,
    ...rest,
    customFields: names === '' ? [] : withTechnology(names),
  });
}

const sleepSpec = fc.record({
  slug: fc.constantFrom(...SLUGS),
  title: fc.constantFrom('Un', 'Deux'),
  tagged: fc.boolean(),
});
const siteSpec = fc.record({
  products: fc.uniqueArray(fc.tuple(fc.integer({ min: 1, max: 60 }), productSpec), {
    // Past 20 in a category, its listing has a second page (the listings' sitemap).
    maxLength: 48,
    size: 'medium',
    selector: ([id]) => id,
  }),
  brands: fc.uniqueArray(fc.tuple(fc.constantFrom(10, 11, 12), fc.constantFrom(...BRAND_NAMES)), {
    selector: ([id]) => id,
  }),
  sleep: fc.array(sleepSpec, { maxLength: 14 }),
  pages: fc.array(fc.constantFrom(...PAGE_SLUGS), { maxLength: 4 }),
  technologies: fc.array(fc.tuple(fc.constantFrom(...TECHNOLOGIES), fc.constantFrom('A', 'B')), {
    maxLength: 4,
  }),
});
type SiteSpec = typeof siteSpec extends fc.Arbitrary<infer T> ? T : never;

function toRead(spec: SiteSpec): Read {
  const podcast = tag('formatPodcast', 'format:podcast');
  return {
    products: spec.products.map(([id, p]) => toProduct(id, p)),
    categories: catalogueCategories(TREE),
    brands: spec.brands.map(([id, name]) => catalogueBrand(id, name)),
    content: {
      sleepContents: spec.sleep.map((s, i) =>
        sleep(`s${String(i)}`, s.slug, { title: s.title, tags: s.tagged ? [podcast] : [] }),
      ),
      pages: spec.pages.map((slug, i) => contentPage(`c${String(i)}`, slug)),
      technologies: spec.technologies.map(([name, title], i) =>
        technology(`t${String(i)}`, name, title),
      ),
      tags: [podcast, tag('themeNuit', 'theme:nuit')],
    },
    navigations: siteNavigations(),
  };
}

/** A mutation: the changed read and the event naming it. */
type Mutation = (read: Read) => { read: Read; event: PublishEvent };

const productEvent = (action: 'created' | 'updated' | 'deleted', id: number): PublishEvent => ({
  source: 'bigcommerce',
  resource: 'product',
  action,
  id,
});

const pick = <T>(list: readonly T[], at: number): T | undefined =>
  list.length === 0 ? undefined : list[at % list.length];

const PRODUCT_FIELDS = [
  'name',
  'categories',
  'brandId',
  'price',
  'salePrice',
  'isPriceHidden',
  'inventoryTracking',
  'inventoryLevel',
  'totalSold',
  'relatedProducts',
  'technology',
  'description',
] as const satisfies readonly (keyof ProductSpec)[];

const productEdit: fc.Arbitrary<Mutation> = fc
  .tuple(fc.nat(), productSpec, fc.constantFrom(...PRODUCT_FIELDS))
  .map(([at, spec, key]) => (read: Read) => {
    const target = pick(read.products, at);
    if (!target) return { read, event: productEvent('updated', 1) };
    // One field of the product takes the generated value.
    const changed = toProduct(target.id, {
      name: target.name,
      categories: target.categories,
      brandId: target.brandId,
      price: target.price,
      salePrice: target.salePrice,
      isPriceHidden: target.isPriceHidden,
      inventoryTracking: target.inventoryTracking === 'product' ? 'product' : 'none',
      inventoryLevel: target.inventoryLevel,
      totalSold: target.totalSold,
      relatedProducts: target.relatedProducts,
      technology: target.customFields.map((f) => f.value).join(''),
      description: target.description,
      [key]: spec[key],
    });
    return {
      read: { ...read, products: replace(read.products, target.id, () => changed) },
      event: productEvent('updated', target.id),
    };
  });

const productCreate: fc.Arbitrary<Mutation> = fc
  .tuple(fc.integer({ min: 1, max: 45 }), productSpec)
  .map(([id, spec]) => (read: Read) => {
    if (read.products.some((p) => p.id === id)) return { read, event: productEvent('created', id) };
    return {
      read: { ...read, products: [...read.products, toProduct(id, spec)] },
      event: productEvent('created', id),
    };
  });

const productDelete: fc.Arbitrary<Mutation> = fc.nat().map((at) => (read: Read) => {
  const target = pick(read.products, at);
  const id = target?.id ?? 1;
  return {
    read: { ...read, products: read.products.filter((p) => p.id !== id) },
    event: productEvent('deleted', id),
  };
});

const categoryEdit: fc.Arbitrary<Mutation> = fc
  .tuple(
    fc.constantFrom(...CATEGORY_IDS),
    fc.constantFrom('description' as const, 'name' as const, 'metaDescription' as const),
    fc.constantFrom('Autre', '<p>Autre</p>'),
  )
  .map(([id, key, value]) => (read: Read) => ({
    read: { ...read, categories: replace(read.categories, id, (c) => EDITED(c, { [key]: value })) },
    event: { source: 'bigcommerce', resource: 'category', action: 'updated', id },
  }));

const brandEdit: fc.Arbitrary<Mutation> = fc
  .tuple(
    fc.constantFrom(10, 11, 12, 13),
    fc.constantFrom(...BRAND_NAMES),
    fc.constantFrom('name' as const, 'metaDescription' as const, 'delete' as const),
  )
  .map(([id, name, what]) => (read: Read) => {
    const event: PublishEvent = {
      source: 'bigcommerce',
      resource: 'brand',
      action: what === 'delete' ? 'deleted' : 'updated',
      id,
    };
    if (what === 'delete')
      return { read: { ...read, brands: read.brands.filter((b) => b.id !== id) }, event };
    const existing = read.brands.find((b) => b.id === id);
    const brand =
      what === 'name'
        ? catalogueBrand(id, name)
        : EDITED(existing ?? catalogueBrand(id, name), { metaDescription: name });
    return {
      read: {
        ...read,
        brands: existing ? replace(read.brands, id, () => brand) : [...read.brands, brand],
      },
      event: { ...event, action: existing ? 'updated' : 'created' },
    };
  });

const contentEdit: fc.Arbitrary<Mutation> = fc
  .tuple(
    fc.constantFrom(
      'sleep title' as const,
      'sleep slug' as const,
      'sleep delete' as const,
      'sleep add' as const,
      'tag' as const,
      'page title' as const,
      'page slug' as const,
      'page delete' as const,
      'technology' as const,
      'technology name' as const,
      'technology delete' as const,
      'navigation' as const,
      'sleep excerpt' as const,
      'sleep related' as const,
      'sleep image' as const,
      'page description' as const,
      'page add' as const,
      'technology image' as const,
      'entry label' as const,
      'entry url' as const,
      'entry slug' as const,
      'entry push' as const,
      'entry unpublish' as const,
    ),
    fc.nat(),
    fc.constantFrom(...SLUGS, ...PAGE_SLUGS, ...TECHNOLOGIES),
  )
  .map(([what, at, value]) => (read: Read) => {
    const { content } = read;
    const entry = pick(content.sleepContents, at);
    const page = pick(content.pages, at);
    const block = pick(content.technologies, at);
    const link = pick(allEntries(read.navigations), at);
    const event = PUBLISHED(entry?.id ?? 'x');
    const next = (changes: Partial<SiteContent>, navigations = read.navigations) => ({
      read: { ...read, content: { ...content, ...changes }, navigations },
      event,
    });
    // A content page's title, slug or presence as the menus linking it show them too.
    const linking = (update: (e: NavigationEntry) => NavigationEntry | null) =>
      page ? editEntries(read.navigations, (e) => e.url === `/${page.slug}`, update) : undefined;
    const navigation = (update: (e: NavigationEntry) => NavigationEntry | null) =>
      link ? editEntries(read.navigations, (e) => e === link, update) : read.navigations;
    switch (what) {
      case 'sleep title':
        return next({
          sleepContents: entry
            ? replace(content.sleepContents, entry.id, (s) => EDITED(s, { title: value }))
            : content.sleepContents,
        });
      case 'sleep slug':
        return next({
          sleepContents: entry
            ? replace(content.sleepContents, entry.id, (s) => EDITED(s, { slug: value }))
            : content.sleepContents,
        });
      case 'sleep delete':
        return next({ sleepContents: content.sleepContents.filter((s) => s !== entry) });
      case 'sleep add':
        return next({ sleepContents: [sleep('new', value), ...content.sleepContents] });
      case 'tag':
        return next({ tags: content.tags.map((t) => EDITED(t, { name: `${t.name}!` })) });
      case 'page title':
        return next(
          {
            pages: page ? replace(content.pages, page.id, (p) => EDITED(p, { title: value })) : [],
          },
          linking((e) => EDITED(e, { label: value, title: value })),
        );
      case 'page slug':
        return next(
          {
            pages: page ? replace(content.pages, page.id, (p) => EDITED(p, { slug: value })) : [],
          },
          linking((e) => EDITED(e, { url: `/${value}`, slug: value })),
        );
      case 'page delete':
        return next(
          { pages: content.pages.filter((p) => p !== page) },
          linking(() => null),
        );
      case 'page description':
        return next({
          pages: page
            ? replace(content.pages, page.id, (p) => EDITED(p, { description: value }))
            : content.pages,
        });
      case 'page add':
        return next({ pages: [...content.pages, contentPage('cnew', value, value)] });
      case 'sleep excerpt':
        return next({
          sleepContents: entry
            ? replace(content.sleepContents, entry.id, (s) => EDITED(s, { excerpt: value }))
            : content.sleepContents,
        });
      case 'sleep related': {
        const other = pick(content.sleepContents, at + 1);
        return next({
          sleepContents:
            entry && other && other !== entry
              ? replace(content.sleepContents, entry.id, (s) =>
                  EDITED(s, { related: [{ ...other, related: [] }] }),
                )
              : content.sleepContents,
        });
      }
      case 'sleep image':
        // An asset published again: the entries showing it read its new address.
        return next({
          sleepContents: entry
            ? replace(content.sleepContents, entry.id, (s) => EDITED(s, { image: asset(value) }))
            : content.sleepContents,
        });
      case 'technology image':
        return next({
          technologies: block
            ? replace(content.technologies, block.id, (t) => EDITED(t, { image: asset(value) }))
            : content.technologies,
        });
      case 'entry label':
        return next(
          {},
          navigation((e) => EDITED(e, { label: value, title: value })),
        );
      case 'entry url':
        return next(
          {},
          navigation((e) => (e.url === null ? e : EDITED(e, { url: `/${value}` }))),
        );
      case 'entry slug':
        return next(
          {},
          navigation((e) => EDITED(e, { slug: value, identifier: value })),
        );
      case 'entry push':
        return next(
          {},
          navigation((e) => EDITED(e, { titlePush: value })),
        );
      case 'entry unpublish':
        return next(
          {},
          navigation(() => null),
        );
      case 'technology':
        return next({
          technologies: block
            ? replace(content.technologies, block.id, (t) => EDITED(t, { title: value }))
            : [technology('tnew', value)],
        });
      case 'technology name':
        return next({
          technologies: block
            ? replace(content.technologies, block.id, (t) => EDITED(t, { name: value }))
            : [],
        });
      case 'technology delete':
        return next({ technologies: content.technologies.filter((t) => t !== block) });
      case 'navigation':
        return {
          read: {
            ...read,
            navigations: { ...read.navigations, footer: [navEntry('n9', value, `/${value}`)] },
          },
          event,
        };
    }
  });

const mutation = fc.oneof(
  { arbitrary: productEdit, weight: 5 },
  { arbitrary: productCreate, weight: 2 },
  { arbitrary: productDelete, weight: 2 },
  { arbitrary: categoryEdit, weight: 1 },
  { arbitrary: brandEdit, weight: 2 },
  { arbitrary: contentEdit, weight: 3 },
);

describe('every page whose data changes is rendered again or removed, or the build is full', () => {
  test('over generated shops and one mutation each', () => {
    fc.assert(
      fc.property(siteSpec, mutation, (spec, mutate) => {
        const read = toRead(spec);
        const changed = mutate(read);
        const before = site(read);
        const after = site(changed.read);
        const result = affectedPages(before, after, changed.event);

        // A full build exactly when what every page's shell shows changed (the shops are far
        // under the page limit).
        const shellChanged = !same(layoutOf(before), layoutOf(after));
        expect(result.kind, result.kind === 'full' ? result.reason : 'partial').toBe(
          shellChanged ? 'full' : 'partial',
        );
        if (result.kind === 'full') return;
        // The API's navigation reads are cached on demand.
        if (!same(before.navigations, after.navigations)) expect(result.purgeOnDemand).toBe(true);

        const pagesBefore = prerenderedPages(before);
        const pagesAfter = prerenderedPages(after);
        const render = new Set(result.render);
        const remove = new Set(result.remove);
        for (const path of render) expect(pagesAfter.has(path), `render ${path}`).toBe(true);
        for (const path of remove) {
          expect(pagesBefore.has(path) && !pagesAfter.has(path), `remove ${path}`).toBe(true);
        }
        let listingChanged = false;
        for (const [path, now] of pagesAfter) {
          const old = pagesBefore.get(path);
          if (old && same(old(), now())) continue;
          expect(render.has(path), `${path} changed and is not rendered`).toBe(true);
          if (path.startsWith('/c/') || path.startsWith('/les-yeux-fermes')) listingChanged = true;
        }
        for (const path of pagesBefore.keys()) {
          if (!pagesAfter.has(path)) expect(remove.has(path), `${path} is gone`).toBe(true);
        }
        const setChanged =
          pagesBefore.size !== pagesAfter.size ||
          [...pagesBefore.keys()].some((path) => !pagesAfter.has(path));
        expect(result.pageSetChanged).toBe(setChanged);
        if (listingChanged) expect(result.purgeOnDemand).toBe(true);
      }),
      { numRuns: 1_500 },
    );
  });
});

// --- scale -------------------------------------------------------------------------------------

describe('at 100,000 products', () => {
  test('one product event is decided in well under a second', () => {
    const categories = catalogueCategories(
      Array.from({ length: 20 }, (_, i) => ({
        id: i + 1,
        name: `Catégorie ${String(i)}`,
        url: `/categorie-${String(i)}/`,
        children: Array.from({ length: 10 }, (_, j) => ({
          id: 100 + i * 10 + j,
          name: `Sous-catégorie ${String(j)}`,
          url: `/categorie-${String(i)}/sous-${String(j)}/`,
        })),
      })),
    );
    const brands = Array.from({ length: 50 }, (_, i) =>
      catalogueBrand(i + 1, `Marque ${String(i)}`),
    );
    const products = Array.from({ length: 100_000 }, (_, i) =>
      product({
        id: i + 1,
        name: `Produit ${String(i)}`,
        categories: [(i % 20) + 1, 100 + (i % 200)],
        brandId: (i % 50) + 1,
        totalSold: i % 997,
        salePrice: i % 7 === 0 ? 19900 : 0,
        customFields: i % 3 === 0 ? withTechnology('Mousse') : [],
        relatedProducts: i % 11 === 0 ? [((i * 7) % 100_000) + 1] : [],
      }),
    );
    const content: SiteContent = {
      sleepContents: [],
      pages: [],
      technologies: [technology('t1', 'Mousse')],
      tags: [],
    };
    const navigations = { main: [], sidebar: [], footer: [] };
    const before = site({ products, categories, brands, content, navigations });
    const target = products[54_320] ?? product();
    const afterRead = {
      products: replace(products, target.id, (p) => EDITED(p, { price: 12300, totalSold: 5000 })),
      categories,
      brands,
      content,
      navigations,
    };
    const after = site(afterRead);
    // CPU time of this process: other work on the machine does not count.
    const cpuMs = () => {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1000;
    };
    const started = cpuMs();
    const result = partial(affectedPages(before, after, UPDATED('product', target.id)));
    const ms = cpuMs() - started;
    // Its page, two listings, its brand page, home and /produit (best seller now), neighbours.
    expect(result.render.length).toBeLessThan(20);
    expect(result.render).toEqual(expect.arrayContaining(['/', '/produit', productPath(target)]));
    expect(ms).toBeLessThan(1_000);

    // The next event, `after` handed in as `before`: its indexes are kept.
    const next = site({
      ...afterRead,
      products: replace(afterRead.products, 7, (p) => EDITED(p, { price: 100 })),
    });
    const startedNext = cpuMs();
    partial(affectedPages(after, next, UPDATED('product', 7)));
    expect(cpuMs() - startedNext).toBeLessThan(1_000);
  });
});
