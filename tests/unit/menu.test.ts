/**
 * The menus of the layout from the content service's navigations (src/shop/view-models/layout/menu.ts):
 * every link type becomes an item, category pages carry their category and push, hidden
 * categories and resellers' hidden links are dropped, and an empty navigation falls back to
 * the category tree (never an empty header).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  categoryItems,
  foldEntries,
  footerColumns,
  isFold,
  mainMenu,
  type MenuItem,
  sidebarMenu,
} from '../../src/shop/view-models/layout/menu.ts';
import { isSocialLink } from '../../src/lib/commerce/shop-mode.ts';
import type { CategoryNode } from '../../src/lib/commerce/types.ts';
import type {
  NavigationEntry,
  NavigationLinkType,
  RichTextDocument,
} from '../../src/lib/content/types.ts';
import { navEntry } from './helpers/navigations.ts';

function node(id: number, name: string, url: string, children: CategoryNode[] = []): CategoryNode {
  return { id, parentId: 0, name, url, isVisible: true, children };
}

const TREE: CategoryNode[] = [
  node(10, 'Matelas', '/matelas/', [node(11, 'Matelas ressorts', '/matelas/ressorts/')]),
  node(20, 'Linge de lit', '/linge-de-lit/'),
];

const PUSH: RichTextDocument = {
  nodeType: 'document',
  data: {},
  content: [
    {
      nodeType: 'paragraph',
      data: {},
      content: [{ nodeType: 'text', data: {}, value: '-20 %', marks: [] }],
    },
  ],
};

/** An entry of `type` labelled by its key, with no title and no slug unless `extra` sets them. */
function entry(
  key: string,
  type: NavigationLinkType,
  url: string | null,
  extra: Partial<NavigationEntry> = {},
): NavigationEntry {
  return navEntry(key, key, url ?? '', type, { title: null, slug: null, url, ...extra });
}

const MAIN: NavigationEntry[] = [
  entry('Matelas', 'categoryPage', '/c/matelas', {
    categoryId: 10,
    titlePush: 'Les soldes',
    contentPush: PUSH,
  }),
  entry('Marque', 'brandCorner', '/marque/dunlopillo'),
  entry('Accueil', 'page', '/'),
  entry('Blog', 'callToActionExternal', 'https://blog.example.fr/'),
  entry('Panier', 'callToActionInternal', '/panier'),
  entry('Podcasts', 'callToActionFree', '/les-yeux-fermes?tag=formatPodcast'),
  entry('CGV', 'contentPage', '/cgv'),
  entry('Aide', 'group', null, {
    childrens: [entry('FAQ', 'contentPage', '/aide'), entry('Contact', 'contentPage', '/contact')],
  }),
  entry('Cachée', 'categoryPage', '/c/cachee', { categoryId: 999 }),
  entry('Vide', 'group', null),
];

describe('mainMenu', () => {
  test('every link type of spec §3 is an item; a category page carries its category and push', () => {
    const items = mainMenu(TREE, MAIN);
    expect(items.map((item) => [item.label, item.url, item.external])).toEqual([
      ['Matelas', '/c/matelas', false],
      ['Marque', '/marque/dunlopillo', false],
      ['Accueil', '/', false],
      ['Blog', 'https://blog.example.fr/', true],
      ['Panier', '/panier', false],
      ['Podcasts', '/les-yeux-fermes?tag=formatPodcast', false],
      ['CGV', '/cgv', false],
      ['Aide', null, false],
    ]);
    const [matelas] = items;
    expect(matelas?.category?.children.map((child) => child.name)).toEqual(['Matelas ressorts']);
    expect(matelas?.push).toEqual({ title: 'Les soldes', content: PUSH, link: '/c/matelas' });
    expect(items.at(-1)?.children.map((child) => child.url)).toEqual(['/aide', '/contact']);
  });

  test('a category page of a hidden or unknown category and an empty group are dropped', () => {
    const labels = mainMenu(TREE, MAIN).map((item) => item.label);
    expect(labels).not.toContain('Cachée');
    expect(labels).not.toContain('Vide');
  });

  test('resellers see no sleep-content or affiliate link (spec §6)', () => {
    const nav = [
      ...MAIN,
      entry('Affiliation', 'contentPage', '/devenir-affilie'),
      entry('Les yeux fermés', 'page', '/les-yeux-fermes'),
      entry('Épisode', 'contentPage', '/les-yeux-fermes/respirer'),
    ];
    const shopper = mainMenu(TREE, nav).map((item) => item.url);
    expect(shopper).toEqual(
      expect.arrayContaining(['/devenir-affilie', '/les-yeux-fermes', '/les-yeux-fermes/respirer']),
    );
    const reseller = mainMenu(TREE, nav, { isReseller: true }).map((item) => item.url ?? '');
    expect(reseller.filter((url) => /les-yeux-fermes|devenir-affilie/.test(url))).toEqual([]);
    expect(reseller).toContain('/c/matelas');
  });

  test('resellers see no social link; their cart links open the reseller cart (spec §6)', () => {
    const footer = [
      entry('Suivez-nous', 'group', null, {
        childrens: [
          entry('Instagram', 'callToActionExternal', 'https://www.instagram.com/literie'),
          entry('LinkedIn', 'callToActionExternal', 'https://fr.linkedin.com/company/literie'),
          entry('Magasins', 'callToActionExternal', 'https://magasins.example.fr/'),
          entry('Mon panier', 'page', '/panier'),
          entry('Panier partagé', 'page', '/panier?vue=1'),
        ],
      }),
    ];
    const links = (isReseller: boolean) =>
      footerColumns(TREE, footer, { isReseller }).flatMap((column) =>
        column.links.map((link) => link.url),
      );
    expect(links(false)).toEqual([
      'https://www.instagram.com/literie',
      'https://fr.linkedin.com/company/literie',
      'https://magasins.example.fr/',
      '/panier',
      '/panier?vue=1',
    ]);
    expect(links(true)).toEqual([
      'https://magasins.example.fr/',
      '/espace-revendeur/panier',
      '/espace-revendeur/panier?vue=1',
    ]);
  });

  test('no link to a page of a feature switched off (spec §1, §6)', () => {
    const nav = [
      ...MAIN,
      entry('Mon panier', 'page', '/panier'),
      entry('Mon compte', 'page', '/mon-compte/mes-commandes?x=1'),
      entry('Espace pro', 'page', '/espace-revendeur'),
    ];
    const on = { transactional: true, reviews: true, resellerArea: true };
    const all = mainMenu(TREE, nav, { features: on }).map((item) => item.url);
    expect(all).toEqual(
      expect.arrayContaining(['/panier', '/mon-compte/mes-commandes?x=1', '/espace-revendeur']),
    );
    const off = mainMenu(TREE, nav, { features: { ...on, transactional: false } }).map(
      (item) => item.url ?? '',
    );
    expect(off.filter((url) => /panier|mon-compte|espace-revendeur/.test(url))).toEqual([]);
    expect(off).toContain('/c/matelas');
    const noArea = mainMenu(TREE, nav, { features: { ...on, resellerArea: false } });
    expect(noArea.map((item) => item.url)).not.toContain('/espace-revendeur');
  });

  test('no navigation: the root categories, never an empty header', () => {
    expect(mainMenu(TREE, [])).toEqual(categoryItems(TREE));
    expect(mainMenu(TREE, []).map((item) => item.url)).toEqual(['/c/matelas', '/c/linge-de-lit']);
    expect(sidebarMenu(TREE, [entry('Vide', 'group', null)]).length).toBe(2);
  });

  test('property: every item has a label and leads somewhere or groups links', () => {
    const types: NavigationLinkType[] = [
      'page',
      'brandCorner',
      'categoryPage',
      'callToActionExternal',
      'callToActionInternal',
      'callToActionFree',
      'contentPage',
      'group',
    ];
    const arbitraryEntry = fc.letrec((tie) => ({
      entry: fc.record({
        key: fc.string({ maxLength: 8 }),
        type: fc.constantFrom(...types),
        label: fc.string({ maxLength: 12 }),
        title: fc.option(fc.string({ maxLength: 12 }), { nil: null }),
        slug: fc.constant(null),
        url: fc.option(fc.constantFrom('/a', '/les-yeux-fermes', 'https://x.example/'), {
          nil: null,
        }),
        isExternalLink: fc.boolean(),
        categoryId: fc.option(fc.constantFrom(10, 11, 20, 999), { nil: null }),
        titlePush: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
        contentPush: fc.constant(null),
        identifier: fc.constant(null),
        childrens: fc.oneof(
          { depthSize: 'small' },
          fc.constant([]),
          fc.array(tie('entry'), { maxLength: 3 }),
        ),
      }),
    })).entry as fc.Arbitrary<NavigationEntry>;
    fc.assert(
      fc.property(fc.array(arbitraryEntry, { maxLength: 6 }), fc.boolean(), (nav, isReseller) => {
        const check = (items: ReturnType<typeof mainMenu>): void => {
          for (const item of items) {
            expect(item.label.trim()).not.toBe('');
            expect(item.url !== null || item.children.length > 0 || item.category !== null).toBe(
              true,
            );
            if (isReseller && item.url && !item.external) {
              expect(item.url.startsWith('/les-yeux-fermes')).toBe(false);
            }
            check(item.children);
          }
        };
        const items = mainMenu(TREE, nav, { isReseller });
        expect(items.length).toBeGreaterThan(0);
        check(items);
      }),
    );
  });
});

describe('footerColumns', () => {
  test('groups become titled columns, loose links one more column', () => {
    const footer = [
      entry('Informations', 'group', null, {
        childrens: [
          entry('CGV', 'contentPage', '/cgv'),
          entry('Cookies', 'contentPage', '/cookies'),
        ],
      }),
      entry('Blog', 'callToActionExternal', 'https://blog.example.fr/'),
      entry('Matelas', 'categoryPage', '/c/matelas', { categoryId: 10 }),
    ];
    expect(
      footerColumns(TREE, footer).map((column) => [
        column.title,
        column.links.map((link) => link.url),
      ]),
    ).toEqual([
      ['Informations', ['/cgv', '/cookies']],
      [null, ['https://blog.example.fr/', '/c/matelas']],
    ]);
    expect(footerColumns(TREE, [])).toEqual([]);
    // Links the legal bar already shows are left out; a column left empty goes.
    expect(
      footerColumns(TREE, footer, { exclude: ['/cgv', '/cookies'] }).map((column) => column.title),
    ).toEqual([null]);
  });
});

/** The one item of a menu (the test fails when there is not exactly one). */
function only(items: readonly MenuItem[]): MenuItem {
  expect(items).toHaveLength(1);
  const [item] = items;
  if (item === undefined) throw new Error('no menu item');
  return item;
}

describe('groups without a URL are kept as folds in every menu', () => {
  // The seed's Sidebar Navigation: "Nos produits" (a group) holds "Matelas" (a group without a
  // URL of its own) whose children are links, beside a category page.
  const SIDEBAR: NavigationEntry[] = [
    entry('Nos produits', 'group', null, {
      childrens: [
        entry('Matelas', 'group', null, {
          childrens: [
            entry('Matelas ressorts', 'categoryPage', '/c/matelas/ressorts', { categoryId: 11 }),
            entry('Matelas mousse', 'callToActionInternal', '/c/matelas?taille=140x190'),
          ],
        }),
        entry('Linge de lit', 'categoryPage', '/c/linge-de-lit', { categoryId: 20 }),
        entry('Vide', 'group', null),
      ],
    }),
  ];

  test('the menu sidebar keeps the nested group and its links', () => {
    const products = only(sidebarMenu(TREE, SIDEBAR));
    expect(products.label).toBe('Nos produits');
    const folds = foldEntries(products);
    expect(folds.map((item) => [item.label, item.url, isFold(item)])).toEqual([
      ['Matelas', null, true],
      ['Linge de lit', '/c/linge-de-lit', false],
    ]);
    expect(folds[0]?.children.map((item) => item.url)).toEqual([
      '/c/matelas/ressorts',
      '/c/matelas?taille=140x190',
    ]);
  });

  test("a category page's fold lists its visible child categories after its own entries", () => {
    const folds = foldEntries(sidebarMenu(TREE, MAIN)[0] ?? only([]));
    expect(folds.map((item) => [item.label, item.url, isFold(item)])).toEqual([
      ['Matelas ressorts', '/c/matelas/ressorts', false],
    ]);
  });

  test.each([
    ['a link', entry('A', 'page', '/a'), false],
    [
      'a group with links',
      entry('G', 'group', null, { childrens: [entry('A', 'page', '/a')] }),
      true,
    ],
    [
      'a category page with children (a link with its list)',
      entry('Matelas', 'categoryPage', '/c/matelas', { categoryId: 10 }),
      false,
    ],
  ] as const)('isFold: %s → %s', (_case, nav, expected) => {
    expect(isFold(only(mainMenu(TREE, [nav])))).toBe(expected);
  });

  test('a footer column keeps a nested group as a fold of the links it keeps', () => {
    const footer = [
      entry('Services', 'group', null, {
        childrens: [
          entry('Livraison', 'contentPage', '/livraison'),
          entry('Aide', 'group', null, {
            childrens: [entry('FAQ', 'contentPage', '/faq'), entry('CGV', 'contentPage', '/cgv')],
          }),
          entry('Légal', 'group', null, { childrens: [entry('CGV', 'contentPage', '/cgv')] }),
        ],
      }),
    ];
    const [column] = footerColumns(TREE, footer, { exclude: ['/cgv'] });
    expect(column?.links.map((item) => [item.label, item.url])).toEqual([
      ['Livraison', '/livraison'],
      ['Aide', null],
    ]);
    // Its excluded links go, and a group left empty by the exclusion goes too ("Légal").
    expect(column?.links[1]?.children.map((item) => item.url)).toEqual(['/faq']);
  });
});

describe('isSocialLink (spec §1 social links: linkedin, instagram, facebook)', () => {
  test.each([
    ['https://www.instagram.com/literie', true],
    ['https://instagram.com', true],
    ['https://fr-fr.facebook.com/literie', true],
    ['https://www.linkedin.com/company/x', true],
    ['HTTPS://WWW.FACEBOOK.COM./x', true],
    ['https://instagram.com.evil.example/', false],
    ['https://notinstagram.com/', false],
    ['https://example.fr/?u=https://instagram.com', false],
    ['/instagram', false],
    ['not a url', false],
  ])('%s → %s', (url, social) => {
    expect(isSocialLink(url)).toBe(social);
  });

  test('property: any subdomain of a network is one; a host that only contains its name is not', () => {
    const label = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
    const network = fc.constantFrom('linkedin.com', 'instagram.com', 'facebook.com');
    fc.assert(
      fc.property(fc.array(label, { maxLength: 3 }), network, label, (subs, host, tld) => {
        expect(isSocialLink(`https://${[...subs, host].join('.')}/p`)).toBe(true);
        expect(isSocialLink(`https://${host}.${tld}x.example/p`)).toBe(false);
      }),
    );
  });
});
