/**
 * What the service worker (`/sw.js`, scope `/`, spec §7) does with each request, as pure
 * decisions the worker and the tests share:
 * - hashed assets (`/_astro/*.js|css|woff2`) come from the precache (they never change);
 * - pages are network-first: a good reply is kept (the 30 latest), and offline the kept copy
 *   answers, else the French offline page;
 * - everything else goes to the network untouched: other origins, anything but GET, the API,
 *   webhooks, account, cart, checkout, login and reseller pages, cart links, pictures.
 */

/** Where the worker is served (its scope is `/`). */
export const SW_PATH = '/sw.js';
/** The offline page (pre-rendered, precached). */
export const OFFLINE_PATH = '/hors-ligne';
/** Pages kept for offline reading, the oldest dropped first. */
export const PAGE_CACHE_LIMIT = 30;
/** Prefix of the worker's caches: `{prefix}{kind}-{version}`. */
export const CACHE_PREFIX = 'literie-';

/** Paths whose replies depend on the shopper or change state: never cached, never served. */
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
  | 'page';

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
  if (request.method !== 'GET') return 'network';
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return 'network';
  }
  if (url.origin !== origin) return 'network';
  if (isPrivatePath(url.pathname)) return 'network';
  if (ASSET.test(url.pathname)) return 'asset';
  if (request.mode !== 'navigate') return 'network';
  // A cart link (spec §2 `?id&token`) sets a cookie: always the network.
  if (url.searchParams.has('id') && url.searchParams.has('token')) return 'network';
  return 'page';
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
