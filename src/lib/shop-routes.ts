/**
 * The shop's route table (content cannot claim the shop's routes): the one list of
 * the first path segments the shop itself answers, and the one rule deciding whether an
 * upstream entity (a content page, a sleep-content entry, a product, a brand, a category) may
 * have the path its data names. An entity whose path is not canonical, names `index`, or
 * starts with a route of the shop is refused: no page of it is built or published, and its
 * loader logs the entry with the reason (`server/refused.ts`). Pure, without imports.
 *
 * `tests/unit/shop-routes.test.ts` derives the table again from `src/pages/` and `public/` and
 * fails when they differ: a page added without listing it here fails a test.
 */

/**
 * Every first path segment the shop answers itself, lower case, by where it comes from. The
 * pages' and public files' lists are exactly what `src/pages/` and `public/` hold.
 */
export const SHOP_ROUTES = {
  /** The files and folders of `src/pages/` (a file's name without `.astro` / `.ts`). */
  pages: [
    '404',
    '500',
    'api',
    'c',
    'categorie',
    'connexion',
    'deconnexion',
    'design',
    'espace-revendeur',
    'hors-ligne',
    'index',
    'inscription',
    'les-yeux-fermes',
    'marque',
    'mon-compte',
    'mot-de-passe',
    'p',
    'paiement',
    'panier',
    'produit',
    'resultats-de-recherche',
    'robots.txt',
    'sitemap-listings.xml',
    'tailwind',
    'vue',
  ],
  /** The files of `public/`, copied to the client folder as they are. */
  public: ['apple-touch-icon.png', 'favicon-48.png', 'favicon.svg', 'logo.svg', 'og-default.png'],
  /** What the build writes beside the pages: Astro's assets, the sitemaps, the service worker. */
  build: ['_astro', 'sitemap-0.xml', 'sitemap-index.xml', 'sw.js'],
  /** Astro's own on-demand endpoints. */
  astro: ['_actions', '_image', '_server-islands'],
  /** The storefront server's own paths (`src/server/serve.ts`, `src/server/`), legacy paths. */
  server: ['webhooks', 'login.php'],
} as const;

const RESERVED: ReadonlySet<string> = new Set(Object.values(SHOP_ROUTES).flat());

/** Whether `segment` (any case) is the first segment of a route of the shop. */
export function isShopRoute(segment: string): boolean {
  return RESERVED.has(segment.toLowerCase());
}

/**
 * Longest slug segment, in characters (ASCII only, so in bytes too): a file name of the
 * release is a slug plus `.html`, far below the 255 bytes every file system takes.
 */
export const MAX_SLUG_LENGTH = 120;

/** Segments of a nested content-page slug (`aide/livraison`), at most. */
export const MAX_CONTENT_DEPTH = 4;

/** Segments of a category URL (`/matelas/ressorts/`), at most. */
export const MAX_CATEGORY_DEPTH = 8;

/** A canonical segment: lower-case ASCII letters and digits, single hyphens inside. */
const CANONICAL_SEGMENT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Whether `segment` is a canonical slug segment the shop can name a page with. */
export function isCanonicalSegment(segment: string): boolean {
  return segment.length <= MAX_SLUG_LENGTH && CANONICAL_SEGMENT.test(segment);
}

function describeSegment(segment: string): string {
  return JSON.stringify(segment.length > 40 ? `${segment.slice(0, 40)}…` : segment);
}

/** Why these segments cannot name a page of an entity, or null. */
function segmentsRefusal(segments: readonly string[], maxDepth: number): string | null {
  if (segments.length === 0 || (segments.length === 1 && segments[0] === '')) return 'empty';
  if (segments.length > maxDepth) return `more than ${String(maxDepth)} segments`;
  for (const segment of segments) {
    if (segment === '') return 'an empty segment (a doubled, leading or trailing slash)';
    if (segment === '.' || segment === '..') return `a dot segment ${describeSegment(segment)}`;
    if (segment.length > MAX_SLUG_LENGTH) {
      return `a segment longer than ${String(MAX_SLUG_LENGTH)} characters`;
    }
    if (!CANONICAL_SEGMENT.test(segment)) {
      return `a segment that is not canonical ${describeSegment(segment)} (only a-z, 0-9 and single hyphens)`;
    }
    if (segment === 'index') return 'names index';
  }
  return null;
}

/**
 * Why a content page's slug (`cgv`, `aide/livraison`: the path after `/`) cannot be its page,
 * or null: not canonical, `index` anywhere, or a first segment that is a route of the shop.
 */
export function contentSlugRefusal(slug: string): string | null {
  const refusal = segmentsRefusal(slug.split('/'), MAX_CONTENT_DEPTH);
  if (refusal !== null) return refusal;
  const first = slug.split('/')[0] ?? '';
  return isShopRoute(first) ? `names the shop's route /${first}` : null;
}

/** Segments below `/les-yeux-fermes/` that are the list's own routes (`page/{n}`). */
const SLEEP_LIST_ROUTES: ReadonlySet<string> = new Set(['page']);

/** Why a sleep-content entry's slug cannot be its page `/les-yeux-fermes/{slug}`, or null. */
export function sleepSlugRefusal(slug: string): string | null {
  const refusal = segmentsRefusal(slug.split('/'), 1);
  if (refusal !== null) return refusal;
  return SLEEP_LIST_ROUTES.has(slug) ? `names the list's route /les-yeux-fermes/${slug}` : null;
}

/** Why a brand's slug cannot be its page `/marque/{slug}`, or null. */
export function brandSlugRefusal(slug: string): string | null {
  return segmentsRefusal(slug.split('/'), 1);
}

/** Why a product's slug cannot be its page `/p/{id}/{slug}`, or null. */
export function productSlugRefusal(slug: string): string | null {
  return segmentsRefusal(slug.split('/'), 1);
}

/**
 * Why a category's upstream URL (`/matelas/ressorts/`: one leading and one trailing slash at
 * most around canonical segments) cannot be its listing `/c/matelas/ressorts`, or null.
 */
export function categoryUrlRefusal(url: string): string | null {
  const inner = url.replace(/^\//, '').replace(/\/$/, '');
  return segmentsRefusal(inner.split('/'), MAX_CATEGORY_DEPTH);
}
