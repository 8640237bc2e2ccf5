/**
 * The one decision on where the shop may send a browser: the way back after login kept
 * by the guards and the checkout, the trailing-slash and product-path 301s, the storefront
 * redirect list and the hosted checkout all go through `redirectTarget`. Pure: it runs in the
 * browser (after login) and on the server.
 *
 * What counts as a path of the shop and as an absolute `http(s)` URL is decided by the shop's
 * one URL-safety module (`src/lib/url-safety.ts`, read strictly: control characters and
 * backslashes before the query refuse a value; `//host`, `/\host` and userinfo never pass).
 * Here: which kind of target each source may give. A local target is a path of the shop's own
 * origin, normalised once, read in its escaped URL form and never decoded (a cookie's own
 * escaping is undone once by `readCookie`); an external target is an absolute `http(s)` URL
 * without userinfo, and only from the redirect list or the commerce platform; anything else is
 * no target at all.
 */
import { httpUrl, localPath, localPathOf, schemeOf, targetText } from '../url-safety.ts';
import { AUTH_PATHS } from './routes.ts';

/** A path of this shop (the URL-safety rule), or null. */
export { localPath };

export interface RedirectTarget {
  /** A path of this shop (`/p/12/matelas?x=1`), or an absolute `http(s)` URL when `external`. */
  location: string;
  /** spec §2: a target that is not a local path needs a full-page navigation. */
  external: boolean;
}

export type TargetSource =
  /** A path the shop built (a canonical path, a request's path without its slash): local. */
  | { kind: 'path' }
  /** The way back after login (spec §2): local, and never a login page. */
  | { kind: 'return' }
  /**
   * A `to_url` of the storefront redirect list: a local path, an absolute URL on one of
   * `shopHosts` (reduced to its path; `'any'` for catalogue entities, which always land on this
   * shop), or an `http(s)` URL of another site.
   */
  | { kind: 'redirect-list'; shopHosts: readonly string[] | 'any' }
  /** A URL the commerce platform answered for this request (its hosted checkout). */
  | { kind: 'platform' };

/**
 * Where a redirect may send the browser for `value` from `source`, or null: no redirect (the
 * request goes on, or the caller's default applies). Local locations never leave the shop's
 * origin: `new URL(location, origin).origin === origin` for every origin.
 */
export function redirectTarget(
  value: string | null | undefined,
  source: TargetSource,
): RedirectTarget | null {
  const text = targetText(value);
  if (text === null) return null;
  if (text.startsWith('/')) return local(localPath(text), source);
  if (schemeOf(text) === null) {
    // The redirect list may name a path without its leading slash (`matelas/x`).
    return source.kind === 'redirect-list' ? redirectTarget(`/${text}`, source) : null;
  }
  const href = httpUrl(text);
  if (href === null) return null;
  if (source.kind === 'platform') return { location: href, external: true };
  if (source.kind !== 'redirect-list') return null;
  const url = new URL(href);
  const hosts = source.shopHosts;
  if (hosts === 'any' || hosts.includes(url.host) || hosts.includes(url.hostname)) {
    return local(localPathOf(url), source);
  }
  return { location: href, external: true };
}

/**
 * The way back after login for a stored or requested path (spec §2: a same-origin path, not a
 * login page), or null.
 */
export function returnPath(value: string | null | undefined): string | null {
  return redirectTarget(value, { kind: 'return' })?.location ?? null;
}

function local(location: string | null, source: TargetSource): RedirectTarget | null {
  if (location === null) return null;
  if (source.kind === 'return' && AUTH_PATHS.has(comparable(location))) return null;
  return { location, external: false };
}

/** The path of a location as the router matches it: decoded, lowercase, without a trailing slash. */
function comparable(location: string): string {
  // A normalised location escapes `?` and `#` in its path: the first one ends it.
  let path = location.split(/[?#]/, 1)[0] ?? location;
  try {
    path = decodeURIComponent(path);
  } catch {
    // Compared as written.
  }
  return path.toLowerCase().replace(/(.)\/+$/, '$1');
}
