/**
 * One spelling per page (`.html` spellings used to pass the guards). Astro's router takes
 * many spellings of one route: `/x.html`, `/x/index.html`, `/x/.html`, `//x`, `/a/../x`, `/\x`,
 * percent-encoded letters (`/%70anier`), decoded again and again (`/panier%252ehtml`), and `/index`
 * for the home page. Guards and flags compare paths: they must see the path the router will
 * match. So every request first goes through `pagePathDecision`: its canonical spelling goes
 * on, any other spelling answers 301 to the canonical one (query kept), and a path that cannot
 * be read (malformed escapes, control characters) answers not found. Pure: the storefront
 * server (`src/server/serve.ts`), the first middleware step and `astro dev` apply it. Pages take
 * their own path through `canonicalPath` too: a static build asks Astro for each page as the
 * file it writes (`/c/matelas.html`, `/index.html`), a server by its path.
 */
import { localPath } from './redirect-target.ts';

export type PathDecision =
  { kind: 'canonical' } | { kind: 'redirect'; location: string } | { kind: 'not-found' };

// Escapes of one decoding step; a path is decoded until nothing changes, as the router does.
const MAX_DECODINGS = 16;

/** The path fully decoded (the router decodes repeatedly), or null when an escape is malformed. */
function decodeFully(pathname: string): string | null {
  let current = pathname;
  for (let i = 0; i < MAX_DECODINGS; i += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null;
}

/** `.` and `..` segments resolved, as URL parsing does. */
function resolveDots(segments: readonly string[]): string[] {
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return out;
}

// What the router takes for the same route: `x.html`, `x/index.html`, `x/`, and `/index`.
function stripAliases(path: string): string {
  let current = path;
  for (;;) {
    const next = current
      .replace(/\/index\.html$/, '/')
      .replace(/\.html$/, '')
      .replace(/\/+$/, '')
      .replace(/^\/index$/, '');
    if (next === current) return current === '' ? '/' : current;
    current = next === '' ? '/' : next;
    if (current === '/') return current;
  }
}

// Re-encoded for a Location: what encodeURI escapes, plus `?` and `#`, which end a path.
const encodePath = (path: string) => encodeURI(path).replaceAll('?', '%3F').replaceAll('#', '%23');

/**
 * The canonical spelling of a request path (as sent, still escaped), or null when the path
 * cannot be read (a malformed escape; control characters).
 */
export function canonicalPath(pathname: string): string | null {
  const decoded = decodeFully(pathname);
  // Control characters (NUL, line breaks, DEL) are in no page's path.
  // eslint-disable-next-line no-control-regex
  if (decoded === null || /[\u0000-\u001f\u007f]/.test(decoded)) return null;
  // URL parsing takes a backslash for a slash (special schemes): so does the router.
  const segments = decoded
    .replaceAll('\\', '/')
    .split('/')
    .filter((s) => s !== '');
  const joined = `/${resolveDots(segments).join('/')}`;
  return encodePath(stripAliases(joined));
}

/**
 * What to do with a request for `pathname` (as sent) and its `search` (`?...` or ''): go on
 * with the canonical spelling, 301 to it, or not found.
 */
export function pagePathDecision(pathname: string, search = ''): PathDecision {
  const canonical = canonicalPath(pathname);
  if (canonical === null) return { kind: 'not-found' };
  if (canonical === pathname) return { kind: 'canonical' };
  const location = localPath(canonical + search);
  return location === null ? { kind: 'not-found' } : { kind: 'redirect', location };
}
