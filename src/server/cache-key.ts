/**
 * Which on-demand replies the storefront server may cache, and under what key.
 * Only pages that do not depend on the shopper qualify: listing views (`/vue/c/...`, reached by
 * rewriting `/c/...?page=2`; `/vue/les-yeux-fermes`, the sleep-content list by tag) and search
 * results. Their key is the host, the path and the query
 * reduced to what the page reads: the listing parameters parsed and written back canonically
 * (defaults dropped, values sorted, unknown parameters ignored), so equivalent URLs share one
 * render. The page is then rendered from that canonical URL, never from the shopper's, so the
 * cached bytes are a function of the key alone.
 */
import {
  LISTING_VIEW_PREFIX,
  listingQueryString,
  pageNumber,
  parseListingParams,
} from '../lib/commerce/listing.ts';
import { searchIsExact, searchQueryString } from '../lib/commerce/search.ts';
import {
  parseSleepListQuery,
  SLEEP_CONTENT_VIEW,
  sleepListQueryString,
} from '../lib/content/list-view.ts';

/** A cacheable request: its key (without build id) and the URL path to render it from. */
export interface RenderKey {
  /** `host` + canonical path and query, e.g. `shop.example/vue/c/matelas?sort=2`. */
  key: string;
  /** Path and canonical query the page is rendered from. */
  url: string;
}

const LISTING_ROUTE = `${LISTING_VIEW_PREFIX}/c/`;
const SEARCH_ROUTE = '/resultats-de-recherche';

// A host as browsers send it: a name or IPv4 address, or a bracketed IPv6, with a port.
const HOST = /^(?:[a-z0-9.-]{1,253}|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * The query of a cacheable route, canonical, or null when the route is not cacheable or the
 * query asks for something other than a page (a redirect).
 */
function canonicalQuery(path: string, params: URLSearchParams): string | null {
  // spec §2 redirect-to-cart (with-cart-redirect.ts) answers `?id&token` on any on-demand
  // route with a cookie: such requests always reach the application.
  if ((params.get('id')?.trim() ?? '') !== '' && (params.get('token')?.trim() ?? '') !== '') {
    return null;
  }
  if (path.startsWith(LISTING_ROUTE) && path.length > LISTING_ROUTE.length) {
    return listingQueryString(parseListingParams(params));
  }
  if (path === SLEEP_CONTENT_VIEW) {
    const query = parseSleepListQuery(params);
    return query === null ? null : sleepListQueryString(query);
  }
  if (path === SEARCH_ROUTE || path.startsWith(`${SEARCH_ROUTE}/`)) {
    // `?term=` is the header form's redirect to the path form (resultats-de-recherche page).
    if (params.has('term')) return null;
    // Page and the "as typed" switch (of the typo correction): both change what the page shows.
    return searchQueryString({
      page: pageNumber(params.get('page')),
      exact: searchIsExact(params),
    });
  }
  return null;
}

/**
 * The render key of a GET request for `host` and `target` (path and query as received), or
 * null when its reply must not be shared: another route, a path that is not in canonical form
 * (dot segments, `//`, encoded dots: the URL parser would render another page than the one
 * named), a trailing slash (answered 301), an unreadable host or query.
 */
export function renderKey(host: string | undefined, target: string): RenderKey | null {
  const name = (host ?? '').toLowerCase();
  if (!HOST.test(name)) return null;
  const at = target.indexOf('?');
  const path = at === -1 ? target : target.slice(0, at);
  const search = at === -1 ? '' : target.slice(at);
  if (path.length > 2048 || path.endsWith('/') || path.includes('//')) return null;
  let parsed: URL;
  try {
    parsed = new URL(target, 'http://render.invalid');
  } catch {
    return null;
  }
  if (parsed.pathname !== path) return null;
  let query: string | null;
  try {
    query = canonicalQuery(path, new URLSearchParams(search));
  } catch {
    return null; // a parameter the parser refuses: the application answers it, uncached
  }
  if (query === null) return null;
  return { key: `${name}${path}${query}`, url: `${path}${query}` };
}
