/**
 * What kind of route a request is, for the request metrics' `kind` label (`metrics.ts`): one
 * cheap decision on the path (and whether there is a query), a few string comparisons, no
 * parsing and no allocation. A page path is `page` here; the server calls it `static` when a
 * pre-rendered file answers it (`http-server.ts`).
 */

/** The kinds of route, as the `kind` label says them. */
export const ROUTE_KINDS = [
  'static',
  'page',
  'listing_view',
  'search',
  'api',
  'account',
  'image',
  'webhook',
  'health',
  'other',
] as const;
export type RouteKind = (typeof ROUTE_KINDS)[number];

/**
 * The shopper's own pages (account, cart, checkout, login, the reseller area): rendered for
 * one shopper, never shared.
 */
const ACCOUNT_ROUTES = [
  '/mon-compte',
  '/connexion',
  '/deconnexion',
  '/inscription',
  '/mot-de-passe',
  '/panier',
  '/paiement',
  '/espace-revendeur',
] as const;

/** Whether `pathname` is `route` or below it (`/api` → `/api`, `/api/...`). */
function isUnder(pathname: string, route: string): boolean {
  return (
    pathname.startsWith(route) &&
    (pathname.length === route.length || pathname.charCodeAt(route.length) === 47)
  );
}

/**
 * The kind of a request for `pathname` (the target's path, query apart) with a query or not:
 * - `/healthz`, `/readyz`: `health`; `/webhooks/...`: `webhook`; `/api/...`: `api`;
 *   `/_image`: `image` (the picture proxy);
 * - the search results (`/resultats-de-recherche/...`, whose term may hold a dot): `search`;
 * - `/_astro/...` and any other path whose last segment has a file extension (`/sw.js`,
 *   `/favicon.svg`, `/sitemap-0.xml`, `/c/matelas/x.png`): `static`;
 * - a category with a query (`/c/matelas?tri=prix`), the sleep-content list with one and
 *   the on-demand views (`/vue/...`): `listing_view`;
 * - the shopper's own pages (`/mon-compte`, `/panier`, `/paiement`, `/connexion`...):
 *   `account`;
 * - any other path starting with `/`: `page`; anything else (`*`, a target the server could
 *   not read): `other`.
 * Paths are compared as the server routes them (case matters: another spelling of a page is
 * a redirect of the page's kind).
 */
export function routeKind(pathname: string, hasQuery: boolean): RouteKind {
  if (pathname.charCodeAt(0) !== 47 /* / */) return 'other';
  if (pathname === '/healthz' || pathname === '/readyz') return 'health';
  if (pathname.startsWith('/webhooks/')) return 'webhook';
  if (isUnder(pathname, '/api')) return 'api';
  if (isUnder(pathname, '/_image')) return 'image';
  if (pathname.startsWith('/_astro/')) return 'static';
  // A search term may hold a dot (`/resultats-de-recherche/140.190`): not a file.
  if (isUnder(pathname, '/resultats-de-recherche')) return 'search';
  const lastSlash = pathname.lastIndexOf('/');
  const dot = pathname.indexOf('.', lastSlash);
  if (dot > lastSlash + 1 && dot < pathname.length - 1) return 'static';
  if (isUnder(pathname, '/vue')) return 'listing_view';
  if (hasQuery && (pathname.startsWith('/c/') || pathname === '/les-yeux-fermes')) {
    return 'listing_view';
  }
  for (const route of ACCOUNT_ROUTES) if (isUnder(pathname, route)) return 'account';
  return 'page';
}
