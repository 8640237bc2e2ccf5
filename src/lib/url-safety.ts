/**
 * The one home of URL safety: a URL as the browser reads it, what counts as a path of the shop,
 * which absolute URLs and schemes a link may use. Pure and without imports: the redirect rule
 * (`commerce/redirect-target.ts`), the sanitiser (`server/sanitize-html.ts`), the rich-text
 * renderer (`content/rich-text.ts`) and the entry paths (`content/paths.ts`) all decide here,
 * on the server and in the browser.
 *
 * A value is read one of two ways:
 * - as a target the shop sends a browser to (a `Location`, the way back after login, a path it
 *   built; `localPath`, `httpUrl`): strictly. Control characters anywhere (tab, CR/LF, NUL,
 *   DEL) and a backslash before the query refuse it; only surrounding white space is trimmed.
 * - as a URL authored upstream for a link or a picture (`linkHref`, `httpHref`,
 *   `isAbsoluteHttp`): first as the browser reads an attribute (`urlAsParsed`: C0 controls and
 *   spaces around trimmed, tabs and newlines anywhere dropped, so `java\tscript:` is
 *   `javascript:`), then by the strict rules, with any control character left (C1 too)
 *   refusing it.
 *
 * A local path is read in its escaped URL form and never decoded: dot segments, `%2e` ones
 * included, are resolved, repeated slashes collapsed, and anything that resolves to another
 * origin (`//host`, `/\host`) is refused. An absolute URL is `http(s)` without userinfo
 * (`https://shop@evil.example` reads as the shop but is not).
 */

/** Longer values are no URL of ours (a URL this long is an attack or a mistake). */
export const MAX_URL_LENGTH = 2048;

/** Schemes of links; pictures take `IMAGE_SCHEMES` only (and never a relative URL). */
export const LINK_SCHEMES: readonly string[] = ['http', 'https', 'mailto', 'tel'];
export const IMAGE_SCHEMES: readonly string[] = ['http', 'https'];

/** `rel` of links that leave the shop (absolute `http(s)` URLs). */
export const EXTERNAL_LINK_REL = 'noopener noreferrer';

/** A link's `href`, and whether it leaves the shop (an absolute http(s) URL). */
export interface LinkHref {
  href: string;
  external: boolean;
}

// Any origin would do: a local path must resolve against it and stay there.
const BASE = new URL('https://shop.invalid');
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- the same, C1 controls included
const C0_OR_C1_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;
// Browsers read `\` as `/` before the query: `/\host` is `//host`. In the query it is data.
const BACKSLASH_BEFORE_QUERY = /^[^?#]*\\/;
const SCHEME = /^([a-z][a-z\d+.-]*):/i;

/**
 * A URL as the browser's URL parser reads it: C0 controls and spaces trimmed, tabs and
 * newlines dropped (`' java\tscript:x'` is `javascript:x`).
 */
export function urlAsParsed(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 0x20) start++;
  while (end > start && value.charCodeAt(end - 1) <= 0x20) end--;
  return value.slice(start, end).replace(/[\t\n\r]/g, '');
}

/** Whether `text` holds a C0 control character or DEL (refused in any URL or path we build). */
export function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARACTERS.test(text);
}

/** The scheme of a URL, lowercase and without its colon; null for a path or a relative URL. */
export function schemeOf(text: string): string | null {
  return SCHEME.exec(text)?.[1]?.toLowerCase() ?? null;
}

/** `new URL(text, base)`, or null where the URL parser refuses it. */
export function parseUrl(text: string, base?: URL | string): URL | null {
  try {
    return new URL(text, base);
  } catch {
    return null;
  }
}

/**
 * A target value read strictly (see the file comment): a string without control characters
 * or a backslash before its query, trimmed, from 1 to `MAX_URL_LENGTH` characters; else null.
 */
export function targetText(value: unknown): string | null {
  if (typeof value !== 'string' || CONTROL_CHARACTERS.test(value)) return null;
  if (BACKSLASH_BEFORE_QUERY.test(value)) return null;
  const text = value.trim();
  return text.length === 0 || text.length > MAX_URL_LENGTH ? null : text;
}

/**
 * A path of this shop for `value`, normalised once (dot segments resolved, repeated slashes
 * collapsed, kept escaped), or null: `new URL(path, origin).origin === origin` for every
 * origin.
 */
export function localPath(value: unknown): string | null {
  const text = targetText(value);
  // `//host` is another origin (protocol-relative), never a path of this one.
  if (text === null || !text.startsWith('/') || text.startsWith('//')) return null;
  const url = parseUrl(text, BASE);
  return url !== null && url.origin === BASE.origin ? localPathOf(url) : null;
}

/**
 * The path, query and fragment of a parsed URL as a path of this shop (repeated slashes
 * collapsed), or null when a browser would leave the origin with it.
 */
export function localPathOf(url: URL): string | null {
  // After dot segments are resolved, `/.//host` leaves `//host`: collapse repeated slashes.
  const pathname = url.pathname.replace(/\/{2,}/g, '/');
  const location = pathname + url.search + url.hash;
  // What a browser does with it: it must land on the origin it came from.
  if (!location.startsWith('/') || location.startsWith('//')) return null;
  return parseUrl(location, BASE)?.origin === BASE.origin ? location : null;
}

/** An absolute `http(s)` URL without userinfo for `value` read strictly, normalised, or null. */
export function httpUrl(value: unknown): string | null {
  const text = targetText(value);
  if (text === null || schemeOf(text) === null) return null;
  const url = parseUrl(text);
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  if (url.username !== '' || url.password !== '') return null;
  return url.href;
}

/** A URL authored upstream as the browser reads it, or null (too long, empty, controls left). */
function authored(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH) return null;
  const text = urlAsParsed(value);
  return text === '' || C0_OR_C1_CONTROLS.test(text) ? null : text;
}

/**
 * Where a link authored upstream may point: an absolute `http(s)` URL (external), a `mailto:`
 * or `tel:` URL, or a local path of the shop; null for anything else (`javascript:`, `data:`,
 * `vbscript:`, relative paths, `//host`, userinfo, control characters...), whatever its case,
 * spaces or control characters around and inside the scheme.
 */
export function linkHref(value: unknown): LinkHref | null {
  const text = authored(value);
  if (text === null) return null;
  if (text.startsWith('/')) {
    const path = localPath(text);
    return path === null ? null : { href: path, external: false };
  }
  const scheme = schemeOf(text);
  if (scheme === null || !LINK_SCHEMES.includes(scheme)) return null;
  if (isHttp(scheme)) {
    const url = httpUrl(text);
    return url === null ? null : { href: url, external: true };
  }
  // mailto: and tel: as written, with something after the colon.
  const rest = text.slice(scheme.length + 1);
  return rest.trim() === '' ? null : { href: `${scheme}:${rest}`, external: false };
}

/**
 * An absolute `http(s)` URL authored upstream (a picture, a file, an external call to action),
 * read as `linkHref` reads it and normalised, or null.
 */
export function httpHref(value: unknown): string | null {
  const link = linkHref(value);
  return link?.external === true ? link.href : null;
}

/**
 * Whether a browser reads `value` as an absolute `http(s)` URL (the sanitiser's test for
 * external links and for pictures, whose URL the sanitiser itself checks).
 */
export function isAbsoluteHttp(value: string): boolean {
  return isHttp(schemeOf(urlAsParsed(value)));
}

function isHttp(scheme: string | null): boolean {
  return scheme === 'http' || scheme === 'https';
}
