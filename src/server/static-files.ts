/**
 * The static side of the storefront server: the pre-rendered pages and assets of
 * `dist/client`. Hashed assets come precompressed from the build (`.br`, `.gz` siblings,
 * src/server/precompress.ts); pages are compressed on first request and kept. Small files and
 * their variants are held in memory (an LRU bounded in bytes) and file lookups are remembered
 * for a second, so a hot page costs no disk access. A page's own Content-Security-Policy (the
 * `<meta>` at its opening, page-policy.ts) is sent as a header too, read once per version of
 * the file. Conditional requests (`If-None-Match` lists and `*`, `If-Modified-Since`) through
 * `fresh`, byte ranges through `range-parser`.
 *
 * Why not `send`/`serve-static` or `sirv`: `send` stats and streams every file from disk on
 * every request and knows nothing of precompressed siblings (wrk, 50 connections, the product
 * page uncompressed: `send` 1.8-2.8k req/s, this 15-17.5k, 27k in brotli); `sirv` compares
 * `If-None-Match` by string equality only and serves only what the build precompressed (pages
 * are not: src/server/precompress.ts). The well-kept pieces they build on are used here.
 */
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import path from 'node:path';
import parseRange from 'range-parser';
import { ifRangeHolds, notModified } from './conditional.ts';
import { compress, MIN_COMPRESS_BYTES, negotiateCoding, type Coding } from './encoding.ts';
import { pageSecurityHeaders, sharedHead } from './headers.ts';
import { pagePolicy, POLICY_PREFIX_BYTES } from './page-policy.ts';

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

/** Files the server compresses itself when the build left no compressed sibling (pages). */
const COMPRESS_ON_DEMAND = /\.(html|css|js|mjs|json|svg|xml|txt|webmanifest)$/;

interface Variant {
  coding: Coding;
  file: string;
  size: number;
  etag: string;
}

/** A file of `dist/client` as the server knows it. */
export interface StaticFile {
  file: string;
  size: number;
  mtimeMs: number;
  type: string;
  cacheControl: string;
  lastModified: string;
  /** Identity first, then the precompressed siblings found next to it. */
  variants: Variant[];
  /** Compressed by the server on first request (no sibling, compressible, not tiny). */
  compressOnDemand: boolean;
  /**
   * The reply's status: 200, or the error status of a pre-rendered error page (`/500`), which
   * answers with its status, never 304 or a range.
   */
  status: number;
  /**
   * A page's own Content-Security-Policy, sent as a header beside the framing rule: the
   * `<meta>` BaseLayout writes right after `<meta charset>` (page-policy.ts), read once per
   * version of the file. Null for other files, and for a page that does not open so.
   */
  policy: string | null;
}

/** Pre-rendered error pages of `dist/client` and the status they answer with. */
const ERROR_PAGE_STATUS: Readonly<Record<string, number>> = { '500.html': 500 };

export interface StaticFilesOptions {
  /** `dist/client`. */
  root: string;
  /** Most bytes of file bodies held in memory (default 64 MiB). */
  maxBytes?: number;
  /** Larger files are streamed from disk, never held (default 1 MiB). */
  maxFileBytes?: number;
  /** How long a file lookup is trusted before the disk is asked again (default 1 s). */
  recheckMs?: number;
  now?: () => number;
}

export interface StaticFiles {
  /** The file a URL path names: `/` → index.html, `/a/b` → a/b.html or a/b/index.html. */
  resolve(pathname: string): Promise<StaticFile | null>;
  /**
   * The file's own bytes (uncompressed), from the bodies held in memory when there; null when
   * the file is gone since it was looked up (a publish removed a page; the lookup is forgotten).
   */
  identity(found: StaticFile): Promise<Buffer | null>;
  /**
   * Answers a GET or HEAD for `found` (200, 206, 304 or 416); false, having written nothing,
   * when the file is gone since it was looked up (the caller answers as if it never was).
   */
  send(
    req: IncomingMessage,
    res: ServerResponse,
    found: StaticFile,
    secure: boolean,
  ): Promise<boolean>;
  /**
   * Forgets every lookup (a publish rewrote or removed pages): the next request asks the disk,
   * rather than trusting for up to `recheckMs` a lookup whose body is still held in memory.
   */
  forget(): void;
}

const isGone = (error: unknown) =>
  (error as NodeJS.ErrnoException | null)?.code === 'ENOENT' ||
  (error as NodeJS.ErrnoException | null)?.code === 'ENOTDIR';

function cacheControl(root: string, file: string): string {
  if (file.startsWith(path.join(root, '_astro') + path.sep)) {
    return 'public, max-age=31536000, immutable';
  }
  // The service worker: checked at every page load, so a new build's worker comes at once.
  if (file === path.join(root, 'sw.js')) return 'no-cache';
  if (file.endsWith('.html')) return 'public, max-age=0, must-revalidate';
  return 'public, max-age=3600';
}

async function statFile(file: string): Promise<{ size: number; mtimeMs: number } | null> {
  try {
    const info = await stat(file);
    return info.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : null;
  } catch {
    return null;
  }
}

/** Creates the static file server of `options.root`. */
export function createStaticFiles(options: StaticFilesOptions): StaticFiles {
  const root = path.resolve(options.root);
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const maxFileBytes = options.maxFileBytes ?? 1024 * 1024;
  const recheckMs = options.recheckMs ?? 1000;
  const now = options.now ?? Date.now;

  const lookups = new Map<string, { found: StaticFile | null; checkedAt: number }>();
  const MAX_LOOKUPS = 20_000;
  const bodies = new Map<string, Buffer>();
  let bodyBytes = 0;
  const loading = new Map<string, Promise<Buffer>>();
  /** Pages' policies by file version (`file:size:mtime`), read from the file's opening. */
  const policies = new Map<string, string | null>();

  async function policyOf(file: string, size: number, mtimeMs: number): Promise<string | null> {
    const key = `${file}:${String(size)}:${String(mtimeMs)}`;
    const known = policies.get(key);
    if (known !== undefined) return known;
    // Gone or unreadable: no header policy (the page, if it is still sent, keeps its meta).
    const handle = await open(file).catch(() => null);
    if (handle === null) return null;
    try {
      const info = await handle.stat();
      // Replaced since it was looked up (a publish): its next lookup reads the new one.
      if (info.size !== size || info.mtimeMs !== mtimeMs) return null;
      const opening = Buffer.alloc(Math.min(size, POLICY_PREFIX_BYTES));
      const { bytesRead } = await handle.read(opening, 0, opening.length, 0);
      const policy = pagePolicy(opening.toString('utf8', 0, bytesRead));
      if (policies.size >= MAX_LOOKUPS) policies.clear();
      policies.set(key, policy);
      return policy;
    } catch {
      return null;
    } finally {
      await handle.close();
    }
  }

  async function describe(file: string): Promise<StaticFile | null> {
    const info = await statFile(file);
    if (!info) return null;
    const tag = `${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}`;
    const variants: Variant[] = [{ coding: 'identity', file, size: info.size, etag: `"${tag}"` }];
    const ext = path.extname(file);
    let compressible = COMPRESS_ON_DEMAND.test(file);
    if (compressible) {
      for (const [coding, suffix] of [
        ['br', '.br'],
        ['gzip', '.gz'],
      ] as const) {
        const sibling = await statFile(file + suffix);
        if (!sibling) continue;
        variants.push({
          coding,
          file: file + suffix,
          size: sibling.size,
          etag: `W/"${tag}-${coding}"`,
        });
        compressible = false;
      }
    }
    const status = ERROR_PAGE_STATUS[path.relative(root, file)] ?? 200;
    const policy = ext === '.html' ? await policyOf(file, info.size, info.mtimeMs) : null;
    return {
      file,
      size: info.size,
      mtimeMs: info.mtimeMs,
      type: TYPES[ext] ?? 'application/octet-stream',
      cacheControl: status === 200 ? cacheControl(root, file) : 'no-store',
      lastModified: new Date(info.mtimeMs).toUTCString(),
      variants,
      compressOnDemand:
        compressible && info.size >= MIN_COMPRESS_BYTES && info.size <= maxFileBytes,
      status,
      policy,
    };
  }

  async function lookUp(pathname: string): Promise<StaticFile | null> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    const target = path.join(root, path.normalize(decoded));
    if (target !== root && !target.startsWith(root + path.sep)) return null;
    if (decoded === '/') return describe(path.join(root, 'index.html'));
    if (decoded.endsWith('/')) return null; // the SSR handler answers the trailing-slash 301
    if (path.extname(decoded)) return describe(target);
    return (await describe(`${target}.html`)) ?? (await describe(path.join(target, 'index.html')));
  }

  function keepBody(key: string, body: Buffer): void {
    bodies.set(key, body);
    bodyBytes += body.length;
    for (const [oldKey, old] of bodies) {
      if (bodyBytes <= maxBytes) break;
      bodies.delete(oldKey);
      bodyBytes -= old.length;
    }
  }

  /** The body of `found` in `coding`, from memory, the disk, or compressed now (once). */
  function body(found: StaticFile, variant: Variant | null, coding: Coding): Promise<Buffer> {
    const key = `${coding}:${found.file}:${found.size}:${found.mtimeMs}`;
    const hit = bodies.get(key);
    if (hit) {
      bodies.delete(key);
      bodies.set(key, hit);
      return Promise.resolve(hit);
    }
    const running = loading.get(key);
    if (running) return running;
    const load = (async () => {
      try {
        const data = variant
          ? await readFile(variant.file)
          : await compress(
              await body(found, found.variants[0] ?? null, 'identity'),
              coding as 'br' | 'gzip',
              'page',
            );
        keepBody(key, data);
        return data;
      } finally {
        loading.delete(key);
      }
    })();
    loading.set(key, load);
    return load;
  }

  /** `load`'s body, or null when the file went away (its lookups forgotten). */
  async function unlessGone(found: StaticFile, load: Promise<Buffer>): Promise<Buffer | null> {
    try {
      return await load;
    } catch (error) {
      if (!isGone(error)) throw error;
      for (const [pathname, known] of lookups) {
        if (known.found?.file === found.file) lookups.delete(pathname);
      }
      return null;
    }
  }

  return {
    forget: () => {
      lookups.clear();
    },
    identity: (found) => unlessGone(found, body(found, found.variants[0] ?? null, 'identity')),
    async resolve(pathname) {
      const known = lookups.get(pathname);
      const at = now();
      if (known && at - known.checkedAt < recheckMs) return known.found;
      const found = await lookUp(pathname);
      if (lookups.size >= MAX_LOOKUPS) lookups.clear();
      lookups.set(pathname, { found, checkedAt: at });
      return found;
    },

    async send(req, res, found, secure) {
      const identity = found.variants[0];
      if (!identity) throw new Error(`No identity variant for ${found.file}`);
      const available: Coding[] = found.variants.map((v) => v.coding);
      if (found.compressOnDemand) available.push('br', 'gzip');
      const { status } = found;
      const range = req.method === 'GET' && status === 200 ? req.headers.range : undefined;
      // A range is of the identity representation (what download resumers and media ask for).
      const coding =
        range === undefined
          ? negotiateCoding(req.headers['accept-encoding'], available)
          : 'identity';
      const variant = found.variants.find((v) => v.coding === coding) ?? null;
      const etag = variant?.etag ?? `W/"${identity.etag.slice(1, -1)}-${coding}"`;
      /** The reply's head, its length apart (a new object, the caller's to complete). */
      const head = (): OutgoingHttpHeaders => {
        const headers: OutgoingHttpHeaders = {
          ...pageSecurityHeaders(secure, found.policy),
          'Content-Type': found.type,
          'Cache-Control': found.cacheControl,
          'Last-Modified': found.lastModified,
          ETag: etag,
          Vary: 'Accept-Encoding',
          'Accept-Ranges': 'bytes',
        };
        if (coding !== 'identity') headers['Content-Encoding'] = coding;
        return headers;
      };
      if (status === 200 && notModified(req.headers, etag, found.lastModified)) {
        res.writeHead(304, head()).end();
        return true;
      }
      const size = variant?.size;
      const inMemory = size === undefined || size <= maxFileBytes;
      if (range !== undefined && ifRangeHolds(req.headers, identity.etag, found.lastModified)) {
        const headers = head();
        const ranges = parseRange(found.size, range, { combine: true });
        if (ranges === -1) {
          headers['Content-Range'] = `bytes */${found.size}`;
          res.writeHead(416, headers).end();
          return true;
        }
        // Malformed (-2), another unit, or several ranges: the whole file (RFC 9110 section 14.2).
        if (ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1 && ranges[0]) {
          const { start, end } = ranges[0];
          headers['Content-Range'] = `bytes ${start}-${end}/${found.size}`;
          headers['Content-Length'] = String(end - start + 1);
          if (inMemory) {
            const data = await unlessGone(found, body(found, identity, 'identity'));
            if (data === null) return false;
            res.writeHead(206, headers);
            res.end(data.subarray(start, end + 1));
          } else {
            res.writeHead(206, headers);
            streamFile(res, found.file, { start, end });
          }
          return true;
        }
      }
      if (!inMemory && variant) {
        const headers = head();
        headers['Content-Length'] = String(variant.size);
        res.writeHead(status, headers);
        if (req.method === 'HEAD') res.end();
        else streamFile(res, variant.file);
        return true;
      }
      const data = await unlessGone(found, body(found, variant, coding));
      if (data === null) return false;
      const length = String(data.length);
      const whole = sharedHead(found, `${coding} ${secure ? 's' : ''} ${length}`, () => ({
        ...head(),
        'Content-Length': length,
      }));
      res.writeHead(status, whole);
      res.end(req.method === 'HEAD' ? undefined : data);
      return true;
    },
  };
}

/** Pipes a file to the reply; a read error (file gone mid-release) cuts the reply short. */
function streamFile(res: ServerResponse, file: string, range?: { start: number; end: number }) {
  const stream = createReadStream(file, range);
  stream.once('error', () => {
    res.destroy();
  });
  stream.pipe(res);
}
