/**
 * Seeds the sandbox's Contentful space into the sandbox database: tags, assets
 * (pictures from the picture pool, generated audio), the three named navigations using every
 * link type, category pages with the mega menu pushes of the root categories, content pages,
 * "Les yeux fermés" entries and one technology block per technology of the seeded products.
 * One content page and one sleep entry stay unpublished drafts, linked from published content
 * (the Delivery API then reports them `notResolvable`). With the `hostile` option, a content
 * page, a sleep entry and Footer links carry XSS attempts (seed/contentful-hostile.ts).
 */
import type { DatabaseSync } from 'node:sqlite';
import {
  assetLink,
  CONTENTFUL_LOCALE,
  entryLink,
  type Fields,
  type PublishedEntry,
  type StoredAsset,
  type StoredEntry,
  type StoredTag,
} from './contentful-model.ts';
import { hostileContent } from './contentful-hostile.ts';
import {
  CONTENT_PAGES,
  LEGAL_SLUGS,
  pageId,
  UNPUBLISHED_PAGE,
  type PageSeed,
} from './contentful-pages.ts';
import {
  SLEEP_CONTENT,
  SLEEP_THEMES,
  UNPUBLISHED_SLEEP,
  type SleepSeed,
} from './contentful-sleep.ts';
import { technologyId, technologyText } from './contentful-technologies.ts';
import { imagePool } from './image-pool.ts';
import { richText } from './rich-text.ts';
import { slugify } from './random.ts';
import type { BrandRecord, CategoryRecord } from './types.ts';

export interface ContentfulSeedInput {
  categories: readonly CategoryRecord[];
  brands: readonly BrandRecord[];
  /** Distinct values of the seeded products' `technology` custom field. */
  technologies: readonly string[];
  hostile: boolean;
}

/** Ids other code and tests rely on. */
export const CONTENTFUL_IDS = {
  mainNavigation: 'nav-main',
  sidebarNavigation: 'nav-sidebar',
  footer: 'nav-footer',
  unpublishedPage: pageId(UNPUBLISHED_PAGE.slug),
  unpublishedSleep: `sleep-${UNPUBLISHED_SLEEP.slug}`,
  hostilePage: 'page-page-piegee',
  hostileSleep: 'sleep-episode-piege',
} as const;

export const FORMAT_TAGS: Record<SleepSeed['format'], { id: string; name: string }> = {
  podcast: { id: 'formatPodcast', name: 'format:podcast' },
  histoire: { id: 'formatHistoire', name: 'format:histoire' },
  video: { id: 'formatVideo', name: 'format:video' },
  article: { id: 'formatArticle', name: 'format:article' },
};

const FAVOURITE_TAG = { id: 'coupDeCoeur', name: 'Coup de cœur' };
const PRIVATE_TAG = { id: 'relectureInterne', name: 'relecture interne' };

/** `2024-01-02T09:00:00.000Z` plus `minutes`. */
function at(base: string, minutes = 0): string {
  return new Date(Date.parse(base) + minutes * 60_000).toISOString();
}

const SPACE_CREATED = '2024-01-02T09:00:00.000Z';

interface Draft {
  id: string;
  contentType: string;
  fields: Fields;
  tags: string[];
  published: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Mega menu pushes of the root categories (titlePush, contentPush markup). */
const PUSHES: Record<string, readonly [string, readonly string[]]> = {
  Matelas: [
    '100 nuits pour adopter votre matelas',
    [
      '**Essai de 100 nuits** sur tous nos matelas, reprise de l’ancien offerte.',
      'Perdu entre ressorts et mémoire de forme ? Lisez notre [guide complet](entry:sleep-bien-choisir-son-matelas-le-guide-complet).',
    ],
  ],
  Sommiers: [
    'Le sommier, moitié du confort',
    ['Un sommier neuf prolonge la vie de votre matelas. *Livraison et montage à deux personnes.*'],
  ],
  'Ensembles literie': [
    'Matelas et sommier assortis',
    ['Jusqu’à **-20 %** sur l’ensemble par rapport aux deux achetés séparément.'],
  ],
  Oreillers: [
    'Trouvez l’oreiller de votre position',
    [
      'Sur le dos, le côté ou le ventre : écoutez notre épisode [Choisir son oreiller selon sa position](entry:sleep-choisir-son-oreiller-selon-sa-position).',
    ],
  ],
  Couettes: [
    'Une couette pour chaque saison',
    [
      'Légère, tempérée ou chaude : découvrez [la bonne température pour dormir](entry:sleep-quelle-temperature-pour-bien-dormir).',
    ],
  ],
  'Linge de lit': [
    'Percale, satin ou lin lavé',
    [
      'Des coloris coordonnés, du drap housse aux taies. __Nouveaux coloris__ vert sauge et terracotta.',
    ],
  ],
  Accessoires: [
    'Protégez votre literie',
    ['Un protège-matelas double la durée de vie de votre matelas. À partir de 29 €.'],
  ],
  Lits: [
    'Lits en bois massif des Vosges',
    [
      'Fabriqués à la commande, livrés et montés chez vous. [Voir tous nos contenus](/les-yeux-fermes).',
    ],
  ],
};

const SLEEP_SCENES = ['oreiller', 'couette', 'housse', 'taie', 'plaid', 'traversin', 'drap'];

function titleOfKey(key: string): string {
  const words = key.replace(/-[ab]$/, '').split('-');
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export interface ContentfulSeed {
  entries: Draft[];
  assets: StoredAsset[];
  tags: StoredTag[];
}

/** The whole space, deterministic. */
export function buildContentfulSeed(input: ContentfulSeedInput): ContentfulSeed {
  const entries: Draft[] = [];
  const assets = new Map<string, StoredAsset>();
  const tags: StoredTag[] = [];
  let clock = 0;
  const add = (
    id: string,
    contentType: string,
    fields: Fields,
    options: { tags?: string[]; published?: boolean; createdAt?: string; updatedAt?: string } = {},
  ): string => {
    const createdAt = options.createdAt ?? at(SPACE_CREATED, clock++);
    entries.push({
      id,
      contentType,
      fields,
      tags: options.tags ?? [],
      published: options.published ?? true,
      createdAt,
      updatedAt: options.updatedAt ?? createdAt,
    });
    return id;
  };

  // Tags.
  const tag = (id: string, name: string, visibility: 'public' | 'private' = 'public'): void => {
    tags.push({ id, name, visibility, createdAt: at(SPACE_CREATED, tags.length) });
  };
  for (const t of Object.values(FORMAT_TAGS)) tag(t.id, t.name);
  for (const [name, id] of Object.entries(SLEEP_THEMES)) tag(id, `theme:${name}`);
  tag(FAVOURITE_TAG.id, FAVOURITE_TAG.name);
  tag(PRIVATE_TAG.id, PRIVATE_TAG.name, 'private');

  // Assets.
  const pool = imagePool();
  const picture = (key: string, title?: string, id = `img-${key}`): string => {
    if (!assets.has(id)) {
      assets.set(id, {
        id,
        title: title ?? titleOfKey(key),
        description: '',
        kind: 'image',
        source: key,
        fileName: `${slugify(title ?? key)}.jpg`,
        contentType: 'image/jpeg',
        width: 1280,
        height: 1280,
        createdAt: at(SPACE_CREATED, 100 + assets.size),
        updatedAt: at(SPACE_CREATED, 100 + assets.size),
      });
    }
    return id;
  };
  const sound = (id: string, title: string, kind: 'audio' | 'video', index: number): string => {
    // A quiet tone per asset (see media.ts); 'video' is a WAV too (no video encoder here).
    const frequencies = [196, 220, 247, 262, 294, 330, 349, 392];
    assets.set(id, {
      id,
      title,
      description:
        kind === 'video'
          ? 'Vidéo du bac à sable : une piste sonore WAV (aucune image).'
          : 'Extrait sonore du bac à sable.',
      kind,
      source: String(frequencies[index % frequencies.length] ?? 220),
      seconds: 3 + (index % 3),
      fileName: `${id}.wav`,
      contentType: 'audio/wav',
      createdAt: at(SPACE_CREATED, 200 + assets.size),
      updatedAt: at(SPACE_CREATED, 200 + assets.size),
    });
    return id;
  };
  picture('matelas-blanc-b', 'Entretien du matelas en images', 'asset-guide-matelas');

  // Pages (shop routes).
  const pages: Record<string, string> = {};
  for (const [slug, title] of [
    ['', 'Accueil'],
    ['les-yeux-fermes', 'Les yeux fermés'],
    ['panier', 'Mon panier'],
    ['resultats-de-recherche', 'Rechercher'],
  ] as const) {
    pages[slug] = add(`route-${slug || 'accueil'}`, 'page', { title, slug });
  }

  // Category pages: roots with pushes, leaves for the sidebar; hidden and unknown ones too.
  const categoryPage = (c: CategoryRecord, withPush: boolean): string => {
    const push = withPush ? PUSHES[c.name] : undefined;
    return add(`cat-${c.id}`, 'categoryPage', {
      title: c.name,
      categoryId: c.id,
      ...(push ? { titlePush: push[0], contentPush: richText(...push[1]) } : {}),
    });
  };
  const roots = input.categories.filter((c) => c.parent_id === 0);
  const rootIds = roots.map((c) => categoryPage(c, true));
  const byName = (name: string): CategoryRecord => {
    const found = input.categories.find((c) => c.name === name);
    if (!found) throw new Error(`contentful seed: unknown category ${name}`);
    return found;
  };
  const matelas = byName('Matelas');
  const matelasLeaves = input.categories
    .filter((c) => c.parent_id !== 0 && c.custom_url.url.startsWith(`${matelas.custom_url.url}/`))
    .filter((c) => !input.categories.some((child) => child.parent_id === c.id));
  const leafIds = matelasLeaves.map((c) => categoryPage(c, false));
  const unknownCategory = add('cat-unknown', 'categoryPage', {
    title: 'Catégorie supprimée',
    categoryId: 999_999,
  });

  // Brand corners.
  const brandIds = input.brands.map((b) =>
    add(`brand-${slugify(b.name)}`, 'brandCorner', {
      title: b.name,
      slug: b.custom_url.url.replace(/^\/marque\//, ''),
    }),
  );

  // Calls to action.
  const cta = (id: string, title: string, type: string, url: string): string =>
    add(`cta-${id}`, 'callToAction', { title, type, url });
  const ctaPodcasts = cta('podcasts', 'Podcasts', 'free', '/les-yeux-fermes?tag=podcast');
  const ctaStories = cta('histoires', 'Histoires du soir', 'free', '/les-yeux-fermes?tag=histoire');
  const ctaVideos = cta('videos', 'Vidéos', 'free', '/les-yeux-fermes?tag=video');
  const ctaArticles = cta('articles', 'Articles', 'free', '/les-yeux-fermes?tag=article');
  const ctaCart = cta('panier', 'Mon panier', 'internal', '/panier');
  const ctaAccount = cta('mon-compte', 'Mon compte', 'internal', '/mon-compte');
  const ctaStores = cta('magasins', 'Nos magasins', 'internal', '/contact');
  const ctaInstagram = cta('instagram', 'Instagram', 'external', 'https://www.instagram.com/');
  const ctaInstitute = cta(
    'institut-sommeil',
    'Institut national du sommeil',
    'external',
    'https://institut-sommeil-vigilance.org/',
  );

  // Content pages.
  const pageEntry = (p: PageSeed, published: boolean): string =>
    add(
      pageId(p.slug),
      'contentPage',
      { title: p.title, slug: p.slug, description: p.description, body: richText(...p.body) },
      { published, updatedAt: `${p.updatedAt}T10:00:00.000Z` },
    );
  const pageIds = new Map(CONTENT_PAGES.map((p) => [p.slug, pageEntry(p, true)]));
  const unpublishedPage = pageEntry(UNPUBLISHED_PAGE, false);
  const pageRef = (slug: string): string => {
    const id = pageIds.get(slug);
    if (!id) throw new Error(`contentful seed: unknown page ${slug}`);
    return id;
  };

  // Technologies.
  const techPictures = pool.filter((p) => p.view === 'a');
  input.technologies.forEach((name, index) => {
    const [title, paragraphs] = technologyText(name);
    const image = index % 3 === 2 ? undefined : techPictures[(index * 5) % techPictures.length];
    add(technologyId(name), 'productContent', {
      component: 'ProductContentTechnologies',
      name,
      title,
      description: richText(...paragraphs),
      ...(image ? { image: assetLink(picture(image.key)) } : {}),
    });
  });

  // Les yeux fermés.
  const sleepPictures = pool.filter((p) => SLEEP_SCENES.includes(p.scene));
  const sleepEntry = (s: SleepSeed, index: number, published: boolean): string => {
    const id = `sleep-${s.slug}`;
    const image = sleepPictures[(index * 7) % sleepPictures.length];
    const media =
      s.format === 'podcast' || s.format === 'histoire'
        ? { audio: assetLink(sound(`audio-${s.slug}`.slice(0, 64), s.title, 'audio', index)) }
        : s.format === 'video'
          ? { video: assetLink(sound(`video-${s.slug}`.slice(0, 64), s.title, 'video', index)) }
          : {};
    const related = s.related.map((slug) => entryLink(`sleep-${slug}`));
    // The first podcast also points at the unpublished draft (notResolvable in its includes).
    if (index === 0) related.push(entryLink(`sleep-${UNPUBLISHED_SLEEP.slug}`));
    const tagIds = [
      FORMAT_TAGS[s.format].id,
      ...s.themes.map((t) => SLEEP_THEMES[t] ?? 'themeRythmes'),
      ...(s.favourite ? [FAVOURITE_TAG.id] : []),
      ...(index % 9 === 4 ? [PRIVATE_TAG.id] : []),
    ];
    const created = `${s.publishedAt}T07:30:00.000Z`;
    return add(
      id,
      'sleepContent',
      {
        title: s.title,
        slug: s.slug,
        excerpt: s.excerpt,
        ...(s.episode !== undefined ? { episode: s.episode } : {}),
        ...(s.duration !== undefined ? { duration: s.duration } : {}),
        ...(image ? { image: assetLink(picture(image.key)) } : {}),
        ...media,
        body: richText(...s.body),
        ...(related.length > 0 ? { related } : {}),
        publishedAt: s.publishedAt,
      },
      { tags: tagIds, published, createdAt: created, updatedAt: created },
    );
  };
  SLEEP_CONTENT.forEach((s, index) => sleepEntry(s, index, true));
  sleepEntry(UNPUBLISHED_SLEEP, SLEEP_CONTENT.length, false);

  // Navigations: groups first, then the three named ones.
  const group = (id: string, title: string, childrens: string[]): string =>
    add(`nav-${id}`, 'navigation', { title, childrens: childrens.map(entryLink) });
  const hostile = input.hostile ? hostileContent() : undefined;
  if (hostile) {
    for (const e of hostile.entries) add(e.id, e.contentType, e.fields, { tags: e.tags });
  }

  const sidebarMatelas = group('sidebar-matelas', 'Matelas', leafIds);
  const sidebarProducts = group('sidebar-produits', 'Nos produits', [
    sidebarMatelas,
    ...rootIds.slice(1),
  ]);
  const sidebarBrands = group('sidebar-marques', 'Nos marques', brandIds);
  const sidebarSleep = group('sidebar-yeux-fermes', 'Les yeux fermés', [
    pages['les-yeux-fermes'] ?? '',
    ctaPodcasts,
    ctaStories,
    ctaVideos,
    ctaArticles,
  ]);
  const sidebarAccount = group('sidebar-compte', 'Mon compte', [
    ctaAccount,
    ctaCart,
    pages['resultats-de-recherche'] ?? '',
  ]);
  const sidebarHelp = group('sidebar-aide', 'Besoin d’aide ?', [
    pageRef('aide'),
    pageRef('faq'),
    pageRef('livraison'),
    pageRef('aide/retours'),
    pageRef('contact'),
  ]);
  const footerLegal = group(
    'footer-legal',
    'Informations légales',
    LEGAL_SLUGS.map((slug) => pageRef(slug)),
  );
  const footerServices = group('footer-services', 'Services', [
    pageRef('aide'),
    pageRef('livraison'),
    pageRef('aide/retours'),
    pageRef('faq'),
    pageRef('contact'),
    pageRef('devenir-affilie'),
    unpublishedPage,
  ]);
  const footerBrand = group('footer-literie-lumiere', 'Literie Lumière', [
    ctaStores,
    ctaPodcasts,
    ctaInstagram,
    ctaInstitute,
    pages.panier ?? '',
    ...(hostile ? hostile.footerLinks : []),
  ]);

  add(CONTENTFUL_IDS.mainNavigation, 'navigation', {
    identifier: 'Main Navigation',
    title: 'Navigation principale',
    childrens: [...rootIds, unknownCategory, pages['les-yeux-fermes'] ?? ''].map(entryLink),
  });
  add(CONTENTFUL_IDS.sidebarNavigation, 'navigation', {
    identifier: 'Sidebar Navigation',
    title: 'Menu',
    childrens: [
      pages[''] ?? '',
      sidebarProducts,
      sidebarBrands,
      sidebarSleep,
      sidebarAccount,
      sidebarHelp,
    ].map(entryLink),
  });
  add(CONTENTFUL_IDS.footer, 'navigation', {
    identifier: 'Footer',
    title: 'Pied de page',
    childrens: [footerLegal, footerServices, footerBrand].map(entryLink),
  });

  if (hostile) for (const a of hostile.assets) assets.set(a.id, a);
  return { entries, assets: [...assets.values()], tags };
}

function localized(fields: Fields): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [key, { [CONTENTFUL_LOCALE]: value }]),
  );
}

/** Writes the space into the (freshly created) ctf_* tables. */
export function seedContentful(db: DatabaseSync, input: ContentfulSeedInput): void {
  const seed = buildContentfulSeed(input);
  const insertTag = db.prepare('INSERT INTO ctf_tags VALUES (?, ?)');
  for (const t of seed.tags) insertTag.run(t.id, JSON.stringify(t));
  const insertAsset = db.prepare('INSERT INTO ctf_assets VALUES (?, ?, ?)');
  seed.assets.forEach((a, index) => insertAsset.run(a.id, index, JSON.stringify(a)));
  const insertEntry = db.prepare('INSERT INTO ctf_entries VALUES (?, ?, ?, ?, ?)');
  seed.entries.forEach((e, index) => {
    const stored: StoredEntry = {
      sys: {
        id: e.id,
        contentType: e.contentType,
        createdAt: e.createdAt,
        updatedAt: e.updatedAt,
        version: e.published ? 2 : 1,
        publishedCounter: e.published ? 1 : 0,
        ...(e.published
          ? { publishedVersion: 1, publishedAt: e.updatedAt, firstPublishedAt: e.createdAt }
          : {}),
      },
      fields: localized(e.fields),
      tags: e.tags,
    };
    const published: PublishedEntry | null = e.published
      ? {
          id: e.id,
          contentType: e.contentType,
          createdAt: e.createdAt,
          updatedAt: e.updatedAt,
          revision: 1,
          publishedVersion: 1,
          fields: e.fields,
          tags: e.tags,
        }
      : null;
    insertEntry.run(
      e.id,
      index,
      e.contentType,
      JSON.stringify(stored),
      published ? JSON.stringify(published) : null,
    );
  });
}
