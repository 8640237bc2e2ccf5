/**
 * Rendered markup shared by the pages of one build (and of one server process): the header's
 * menus, top bar and footer are the same on ~10,000 pages, so they are rendered once per
 * distinct input instead of once per page (bench:build). Entries hang off a `scope`
 * object (the layout data a build or a process loaded) through a WeakMap: new data is a new
 * scope, so nothing outlives the data it was rendered from, and `key` names every other input
 * (reseller flag, the current menu entry...). Markup holding an island or a script is never
 * kept: Astro writes a page's hydration script into its first island, which another page
 * must not inherit or miss.
 */

/** Most entries one scope keeps (keys are few: flags and a menu index). */
const MAX_ENTRIES_PER_SCOPE = 256;

const markup = new WeakMap<object, Map<string, string>>();
const values = new WeakMap<object, Map<string, unknown>>();

/** Whether rendered markup may be reused on another page. */
export function isShareableMarkup(html: string): boolean {
  return !/<(?:astro-island|astro-slot|script)\b/i.test(html);
}

/**
 * `text` as one flat string. Rendered markup is a rope of the thousands of pieces it was
 * concatenated from; kept as it is, every page that reuses it walked the whole rope again
 * when the page was encoded.
 */
function flat(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** The markup kept for `key` in `scope`, if any. */
export function sharedMarkup(scope: object, key: string): string | undefined {
  return markup.get(scope)?.get(key);
}

/** Keeps `html` for `key` in `scope` when it is shareable; returns whether it was kept. */
export function shareMarkup(scope: object, key: string, html: string): boolean {
  if (!isShareableMarkup(html)) return false;
  let entries = markup.get(scope);
  if (!entries) {
    entries = new Map();
    markup.set(scope, entries);
  }
  if (!entries.has(key) && entries.size >= MAX_ENTRIES_PER_SCOPE) return false;
  entries.set(key, flat(html));
  return true;
}

/**
 * `compute()` once per `scope` and `key` (menus derived from the layout data); every time
 * without a scope.
 */
export function sharedValue<T>(scope: object | undefined, key: string, compute: () => T): T {
  if (scope === undefined) return compute();
  let entries = values.get(scope);
  if (!entries) {
    entries = new Map();
    values.set(scope, entries);
  }
  if (entries.has(key)) return entries.get(key) as T;
  const value = compute();
  if (entries.size < MAX_ENTRIES_PER_SCOPE) entries.set(key, value);
  return value;
}
