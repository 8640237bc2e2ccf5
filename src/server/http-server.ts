/**
 * The storefront server's HTTP side, `startServer`: serves the pre-rendered pages and hashed
 * assets of `dist/client` (`static-files.ts`) and hands everything else to the Astro SSR handler
 * of `dist/server` (`on-demand.ts`: API middleware, on-demand pages, redirects, 404), every
 * reply with the security headers of `headers.ts`. Listing views with query parameters
 * (`/c/...?sort=2`) are rewritten to their on-demand route first, so a direct load shows the
 * right products (spec §5); they and the search results are served from the render cache
 * (`render-cache.ts`), shared through Redis when `REDIS_URL` is set. `/webhooks/...` are the
 * rebuild webhooks (`webhooks/`). A worker of `serve.ts` runs it; alone it is the in-process
 * server of tests, benches and the link checker.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { cartLinkPath } from '../lib/commerce/cart-link.ts';
import { listingViewPath } from '../lib/commerce/listing.ts';
import { hasResellerMode, resellerPage } from '../lib/commerce/shop-mode.ts';
import { pagePathDecision, type PathDecision } from '../lib/commerce/page-path.ts';
import { readBuildFlags } from '../integrations/build-flags.ts';
import { createRedisStore } from '../shop/state/redis.ts';
import type { SharedStore } from '../shop/state/types.ts';
import { renderKey, type RenderKey } from './cache-key.ts';
import { compress, negotiateCoding } from './encoding.ts';
import { FALLBACK_PAGE_HEADERS, FALLBACK_PAGE_HTML } from './fallback-page.ts';
import { createStoreProbe, isHealthPath, sendProbe, type StoreProbe } from './health.ts';
import { httpsDetector, withSecurityHeaders } from './headers.ts';
import { pagePolicy } from './page-policy.ts';
import { apiCall, createOnDemand, writeHead, type AppHandler } from './on-demand.ts';
import { createRenderCache } from './render-cache.ts';
import { clearUpstreamCaches } from '../shop/connectors/http/cache.ts';
import { LISTING_STORE_FILE, useListingStore } from '../shop/loaders/listing-store.ts';
import { useListingPages } from '../shop/loaders/listing-page.ts';
import { namePictureCacheDir, PICTURE_CACHE_FOLDER } from './pictures/picture-cache.ts';
import { createStaticFiles, type StaticFile, type StaticFiles } from './static-files.ts';
import { type WebhookRoutes } from './webhooks/routes.ts';
import { readEnvironment } from '../shop/config/environment.ts';
import { countReply, markRoute } from './metrics.ts';
import { ShopResponse, type Serving } from './shop-response.ts';
import { routeKind, type RouteKind } from './route-kind.ts';
import { log } from '../shop/config/log.ts';
import { trustedProxiesFromEnv } from '../shop/auth/client.ts';
import { buildIdOf } from './build-id.ts';
import { asRequestOf, assignRequestId } from './request-id.ts';
import { remembered } from './remembered.ts';

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
  /**
   * The state store `/readyz` checks (health.ts); default: the one the environment names
   * (`REDIS_URL`, else `STATE_DIR`).
   */
  storeProbe?: StoreProbe;
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
  /**
   * `/readyz` answers 503 "draining" from now on, while the server keeps serving: the first
   * step of a drained stop (`shutdown.ts`). `drain` implies it.
   */
  stopReadiness(): void;
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
 * A reply sent: the one `finish` listener all replies share (a closure per reply cost the API
 * row of `npm run bench:serve` a fifth of its rate). It counts the reply (`metrics.ts`) and,
 * when the server drains, closes the connection the reply kept alive once idle (a reply whose
 * head went out before the drain began promised the client its connection).
 */
function replySent(this: ShopResponse): void {
  countReply.call(this);
  const serving = this.serving;
  // Only a reply whose head promised a kept-alive connection before the drain began: a head
  // written since says `Connection: close`, and closing idle connections after each of those
  // would cut a client's next request on another connection it was just reusing.
  if (serving?.draining === true && this.shouldKeepAlive) setImmediate(serving.closeIdle);
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
  // spec §1: with the transactional flag off a cart link does nothing (no cart cookie is set).
  const { transactional } = readBuildFlags(serverDir);
  const trusted = trustedProxiesFromEnv();
  const isHttps = httpsDetector(trusted);
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

  // Hot URLs come back thousands of times a second: remember their keys and spellings.
  const renderKeys = remembered<RenderKey | null>();
  const cacheableAs = (host: string | undefined, target: string): RenderKey | null =>
    renderKeys.get(`${host ?? ''} ${target}`, () => renderKey(host, target));
  /** What a path without a query says, the method apart: its route kind and spelling. */
  const routes = remembered<{ kind: RouteKind; spelling: PathDecision }>();

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

  // The probes (health.ts): before the release's files and Astro, never cached.
  const storeProbe =
    options.storeProbe ??
    createStoreProbe({ redisUrl, stateDir: readEnvironment(['STATE_DIR']).STATE_DIR });
  const closeProbe = () => (options.storeProbe ? Promise.resolve() : storeProbe.close());
  let listening = false;
  let unready = false;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const target = splitTarget(req.url ?? '/');
    if (target !== null && isHealthPath(target.pathname)) {
      const facts = () => ({ draining: unready || serving.draining, listening });
      return sendProbe(req, res, target.pathname, facts, storeProbe, isHttps(req));
    }
    if (target === null) {
      if (method === 'OPTIONS' && req.url === '*') {
        answer(req, res, 204, { allow: PAGE_ALLOW });
        return;
      }
      answer(req, res, 400);
      return;
    }
    const { pathname, search } = target;
    // Paths alone are remembered: a query often varies per request (a campaign's tags), and
    // remembering those would only fill the memory.
    const readRoute = () => ({
      kind: routeKind(pathname, search !== ''),
      spelling: pagePathDecision(pathname, search),
    });
    const route = search === '' ? routes.get(pathname, readRoute) : readRoute();
    markRoute(res, route.kind);
    if (options.webhooks && pathname.startsWith('/webhooks/')) {
      const webhooks = options.webhooks;
      return asRequestOf(res, () => webhooks.handle(req, res, pathname, isHttps(req)));
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
    // One spelling per page, before files, cart links and Astro's guards see it.
    const { spelling } = route;
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
    if (view !== null) markRoute(res, 'listing_view');
    if (resolved) {
      markRoute(res, 'static');
      if (method === 'OPTIONS') {
        answer(req, res, 204, { allow: STATIC_ALLOW });
        return;
      }
      if (method !== 'GET' && method !== 'HEAD') {
        answer(req, res, 405, { allow: STATIC_ALLOW });
        return;
      }
      const send = (file: { files: StaticFiles; found: StaticFile }) =>
        resellerMode && file.found.type.startsWith('text/html')
          ? sendResellerPage(req, res, file.files, file.found)
          : file.files.send(req, res, file.found, isHttps(req));
      if (await send(resolved)) return;
      // The file, or the compressed copy it was to be sent from, went away since it was looked
      // up (a publish replaced the sitemaps, removed a page): looked up once more, else the
      // page is answered as it now is, on demand (its new address, or not found).
      const again = await resolveStatic(pathname);
      if (again !== null && (await send(again))) return;
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

  // Read by every reply when it writes its head and when it is sent (`shop-response.ts`).
  const serving: Serving = {
    draining: false,
    closeIdle: () => {
      server.closeIdleConnections();
    },
  };
  // Every reply counted once it is sent: its route kind, method, status and time (metrics.ts).
  const server = http.createServer({ ServerResponse: ShopResponse }, (req, res) => {
    // Draining: this reply closes its connection (the client reconnects, to another worker).
    res.serving = serving;
    res.on('finish', replySent);
    // The id now; its context only where the handling leaves the server's code (request-id.ts).
    const id = assignRequestId(req, res, trusted);
    handle(req, res).catch((error: unknown) => {
      log.error(
        { err: error, method: req.method, url: (req.url ?? '').slice(0, 200), reqId: id },
        '[serve] a request failed',
      );
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
  listening = true;
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
      await closeProbe();
    },
    stopReadiness: () => {
      unready = true;
    },
    drain: (limitMs = 30_000, closeIdle = false) => {
      if (closeIdle) server.closeIdleConnections();
      if (closed) return closed;
      // Replies under way when the drain begins close their connection too: with
      // `Connection: close` when their head is not sent yet, else once they end
      // (`shop-response.ts`).
      serving.draining = true;
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
      }).then(async () => {
        await ownStore?.close();
        await closeProbe();
      });
      return closed;
    },
  };
}
