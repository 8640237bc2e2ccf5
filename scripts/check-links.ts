/**
 * `npm run test:links`: no link the shop renders answers 404 (issue 8). Serves the production
 * build (`DIST_DIR`, default `dist`) the way `npm start` does, with the upstream it was built
 * against, and crawls it from `/`, every pre-rendered page of `{dist}/client`, `robots.txt`
 * and the on-demand entry points (cart, login, sign-up, search results, "Les yeux fermés", a
 * category's listing view with `?sort=`). From every page it reads each `href`, `src`,
 * `srcset`, `poster`, `<form action>`, `<link href>`, Open Graph and JSON-LD URL and island
 * prop URL; from stylesheets their `url()`s, from sitemaps their `<loc>`s. Every URL of the
 * shop is fetched once (GET, 8 at a time; `/api/`, `/deconnexion` and `/webhooks/` are not),
 * redirects followed (5 hops at most, a loop fails), and every HTML page reached is crawled in
 * turn. Then every `from_path` of the BigCommerce redirect list must land on a page answering
 * 200 (or on the other site its `to_url` names; an entry whose target the shop refuses, such as
 * `javascript:`, is listed as skipped).
 *
 * The shop's public origin (`site`: the origin of the home page's canonical link, or
 * `SITE_URL`) is the server's own; the upstream's origins (the sandbox, the CDNs) are external.
 * External links are not fetched. A link to another origin on this machine (a hard-coded
 * `http://localhost:4321` in a build served elsewhere...) fails. Exits 1 listing each dead URL
 * with the pages that link to it.
 *
 * Options: `--base-url URL` crawls a shop already running there (the redirect list is then
 * read from the upstream of the environment as well), `--dist DIR`, `--port N` (default
 * `PORT`, else 4391; 0 = any free port).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Where a URL was found on a page. */
export type LinkKind =
  | 'href'
  | 'src'
  | 'srcset'
  | 'poster'
  | 'action'
  | 'link'
  | 'meta'
  | 'json-ld'
  | 'prop'
  | 'css'
  | 'sitemap';

export interface FoundLink {
  /** Absolute http(s) URL, fragment removed. */
  url: string;
  kind: LinkKind;
  /** `<form method="post">` (or a button's `formmethod`): checked with GET, only 404 and 5xx fail. */
  post?: boolean;
}

// ── HTML reading ────────────────────────────────────────────────────────────────────────────

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  sol: '/',
  colon: ':',
  quest: '?',
  equals: '=',
  num: '#',
  percnt: '%',
  period: '.',
  comma: ',',
  lpar: '(',
  rpar: ')',
  Tab: '\t',
  NewLine: '\n',
};

/**
 * Decodes the character references of an attribute value or text: numeric ones (`&#39;`,
 * `&#x2F;`, with or without `;`) and the named ones a URL may hold (`&amp;`, `&quot;`...;
 * named ones need their `;`, as HTML reads `&copy=1` in an attribute literally). Unknown names
 * are kept as written; invalid code points become U+FFFD.
 */
export function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(
    /&(?:#(\d{1,8});?|#[xX]([0-9a-fA-F]{1,8});?|([a-zA-Z][a-zA-Z0-9]{1,31});)/g,
    (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (name !== undefined) return NAMED_ENTITIES[name] ?? whole;
      const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? '', 16);
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(code);
    },
  );
}

/** The URLs of a `srcset` (or `imagesrcset`) value, descriptors dropped (HTML's parser). */
export function parseSrcset(value: string): string[] {
  const urls: string[] = [];
  const n = value.length;
  let i = 0;
  const isSpace = (c: string | undefined) =>
    c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
  while (i < n) {
    while (i < n && (isSpace(value[i]) || value[i] === ',')) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isSpace(value[i])) i++;
    let url = value.slice(start, i);
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      // Descriptors run to the next comma outside parentheses.
      let depth = 0;
      while (i < n) {
        const c = value[i];
        if (c === '(') depth++;
        else if (c === ')') depth = Math.max(0, depth - 1);
        else if (c === ',' && depth === 0) break;
        i++;
      }
    }
    if (url !== '') urls.push(url);
  }
  return urls;
}

/** The `url()` and `@import` references of a stylesheet (written values, unresolved). */
export function extractCssUrls(css: string): string[] {
  const urls: string[] = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const m of text.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)/gi)) {
    urls.push(m[1] ?? m[2] ?? m[3] ?? '');
  }
  for (const m of text.matchAll(/@import\s+(?:"([^"]*)"|'([^']*)')/gi))
    urls.push(m[1] ?? m[2] ?? '');
  return urls.filter((u) => u !== '');
}

/** The `<loc>` values of a sitemap or sitemap index. */
export function extractSitemapLocs(xml: string): string[] {
  return [...xml.matchAll(/<loc>\s*([^<]*?)\s*<\/loc>/g)].map((m) => decodeEntities(m[1] ?? ''));
}

/**
 * The absolute http(s) URL a written reference points at from `base`, fragment removed; null
 * for an empty value, a fragment of the same page (`#top`), another scheme (`mailto:`, `tel:`,
 * `javascript:`, `data:`...) or a value that is no URL.
 */
export function normaliseUrl(raw: string, base: string | URL): string | null {
  // HTML strips leading and trailing ASCII whitespace; the URL parser drops tabs and newlines.
  const value = raw.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  if (value === '' || value.startsWith('#')) return null;
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url.href;
}

const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function parseAttributes(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const m of text.matchAll(ATTRIBUTE)) {
    const name = (m[1] ?? '').toLowerCase();
    // The first occurrence wins, as in HTML.
    if (!attributes.has(name)) attributes.set(name, decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return attributes;
}

/** Elements whose content is text up to their end tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noembed', 'noframes']);

interface Tag {
  name: string;
  attributes: Map<string, string>;
  /** Content of a raw-text element (`<script>`, `<style>`). */
  text?: string;
}

/** The start tags of a document, in order, skipping comments and raw text. */
function* tags(html: string): Generator<Tag> {
  const n = html.length;
  let i = 0;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) return;
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? n : end + 3;
      continue;
    }
    const open = /^<([a-zA-Z][a-zA-Z0-9-]*)/.exec(html.slice(lt, lt + 64));
    if (!open) {
      i = lt + 1;
      continue;
    }
    // The tag ends at the first `>` outside quotes.
    const attributesStart = lt + open[0].length;
    let j = attributesStart;
    let quote = '';
    while (j < n) {
      const c = html[j];
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") {
        quote = c;
      } else if (c === '>') {
        break;
      }
      j++;
    }
    const name = (open[1] ?? '').toLowerCase();
    const attributes = parseAttributes(html.slice(attributesStart, j));
    i = j + 1;
    if (RAW_TEXT.has(name)) {
      const closing = new RegExp(`</${name}`, 'ig');
      closing.lastIndex = i;
      const end = closing.exec(html)?.index ?? n;
      yield { name, attributes, text: html.slice(i, end) };
      i = end;
      continue;
    }
    yield { name, attributes };
  }
}

const URL_ATTRIBUTES: Record<string, readonly (readonly [string, LinkKind])[]> = {
  a: [['href', 'href']],
  area: [['href', 'href']],
  link: [
    ['href', 'link'],
    ['imagesrcset', 'srcset'],
  ],
  img: [
    ['src', 'src'],
    ['srcset', 'srcset'],
  ],
  source: [
    ['src', 'src'],
    ['srcset', 'srcset'],
  ],
  video: [
    ['src', 'src'],
    ['poster', 'poster'],
  ],
  audio: [['src', 'src']],
  track: [['src', 'src']],
  iframe: [['src', 'src']],
  embed: [['src', 'src']],
  object: [['data', 'src']],
  script: [['src', 'src']],
  input: [['src', 'src']],
  'astro-island': [
    ['component-url', 'src'],
    ['renderer-url', 'src'],
  ],
};

/** `<link rel>` values that name an origin, not a resource. */
const ORIGIN_RELS = new Set(['preconnect', 'dns-prefetch']);
/** `<meta property|name>` whose content is a URL. */
const URL_METAS = new Set([
  'og:url',
  'og:image',
  'og:image:url',
  'og:image:secure_url',
  'og:video',
  'og:audio',
  'twitter:image',
  'twitter:url',
]);
/** JSON-LD keys whose string values are URLs. */
const JSON_LD_KEYS = new Set([
  'url',
  'item',
  '@id',
  'image',
  'logo',
  'contentUrl',
  'thumbnailUrl',
  'embedUrl',
  'sameAs',
]);
/** Island prop names (their last word) whose string values are links. */
const PROP_KEY = /(?:href|url|path|link)$/i;

function jsonStrings(node: unknown, key: string, pick: (key: string) => boolean, out: string[]) {
  if (typeof node === 'string') {
    if (pick(key)) out.push(node);
  } else if (Array.isArray(node)) {
    for (const item of node) jsonStrings(item, key, pick, out);
  } else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) jsonStrings(v, k, pick, out);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Every http(s) URL a page refers to, resolved against `pageUrl` (or its `<base href>`), with
 * fragments removed, in document order (duplicates kept). `mailto:`, `tel:`, `javascript:`,
 * `data:` and same-page fragments are not links to check.
 */
export function extractLinks(html: string, pageUrl: string): FoundLink[] {
  const all = [...tags(html)];
  let base: string = pageUrl;
  const baseTag = all.find((t) => t.name === 'base' && t.attributes.has('href'));
  if (baseTag) base = normaliseUrl(baseTag.attributes.get('href') ?? '', pageUrl) ?? pageUrl;
  const links: FoundLink[] = [];
  const add = (raw: string, kind: LinkKind, post = false) => {
    const url = normaliseUrl(raw, base);
    if (url !== null) links.push(post ? { url, kind, post } : { url, kind });
  };
  for (const tag of all) {
    const { name, attributes } = tag;
    if (name === 'link' && ORIGIN_RELS.has((attributes.get('rel') ?? '').trim().toLowerCase())) {
      continue;
    }
    for (const [attribute, kind] of URL_ATTRIBUTES[name] ?? []) {
      const value = attributes.get(attribute);
      if (value === undefined) continue;
      if (kind === 'srcset') for (const url of parseSrcset(value)) add(url, 'srcset');
      else add(value, kind);
    }
    if (name === 'form') {
      const action = attributes.get('action');
      const post = (attributes.get('method') ?? 'get').trim().toLowerCase() === 'post';
      if (action !== undefined) add(action, 'action', post);
    }
    if ((name === 'button' || name === 'input') && attributes.has('formaction')) {
      const post = (attributes.get('formmethod') ?? '').trim().toLowerCase() === 'post';
      add(attributes.get('formaction') ?? '', 'action', post);
    }
    if (name === 'meta') {
      const property = (attributes.get('property') ?? attributes.get('name') ?? '').toLowerCase();
      if (URL_METAS.has(property)) add(attributes.get('content') ?? '', 'meta');
      if ((attributes.get('http-equiv') ?? '').toLowerCase() === 'refresh') {
        const target = /url\s*=\s*['"]?([^'"]+)/i.exec(attributes.get('content') ?? '');
        if (target?.[1]) add(target[1], 'href');
      }
    }
    if (name === 'astro-island') {
      const out: string[] = [];
      jsonStrings(parseJson(attributes.get('props') ?? ''), '', (k) => PROP_KEY.test(k), out);
      for (const value of out) if (/^(\/|https?:)/i.test(value)) add(value, 'prop');
    }
    const style = attributes.get('style');
    if (style?.includes('url(')) for (const url of extractCssUrls(style)) add(url, 'css');
    if (name === 'style' && tag.text) for (const url of extractCssUrls(tag.text)) add(url, 'css');
    if (
      name === 'script' &&
      tag.text &&
      (attributes.get('type') ?? '').trim().toLowerCase() === 'application/ld+json'
    ) {
      const out: string[] = [];
      jsonStrings(parseJson(tag.text), '', (k) => JSON_LD_KEYS.has(k), out);
      for (const value of out) add(value, 'json-ld');
    }
  }
  return links;
}

/** The URL of a canonical link of a page, or null. */
export function canonicalOf(html: string, pageUrl: string): string | null {
  for (const tag of tags(html)) {
    const rel = (tag.attributes.get('rel') ?? '').toLowerCase().split(/\s+/);
    if (tag.name === 'link' && rel.includes('canonical')) {
      return normaliseUrl(tag.attributes.get('href') ?? '', pageUrl);
    }
  }
  return null;
}

// ── Crawling ────────────────────────────────────────────────────────────────────────────────

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0', '[::]']);
const MAX_HOPS = 5;

/** Paths never fetched: the API (POST only), logging out, the webhooks. */
export function isSkippedPath(pathname: string): boolean {
  return (
    pathname.startsWith('/api/') ||
    pathname === '/deconnexion' ||
    pathname.startsWith('/deconnexion/') ||
    pathname.startsWith('/webhooks/')
  );
}

export interface CrawlOptions {
  /** The shop to crawl (`http://127.0.0.1:4391`). */
  baseUrl: string;
  /** Paths (or URLs of the shop) to start from. */
  seeds: readonly string[];
  /** Pages read from disk rather than fetched (the 404 and 500 pages): their links only. */
  files?: readonly { url: string; html: string }[];
  /** Other origins that are this shop (its public `site`): mapped onto `baseUrl`. */
  shopOrigins?: readonly string[];
  /** Origins of the upstream services (sandbox, CDNs): external, never a local-origin bug. */
  upstreamOrigins?: readonly string[];
  concurrency?: number;
  /** Query variants of one path whose links are read (all are checked). Default 25. */
  maxVariantsPerPath?: number;
  /** Per request, milliseconds. Default 30 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface Outcome {
  /** Final status (0: no answer). */
  status: number;
  /** The URLs the request went through, the first one included. */
  chain: string[];
  /** The chain left the shop for this URL (not fetched). */
  external?: string;
  /** Why the URL fails, or null. */
  problem: string | null;
  contentType: string;
}

export interface DeadLink {
  url: string;
  problem: string;
  /** How many pages link to it. */
  linkCount: number;
  /** The first pages found linking to it (ten at most). */
  from: string[];
}

export interface CrawlReport {
  pagesCrawled: number;
  urlsChecked: number;
  externalLinks: number;
  skipped: number;
  dead: DeadLink[];
  /** Every fetched URL and its outcome. */
  outcomes: Map<string, Outcome>;
}

function describeError(error: Error): string {
  const cause: unknown = error.cause;
  return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
}

/** Follows `url` through at most five redirects; classifies where it ends. */
export async function followRedirects(
  url: string,
  options: {
    fetch: typeof fetch;
    timeoutMs: number;
    isShop: (u: URL) => boolean;
    toShop: (u: URL) => string;
  },
  readBody: (response: Response, finalUrl: string) => Promise<void> = async (r) => {
    await r.body?.cancel();
  },
): Promise<Outcome> {
  const chain = [url];
  let current = url;
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await options.fetch(current, {
        redirect: 'manual',
        headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      const cause = error instanceof Error ? describeError(error) : String(error);
      return { status: 0, chain, problem: `no answer (${cause})`, contentType: '' };
    }
    const contentType = response.headers.get('content-type') ?? '';
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        return { status: response.status, chain, problem: `bad Location ${location}`, contentType };
      }
      if (!options.isShop(next)) {
        return { status: response.status, chain, external: next.href, problem: null, contentType };
      }
      next.hash = '';
      const target = options.toShop(next);
      if (chain.includes(target)) {
        return {
          status: response.status,
          chain: [...chain, target],
          problem: 'redirect loop',
          contentType,
        };
      }
      chain.push(target);
      if (hop + 1 > MAX_HOPS) {
        return {
          status: response.status,
          chain,
          problem: `more than ${MAX_HOPS} redirects`,
          contentType,
        };
      }
      current = target;
      continue;
    }
    await readBody(response, current);
    return { status: response.status, chain, problem: null, contentType };
  }
}

/** Crawls the shop at `baseUrl` from `seeds`; never throws for a failing URL. */
export async function crawl(options: CrawlOptions): Promise<CrawlReport> {
  const base = new URL(options.baseUrl);
  const shopOrigins = new Set([base.origin, ...(options.shopOrigins ?? [])]);
  const upstreamOrigins = new Set(options.upstreamOrigins ?? []);
  const concurrency = options.concurrency ?? 8;
  const maxVariants = options.maxVariantsPerPath ?? 25;
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;

  const isShop = (u: URL) => shopOrigins.has(u.origin);
  const toShop = (u: URL) => base.origin + u.pathname + u.search;

  /** Pages linking to each URL (shop URLs and bad local origins): how many, the first ten. */
  const linkedFrom = new Map<string, { count: number; pages: string[] }>();
  const postOnly = new Map<string, boolean>();
  const outcomes = new Map<string, Outcome>();
  const crawled = new Set<string>();
  const variants = new Map<string, number>();
  const localOriginBugs = new Set<string>();
  const external = new Set<string>();
  let skipped = 0;

  const queue: string[] = [];
  let head = 0;
  const seen = new Set<string>();

  /** Called once per page and target (`readLinks` dedupes a page's links). */
  const note = (target: string, from: string) => {
    let entry = linkedFrom.get(target);
    if (!entry) linkedFrom.set(target, (entry = { count: 0, pages: [] }));
    entry.count++;
    if (entry.pages.length < 10) entry.pages.push(from);
  };

  const enqueue = (url: string, from: string | null, post = false) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return;
    }
    if (!isShop(parsed)) {
      if (upstreamOrigins.has(parsed.origin) || !LOOPBACK_HOSTS.has(parsed.hostname)) {
        external.add(parsed.href);
        return;
      }
      // Another origin on this machine: a hard-coded address of some other server.
      localOriginBugs.add(parsed.href);
      if (from !== null) note(parsed.href, from);
      return;
    }
    const target = toShop(parsed);
    if (from !== null) note(target, from);
    if (isSkippedPath(parsed.pathname)) {
      if (!seen.has(target)) {
        seen.add(target);
        skipped++;
      }
      return;
    }
    // A URL linked by a GET link anywhere is judged as a page; only POST-only ones are lenient.
    postOnly.set(target, (postOnly.get(target) ?? true) && post);
    if (seen.has(target)) return;
    seen.add(target);
    queue.push(target);
  };

  const readLinks = (body: string, contentType: string, pageUrl: string) => {
    const found: { url: string; post: boolean }[] = [];
    if (/html/i.test(contentType)) {
      for (const link of extractLinks(body, pageUrl))
        found.push({ url: link.url, post: !!link.post });
    } else {
      let raws: string[] = [];
      if (/css/i.test(contentType)) raws = extractCssUrls(body);
      else if (/xml/i.test(contentType)) raws = extractSitemapLocs(body);
      else if (/^text\/plain/i.test(contentType) && new URL(pageUrl).pathname === '/robots.txt') {
        raws = [...body.matchAll(/^\s*sitemap\s*:\s*(\S+)/gim)].map((m) => m[1] ?? '');
      }
      for (const raw of raws) {
        const url = normaliseUrl(raw, pageUrl);
        if (url !== null) found.push({ url, post: false });
      }
    }
    // One note per target and page; a GET link beats a POST form to the same URL.
    const targets = new Map<string, boolean>();
    for (const { url, post } of found) targets.set(url, (targets.get(url) ?? true) && post);
    for (const [url, post] of targets) enqueue(url, pageUrl, post);
  };

  const shouldRead = (url: string, contentType: string): boolean => {
    if (crawled.has(url)) return false;
    if (!/html|css|xml|text\/plain/i.test(contentType)) return false;
    const u = new URL(url);
    if (u.search !== '') {
      const count = variants.get(u.pathname) ?? 0;
      if (count >= maxVariants) return false;
      variants.set(u.pathname, count + 1);
    }
    crawled.add(url);
    return true;
  };

  const visit = async (url: string) => {
    const outcome = await followRedirects(
      url,
      { fetch: doFetch, timeoutMs, isShop, toShop },
      async (response, finalUrl) => {
        const contentType = response.headers.get('content-type') ?? '';
        if (response.status === 200 && shouldRead(finalUrl, contentType)) {
          readLinks(await response.text(), contentType, finalUrl);
        } else {
          await response.body?.cancel();
        }
      },
    );
    if (outcome.problem === null && outcome.external === undefined) {
      const { status } = outcome;
      const lenient = postOnly.get(url) === true;
      if (status === 404 || status === 410) outcome.problem = `${status}`;
      else if (status >= 500) outcome.problem = `${status}`;
      else if (status >= 400 && !lenient) outcome.problem = `${status}`;
      else if (status >= 300 && status < 400) outcome.problem = `${status} without Location`;
    }
    outcomes.set(url, outcome);
    // The end of a redirect chain is checked too: mark it seen.
    const last = outcome.chain.at(-1);
    if (last !== undefined && last !== url && !outcomes.has(last)) seen.add(last);
  };

  for (const file of options.files ?? []) {
    crawled.add(file.url);
    readLinks(file.html, 'text/html', file.url);
  }
  for (const seed of options.seeds) enqueue(new URL(seed, base).href, null);

  await new Promise<void>((resolve) => {
    let active = 0;
    const pump = () => {
      while (active < concurrency && head < queue.length) {
        const url = queue[head++] ?? '';
        active++;
        void visit(url)
          .catch((error: unknown) => {
            outcomes.set(url, {
              status: 0,
              chain: [url],
              problem: `check failed: ${String(error)}`,
              contentType: '',
            });
          })
          .finally(() => {
            active--;
            pump();
          });
      }
      if (active === 0 && head >= queue.length) resolve();
    };
    pump();
  });

  const dead: DeadLink[] = [];
  for (const [url, outcome] of outcomes) {
    if (outcome.problem === null) continue;
    const via = outcome.chain.length > 1 ? ` (via ${outcome.chain.slice(1).join(' → ')})` : '';
    const links = linkedFrom.get(url) ?? { count: 0, pages: [] };
    dead.push({ url, problem: outcome.problem + via, linkCount: links.count, from: links.pages });
  }
  for (const url of localOriginBugs) {
    dead.push({
      url,
      problem: 'another origin on this machine (not the shop)',
      linkCount: linkedFrom.get(url)?.count ?? 0,
      from: linkedFrom.get(url)?.pages ?? [],
    });
  }
  dead.sort((a, b) => b.linkCount - a.linkCount || a.url.localeCompare(b.url));
  return {
    pagesCrawled: crawled.size,
    urlsChecked: outcomes.size,
    externalLinks: external.size,
    skipped,
    dead,
    outcomes,
  };
}

// ── The redirect list ───────────────────────────────────────────────────────────────────────

export interface RedirectEntry {
  from_path: string;
  to_url: string;
}

export interface RedirectCheck {
  fromPath: string;
  toUrl: string;
  /** 'ok', 'external' (leaves for another site), 'refused' (the shop rightly ignores it) or 'failed'. */
  result: 'ok' | 'external' | 'refused' | 'failed';
  detail: string;
}

/**
 * Requests every `from_path` and says where it lands: a shop page answering 200, another site,
 * or (for an entry whose target `isRefused`) whatever the path is without the redirect.
 */
export async function checkRedirects(
  entries: readonly RedirectEntry[],
  options: {
    baseUrl: string;
    shopOrigins?: readonly string[];
    isRefused: (toUrl: string) => boolean;
    fetch?: typeof fetch;
    timeoutMs?: number;
  },
): Promise<RedirectCheck[]> {
  const base = new URL(options.baseUrl);
  const shopOrigins = new Set([base.origin, ...(options.shopOrigins ?? [])]);
  const follow = {
    fetch: options.fetch ?? fetch,
    timeoutMs: options.timeoutMs ?? 30_000,
    isShop: (u: URL) => shopOrigins.has(u.origin),
    toShop: (u: URL) => base.origin + u.pathname + u.search,
  };
  const checks: RedirectCheck[] = [];
  for (const entry of entries) {
    const from = normaliseUrl(
      entry.from_path.startsWith('/') ? entry.from_path : `/${entry.from_path}`,
      base,
    );
    if (from === null) {
      checks.push({
        fromPath: entry.from_path,
        toUrl: entry.to_url,
        result: 'failed',
        detail: 'from_path is no path',
      });
      continue;
    }
    const outcome = await followRedirects(from, follow);
    const trail = outcome.chain.map((u) => new URL(u).pathname + new URL(u).search).join(' → ');
    let result: RedirectCheck['result'];
    let detail: string;
    if (options.isRefused(entry.to_url)) {
      result = 'refused';
      detail = `target refused by the shop; ${trail} answers ${outcome.status}`;
    } else if (outcome.problem !== null) {
      result = 'failed';
      detail = `${outcome.problem}: ${trail}`;
    } else if (outcome.external !== undefined) {
      result = 'external';
      detail = `${trail} → ${outcome.external} (not fetched)`;
    } else if (outcome.status === 200 && outcome.chain.length > 1) {
      result = 'ok';
      detail = `${trail} (200)`;
    } else {
      result = 'failed';
      detail =
        outcome.chain.length > 1
          ? `${trail} answers ${outcome.status}`
          : `not redirected: ${trail} answers ${outcome.status}`;
    }
    checks.push({ fromPath: entry.from_path, toUrl: entry.to_url, result, detail });
  }
  return checks;
}

// ── The command ─────────────────────────────────────────────────────────────────────────────

/** URL paths of the pre-rendered pages of a client folder (`c/matelas.html` → `/c/matelas`). */
export function pagePaths(clientDir: string): string[] {
  const paths: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.html')) {
        const relative = path.relative(clientDir, full).split(path.sep).join('/');
        const withoutExt = relative.replace(/\.html$/, '');
        paths.push(withoutExt === 'index' ? '/' : `/${withoutExt.replace(/\/index$/, '')}`);
      }
    }
  };
  walk(clientDir);
  return paths.sort();
}

/**
 * Error pages: `/500` is pre-rendered and answers 500 at its own address too, `/404` renders on
 * request (404); neither is a page to crawl from, and no page links to them.
 */
const ERROR_PAGES = new Set(['/404', '/500']);

/** Entry points rendered on demand (no file), besides a listing view. */
const ON_DEMAND = [
  '/panier',
  '/connexion',
  '/inscription',
  '/mot-de-passe',
  '/mon-compte',
  '/resultats-de-recherche/matelas',
  '/les-yeux-fermes',
  '/robots.txt',
];

function flag(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
}

function originOf(value: string | undefined): string | null {
  if (!value) return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

async function readRedirectList(env: NodeJS.ProcessEnv): Promise<RedirectEntry[]> {
  const { z } = await import('zod');
  const api = env.BIGCOMMERCE_API_URL ?? 'https://api.bigcommerce.com';
  const store = env.BIGCOMMERCE_STORE_HASH ?? '';
  const token = env.BIGCOMMERCE_ACCESS_TOKEN ?? '';
  const Page = z.object({
    data: z.array(z.object({ from_path: z.string(), to_url: z.string().default('') })),
    meta: z
      .object({ pagination: z.object({ total_pages: z.number().int().nonnegative() }).partial() })
      .partial()
      .optional(),
  });
  const entries: RedirectEntry[] = [];
  for (let page = 1; page <= 100; page++) {
    const url = `${api.replace(/\/+$/, '')}/stores/${encodeURIComponent(store)}/v3/storefront/redirects?include=to_url&limit=250&page=${page}`;
    const response = await fetch(url, {
      headers: { 'x-auth-token': token, accept: 'application/json' },
      signal: AbortSignal.timeout(30_000),
    });
    if (!response.ok) throw new Error(`redirect list: ${response.status} from ${api}`);
    const body = Page.parse(await response.json());
    entries.push(...body.data);
    if (page >= (body.meta?.pagination?.total_pages ?? 1)) break;
  }
  return entries;
}

function formatDead(dead: DeadLink, base: string): string {
  const short = (u: string) => (u.startsWith(base) ? u.slice(base.length) || '/' : u);
  const shown = dead.from.slice(0, 5).map(short).join(', ');
  const more = dead.linkCount > 5 ? ` (+${dead.linkCount - 5} more)` : '';
  const source =
    dead.linkCount === 0 ? 'a start page' : `${dead.linkCount} page(s): ${shown}${more}`;
  return `  ${short(dead.url)}  ${dead.problem}\n      linked from ${source}`;
}

async function main(): Promise<number> {
  const started = performance.now();
  const distDir = flag('--dist') ?? process.env.DIST_DIR ?? 'dist';
  const clientDir = path.resolve(distDir, 'client');
  if (!existsSync(clientDir)) {
    console.error(`[links] ${clientDir} does not exist: build first.`);
    return 1;
  }
  const { ensureUpstream } = await import('./lib/upstream.ts');
  const { redirectTarget } = await import('../src/lib/commerce/redirect-target.ts');
  const upstream = await ensureUpstream();
  Object.assign(process.env, upstream.env);
  let server: { url: string; close(): Promise<void> } | null = null;
  try {
    let baseUrl = flag('--base-url');
    if (baseUrl === undefined) {
      const { startServer } = await import('./serve.ts');
      const port = Number(flag('--port') ?? process.env.PORT ?? 4391);
      server = await startServer({ distDir, port, host: '127.0.0.1' });
      baseUrl = server.url.replace('//localhost:', '//127.0.0.1:');
    }
    baseUrl = new URL(baseUrl).origin;

    const pages = pagePaths(clientDir);
    const files = pages
      .filter((p) => ERROR_PAGES.has(p))
      .map((p) => ({
        url: baseUrl + p,
        html: readFileSync(path.join(clientDir, `${p}.html`), 'utf8'),
      }));
    const seeds = pages.filter((p) => !ERROR_PAGES.has(p));
    const category = seeds.find((p) => p.startsWith('/c/'));
    const listingView = category ? [`${category}?sort=2`] : [];
    const home = existsSync(path.join(clientDir, 'index.html'))
      ? readFileSync(path.join(clientDir, 'index.html'), 'utf8')
      : '';
    const site =
      originOf(process.env.SITE_URL) ?? originOf(canonicalOf(home, baseUrl) ?? undefined);
    const shopOrigins = site ? [site] : [];
    const upstreamOrigins = [
      upstream.env.BIGCOMMERCE_API_URL,
      upstream.env.CONTENTFUL_API_URL,
    ].flatMap((u) => originOf(u) ?? []);

    const report = await crawl({
      baseUrl,
      seeds: ['/', ...seeds, ...ON_DEMAND, ...listingView],
      files,
      shopOrigins,
      upstreamOrigins,
    });

    const redirects = await readRedirectList(upstream.env);
    const checks = await checkRedirects(redirects, {
      baseUrl,
      shopOrigins,
      isRefused: (toUrl) =>
        redirectTarget(toUrl, { kind: 'redirect-list', shopHosts: 'any' }) === null,
    });

    const seconds = (performance.now() - started) / 1000;
    for (const check of checks) {
      if (check.result !== 'failed')
        console.log(`[links] redirect ${check.fromPath}: ${check.result}, ${check.detail}`);
    }
    const failedRedirects = checks.filter((c) => c.result === 'failed');
    if (report.dead.length > 0) {
      console.error(`\n[links] ${report.dead.length} dead or wrong URL(s):`);
      for (const dead of report.dead) console.error(formatDead(dead, baseUrl));
    }
    if (failedRedirects.length > 0) {
      console.error(
        `\n[links] ${failedRedirects.length} redirect(s) of the redirect list do not land on a page:`,
      );
      for (const c of failedRedirects)
        console.error(`  ${c.fromPath} (to_url ${c.toUrl}): ${c.detail}`);
    }
    console.log(
      `\n[links] ${report.pagesCrawled} pages crawled, ${report.urlsChecked} URLs checked, ` +
        `${checks.length} redirects checked, ${report.externalLinks} external links not fetched, ` +
        `${report.skipped} skipped (${baseUrl}, site ${site ?? 'unknown'}) in ${seconds.toFixed(1)} s`,
    );
    const failed = report.dead.length + failedRedirects.length;
    console.log(failed === 0 ? '[links] no dead link' : `[links] FAILED: ${failed} problem(s)`);
    return failed === 0 ? 0 : 1;
  } finally {
    await server?.close();
    await upstream.close();
  }
}

if (import.meta.main) process.exit(await main());
