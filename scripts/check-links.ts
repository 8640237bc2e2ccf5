/**
 * `npm run test:links`: no link the shop renders is dead. Serves the production build
 * (`DIST_DIR`, default `dist`) the way `npm start` does, with the upstream it was built against
 * (`lib/built-shop.ts`), and has [linkinator](https://github.com/JustinBeckwith/linkinator)
 * crawl it from `/`, every pre-rendered page of `{dist}/client` but the error pages, the
 * on-demand entry points (cart, login, sign-up, search results, "Les yeux fermés", a
 * category's listing view with `?sort=`), the island scripts of the pre-rendered pages
 * (`component-url`, `renderer-url`, which linkinator does not read) and the URLs of the
 * sitemaps `robots.txt` names (a sitemap that does not load fails the check).
 *
 * linkinator reads each page's `href`, `src`, `srcset`, `poster`, URL-valued `<meta content>`
 * and JSON-LD URLs, and the `url()`s of stylesheets and `style` attributes; every URL of the
 * shop is fetched once (8 at a time), redirects followed, every HTML page reached crawled in
 * turn; only a 2xx answer passes (a 5xx or no answer is asked again twice). Not fetched:
 * `/api/`, `/deconnexion` and `/webhooks/`; past 25 query variants of one page (`?page=`,
 * `?tag=`...), the others (every `/_image` variant is fetched: each is a picture of its own).
 * Form actions are no links to linkinator (the listing and search forms' targets are crawled
 * as pages anyway).
 *
 * Then the shop's own check: every `from_path` of the BigCommerce redirect list must land on a
 * page answering 200 (or on the other site its `to_url` names; an entry whose target the shop
 * refuses, such as `javascript:`, is listed as skipped).
 *
 * The shop's public origin (`site`: the origin of the home page's canonical link, or
 * `SITE_URL`) is the server's own (rewritten onto it); the upstream's origins (the sandbox, the
 * CDNs) and other sites are external and not fetched. A link to another origin on this machine
 * (a hard-coded `http://localhost:4321` in a build served elsewhere...) fails. Exits 1 listing
 * each dead URL with the pages that link to it.
 *
 * Options: `--base-url URL` crawls a shop already running there (the redirect list is then
 * read from the upstream of the environment as well), `--dist DIR`, `--port N` (default
 * `PORT`, else 4391; 0 = any free port).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { LinkChecker, LinkState, type LinkResult } from 'linkinator';
import { readEnvironment } from '../src/shop/config/environment.ts';

/** Paths never fetched: the API (POST only), logging out, the webhooks. */
export function isSkippedPath(pathname: string): boolean {
  return (
    pathname.startsWith('/api/') ||
    pathname === '/deconnexion' ||
    pathname.startsWith('/deconnexion/') ||
    pathname.startsWith('/webhooks/')
  );
}

/** Where other origins' URLs are rewritten to be skipped (`.invalid` never resolves). */
const EXTERNAL = 'http://externe.invalid';
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0', '[::]']);

export interface LinkCheckOptions {
  /** The shop to crawl (`http://127.0.0.1:4391`). */
  baseUrl: string;
  /** Paths (or URLs of the shop) to start from. */
  seeds: readonly string[];
  /** The page each seed that is no page of its own was read from (island scripts). */
  seedReferrers?: ReadonlyMap<string, string>;
  /** Sitemaps (or sitemap indexes) whose URLs are crawled too; one that does not load fails. */
  sitemaps?: readonly string[];
  /** Other origins that are this shop (its public `site`): rewritten onto `baseUrl`. */
  shopOrigins?: readonly string[];
  /** Origins of the upstream services (sandbox, CDNs): external, never a local-origin bug. */
  upstreamOrigins?: readonly string[];
  concurrency?: number;
  /** Query variants of one path that are fetched (all of `/_image`'s); default 25. */
  maxVariantsPerPath?: number;
  /** Per request, milliseconds. Default 30 s. */
  timeoutMs?: number;
  /** Times a 5xx or no answer is asked again (after 2 s, then 4 s...). Default 2. */
  retries?: number;
}

export interface DeadLink {
  url: string;
  problem: string;
  /** How many pages link to it. */
  linkCount: number;
  /** The first pages found linking to it (ten at most). */
  from: string[];
}

export interface LinkReport {
  /** HTML pages and stylesheets whose links were read. */
  pagesCrawled: number;
  /** URLs of the shop fetched. */
  urlsChecked: number;
  externalLinks: number;
  /** URLs of the shop not fetched (`isSkippedPath`, query variants past the cap). */
  skipped: number;
  /** URLs asked again after a 5xx or no answer. */
  retried: string[];
  dead: DeadLink[];
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The start URLs as a sitemap on a server of its own: linkinator crawls a sitemap's pages with
 * the site's root as their root, so every page of the shop any of them reaches is crawled too
 * (a plain start URL only crawls below itself).
 */
async function serveSeeds(urls: readonly string[]): Promise<{ url: string; close(): void }> {
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    urls.map((u) => `<url><loc>${escapeXml(u)}</loc></url>\n`).join('') +
    '</urlset>\n';
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/seeds.xml`, close: () => server.close() };
}

function describeFailure(result: LinkResult): string {
  const errors = (result.failureDetails ?? [])
    .filter((detail): detail is Error => detail instanceof Error)
    .map((error) => {
      const cause: unknown = error.cause;
      return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
    });
  const status = result.status ? `${result.status}` : 'no answer';
  return errors.length > 0 ? `${status} (${errors.join('; ')})` : status;
}

/** Crawls the shop at `baseUrl` with linkinator; never throws for a failing URL. */
export async function checkLinks(options: LinkCheckOptions): Promise<LinkReport> {
  const base = new URL(options.baseUrl).origin;
  const otherShopOrigins = (options.shopOrigins ?? []).filter((o) => o !== base);
  const shopOrigins = new Set([base, ...otherShopOrigins]);
  const upstreamOrigins = new Set(options.upstreamOrigins ?? []);
  const maxVariants = options.maxVariantsPerPath ?? 25;

  /** 'shop', 'external', or 'local' (another origin on this machine: a bug). */
  const kindOf = (url: URL) => {
    if (shopOrigins.has(url.origin)) return 'shop';
    if (upstreamOrigins.has(url.origin) || !LOOPBACK_HOSTS.has(url.hostname)) return 'external';
    return 'local';
  };
  const external = new Set<string>();
  const skipped = new Set<string>();
  const variants = new Map<string, Set<string>>();
  // linkinator asks twice: for each link of a page (`href` as written), then for each URL it is
  // about to fetch (after `urlRewriteExpressions`). Other sites and the upstream pass the first
  // time and are rewritten under EXTERNAL, skipped there once; skipped at each link instead,
  // every occurrence would lengthen the list linkinator scans for each duplicate link (about
  // 3,700 entries on the shop, a fifth of the step's time). Another origin on this machine is
  // skipped at each link, so that every page linking to it is reported.
  const linksToSkip = (href: string): Promise<boolean> => {
    const url = new URL(href);
    url.hash = '';
    if (url.origin === EXTERNAL) {
      external.add(url.search.slice(1));
      return Promise.resolve(true);
    }
    const kind = kindOf(url);
    if (kind !== 'shop') return Promise.resolve(kind === 'local');
    if (isSkippedPath(url.pathname)) {
      skipped.add(url.pathname);
      return Promise.resolve(true);
    }
    // Each `/_image` variant is a picture of its own, read by nobody: all are fetched.
    if (url.search !== '' && url.pathname !== '/_image') {
      let seen = variants.get(url.pathname);
      if (!seen) variants.set(url.pathname, (seen = new Set()));
      if (!seen.has(url.search)) {
        if (seen.size >= maxVariants) {
          skipped.add(url.pathname + url.search);
          return Promise.resolve(true);
        }
        seen.add(url.search);
      }
    }
    return Promise.resolve(false);
  };

  const dead = new Map<string, { problem: string; from: Set<string> }>();
  const addDead = (url: string, problem: string, parent: string | undefined) => {
    let entry = dead.get(url);
    if (!entry) dead.set(url, (entry = { problem, from: new Set() }));
    const from = parent ?? options.seedReferrers?.get(url.slice(base.length));
    // linkinator reads error pages too: a 404 page naming its own URL is no page linking to it.
    if (from !== undefined && from !== url) entry.from.add(from);
  };
  const checked = new Set<string>();
  let pagesCrawled = 0;
  const checker = new LinkChecker();
  checker.on('pagestart', () => pagesCrawled++);
  const retried = new Set<string>();
  checker.on('retry', (details) => retried.add(details.url));
  checker.on('link', (result) => {
    let url: URL | null = null;
    try {
      url = new URL(result.url);
    } catch {
      // An href that is no URL: linkinator reports it broken.
    }
    if (result.state === LinkState.SKIPPED) {
      if (url && kindOf(url) === 'local') {
        addDead(result.url, 'another origin on this machine (not the shop)', result.parent);
      }
      return;
    }
    checked.add(result.url);
    if (result.state === LinkState.BROKEN)
      addDead(result.url, describeFailure(result), result.parent);
  });

  const seeds = await serveSeeds(options.seeds.map((seed) => new URL(seed, base).href));
  const notRewritten = [base, EXTERNAL, new URL(seeds.url).origin].map(escapeRegExp).join('|');
  try {
    await checker.check({
      path: `${base}/`,
      sitemap: [seeds.url, ...(options.sitemaps ?? [])],
      recurse: true,
      checkCss: true,
      concurrency: options.concurrency ?? 8,
      timeout: options.timeoutMs ?? 30_000,
      // The server need not compress what only the check reads.
      headers: { 'Accept-Encoding': 'identity' },
      // A 5xx or no answer is asked again (twice: after 2 s, then 4 s): a page whose upstream
      // calls outran its 1.5 s budget on a busy machine (504) is no dead link; one that keeps
      // failing is.
      retryErrors: (options.retries ?? 2) > 0,
      retryErrorsCount: options.retries ?? 2,
      retryErrorsJitter: 500,
      linksToSkip,
      urlRewriteExpressions: [
        // The public origin is this server.
        ...otherShopOrigins.map((origin) => ({
          pattern: new RegExp(`^${escapeRegExp(origin)}(?=[/?#]|$)`),
          replacement: base,
        })),
        // Any other origin: not fetched (see linksToSkip).
        {
          pattern: new RegExp(`^(?!(?:${notRewritten})(?:[/?#]|$))https?:.*`),
          replacement: `${EXTERNAL}/?$&`,
        },
      ],
    });
  } finally {
    seeds.close();
  }

  const report: DeadLink[] = [...dead].map(([url, { problem, from }]) => ({
    url,
    problem,
    linkCount: from.size,
    from: [...from].slice(0, 10),
  }));
  report.sort((a, b) => b.linkCount - a.linkCount || a.url.localeCompare(b.url));
  return {
    pagesCrawled,
    urlsChecked: checked.size,
    externalLinks: external.size,
    skipped: skipped.size,
    retried: [...retried],
    dead: report,
  };
}

// ── The redirect list ───────────────────────────────────────────────────────────────────────

const MAX_HOPS = 5;

interface Outcome {
  /** Final status (0: no answer). */
  status: number;
  /** The URLs the request went through, the first one included. */
  chain: string[];
  /** The chain left the shop for this URL (not fetched). */
  external?: string;
  /** Why the URL fails, or null. */
  problem: string | null;
}

/** Follows `url` through at most five redirects of the shop; says where it ends. */
export async function followRedirects(
  url: string,
  options: {
    fetch: typeof fetch;
    timeoutMs: number;
    isShop: (u: URL) => boolean;
    toShop: (u: URL) => string;
  },
): Promise<Outcome> {
  const chain = [url];
  let current = url;
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await options.fetch(current, {
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      return { status: 0, chain, problem: `no answer (${String(cause)})` };
    }
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) {
      return { status: response.status, chain, problem: null };
    }
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return { status: response.status, chain, problem: `bad Location ${location}` };
    }
    if (!options.isShop(next))
      return { status: response.status, chain, external: next.href, problem: null };
    const target = options.toShop(next);
    if (chain.includes(target)) {
      return { status: response.status, chain: [...chain, target], problem: 'redirect loop' };
    }
    chain.push(target);
    if (hop + 1 > MAX_HOPS) {
      return { status: response.status, chain, problem: `more than ${MAX_HOPS} redirects` };
    }
    current = target;
  }
}

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
    const check = (result: RedirectCheck['result'], detail: string) =>
      checks.push({ fromPath: entry.from_path, toUrl: entry.to_url, result, detail });
    let from: URL;
    try {
      from = new URL(
        entry.from_path.startsWith('/') ? entry.from_path : `/${entry.from_path}`,
        base,
      );
    } catch {
      check('failed', 'from_path is no path');
      continue;
    }
    from.hash = '';
    const outcome = await followRedirects(from.href, follow);
    const trail = outcome.chain.map((u) => new URL(u).pathname + new URL(u).search).join(' → ');
    if (options.isRefused(entry.to_url)) {
      check('refused', `target refused by the shop; ${trail} answers ${outcome.status}`);
    } else if (outcome.problem !== null) {
      check('failed', `${outcome.problem}: ${trail}`);
    } else if (outcome.external !== undefined) {
      check('external', `${trail} → ${outcome.external} (not fetched)`);
    } else if (outcome.status === 200 && outcome.chain.length > 1) {
      check('ok', `${trail} (200)`);
    } else {
      check(
        'failed',
        outcome.chain.length > 1
          ? `${trail} answers ${outcome.status}`
          : `not redirected: ${trail} answers ${outcome.status}`,
      );
    }
  }
  return checks;
}

async function readRedirectList(env: NodeJS.ProcessEnv): Promise<RedirectEntry[]> {
  const { z } = await import('zod');
  const settings = readEnvironment(
    ['BIGCOMMERCE_API_URL', 'BIGCOMMERCE_STORE_HASH', 'BIGCOMMERCE_ACCESS_TOKEN'],
    env,
  );
  const api = settings.BIGCOMMERCE_API_URL;
  const store = settings.BIGCOMMERCE_STORE_HASH ?? '';
  const token = settings.BIGCOMMERCE_ACCESS_TOKEN ?? '';
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

// ── The command ─────────────────────────────────────────────────────────────────────────────

/**
 * Error pages: `/500` is pre-rendered and answers 500 at its own address too, `/404` renders on
 * request (404); neither is a page to crawl from (their links are the layout's, on every page).
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

/**
 * The island scripts of the pre-rendered pages (`<astro-island component-url renderer-url>`,
 * Astro's own attributes, which linkinator does not read): each script's path and the first
 * page loading it.
 */
export function islandScripts(clientDir: string, pages: readonly string[]): Map<string, string> {
  const scripts = new Map<string, string>();
  for (const page of pages) {
    const file = path.join(clientDir, page === '/' ? 'index.html' : `${page}.html`);
    const html = readFileSync(file, 'utf8');
    for (const m of html.matchAll(/\s(?:component|renderer|before-hydration)-url="(\/[^"]+)"/g)) {
      const script = m[1] ?? '';
      if (!scripts.has(script)) scripts.set(script, page);
    }
  }
  return scripts;
}

/** The sitemaps `robots.txt` names. */
async function robotsSitemaps(baseUrl: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/robots.txt`, { signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`robots.txt answers ${response.status}`);
  const text = await response.text();
  return [...text.matchAll(/^\s*sitemap\s*:\s*(\S+)/gim)].map((m) => m[1] ?? '');
}

function flag(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
}

function originOf(value: string | undefined | null): string | null {
  if (!value) return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
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
  // Unset, the checks' own port (4391), apart from `npm start`'s.
  const settings = readEnvironment(['DIST_DIR', 'PORT', 'SITE_URL'], {
    PORT: '4391',
    ...process.env,
  });
  const distDir = flag('--dist') ?? settings.DIST_DIR;
  const { serveBuiltShop, pagePaths } = await import('./lib/built-shop.ts');
  const { redirectTarget } = await import('../src/lib/commerce/redirect-target.ts');
  const shop = await serveBuiltShop({
    distDir,
    port: Number(flag('--port') ?? settings.PORT),
    baseUrl: flag('--base-url'),
  });
  try {
    const { baseUrl, clientDir, upstreamEnv } = shop;
    const pages = pagePaths(clientDir).filter((p) => !ERROR_PAGES.has(p));
    const category = pages.find((p) => p.startsWith('/c/'));
    const listingView = category ? [`${category}?sort=2`] : [];
    const home = pages.includes('/')
      ? readFileSync(path.join(clientDir, 'index.html'), 'utf8')
      : '';
    const canonical = /<link rel="canonical" href="([^"]+)"/.exec(home)?.[1];
    // The public origin the build was made with: its canonical links, else the setting.
    const site = originOf(canonical) ?? originOf(settings.SITE_URL);
    const shopOrigins = site ? [site] : [];
    const upstreamOrigins = [
      upstreamEnv.BIGCOMMERCE_API_URL,
      upstreamEnv.CONTENTFUL_API_URL,
    ].flatMap((u) => originOf(u) ?? []);
    const islands = islandScripts(clientDir, pages);
    // The first on-demand renders after the start load their code and the layout data (4.6 s
    // for a cart on a loaded machine): one at a time first, not eight at once, whose upstream
    // calls would outrun their 1.5 s budget.
    for (const warmUp of ['/panier', ...listingView]) {
      await (await fetch(baseUrl + warmUp, { signal: AbortSignal.timeout(30_000) })).text();
    }

    const report = await checkLinks({
      baseUrl,
      seeds: ['/', ...pages, ...ON_DEMAND, ...listingView, ...islands.keys()],
      seedReferrers: islands,
      sitemaps: await robotsSitemaps(baseUrl),
      shopOrigins,
      upstreamOrigins,
    });

    const redirects = await readRedirectList(upstreamEnv);
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
      `\n[links] linkinator: ${report.pagesCrawled} pages crawled, ${report.urlsChecked} URLs checked, ` +
        `${report.externalLinks} external links not fetched, ${report.skipped} skipped, ` +
        `${report.retried.length} asked again${report.retried.length > 0 ? ` (${report.retried.map((u) => u.slice(baseUrl.length)).join(', ')})` : ''}; ` +
        `${checks.length} redirects checked (${baseUrl}, site ${site ?? 'unknown'}) in ${seconds.toFixed(1)} s`,
    );
    const failed = report.dead.length + failedRedirects.length;
    console.log(failed === 0 ? '[links] no dead link' : `[links] FAILED: ${failed} problem(s)`);
    return failed === 0 ? 0 : 1;
  } finally {
    await shop.close();
  }
}

if (import.meta.main) process.exit(await main());
