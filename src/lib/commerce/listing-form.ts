/**
 * The category listing's GET form seen from the browser (spec §5), pure: the URL a change of
 * its fields loads (what the form would load without JavaScript, empty fields and defaults
 * left out), whether a fetched reply is that listing's page, and what a failed update says.
 * Used by `src/browser/catalogue/listing-filters.ts`, which applies a change in place.
 */

/**
 * The query of the listing's form fields (`entries`, as `FormData` lists them, in document
 * order): trimmed values, empty ones dropped (spec §5: empty filters are dropped); a field of
 * `defaults` (a select's `data-default`) holding its default alone says nothing and is left
 * out, as `listingQueryString` leaves the default sort and page size out. Without `?`.
 */
export function listingFormQuery(
  entries: Iterable<readonly [string, unknown]>,
  defaults: Readonly<Record<string, string>> = {},
): string {
  const query = new URLSearchParams();
  for (const [name, value] of entries) {
    if (typeof value !== 'string') continue;
    const trimmed = value.trim();
    if (trimmed !== '') query.append(name, trimmed);
  }
  for (const [name, value] of Object.entries(defaults)) {
    const values = query.getAll(name);
    if (values.length === 1 && values[0] === value) query.delete(name);
  }
  return query.toString();
}

/** The listing URL of the form's `action` with `query` (no `?` for an empty one). */
export function listingFormUrl(action: string, query: string): string {
  const url = new URL(action);
  url.search = query;
  url.hash = '';
  return url.href;
}

/**
 * Whether `reply` (a fetched URL, after redirects) is a view of the listing at `action`: the
 * same origin and path. Anything else (a redirect elsewhere, another origin) is not swapped
 * into the page: the browser goes there as the form would.
 */
export function isListingReply(reply: string, action: string): boolean {
  let got: URL;
  let expected: URL;
  try {
    got = new URL(reply);
    expected = new URL(action);
  } catch {
    return false;
  }
  return got.origin === expected.origin && got.pathname === expected.pathname;
}

/** Message keys of a failed update of the listing. */
export type ListingFailureKey = 'offline.action' | 'filter.updateError';

/**
 * What a failed update says: no reply at all (the fetch failed: no network) or the browser
 * knows it is offline → "Vous êtes hors ligne…"; a reply that is no page of the listing (an
 * error status) → the listing could not be updated.
 */
export function listingFailureKey(status: number | null, online: boolean): ListingFailureKey {
  return status === null || !online ? 'offline.action' : 'filter.updateError';
}
