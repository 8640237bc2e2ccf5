/**
 * The storefront server (`npm run serve`; `npm start` builds first). Serves the pre-rendered
 * pages and hashed assets of `dist/client` (`src/server/static-files.ts`) and hands everything
 * else to the Astro SSR handler of `dist/server` (`src/server/on-demand.ts`: API middleware,
 * on-demand pages, redirects, 404), every reply with the security headers of
 * `src/server/headers.ts`. Listing views with query parameters (`/c/...?sort=2`) are rewritten
 * to their on-demand route first, so a direct load shows the right products (spec §5); they and
 * the search results are served from the render cache (`src/server/render-cache.ts`), shared
 * through Redis when `REDIS_URL` is set.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { listingViewPath } from '../src/lib/commerce/listing.ts';
import { createRedisStore } from '../src/lib/server/store/redis.ts';
import type { SharedStore } from '../src/lib/server/store/types.ts';
import { renderKey, type RenderKey } from '../src/server/cache-key.ts';
import { httpsDetector, withSecurityHeaders } from '../src/server/headers.ts';
import { apiCall, createOnDemand, writeHead, type AppHandler } from '../src/server/on-demand.ts';
import { createRenderCache } from '../src/server/render-cache.ts';
import { createStaticFiles } from '../src/server/static-files.ts';

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
      };
  /** Milliseconds since the epoch (tests). */
  now?: () => number;
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
export async function startServer(options: ServerOptions = {}): Promise<{
  url: string;
  buildId: string;
  close(): Promise<void>;
}> {
  const distDir = path.resolve(options.distDir ?? 'dist');
  const serverDir = path.join(distDir, 'server');
  const entry = pathToFileURL(path.join(serverDir, 'entry.mjs')).href;
  const { handler } = (await import(entry)) as { handler: AppHandler };
  const buildId = await buildIdOf(serverDir);
  const isHttps = httpsDetector();
  const now = options.now ?? Date.now;
  const statics = createStaticFiles({ root: path.join(distDir, 'client'), now });
  const cacheOptions = options.renderCache === false ? null : (options.renderCache ?? {});
  // Several copies share renders through Redis (REDIS_URL); one server keeps them in process.
  const redisUrl = process.env.REDIS_URL?.trim() ?? '';
  const ownStore =
    cacheOptions && cacheOptions.store === undefined && redisUrl !== ''
      ? createRedisStore({ url: redisUrl })
      : null;
  const cache = cacheOptions
    ? createRenderCache({
        buildId,
        store: cacheOptions.store ?? ownStore,
        ...(cacheOptions.maxBytes === undefined ? {} : { maxBytes: cacheOptions.maxBytes }),
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
    const view = method === 'GET' || method === 'HEAD' ? listingViewPath(pathname, search) : null;
    const found = view === null ? await statics.resolve(pathname) : null;
    if (found) {
      if (method === 'GET' || method === 'HEAD') return statics.send(req, res, found, isHttps(req));
      if (method === 'OPTIONS') {
        answer(req, res, 204, { allow: STATIC_ALLOW });
        return;
      }
      answer(req, res, 405, { allow: STATIC_ALLOW });
      return;
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
    const key = method === 'POST' ? null : cacheableAs(req.headers.host, pageTarget);
    if (key) return onDemand.page(req, res, key);
    req.url = pageTarget;
    return onDemand.relay(req, res);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`[serve] ${req.method ?? ''} ${(req.url ?? '').slice(0, 200)}: ${message}`);
      if (!res.headersSent) answer(req, res, 500);
      else res.destroy();
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
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host === '127.0.0.1' ? 'localhost' : host}:${actualPort}`,
    buildId,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      });
      await ownStore?.close();
    },
  };
}

if (import.meta.main) {
  const server = await startServer({
    distDir: process.env.DIST_DIR ?? 'dist',
    port: Number(process.env.PORT ?? 4321),
    host: process.env.HOST ?? '127.0.0.1',
  });
  console.log(`[serve] shop at ${server.url}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void server.close().finally(() => process.exit(0));
    });
  }
}
