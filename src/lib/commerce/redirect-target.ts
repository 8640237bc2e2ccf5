/**
 * The one decision on where the shop may send a browser (issue 7): the way back after login kept
 * by the guards and the checkout, the trailing-slash and product-path 301s, the storefront
 * redirect list and the hosted checkout all go through `redirectTarget`. Pure: it runs in the
 * browser (after login) and on the server.
 *
 * A local target is a path of the shop's own origin, normalised once: it is read in its escaped
 * URL form and never decoded (a cookie's own escaping is undone once by `readCookie`), dot
 * segments, `%2e` ones included, are resolved, repeated slashes collapsed; control characters
 * (tabs, CR/LF, NUL) and backslashes before the query refuse it, and so does anything that
 * resolves to another origin (`//host`, `/\host`). An external target is an absolute `http(s)` URL without userinfo, and
 * only from the redirect list or the commerce platform; anything else is no target at all.
 */
import { AUTH_PATHS } from './routes.ts';

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

/** Longer values are no target (a URL this long is an attack or a mistake). */
export const MAX_TARGET_LENGTH = 2048;

// Any origin would do: a local target must resolve against it and stay there.
const BASE = new URL('https://shop.invalid');
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
// Browsers read `\` as `/` before the query: `/\host` is `//host`. In the query it is data.
const BACKSLASH_BEFORE_QUERY = /^[^?#]*\\/;
const SCHEME = /^[a-z][a-z\d+.-]*:/i;

/**
 * Where a redirect may send the browser for `value` from `source`, or null: no redirect (the
 * request goes on, or the caller's default applies). Local locations never leave the shop's
 * origin: `new URL(location, origin).origin === origin` for every origin.
 */
export function redirectTarget(
  value: string | null | undefined,
  source: TargetSource,
): RedirectTarget | null {
  if (typeof value !== 'string' || CONTROL_CHARACTERS.test(value)) return null;
  if (BACKSLASH_BEFORE_QUERY.test(value)) return null;
  const text = value.trim();
  if (text.length === 0 || text.length > MAX_TARGET_LENGTH) return null;
  if (text.startsWith('/')) {
    // `//host` is another origin (protocol-relative), never a path of this one.
    if (text.startsWith('//')) return null;
    const url = parse(text, BASE);
    return url !== null && url.origin === BASE.origin ? local(url, source) : null;
  }
  if (!SCHEME.test(text)) {
    // The redirect list may name a path without its leading slash (`matelas/x`).
    return source.kind === 'redirect-list' ? redirectTarget(`/${text}`, source) : null;
  }
  const url = parse(text);
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  // `https://shop@evil.example` reads as the shop but is not: no userinfo in a target.
  if (url.username !== '' || url.password !== '') return null;
  if (source.kind === 'platform') return { location: url.href, external: true };
  if (source.kind !== 'redirect-list') return null;
  const hosts = source.shopHosts;
  if (hosts === 'any' || hosts.includes(url.host) || hosts.includes(url.hostname)) {
    return local(url, source);
  }
  return { location: url.href, external: true };
}

/** A local path of this shop for `value` (see `redirectTarget`), or null. */
export function localPath(value: string | null | undefined): string | null {
  return redirectTarget(value, { kind: 'path' })?.location ?? null;
}

/**
 * The way back after login for a stored or requested path (spec §2: a same-origin path, not a
 * login page), or null.
 */
export function returnPath(value: string | null | undefined): string | null {
  return redirectTarget(value, { kind: 'return' })?.location ?? null;
}

function parse(text: string, base?: URL): URL | null {
  try {
    return new URL(text, base);
  } catch {
    return null;
  }
}

function local(url: URL, source: TargetSource): RedirectTarget | null {
  // After dot segments are resolved, `/.//host` leaves `//host`: collapse repeated slashes.
  const pathname = url.pathname.replace(/\/{2,}/g, '/');
  if (source.kind === 'return' && AUTH_PATHS.has(comparable(pathname))) return null;
  const location = pathname + url.search + url.hash;
  // What a browser does with the Location: it must land on the origin it came from.
  if (!location.startsWith('/') || location.startsWith('//')) return null;
  return parse(location, BASE)?.origin === BASE.origin ? { location, external: false } : null;
}

/** A path as the router matches it: decoded, lowercase, without a trailing slash. */
function comparable(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // Compared as written.
  }
  return path.toLowerCase().replace(/(.)\/+$/, '$1');
}
