/**
 * The storefront server (`npm run serve`; `npm start` builds first). Serves the pre-rendered
 * pages and hashed assets of `dist/client` (precompressed, with cache headers and ETags) and
 * hands everything else to the Astro SSR handler of `dist/server` (API middleware, on-demand
 * pages, redirects, 404). Listing views with query parameters (`/c/...?sort=2`) are rewritten
 * to their on-demand route first, so a direct load shows the right products (spec §5).
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip as gzipCallback } from 'node:zlib';
import { listingViewPath } from '../src/lib/commerce/listing.ts';
import { COMPRESSIBLE } from './lib/precompress.ts';

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

type AstroHandler = (req: IncomingMessage, res: ServerResponse, next?: () => void) => unknown;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'SAMEORIGIN',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
};

interface StaticFile {
  file: string;
  size: number;
  mtimeMs: number;
}

async function fileAt(file: string): Promise<StaticFile | null> {
  try {
    const info = await stat(file);
    return info.isFile() ? { file, size: info.size, mtimeMs: info.mtimeMs } : null;
  } catch {
    return null;
  }
}

/** The static file for a URL path: `/` → index.html, `/a/b` → a/b.html or a/b/index.html. */
async function resolveStatic(clientDir: string, pathname: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const target = path.join(clientDir, path.normalize(decoded));
  if (target !== clientDir && !target.startsWith(clientDir + path.sep)) return null;
  if (decoded === '/') return fileAt(path.join(clientDir, 'index.html'));
  if (decoded.endsWith('/')) return null; // the SSR handler answers the trailing-slash 301
  if (path.extname(decoded)) return fileAt(target);
  return (await fileAt(`${target}.html`)) ?? (await fileAt(path.join(target, 'index.html')));
}

function cacheControl(pathname: string, file: string): string {
  if (pathname.startsWith('/_astro/')) return 'public, max-age=31536000, immutable';
  if (file.endsWith('.html')) return 'public, max-age=0, must-revalidate';
  return 'public, max-age=3600';
}

async function sendStatic(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  found: StaticFile,
): Promise<void> {
  const ext = path.extname(found.file);
  const etag = `W/"${found.size.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}"`;
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    'Content-Type': TYPES[ext] ?? 'application/octet-stream',
    'Cache-Control': cacheControl(pathname, found.file),
    ETag: etag,
    Vary: 'Accept-Encoding',
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers).end();
    return;
  }
  const accepts = req.headers['accept-encoding'] ?? '';
  for (const [encoding, suffix] of [
    ['br', '.br'],
    ['gzip', '.gz'],
  ] as const) {
    if (!accepts.includes(encoding)) continue;
    const compressed = await fileAt(found.file + suffix);
    if (compressed) {
      headers['Content-Encoding'] = encoding;
      sendFile(req, res, headers, compressed);
      return;
    }
    if (COMPRESSIBLE.test(found.file) && found.size >= 512) {
      // Pages are not precompressed by the build (scripts/lib/precompress.ts): compress once.
      const body = await compressedPage(found, encoding);
      headers['Content-Encoding'] = encoding;
      headers['Content-Length'] = String(body.length);
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
  }
  sendFile(req, res, headers, found);
}

function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  headers: Record<string, string>,
  body: StaticFile,
): void {
  headers['Content-Length'] = String(body.size);
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(body.file).pipe(res);
}

/** Compressed pages, most recently used last; bounded in bytes. */
const pageCache = new Map<string, Buffer>();
let pageCacheBytes = 0;
const PAGE_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A page compressed with `encoding`, from the cache (keyed by file, size and mtime, so a new
 * release never serves a stale body) or compressed now at a fast level (brotli 4, gzip 6).
 */
async function compressedPage(found: StaticFile, encoding: 'br' | 'gzip'): Promise<Buffer> {
  const key = `${encoding}:${found.file}:${found.size}:${found.mtimeMs}`;
  const hit = pageCache.get(key);
  if (hit) {
    pageCache.delete(key);
    pageCache.set(key, hit);
    return hit;
  }
  const raw = await readFile(found.file);
  const body =
    encoding === 'br'
      ? await brotli(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 4,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        })
      : await gzip(raw, { level: 6 });
  pageCache.set(key, body);
  pageCacheBytes += body.length;
  for (const [oldKey, oldBody] of pageCache) {
    if (pageCacheBytes <= PAGE_CACHE_MAX_BYTES) break;
    pageCache.delete(oldKey);
    pageCacheBytes -= oldBody.length;
  }
  return body;
}

export interface ServerOptions {
  distDir?: string;
  port?: number;
  host?: string;
}

/** Starts the storefront server; resolves once it listens. */
export async function startServer(options: ServerOptions = {}): Promise<{
  url: string;
  close(): Promise<void>;
}> {
  const distDir = path.resolve(options.distDir ?? 'dist');
  const clientDir = path.join(distDir, 'client');
  const entry = pathToFileURL(path.join(distDir, 'server', 'entry.mjs')).href;
  const { handler } = (await import(entry)) as { handler: AstroHandler };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const isRead = req.method === 'GET' || req.method === 'HEAD';
    void (async () => {
      if (isRead) {
        const view = listingViewPath(url.pathname, url.search);
        if (view) {
          req.url = view;
          return handler(req, res);
        }
        const found = await resolveStatic(clientDir, url.pathname);
        if (found) return sendStatic(req, res, url.pathname, found);
      }
      return handler(req, res);
    })().catch((error: unknown) => {
      console.error('[serve]', error);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  const port = options.port ?? 4321;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host === '127.0.0.1' ? 'localhost' : host}:${actualPort}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

if (import.meta.main) {
  const server = await startServer({
    port: Number(process.env.PORT ?? 4321),
    host: process.env.HOST ?? '127.0.0.1',
  });
  console.log(`[serve] shop at ${server.url}`);
}
