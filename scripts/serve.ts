/**
 * The storefront server (`npm run serve`; `npm start` builds first). Serves the pre-rendered
 * pages and hashed assets of `dist/client` (`src/server/static-files.ts`) and hands everything
 * else to the Astro SSR handler of `dist/server` (`src/server/on-demand.ts`: API middleware,
 * on-demand pages, redirects, 404), every reply with the security headers of
 * `src/server/headers.ts`. Listing views with query parameters (`/c/...?sort=2`) are rewritten
 * to their on-demand route first, so a direct load shows the right products (spec §5); they and
 * the search results are served from the render cache (`src/server/render-cache.ts`), shared
 * through Redis when `REDIS_URL` is set. `/webhooks/...` are the rebuild webhooks
 * (`src/server/webhooks/`).
 *
 * Run as a script, it is the supervisor (`src/server/rebuild/supervisor.ts`, the cluster
 * primary: rebuilds and swaps releases) and, in the processes it forks, a worker serving one
 * release with `startServer`. `startServer` alone is the in-process server of tests, benches
 * and the link checker.
 */
import cluster from 'node:cluster';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { cartLinkPath } from '../src/lib/commerce/cart-link.ts';
import { listingViewPath } from '../src/lib/commerce/listing.ts';
import { hasResellerMode, resellerPage } from '../src/lib/commerce/shop-mode.ts';
import { pagePathDecision } from '../src/lib/commerce/page-path.ts';
import { readBuildFlags } from '../src/integrations/build-flags.ts';
import { createStore } from '../src/lib/server/store/index.ts';
import { readEnvironment } from '../src/shop/config/environment.ts';
import { createRedisStore } from '../src/lib/server/store/redis.ts';
import type { SharedStore } from '../src/lib/server/store/types.ts';
import { renderKey, type RenderKey } from '../src/server/cache-key.ts';
import { compress, negotiateCoding, shareCompressionCores } from '../src/server/encoding.ts';
import { FALLBACK_PAGE_HEADERS, FALLBACK_PAGE_HTML } from '../src/server/fallback-page.ts';
import { httpsDetector, withSecurityHeaders } from '../src/server/headers.ts';
import { pagePolicy } from '../src/server/page-policy.ts';
import { apiCall, createOnDemand, writeHead, type AppHandler } from '../src/server/on-demand.ts';
import { createRenderCache } from '../src/server/render-cache.ts';
import {
  readServeConfig,
  ServeConfigError,
  type ServeConfig,
} from '../src/server/rebuild/config.ts';
import {
  isListenMessage,
  parseDrainMessage,
  parsePurgeMessage,
  sendOrDrop,
  WORKER_ENV,
  type EventMessage,
  type StandbyMessage,
} from '../src/server/rebuild/messages.ts';
import { readCurrentRelease, type Release } from '../src/server/rebuild/releases.ts';
import { clearUpstreamCaches } from '../src/lib/server/cache.ts';
import { installFetchDeadlines } from '../src/server/fetch-deadlines.ts';
import { LISTING_STORE_FILE, useListingStore } from '../src/lib/server/loaders/listing-store.ts';
import { useListingPages } from '../src/lib/server/loaders/listing-page.ts';
import {
  namePictureCacheDir,
  PICTURE_CACHE_FOLDER,
  pictureCacheDirOf,
} from '../src/lib/server/picture-cache.ts';
import { startSupervisor, type Supervisor } from '../src/server/rebuild/supervisor.ts';
import { copyName } from '../src/server/rebuild/coordination.ts';
import { shareReleasesFolder } from './lib/build-settings.ts';
import type { KeptPublisher } from '../src/server/rebuild/builder.ts';
import {
  createStaticFiles,
  type StaticFile,
  type StaticFiles,
} from '../src/server/static-files.ts';
import { createWebhookRoutes, type WebhookRoutes } from '../src/server/webhooks/routes.ts';
import { log, setLogLevel } from '../src/lib/server/log.ts';

// The production server: React (and other libraries) pick their production builds from this,
// read when the SSR bundle first loads them. Unset, React's development build renders pages
// about four times slower. An explicit value (tests set 'test') is kept.
process.env.NODE_ENV ??= 'production';

/** Methods the shop answers at all; anything else (TRACE, TRACK, CONNECT...) gets a 405. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** What a pre-rendered file allows. */
const STATIC_ALLOW = 'GET, HEAD, OPTIONS';
/** What pages allow (forms post to `/paiement`, `/deconnexion`...). */
const PAGE_ALLOW = 'GET, HEAD, POST, OPTIONS';
/** The API takes POST only; its own handler answers the other known methods. */
const API_ALLOW = 'POST';

export interface ServerOptions {
  distDir?: string;
  port?: number;
  host?: string;
  /**
   * The render cache: off with `false`; `store` shares it between copies (default: Redis at
   * `REDIS_URL` when set, else none: in process only).
   */
  renderCache?:
    | false
    | {
        store?: SharedStore | null;
        maxBytes?: number;
        pageFreshMs?: number;
        pageStaleMs?: number;
        /** The release's count of publishes when the server starts (render-cache.ts). */
        generation?: number;
      };
  /** Milliseconds since the epoch (tests). */
  now?: () => number;
  /** The webhook endpoints (`/webhooks/...`); unset, those paths are pages like any other. */
  webhooks?: WebhookRoutes;
  /**
   * `client/` folders of other releases whose hashed assets (`/_astro/...`) are served when
   * this build lacks them: a page of the release before (or after) a swap finds its scripts.
   */
  assetFallbackDirs?: readonly string[];
  /**
   * Folder of the picture proxy's encoded variants (`/_image`, image-proxy.ts); default
   * `{distDir}/picture-cache`. Workers of the supervisor name one under the releases folder.
   */
  pictureCacheDir?: string;
  /**
   * Awaited once everything is loaded, right before listening: a worker started ahead of its
   * release's switch waits there for the supervisor's word.
   */
  beforeListen?: () => Promise<void>;
}

/** The running server of `startServer`. */
export interface RunningServer {
  url: string;
  buildId: string;
  /** Closes every connection at once and stops. */
  close(): Promise<void>;
  /**
   * Stops taking connections and resolves once the open ones are done: requests in flight
   * finish, kept-alive connections get `Connection: close` on their next reply (idle ones end
   * at the keep-alive timeout); past `limitMs`, what is left is cut.
   */
  drain(limitMs?: number, closeIdle?: boolean): Promise<void>;
  /** Serves the `/_astro/` files of another release's `client/` folder too (after this one's). */
  addAssetFallback(clientDir: string): void;
  /**
   * Forgets the rendered pages and API replies (render-cache.ts), the upstream reads they were
   * made of (the SSR bundle's read caches) and the release's file lookups: a publish changed
   * the data and the pages.
   */
  purgeRenders(generation: number): void;
}

/**
 * The build's identity: a hash of `dist/server` (code, manifest and asset names), so renders
 * cached by one build are never served by another, and copies of one build share them.
 */
export async function buildIdOf(serverDir: string): Promise<string> {
  const hash = createHash('sha256');
  const entries = await readdir(serverDir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) {
    hash.update(path.relative(serverDir, file)).update('\0');
    hash.update(await readFile(file)).update('\0');
  }
  return hash.digest('base64url').slice(0, 12);
}

/** Path and query of a request target (origin or absolute form), or null when unreadable. */
function splitTarget(target: string): { pathname: string; search: string } | null {
  let pathAndQuery = target;
  if (!target.startsWith('/')) {
    if (!/^https?:\/\//i.test(target)) return null;
    try {
      const url = new URL(target);
      pathAndQuery = url.pathname + url.search;
    } catch {
      return null;
    }
  }
  const hashAt = pathAndQuery.indexOf('#');
  if (hashAt !== -1) pathAndQuery = pathAndQuery.slice(0, hashAt);
  const queryAt = pathAndQuery.indexOf('?');
  return queryAt === -1
    ? { pathname: pathAndQuery, search: '' }
    : { pathname: pathAndQuery.slice(0, queryAt), search: pathAndQuery.slice(queryAt) };
}

/** Starts the storefront server; resolves once it listens. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const distDir = path.resolve(options.distDir ?? 'dist');
  const serverDir = path.join(distDir, 'server');
  const entry = pathToFileURL(path.join(serverDir, 'entry.mjs')).href;
  // The release's listings, which its on-demand listing views read (listing-store.ts).
  useListingStore(path.join(serverDir, LISTING_STORE_FILE));
  // Its listings' pre-rendered pages 1, which listing views are put together from.
  useListingPages(path.join(distDir, 'client'));
  // Where `/_image` keeps what it encodes (read by the release's endpoint, image-endpoint.ts).
  namePictureCacheDir(
    path.resolve(options.pictureCacheDir ?? path.join(distDir, PICTURE_CACHE_FOLDER)),
  );
  const { handler } = (await import(entry)) as { handler: AppHandler };
  const buildId = await buildIdOf(serverDir);
  // spec §1: with the transactional flag off a cart link does nothing (issue 19).
  const { transactional } = readBuildFlags(serverDir);
  const isHttps = httpsDetector();
  const now = options.now ?? Date.now;
  const statics = createStaticFiles({ root: path.join(distDir, 'client'), now });
  const fallbacks: StaticFiles[] = [];
  const addAssetFallback = (clientDir: string) => {
    fallbacks.push(createStaticFiles({ root: clientDir, now }));
    if (fallbacks.length > 4) fallbacks.shift();
  };
  for (const dir of options.assetFallbackDirs ?? []) addAssetFallback(dir);
  /** The file of a path, here or (hashed assets only) in another release. */
  const resolveStatic = async (
    pathname: string,
  ): Promise<{ files: StaticFiles; found: StaticFile } | null> => {
    const found = await statics.resolve(pathname);
    if (found) return { files: statics, found };
    if (!pathname.startsWith('/_astro/')) return null;
    for (const files of fallbacks) {
      const other = await files.resolve(pathname);
      if (other) return { files, found: other };
    }
    return null;
  };
  const cacheOptions = options.renderCache === false ? null : (options.renderCache ?? {});
  // Several copies share renders through Redis (REDIS_URL); one server keeps them in process.
  const redisUrl = (readEnvironment(['REDIS_URL']).REDIS_URL ?? '').trim();
  const ownStore =
    cacheOptions && cacheOptions.store === undefined && redisUrl !== ''
      ? createRedisStore({ url: redisUrl })
      : null;
  const cache = cacheOptions
    ? createRenderCache({
        buildId,
        store: cacheOptions.store ?? ownStore,
        ...(cacheOptions.maxBytes === undefined ? {} : { maxBytes: cacheOptions.maxBytes }),
        ...(cacheOptions.generation === undefined ? {} : { generation: cacheOptions.generation }),
        now,
      })
    : null;
  const onDemand = createOnDemand({
    handler,
    cache,
    isHttps,
    now,
    ...(cacheOptions?.pageFreshMs === undefined ? {} : { pageFreshMs: cacheOptions.pageFreshMs }),
    ...(cacheOptions?.pageStaleMs === undefined ? {} : { pageStaleMs: cacheOptions.pageStaleMs }),
  });

  // Hot URLs come back thousands of times a second: remember their keys (bounded).
  const renderKeys = new Map<string, RenderKey | null>();
  const cacheableAs = (host: string | undefined, target: string): RenderKey | null => {
    const name = `${host ?? ''} ${target}`;
    let key = renderKeys.get(name);
    if (key === undefined) {
      key = renderKey(host, target);
      if (name.length > 512) return key; // long URLs are not the hot ones: keep memory small
      if (renderKeys.size >= 10_000) renderKeys.clear();
      renderKeys.set(name, key);
    }
    return key;
  };

  /** A reply of the server itself (405, 204, 400): short text, security headers. */
  const answer = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    extra: Record<string, string> = {},
  ) => {
    const body = status === 204 ? '' : `${http.STATUS_CODES[status] ?? ''}\n`;
    const headers: Record<string, string> = { ...extra, 'cache-control': 'no-store' };
    if (body !== '') {
      headers['content-type'] = 'text/plain; charset=utf-8';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    writeHead(res, status, withSecurityHeaders(headers, isHttps(req)));
    res.end(req.method === 'HEAD' || body === '' ? undefined : body);
  };

  /** A pre-rendered page as a reseller sees it: stripped, private, compressed on the fly. */
  async function sendResellerPage(
    req: IncomingMessage,
    res: ServerResponse,
    files: StaticFiles,
    found: StaticFile,
  ): Promise<boolean> {
    const file = await files.identity(found);
    if (file === null) return false;
    const page = resellerPage(file.toString('utf8'));
    let body: Buffer = Buffer.from(page);
    const headers: Record<string, string> = {
      'content-type': found.type,
      'cache-control': 'private, no-store',
      vary: 'Cookie, Accept-Encoding',
    };
    // The page's own policy as a header too, beside the framing rule (page-policy.ts).
    const policy = pagePolicy(page);
    if (policy !== null) headers['content-security-policy'] = policy;
    const coding = negotiateCoding(req.headers['accept-encoding']);
    if (coding !== 'identity') {
      body = await compress(body, coding);
      headers['content-encoding'] = coding;
    }
    headers['content-length'] = String(body.length);
    writeHead(res, found.status, withSecurityHeaders(headers, isHttps(req)));
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const target = splitTarget(req.url ?? '/');
    if (target === null) {
      if (method === 'OPTIONS' && req.url === '*') {
        answer(req, res, 204, { allow: PAGE_ALLOW });
        return;
      }
      answer(req, res, 400);
      return;
    }
    const { pathname, search } = target;
    if (options.webhooks && pathname.startsWith('/webhooks/')) {
      return options.webhooks.handle(req, res, pathname, isHttps(req));
    }
    const call = apiCall(pathname);
    const isApi = pathname.startsWith('/api/');
    if (!KNOWN_METHODS.has(method)) {
      const staticFile = !isApi && (await statics.resolve(pathname)) !== null;
      answer(req, res, 405, { allow: isApi ? API_ALLOW : staticFile ? STATIC_ALLOW : PAGE_ALLOW });
      return;
    }
    if (isApi) {
      req.url = pathname + search;
      if (method === 'POST' && call) return onDemand.api(req, res, call.service, call.method);
      return onDemand.relay(req, res);
    }
    // One spelling per page (issue 19), before files, cart links and Astro's guards see it.
    const spelling = pagePathDecision(pathname, search);
    if (spelling.kind === 'redirect') {
      answer(req, res, 301, { location: spelling.location });
      return;
    }
    if (spelling.kind === 'not-found') {
      req.url = '/404';
      return onDemand.relay(req, res);
    }
    const read = method === 'GET' || method === 'HEAD';
    // spec §2 redirect-to-cart on every page, pre-rendered ones included: to the middleware.
    const cartLink = read && transactional ? cartLinkPath(pathname, search) : null;
    if (cartLink !== null) {
      req.url = cartLink;
      return onDemand.relay(req, res);
    }
    const view = read ? listingViewPath(pathname, search) : null;
    const resolved = view === null ? await resolveStatic(pathname) : null;
    // spec §6 reseller mode of the whole shop (shop-mode.ts): the shared page without what a
    // reseller does not see, and on-demand pages rendered for them, never from a shared cache.
    const resellerMode = read && hasResellerMode(req.headers.cookie);
    if (resolved) {
      const { files, found } = resolved;
      if (method === 'OPTIONS') {
        answer(req, res, 204, { allow: STATIC_ALLOW });
        return;
      }
      if (method !== 'GET' && method !== 'HEAD') {
        answer(req, res, 405, { allow: STATIC_ALLOW });
        return;
      }
      const sent =
        resellerMode && found.type.startsWith('text/html')
          ? await sendResellerPage(req, res, files, found)
          : await files.send(req, res, found, isHttps(req));
      if (sent) return;
      // The file went away since it was looked up (a publish removed the page): the page is
      // answered as it now is, on demand (its new address, or not found).
    }
    if (method === 'OPTIONS') {
      answer(req, res, 204, { allow: PAGE_ALLOW });
      return;
    }
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
      answer(req, res, 405, { allow: PAGE_ALLOW });
      return;
    }
    const pageTarget = view ?? pathname + search;
    const key =
      method === 'POST' || resellerMode ? null : cacheableAs(req.headers.host, pageTarget);
    if (key) return onDemand.page(req, res, key);
    req.url = pageTarget;
    return onDemand.relay(req, res);
  }

  let draining = false;
  const server = http.createServer((req, res) => {
    // Draining: this reply closes its connection (the client reconnects, to another worker).
    if (draining) res.shouldKeepAlive = false;
    handle(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`[serve] ${req.method ?? ''} ${(req.url ?? '').slice(0, 200)}: ${message}`);
      if (res.headersSent) res.destroy();
      else if ((req.url ?? '').startsWith('/api/')) answer(req, res, 500);
      else {
        // spec §8: a page whose error page cannot be served gets the fallback message.
        const headers = {
          ...FALLBACK_PAGE_HEADERS,
          'content-length': String(Buffer.byteLength(FALLBACK_PAGE_HTML)),
        };
        writeHead(res, 500, withSecurityHeaders(headers, isHttps(req)));
        res.end(req.method === 'HEAD' ? undefined : FALLBACK_PAGE_HTML);
      }
    });
  });
  // CONNECT (a proxy tunnel) never reaches the request handler: answer it here, then close.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${PAGE_ALLOW}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
  });
  const port = options.port ?? 4321;
  const host = options.host ?? '127.0.0.1';
  await options.beforeListen?.();
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  let closed: Promise<void> | null = null;
  return {
    url: `http://${host === '127.0.0.1' ? 'localhost' : host}:${actualPort}`,
    buildId,
    addAssetFallback,
    purgeRenders: (generation) => {
      cache?.purge(generation);
      clearUpstreamCaches();
      // The publish rewrote pages of this release in place: none is served as it was.
      statics.forget();
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      });
      await ownStore?.close();
    },
    drain: (limitMs = 30_000, closeIdle = false) => {
      if (closeIdle) server.closeIdleConnections();
      if (closed) return closed;
      draining = true;
      closed = new Promise<void>((resolve) => {
        const cut = setTimeout(() => {
          server.closeAllConnections();
        }, limitMs);
        // net's close, not http's: http's also cuts idle kept-alive connections at once, and a
        // client may be sending its next request on one right then. They end with their reply
        // or at the keep-alive timeout.
        NetServer.prototype.close.call(server, () => {
          clearTimeout(cut);
          resolve();
        });
      }).then(() => ownStore?.close());
      return closed;
    },
  };
}

/** Worker mode: serves the release the supervisor names, until told to drain. */
async function runWorker(config: ServeConfig): Promise<void> {
  // Each of the SERVER_WORKERS processes compresses in its own threads: they share the cores.
  shareCompressionCores(config.workers);
  // Every fetch of the worker (on-demand reads, pictures) has a deadline (FETCH_TIMEOUT_MS).
  installFetchDeadlines(config.fetchTimeoutMs);
  const settings = readEnvironment([
    'BIGCOMMERCE_STORE_HASH',
    'REDIS_URL',
    'STATE_DIR',
    'PORT',
    'HOST',
  ]);
  const distDir = process.env[WORKER_ENV.distDir] ?? 'dist';
  const assetDirs = JSON.parse(process.env[WORKER_ENV.assetDirs] ?? '[]') as string[];
  const statusFile = process.env[WORKER_ENV.statusFile];
  // Always answered, so a webhook sent to a shop without its secret gets 404 and one log line.
  const webhooks = createWebhookRoutes({
    contentfulSecret: config.contentfulSecret,
    bigcommerceSecret: config.bigcommerceSecret,
    bigcommerceStoreHash: settings.BIGCOMMERCE_STORE_HASH,
    statusToken: config.statusToken,
    statusFile,
    // Replays are refused by every copy: the shop's shared store (Redis or the state file),
    // opened on the first accepted notification.
    store: () => createStore({ redisUrl: settings.REDIS_URL, stateDir: settings.STATE_DIR }),
    onEvent: (event) => {
      const message: EventMessage = { type: 'rebuild:event', event };
      sendOrDrop(process, message);
    },
  });
  const generation = Number(process.env[WORKER_ENV.generation] ?? 0);
  // Started ahead: it waits to listen until its release goes live (`serve:listen`).
  const standby = process.env[WORKER_ENV.standby] === '1';
  let goLive: () => void = () => undefined;
  const live = new Promise<void>((resolve) => {
    goLive = resolve;
  });
  let server: RunningServer | null = null;
  const drain = (limitMs: number, closeIdle: boolean) => {
    if (server === null) process.exit(0); // not listening yet: nothing to finish
    void server.drain(limitMs, closeIdle).finally(() => process.exit(0));
  };
  // Before loading the release: a word from the supervisor meanwhile is not lost.
  process.on('message', (message) => {
    if (isListenMessage(message)) {
      goLive();
      return;
    }
    const purge = parsePurgeMessage(message);
    if (purge !== null) {
      server?.purgeRenders(purge.generation);
      log.info(
        `[serve] worker ${String(process.pid)}: cached renders dropped (publish ${String(purge.generation)})`,
      );
      return;
    }
    const parsed = parseDrainMessage(message);
    if (parsed === null) return;
    for (const dir of parsed.assetDirs) server?.addAssetFallback(dir);
    drain(parsed.limitMs, parsed.closeIdle);
  });
  // Ctrl-C reaches the whole process group: the supervisor decides when workers stop.
  process.on('SIGINT', () => undefined);
  process.once('SIGTERM', () => {
    drain(5_000, true);
  });
  server = await startServer({
    distDir,
    pictureCacheDir: pictureCacheDirOf({
      releasesDir: config.releasesDir,
      rebuilds: config.rebuilds,
      distDir,
    }),
    port: settings.PORT,
    host: settings.HOST,
    assetFallbackDirs: assetDirs,
    webhooks,
    renderCache: { generation: Number.isSafeInteger(generation) ? generation : 0 },
    ...(standby
      ? {
          beforeListen: () => {
            const ready: StandbyMessage = { type: 'serve:standby' };
            sendOrDrop(process, ready);
            return live;
          },
        }
      : {}),
  });
}

/**
 * The release to serve at start: the newest complete one of `distDir` (built at `distBuiltAt`)
 * and the releases folder's current one, when that one was built against `target` after
 * `notBefore` (the sources' time); else `distDir`.
 */
export async function initialRelease(options: {
  distDir: string;
  distBuiltAt: number;
  releasesDir: string;
  target?: string;
  notBefore?: number;
}): Promise<Release> {
  const dist: Release = {
    id: path.basename(path.resolve(options.distDir)),
    dir: path.resolve(options.distDir),
    builtAt: options.distBuiltAt,
  };
  const release = await readCurrentRelease(options.releasesDir);
  if (
    release === null ||
    release.builtAt <= dist.builtAt ||
    release.builtAt < (options.notBefore ?? 0) ||
    (options.target !== undefined && release.target !== options.target)
  ) {
    return dist;
  }
  return release;
}

/** When `distDir` was built: its build stamp (`npm start`), else its SSR entry's time. */
export function distBuiltAt(distDir: string): number {
  const stampFile = path.join(distDir, 'build-stamp.json');
  if (existsSync(stampFile)) {
    try {
      const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as { builtAt?: unknown };
      if (typeof stamp.builtAt === 'number') return stamp.builtAt;
    } catch {
      // Fall back to the file time.
    }
  }
  try {
    return statSync(path.join(distDir, 'server', 'entry.mjs')).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Starts the supervisor on `initial` with the settings of `config`: rebuilds (when a webhook
 * secret is set) run `scripts/build.ts` with this process's environment, kept alive to publish
 * commerce edits unless `PUBLISH_EDITS=0` (`publisher`: the kept build that made `initial`).
 * With `REDIS_URL`, the copies sharing `RELEASES_DIR` build once for all of them
 * (`src/server/rebuild/coordination.ts`).
 */
export function superviseShop(options: {
  config: ServeConfig;
  initial: Release;
  port: number;
  host: string;
  target?: string;
  publisher?: KeptPublisher;
}): Promise<Supervisor> {
  const { config } = options;
  const publish = config.publishEdits; // off with REBUILD_COMMAND (config.ts)
  const redisUrl = (readEnvironment(['REDIS_URL']).REDIS_URL ?? '').trim();
  return startSupervisor({
    workerExec: import.meta.filename,
    initial: options.initial,
    port: options.port,
    host: options.host,
    workers: config.workers,
    releasesDir: config.releasesDir,
    ...(options.target === undefined ? {} : { target: options.target }),
    ...(options.publisher === undefined ? {} : { initialPublisher: options.publisher }),
    rebuild: config.rebuilds
      ? {
          debounceMs: config.debounceMs,
          timeoutMs: config.buildTimeoutMs,
          command:
            config.buildCommand === undefined
              ? [
                  process.execPath,
                  path.join(import.meta.dirname, 'build.ts'),
                  ...(publish ? ['--publisher'] : []),
                  '--out-dir',
                ]
              : { shell: config.buildCommand },
          env: { ...process.env },
          publisher: publish,
          fullBuildEveryMs: config.fullBuildEveryMs,
          publishTimeoutMs: config.publishTimeoutMs,
          ...(redisUrl === '' ? {} : { coordination: { url: redisUrl } }),
        }
      : null,
  });
}

/**
 * Exits with the reason when the releases folder holds another shop's releases (other build
 * settings) that a live copy serves (`lib/build-settings.ts`); else this copy's settings are
 * the folder's. Before anything is built or served from it.
 */
export async function shareReleasesOrExit(
  scope: string,
  releasesDir: string,
  port: number,
): Promise<void> {
  const share = await shareReleasesFolder({
    releasesDir,
    env: process.env,
    self: copyName(os.hostname(), port),
  });
  if (share.ok) {
    if (share.recorded === 'replaced') {
      console.log(
        `[${scope}] ${releasesDir}: the build settings changed (${share.differ.join(', ')}) and no copy serves from it: its releases are now this shop's`,
      );
    }
    return;
  }
  console.error(`[${scope}] ${share.message}`);
  process.exit(1);
}

/** The settings of the environment, or exit with the reason (startup). */
export function serveConfigOrExit(scope: string): ServeConfig {
  try {
    const config = readServeConfig(process.env);
    setLogLevel(config.logLevel);
    return config;
  } catch (error) {
    if (!(error instanceof ServeConfigError)) throw error;
    console.error(`[${scope}] ${error.message}`);
    process.exit(1);
  }
}

if (import.meta.main && cluster.isWorker && process.env[WORKER_ENV.role] === '1') {
  await runWorker(serveConfigOrExit('serve'));
} else if (import.meta.main) {
  // `npm run serve` serves DIST_DIR as it is (benches and tests name their build); rebuilds
  // go to RELEASES_DIR and are swapped in. `npm start` also resumes the newest release.
  const config = serveConfigOrExit('serve');
  const settings = readEnvironment(['DIST_DIR', 'PORT', 'HOST']);
  const distDir = settings.DIST_DIR;
  const port = settings.PORT;
  if (config.rebuilds) await shareReleasesOrExit('serve', config.releasesDir, port);
  const supervisor = await superviseShop({
    config,
    initial: {
      id: path.basename(path.resolve(distDir)),
      dir: path.resolve(distDir),
      builtAt: distBuiltAt(distDir),
    },
    port,
    host: settings.HOST,
  });
  console.log(`[serve] shop at ${supervisor.url} (release ${supervisor.current().id})`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void supervisor.close().finally(() => process.exit(0));
    });
  }
}
