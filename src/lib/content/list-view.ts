/**
 * The filtered "Les yeux fermés" list (spec §2 `/les-yeux-fermes`, `/les-yeux-fermes/page/{page}`
 * with a tag filter): the pre-rendered list pages cannot read a query, so a request carrying
 * `?tag=` is rewritten (by the storefront server and the dev middleware, through
 * `listingViewPath`) to the on-demand view `/vue/les-yeux-fermes?tag=...&page=...`, rendered
 * from that canonical URL and kept by the render cache. Pure.
 */

export const SLEEP_CONTENT_ROOT = '/les-yeux-fermes';
export const SLEEP_CONTENT_VIEW = '/vue/les-yeux-fermes';

/** A tag id as Contentful writes them (letters, digits, `_`, `-`, `.`), at most 64 characters. */
const TAG_ID = /^[A-Za-z0-9_.-]{1,64}$/;
/** A list page number: digits only, no sign, no leading zero, at most six digits. */
const PAGE_NUMBER = '[1-9][0-9]{0,5}';
const PAGE_PARAM = new RegExp(`^${PAGE_NUMBER}$`);
const PAGE_PATH = new RegExp(`^${SLEEP_CONTENT_ROOT}/page/(${PAGE_NUMBER})$`);

/** The page number of a list page's path (`/les-yeux-fermes/page/{n}`), or null for any other. */
export function sleepListPageOf(pathname: string): number | null {
  const match = PAGE_PATH.exec(pathname);
  return match ? Number(match[1]) : null;
}

export interface SleepListQuery {
  /** Tag id filtered on, or null for the whole list. */
  tag: string | null;
  page: number;
}

/** The tag id of a `tag` query value, or null when absent; undefined when it is no tag id. */
export function parseTagParam(value: string | null): string | null | undefined {
  if (value === null || value === '') return null;
  return TAG_ID.test(value) ? value : undefined;
}

/** Page and tag of the view's query, or null when either is unreadable (the view answers 404). */
export function parseSleepListQuery(params: URLSearchParams): SleepListQuery | null {
  const tag = parseTagParam(params.get('tag'));
  if (tag === undefined) return null;
  const pageValue = params.get('page');
  if (pageValue === null) return { tag, page: 1 };
  if (!PAGE_PARAM.test(pageValue)) return null;
  return { tag, page: Number(pageValue) };
}

/** The view's canonical query (`?tag=x&page=n`, page 1 left out). */
export function sleepListQueryString(query: SleepListQuery): string {
  const params = new URLSearchParams();
  if (query.tag !== null) params.set('tag', query.tag);
  if (query.page > 1) params.set('page', String(query.page));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** Public URL of a list page: `/les-yeux-fermes`, `/les-yeux-fermes/page/2`, with `?tag=`. */
export function sleepListPath(page: number, tag: string | null = null): string {
  const path = page > 1 ? `${SLEEP_CONTENT_ROOT}/page/${page}` : SLEEP_CONTENT_ROOT;
  return tag === null ? path : `${path}?tag=${encodeURIComponent(tag)}`;
}

/**
 * The on-demand view path of a list request with a tag filter, or null when the request is a
 * plain list page (served pre-rendered) or not a list page at all.
 */
export function sleepContentViewPath(pathname: string, search: string): string | null {
  const page = pathname === SLEEP_CONTENT_ROOT ? 1 : sleepListPageOf(pathname);
  if (page === null) return null;
  const params = new URLSearchParams(search);
  if (!params.has('tag')) return null;
  const raw = params.get('tag') ?? '';
  const tag = parseTagParam(raw);
  // An unreadable tag still goes to the view, which answers 404 (route validation, spec §8).
  if (tag === undefined) {
    return `${SLEEP_CONTENT_VIEW}?tag=${encodeURIComponent(raw.slice(0, 200))}&page=${page}`;
  }
  return `${SLEEP_CONTENT_VIEW}${sleepListQueryString({ tag, page })}`;
}
