/**
 * The shop's route table and the paths upstream entities may take (src/lib/shop-routes.ts,
 * content cannot claim the shop's routes; slugs are capped): the table is exactly
 * what src/pages/ and public/ hold (a page added without listing it fails here), every page of
 * src/pages starts with a route of the table or is a top-level catch-all, and no generated
 * slug, name or URL that the rules accept maps onto a route of the shop, `index` or a path that
 * is not canonical.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { canonicalPath } from '../../src/lib/commerce/page-path.ts';
import { refusedCategories, visibleTree } from '../../src/lib/commerce/category.ts';
import {
  brandPath,
  capSlug,
  categoryPath,
  productPath,
  slugify,
} from '../../src/lib/commerce/slug.ts';
import { screenContent } from '../../src/lib/content/content-routes.ts';
import type { ContentPage, SleepContent } from '../../src/lib/content/types.ts';
import type { CategoryNode } from '../../src/lib/commerce/types.ts';
import { logRefused } from '../../src/shop/config/refused.ts';
import {
  brandSlugRefusal,
  categoryUrlRefusal,
  contentSlugRefusal,
  isShopRoute,
  MAX_SLUG_LENGTH,
  productSlugRefusal,
  SHOP_ROUTES,
  sleepSlugRefusal,
} from '../../src/lib/shop-routes.ts';

const PAGES = 'src/pages';
const sorted = (list: Iterable<string>) => [...list].sort();

/** Every file of src/pages Astro makes a route of (`_` files and folders are not routes). */
function pageFiles(dir = PAGES): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('_')) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return pageFiles(full);
    return /\.(astro|ts|md|mdx|js)$/.test(entry.name) ? [path.relative(PAGES, full)] : [];
  });
}

/** A page file's first route segment, lower case; null for a dynamic one (`[slug]`). */
function firstSegment(file: string): string | null {
  const first = file.split(path.sep)[0] ?? '';
  const name = first.replace(/\.(astro|ts|md|mdx|js)$/, '');
  return name.startsWith('[') ? null : name.toLowerCase();
}

describe('the route table', () => {
  test('its pages are exactly the first segments of src/pages', () => {
    const derived = new Set(pageFiles().flatMap((file) => firstSegment(file) ?? []));
    expect(sorted(SHOP_ROUTES.pages)).toEqual(sorted(derived));
  });

  test('its public files are exactly public/', () => {
    expect(sorted(SHOP_ROUTES.public)).toEqual(sorted(readdirSync('public')));
  });

  test('every page of src/pages starts with a route of the table, or is a top-level catch-all', () => {
    const dynamicTop: string[] = [];
    for (const file of pageFiles()) {
      const first = firstSegment(file);
      if (first === null) dynamicTop.push(file);
      else expect(isShopRoute(first), file).toBe(true);
    }
    // The only pages that take a first segment from data: the content page and the catch-all.
    expect(sorted(dynamicTop)).toEqual(['[...path].astro', '[slug].astro']);
  });

  test("the server's and Astro's own prefixes are in it", () => {
    const serve = readFileSync('src/server/http-server.ts', 'utf8');
    expect(serve).toContain("pathname.startsWith('/webhooks/')");
    for (const segment of ['webhooks', 'vue', '_image', '_astro', '_server-islands', '_actions']) {
      expect(isShopRoute(segment), segment).toBe(true);
    }
    // The list, any case.
    for (const segment of [
      'index',
      'panier',
      'paiement',
      'connexion',
      'espace-revendeur',
      'mon-compte',
      'api',
      'c',
      'p',
      'marque',
      'les-yeux-fermes',
      'PANIER',
      'Espace-Revendeur',
    ]) {
      expect(isShopRoute(segment), segment).toBe(true);
    }
  });
});

const RESERVED = Object.values(SHOP_ROUTES).flat();

/** Spellings of a route that a hostile entry may send, each meant to land on it. */
const hostileSpelling = (name: string) =>
  fc.constantFrom(
    name,
    name.toUpperCase(),
    `${name}/`,
    `/${name}`,
    `./${name}`,
    `a/../${name}`,
    `${name}/.`,
    `${name}.html`,
    `${name}/index`,
    encodeURIComponent(name).replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`),
    `${name}%2f`,
    `${name}//x`,
    ` ${name}`,
    `${name}\u0000`,
    `${name}\\x`,
    'index',
    `x/index`,
  );

/** Any text an upstream field may hold: unicode, separators, dots, escapes. */
const anyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({
    unit: fc.constantFrom('a', 'b', '-', '/', '.', '%', '2', 'f', 'A', 'é', 'œ', ' ', '\\', '_'),
    maxLength: 40,
  }),
  fc.constantFrom(...RESERVED).chain(hostileSpelling),
);

describe('content slugs', () => {
  test.each([
    ['index', 'names index'],
    ['espace-revendeur', 'route'],
    ['panier', 'route'],
    ['mon-compte/adresses', 'route'],
    ['_image', 'canonical'],
    ['../panier', 'dot segment'],
    ['aide//retours', 'empty segment'],
    ['aide/', 'empty segment'],
    ['Aide', 'canonical'],
    ['aide%2fretours', 'canonical'],
    ['aide/index', 'names index'],
    ['a/b/c/d/e', 'more than 4'],
    ['x'.repeat(MAX_SLUG_LENGTH + 1), 'longer than'],
  ])('%s is refused (%s)', (slug, reason) => {
    expect(contentSlugRefusal(slug)).toContain(reason);
  });

  test.each(['cgv', 'aide/retours', 'mentions-legales', 'a/b/c/d', 'panier-de-saison'])(
    '%s is taken',
    (slug) => {
      expect(contentSlugRefusal(slug)).toBeNull();
    },
  );

  test('property: a slug taken is canonical, names no route of the shop and not index', () => {
    fc.assert(
      fc.property(anyText, (slug) => {
        if (contentSlugRefusal(slug) !== null) return;
        const pathname = `/${slug}`;
        expect(canonicalPath(pathname)).toBe(pathname);
        const segments = slug.split('/');
        expect(isShopRoute(segments[0] ?? '')).toBe(false);
        expect(segments).not.toContain('index');
      }),
      { numRuns: 3000 },
    );
  });

  test('property: every hostile spelling of a route of the shop is refused', () => {
    fc.assert(
      fc.property(fc.constantFrom(...RESERVED).chain(hostileSpelling), (slug) => {
        expect(contentSlugRefusal(slug)).not.toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  test('sleep-content slugs: one canonical segment, not the list’s page route', () => {
    expect(sleepSlugRefusal('page')).toContain('route');
    expect(sleepSlugRefusal('index')).toContain('index');
    expect(sleepSlugRefusal('a/b')).toContain('more than 1');
    expect(sleepSlugRefusal('bien-dormir')).toBeNull();
  });

  test('screenContent leaves the refused entries out and names them', () => {
    const page = (id: string, slug: string) => ({ id, slug }) as ContentPage;
    const entry = (id: string, slug: string) => ({ id, slug }) as SleepContent;
    const content = {
      pages: [page('p1', 'cgv'), page('p2', 'index'), page('p3', 'espace-revendeur')],
      sleepContents: [entry('s1', 'respirer'), entry('s2', '../../panier')],
      technologies: [],
      tags: [],
    };
    const { content: screened, refused } = screenContent(content);
    expect(screened.pages.map((p) => p.id)).toEqual(['p1']);
    expect(screened.sleepContents.map((s) => s.id)).toEqual(['s1']);
    expect(refused.map(({ kind, id }) => `${kind} ${id}`)).toEqual([
      'content page p2',
      'content page p3',
      'sleep content s2',
    ]);
    // Nothing refused: the same object (a publish compares content by reference first).
    const clean = { ...content, pages: [page('p1', 'cgv')], sleepContents: [] };
    expect(screenContent(clean).content).toBe(clean);
  });
});

describe('category URLs', () => {
  test.each([
    ['/../panier/', 'dot segment'],
    ['/matelas/../../x/', 'dot segment'],
    ['/matelas/./x/', 'dot segment'],
    ['//matelas/', 'empty segment'],
    ['/Matelas/', 'canonical'],
    ['/matelas%2fx/', 'canonical'],
    ['/matelas/index/', 'names index'],
    ['/', 'empty'],
    ['', 'empty'],
  ])('%s is refused (%s)', (url, reason) => {
    expect(categoryUrlRefusal(url)).toContain(reason);
  });

  test.each(['/matelas/', '/matelas/matelas-hybrides/', 'matelas', '/panier/'])(
    '%s is taken (below /c/, a route name is a plain segment)',
    (url) => {
      expect(categoryUrlRefusal(url)).toBeNull();
    },
  );

  test('property: a URL taken gives a canonical /c/ path that is not /c itself', () => {
    fc.assert(
      fc.property(anyText, (url) => {
        if (categoryUrlRefusal(url) !== null) return;
        const pathname = categoryPath(url);
        expect(canonicalPath(pathname)).toBe(pathname);
        expect(pathname.startsWith('/c/')).toBe(true);
        expect(pathname.split('/')).not.toContain('index');
      }),
      { numRuns: 3000 },
    );
  });

  test('a refused category is not shown, nor its children, and is named', () => {
    const node = (id: number, url: string, children: CategoryNode[] = []): CategoryNode => ({
      id,
      parentId: 0,
      name: `c${String(id)}`,
      url,
      isVisible: true,
      children,
    });
    const tree = [
      node(1, '/matelas/', [node(2, '/matelas/../../panier/', [node(3, '/matelas/x/')])]),
      node(4, '/oreillers/'),
    ];
    const shown = visibleTree(tree, []);
    expect(shown.map((n) => [n.id, n.children.map((c) => c.id)])).toEqual([
      [1, []],
      [4, []],
    ]);
    const refused = refusedCategories(tree);
    expect(refused.map(({ id, url }) => [id, url])).toEqual([[2, '/matelas/../../panier/']]);
    expect(refused[0]?.reason).toContain('dot segment');
  });
});

describe('slugs of names', () => {
  /** Names as upstream sends them: any unicode, ligatures, emoji, very long. */
  const names = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 400 }),
    fc.string({ unit: 'binary', maxLength: 400 }),
    fc
      .tuple(fc.constantFrom('œ', 'Œ', 'æ', '😴', 'é', 'ß', ' ', '-', 'a'), fc.nat(1200))
      .map(([unit, count]) => unit.repeat(count)),
    fc
      .array(fc.constantFrom('matelas', 'œuvre', 'très', 'long', '140×190', '😴', '—'), {
        maxLength: 80,
      })
      .map((words) => words.join(' ')),
  );

  test('130 "œ" give a slug within the cap (it gave 260 characters, and ENAMETOOLONG)', () => {
    const slug = slugify('œ'.repeat(130));
    expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(slug).toMatch(/^(oe)+$/);
    expect(productPath({ id: 7, name: 'œ'.repeat(130) })).toBe(`/p/7/${slug}`);
  });

  test('a long name is cut at a word boundary, the same way each time', () => {
    const name = Array.from({ length: 40 }, (_, i) => `mot${String(i)}`).join(' ');
    const slug = slugify(name);
    expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(name.replaceAll(' ', '-').startsWith(`${slug}-`)).toBe(true);
    expect(slugify(name)).toBe(slug);
  });

  test('property: any name gives a canonical slug within the cap (bytes too), and a valid path', () => {
    fc.assert(
      fc.property(names, fc.integer({ min: 1, max: 2 ** 31 }), (name, id) => {
        const slug = slugify(name);
        expect(Buffer.byteLength(slug, 'utf8')).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
        expect(slug === '' || /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)).toBe(true);
        const product = productPath({ id, name });
        expect(canonicalPath(product)).toBe(product);
        const last = product.slice(product.lastIndexOf('/') + 1);
        // Taken unless the name is exactly "index" in some spelling.
        expect(productSlugRefusal(last) === null).toBe(last !== 'index');
        const brand = brandPath({ name, url: null });
        const brandSlug = brand.slice('/marque/'.length);
        expect(canonicalPath(brand)).toBe(brand);
        expect(brandSlugRefusal(brandSlug) === null).toBe(brandSlug !== 'index');
      }),
      { numRuns: 1500 },
    );
  });

  test('property: capSlug is stable, within the cap and a prefix of the slug', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z0-9]{1,30}$/), { minLength: 1, maxLength: 30 }),
        (words) => {
          const slug = words.join('-');
          const cut = capSlug(slug);
          expect(cut.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
          expect(capSlug(cut)).toBe(cut);
          expect(slug.startsWith(cut)).toBe(true);
          expect(cut).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        },
      ),
    );
  });
});

describe('the refused log line', () => {
  test('names the kind, id and reason, once per process', () => {
    const lines: string[] = [];
    const sink = (line: string) => lines.push(line);
    logRefused('content page', 'x-unique-1', 'slug "index": names index', sink);
    logRefused('content page', 'x-unique-1', 'slug "index": names index', sink);
    logRefused('content page', 'x-unique-1', 'another reason', sink);
    expect(lines).toEqual([
      '[refused] content page x-unique-1 left out: slug "index": names index',
      '[refused] content page x-unique-1 left out: another reason',
    ]);
  });
});
