/**
 * Navigations for the publisher's unit tests (tests/unit/publish-affected.test.ts; the menus'
 * tests build their entries on `navEntry` too): entries of every navigable content type as the
 * connector maps them (`src/lib/content/navigation.ts`), a site's three named navigations
 * linking them, and edits of one entry by key (what a publish, an unpublish or a delete of that
 * entry does to the navigations).
 */
import type {
  NavigationEntry,
  NavigationLinkType,
  Navigations,
} from '../../../src/lib/content/types.ts';

/** A link entry of `type` (a `page` by default). */
export function navEntry(
  key: string,
  label: string,
  url: string,
  type: NavigationLinkType = 'page',
  extra: Partial<NavigationEntry> = {},
): NavigationEntry {
  return {
    key,
    type,
    label,
    title: label,
    slug: type === 'page' || type === 'contentPage' ? url.slice(1) : null,
    url,
    isExternalLink: type === 'callToActionExternal',
    categoryId: null,
    titlePush: null,
    contentPush: null,
    identifier: null,
    childrens: [],
    ...extra,
  };
}

/** A group (a nested `navigation` entry): a heading over its links. */
export function navGroup(
  key: string,
  label: string,
  childrens: NavigationEntry[],
): NavigationEntry {
  return { ...navEntry(key, label, ''), type: 'group', slug: null, url: null, childrens };
}

/** A `categoryPage` entry of category `categoryId`, with its mega menu push. */
export function categoryEntry(
  key: string,
  label: string,
  url: string,
  categoryId: number,
  titlePush: string | null = null,
): NavigationEntry {
  return navEntry(key, label, url, 'categoryPage', { categoryId, titlePush });
}

/**
 * A site's navigations over the hand-made category tree (1 Matelas `/c/matelas`, 4 Sommiers
 * `/c/sommiers`): every navigable type once at least. The footer's legal group links `/cgv`,
 * which the layout shows in its legal bar under a fixed label, not in a column.
 */
export function siteNavigations(): Navigations {
  return {
    main: [
      categoryEntry('cat-1', 'Matelas', '/c/matelas', 1, 'Nuits douces'),
      categoryEntry('cat-4', 'Sommiers', '/c/sommiers', 4),
      navEntry('route-yeux', 'Les yeux fermés', '/les-yeux-fermes'),
    ],
    sidebar: [
      navEntry('route-accueil', 'Accueil', '/'),
      navGroup('nav-marques', 'Nos marques', [
        navEntry('brand-dunlopillo', 'Dunlopillo', '/marque/dunlopillo', 'brandCorner'),
      ]),
      navGroup('nav-aide', 'Besoin d’aide ?', [
        navEntry('page-aide', 'aide', '/aide', 'contentPage'),
        navEntry('page-contact', 'contact', '/contact', 'contentPage'),
      ]),
      navEntry('cta-podcasts', 'Podcasts', '/les-yeux-fermes?tag=podcast', 'callToActionFree'),
    ],
    footer: [
      navGroup('nav-legal', 'Informations légales', [
        navEntry('page-cgv', 'cgv', '/cgv', 'contentPage'),
      ]),
      navGroup('nav-services', 'Services', [
        navEntry('page-aide-livraison', 'aide/livraison', '/aide/livraison', 'contentPage'),
        navEntry('cta-panier', 'Mon panier', '/panier', 'callToActionInternal'),
        navEntry(
          'cta-instagram',
          'Instagram',
          'https://www.instagram.com/',
          'callToActionExternal',
        ),
      ]),
    ],
  };
}

/** Every entry of the navigations, groups and their links, depth first. */
export function allEntries(navigations: Navigations): NavigationEntry[] {
  const walk = (entries: readonly NavigationEntry[]): NavigationEntry[] =>
    entries.flatMap((entry) => [entry, ...walk(entry.childrens)]);
  return [...walk(navigations.main), ...walk(navigations.sidebar), ...walk(navigations.footer)];
}

/**
 * The navigations with every entry that `match`es replaced by `update` (null: taken out, as an
 * unpublished or deleted entry drops out of the navigations that linked it). Entries left
 * alone keep their objects.
 */
export function editEntries(
  navigations: Navigations,
  match: (entry: NavigationEntry) => boolean,
  update: (entry: NavigationEntry) => NavigationEntry | null,
): Navigations {
  const walk = (entries: readonly NavigationEntry[]): NavigationEntry[] =>
    entries.flatMap((entry) => {
      const changed = match(entry) ? update(entry) : entry;
      if (changed === null) return [];
      const childrens = walk(changed.childrens);
      return [
        childrens.every((child, i) => child === changed.childrens[i]) &&
        childrens.length === changed.childrens.length
          ? changed
          : { ...changed, childrens },
      ];
    });
  return {
    main: walk(navigations.main),
    sidebar: walk(navigations.sidebar),
    footer: walk(navigations.footer),
  };
}
