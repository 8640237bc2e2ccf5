/**
 * What the service worker (`/sw.js`, scope `/`, spec §7) does with each request, as pure
 * decisions the worker and the tests share:
 * - hashed assets (`/_astro/*.js|css|woff2`) come from the precache (they never change);
 * - pages are network-first: a good reply is kept (the 30 latest), and offline the kept copy
 *   answers, else the French offline page;
 * - the shopper's own pages (account, cart, checkout, login, reseller pages, cart links) and
 *   any other page load the worker does not keep (a form posted) are network only: never kept,
 *   never answered from a kept copy, but offline the French offline page, not the browser's;
 * - everything else goes to the network untouched: other origins, the API, webhooks, pictures,
 *   and every request that is not a page load (a script's `fetch` never gets the offline page).
 */

/** Where the worker is served (its scope is `/`). */
export const SW_PATH = '/sw.js';
/** The offline page (pre-rendered, precached). */
export const OFFLINE_PATH = '/hors-ligne';
/** Pages kept for offline reading, the oldest dropped first. */
export const PAGE_CACHE_LIMIT = 30;
/** Prefix of the worker's caches: `{prefix}{kind}-{version}`. */
export const CACHE_PREFIX = 'literie-';

/**
 * Paths whose replies depend on the shopper or change state: never cached, never answered from
 * a cache (a page load of one gets the offline page when the network fails, nothing else).
 */
const PRIVATE_PATHS = [
  '/api',
  '/webhooks',
  '/panier',
  '/paiement',
  '/connexion',
  '/inscription',
  '/deconnexion',
  '/mot-de-passe',
  '/mon-compte',
  '/espace-revendeur',
  '/vue/lien-panier',
  '/login.php',
  '/__sandbox',
  SW_PATH,
];

/** Hashed build assets worth keeping offline (pictures stay with the browser's HTTP cache). */
const ASSET = /^\/_astro\/[^/]+\.(?:js|mjs|css|woff2?)$/;

export type Strategy =
  /** Not handled: the browser's own fetch. */
  | 'network'
  /** Precache first, else the network (kept). */
  | 'asset'
  /** Network first, the kept copy or the offline page when the network fails. */
  | 'page'
  /** A page load never kept: the network, or the offline page when the network fails. */
  | 'online-page';

export interface RequestInfo {
  method: string;
  url: string;
  /** `Request.mode`: 'navigate' for a page load. */
  mode: string;
}

const under = (path: string, prefix: string) =>
  path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`);

/** Whether a path is one the worker must never cache or answer. */
export function isPrivatePath(pathname: string): boolean {
  return PRIVATE_PATHS.some((prefix) => under(pathname, prefix));
}

/** The strategy for a request seen by the worker of `origin`. */
export function strategyFor(request: RequestInfo, origin: string): Strategy {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return 'network';
  }
  if (url.origin !== origin) return 'network';
  const navigation = request.mode === 'navigate';
  // A page load the worker does not keep still gets the offline page rather than the
  // browser's: a form posted, a shopper's own page, a cart link (spec §2 `?id&token`, it sets
  // a cookie), the worker's own script.
  if (request.method !== 'GET') return navigation ? 'online-page' : 'network';
  if (isPrivatePath(url.pathname)) return navigation ? 'online-page' : 'network';
  if (!navigation) return ASSET.test(url.pathname) ? 'asset' : 'network';
  if (url.searchParams.has('id') && url.searchParams.has('token')) return 'online-page';
  return 'page';
}

/** What the worker answers when the network fails, by strategy. */
export interface OfflineAnswer {
  /** A copy this worker kept of the same URL may answer (public pages only). */
  kept: boolean;
  /** The offline page answers (page loads only: a script's request never gets HTML). */
  offlinePage: boolean;
}

/**
 * When the network fails: a public page answers from its kept copy, else the offline page; a
 * page load never kept gets the offline page and never a kept copy (a cart, an account, seen
 * by another shopper of this browser); an asset or a request the worker does not handle fails
 * as the browser's own fetch would. The offline page is never kept under the URL it answers.
 */
export function offlineAnswer(strategy: Strategy): OfflineAnswer {
  switch (strategy) {
    case 'page':
      return { kept: true, offlinePage: true };
    case 'online-page':
      return { kept: false, offlinePage: true };
    case 'asset':
    case 'network':
      return { kept: false, offlinePage: false };
  }
}

export interface ReplyInfo {
  status: number;
  /** `Response.type`: 'basic' for a same-origin reply. */
  type: string;
  /** `Response.redirected`: a page reached through a redirect is not kept under its URL. */
  redirected: boolean;
  headers: { get(name: string): string | null };
}

/** Whether a page reply may be kept for offline reading. */
export function keepablePage(reply: ReplyInfo): boolean {
  if (reply.status !== 200 || reply.type !== 'basic' || reply.redirected) return false;
  if (!(reply.headers.get('content-type') ?? '').startsWith('text/html')) return false;
  const control = (reply.headers.get('cache-control') ?? '').toLowerCase();
  return !/\b(?:no-store|private)\b/.test(control);
}

/** The cache names of a build. */
export function cacheNames(version: string): { assets: string; pages: string } {
  return { assets: `${CACHE_PREFIX}assets-${version}`, pages: `${CACHE_PREFIX}pages-${version}` };
}

/** The worker's caches of other builds (deleted on activation), never anyone else's. */
export function staleCaches(names: readonly string[], version: string): string[] {
  const current = new Set(Object.values(cacheNames(version)));
  return names.filter((name) => name.startsWith(CACHE_PREFIX) && !current.has(name));
}

/** The precache of a build: the offline page and its hashed assets, sorted, no repeats. */
export function precacheList(assets: readonly string[]): string[] {
  return [OFFLINE_PATH, ...[...new Set(assets.filter((path) => ASSET.test(path)))].sort()];
}
