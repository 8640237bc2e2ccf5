/**
 * The picture proxy `/_image` (no open encoder): encodes a picture of an allowed host into a
 * variant the shop shows, and nothing else.
 *
 * - Only the variants of `src/lib/picture-variants.ts` (the list the components ask from):
 *   `href`, `w`, `h`, `f` (and `q` only for a listed quality), each once, as plain decimal
 *   numbers; anything else is 400. The location is checked first, with Astro's
 *   `isRemoteAllowed` over the build's `image.remotePatterns` (`image-hosts.ts`): another
 *   scheme, host, port or path, or credentials, is 403, and so is a redirect to one.
 * - The source is judged by its bytes, not its name or type: only JPEG, PNG, GIF, WebP and
 *   AVIF signatures reach the decoder (an SVG, HTML or XML never does), and sharp's reading of
 *   the header must agree; else 415. More than `maxPixels` is 413, a source that does not
 *   decode 422. The reply is always an encode to a format of the list, checked by its own
 *   signature: never the source's bytes.
 * - The fetch has a deadline (`fetchTimeoutMs`: 504) and a size cap (`maxSourceBytes`: 413),
 *   follows at most `maxRedirects` redirects, each to an allowed location.
 * - Encodes run `encodeConcurrency` at a time (libvips on one thread each), fetches
 *   `fetchConcurrency` at a time; beyond `maxWaiting` waiting requests the proxy answers 503
 *   with `Retry-After`, so a burst never takes the threads static files are read with.
 *   Requests for one variant in flight share one fetch and encode.
 * - Every encoded variant is a file of `cacheDir` (`picture-cache.ts`): a repeat is a file
 *   read, shared by the server copies that share the folder.
 * - Every reply, picture or error, carries `Content-Security-Policy: default-src 'none';
 *   sandbox` and `X-Content-Type-Options: nosniff`; errors are a short plain text, never the
 *   HTML error page, and are not cached.
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { AstroIntegrationLogger, LocalImageService } from 'astro';
import sharpService from 'astro/assets/services/sharp';
import { isRemoteAllowed, type RemotePattern } from 'astro/assets/utils';
import sharp, { type Metadata } from 'sharp';
import {
  isPictureVariant,
  PICTURE_FORMATS,
  PICTURE_QUALITIES,
} from '../../lib/picture-variants.ts';
import { PICTURE_CSP } from '../../shop/html/csp.ts';
import { createGate, GateFullError, type Gate } from '../gate.ts';
import { PictureCache } from './picture-cache.ts';
import { rasterFormat, type RasterFormat } from './raster-format.ts';

/** Default limits (see the header). */
export const PROXY_DEFAULTS = {
  fetchTimeoutMs: 8_000,
  maxSourceBytes: 20 * 1024 * 1024,
  /** 40 megapixels: a 6,000 × 6,000 photo passes; the decoder holds 160 MB at most. */
  maxPixels: 40_000_000,
  maxRedirects: 3,
  fetchConcurrency: 8,
  maxWaiting: 64,
  cacheMaxBytes: 512 * 1024 * 1024,
} as const;

/** Astro's image config, as far as the proxy reads it (`astro:assets` `imageConfig`). */
export interface ProxyImageConfig {
  domains?: string[] | undefined;
  remotePatterns?: RemotePattern[] | undefined;
  service?: { entrypoint?: string; config?: Record<string, unknown> | undefined } | undefined;
}

export interface ImageProxyOptions {
  imageConfig: ProxyImageConfig;
  /** Where encoded variants are kept (null: nowhere); read at each request. */
  cacheDir: () => string | null;
  cacheMaxBytes?: number;
  fetch?: typeof globalThis.fetch;
  fetchTimeoutMs?: number;
  maxSourceBytes?: number;
  maxPixels?: number;
  maxRedirects?: number;
  encodeConcurrency?: number;
  fetchConcurrency?: number;
  maxWaiting?: number;
  /** Told of failures worth a look (an upstream down, a cache write failing). */
  warn?: (message: string) => void;
}

/** A variant asked for, checked. */
export interface PictureRequest {
  href: URL;
  width: number;
  height: number;
  format: string;
  quality: number | undefined;
}

/** A refusal: the status and its short text. */
export class ProxyRefusal extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

const MAX_HREF_LENGTH = 2048;
const DECIMAL = /^[1-9][0-9]{0,4}$/;
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  webp: 'image/webp',
  avif: 'image/avif',
  png: 'image/png',
  jpeg: 'image/jpeg',
};

/**
 * The variant a query asks for, or a ProxyRefusal: 400 for anything the shop does not show,
 * 403 for a source off the allowed hosts.
 */
export function parsePictureRequest(
  params: URLSearchParams,
  imageConfig: ProxyImageConfig,
): PictureRequest {
  const allowedNames =
    PICTURE_QUALITIES.length > 0 ? ['href', 'w', 'h', 'f', 'q'] : ['href', 'w', 'h', 'f'];
  const names = [...params.keys()];
  if (names.some((name) => !allowedNames.includes(name))) {
    throw new ProxyRefusal(400, 'unknown parameter');
  }
  if (new Set(names).size !== names.length) throw new ProxyRefusal(400, 'repeated parameter');
  const href = params.get('href');
  const w = params.get('w');
  const h = params.get('h');
  const f = params.get('f');
  const q = params.get('q');
  if (href === null) throw new ProxyRefusal(400, 'href is required');
  // The source first: a location off the allowed hosts is 403 whatever else is asked.
  if (href.length > MAX_HREF_LENGTH || !URL.canParse(href)) {
    throw new ProxyRefusal(400, 'bad href');
  }
  const url = new URL(href);
  url.hash = '';
  // Another scheme, credentials, another host, port or path: not a picture location.
  if (!allowedLocation(url, imageConfig)) throw new ProxyRefusal(403, 'location not allowed');
  if (w === null || h === null || f === null) {
    throw new ProxyRefusal(400, 'w, h and f are required');
  }
  if (!DECIMAL.test(w) || !DECIMAL.test(h) || !isPictureVariant(Number(w), Number(h))) {
    throw new ProxyRefusal(400, 'size not served');
  }
  if (!PICTURE_FORMATS.includes(f)) throw new ProxyRefusal(400, 'format not served');
  let quality: number | undefined;
  if (q !== null) {
    if (!DECIMAL.test(q) || !PICTURE_QUALITIES.includes(Number(q))) {
      throw new ProxyRefusal(400, 'quality not served');
    }
    quality = Number(q);
  }
  return { href: url, width: Number(w), height: Number(h), format: f, quality };
}

function allowedLocation(url: URL, imageConfig: ProxyImageConfig): boolean {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.username !== '' || url.password !== '') return false;
  return isRemoteAllowed(url.href, {
    domains: imageConfig.domains ?? [],
    remotePatterns: imageConfig.remotePatterns ?? [],
  });
}

/** The variant's identity: its source and output, nothing else. */
export function variantKey(request: PictureRequest): string {
  return JSON.stringify([
    request.href.href,
    request.width,
    request.height,
    request.format,
    request.quality ?? null,
  ]);
}

/** sharp's name of each raster format (AVIF is a HEIF container). */
const SHARP_FORMATS: Readonly<Record<RasterFormat, string>> = {
  jpeg: 'jpeg',
  png: 'png',
  gif: 'gif',
  webp: 'webp',
  avif: 'heif',
};

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

const SILENT_LOGGER = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
  options: {},
  label: 'image-proxy',
  fork: () => SILENT_LOGGER,
} as unknown as AstroIntegrationLogger;

export interface ImageProxy {
  /** The reply to a `GET /_image` of `url`. */
  handle(url: URL): Promise<Response>;
  /** The encode and fetch gates (what runs and waits now). */
  readonly gates: { encode: Gate; fetch: Gate };
}

export function createImageProxy(options: ImageProxyOptions): ImageProxy {
  const fetchTimeoutMs = options.fetchTimeoutMs ?? PROXY_DEFAULTS.fetchTimeoutMs;
  const maxSourceBytes = options.maxSourceBytes ?? PROXY_DEFAULTS.maxSourceBytes;
  const maxPixels = options.maxPixels ?? PROXY_DEFAULTS.maxPixels;
  const maxRedirects = options.maxRedirects ?? PROXY_DEFAULTS.maxRedirects;
  const maxWaiting = options.maxWaiting ?? PROXY_DEFAULTS.maxWaiting;
  const fetchFn = options.fetch ?? globalThis.fetch;
  const warn = options.warn ?? (() => undefined);
  const encodeGate = createGate(
    options.encodeConcurrency ?? Math.max(1, Math.floor(availableParallelism() / 2)),
    maxWaiting,
  );
  const fetchGate = createGate(
    options.fetchConcurrency ?? PROXY_DEFAULTS.fetchConcurrency,
    maxWaiting,
  );
  const caches = new Map<string, PictureCache>();
  const inFlight = new Map<string, Promise<Uint8Array>>();

  const cacheFor = (): PictureCache | null => {
    const dir = options.cacheDir();
    if (dir === null) return null;
    let cache = caches.get(dir);
    if (cache === undefined) {
      cache = new PictureCache(dir, {
        maxBytes: options.cacheMaxBytes ?? PROXY_DEFAULTS.cacheMaxBytes,
        warn,
      });
      caches.set(dir, cache);
    }
    return cache;
  };

  /** The source's bytes: allowed locations only, within the deadline and the size cap. */
  async function fetchSource(href: URL): Promise<Uint8Array> {
    const signal = AbortSignal.timeout(fetchTimeoutMs);
    try {
      let location = href;
      for (let hop = 0; ; hop += 1) {
        const response = await fetchFn(location, {
          redirect: 'manual',
          signal,
          headers: { accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif' },
        });
        if ([301, 302, 303, 307, 308].includes(response.status)) {
          await response.body?.cancel();
          const next = response.headers.get('location');
          if (next === null || hop >= maxRedirects || !URL.canParse(next, location)) {
            throw new ProxyRefusal(502, 'bad redirect');
          }
          location = new URL(next, location);
          location.hash = '';
          if (!allowedLocation(location, options.imageConfig)) {
            throw new ProxyRefusal(403, 'redirect to a host not allowed');
          }
          continue;
        }
        if (response.status !== 200) {
          await response.body?.cancel();
          throw new ProxyRefusal(response.status === 404 ? 404 : 502, 'source unavailable');
        }
        return await readCapped(response, maxSourceBytes);
      }
    } catch (error) {
      if (error instanceof ProxyRefusal) throw error;
      if (isTimeout(error) || signal.aborted) {
        throw new ProxyRefusal(504, 'source timed out');
      }
      warn(`[image] ${href.origin}: ${error instanceof Error ? error.message : String(error)}`);
      throw new ProxyRefusal(502, 'source unavailable');
    }
  }

  /** The variant of a raster source, checked; a ProxyRefusal for any other source. */
  async function encode(bytes: Uint8Array, request: PictureRequest): Promise<Uint8Array> {
    // One libvips thread per encode: `encodeConcurrency` encodes take that many threads. Set
    // at the first encode, not when the module loads: the build imports it too, and encodes
    // its own pictures on every core.
    sharp.concurrency(1);
    const format = rasterFormat(bytes);
    if (format === null) throw new ProxyRefusal(415, 'not a raster picture');
    let metadata: Metadata;
    try {
      metadata = await sharp(bytes, { limitInputPixels: false, failOn: 'none' }).metadata();
    } catch {
      throw new ProxyRefusal(422, 'unreadable picture');
    }
    if (metadata.format !== SHARP_FORMATS[format]) {
      throw new ProxyRefusal(415, 'not a raster picture');
    }
    const { width, height } = metadata;
    if (!width || !height) throw new ProxyRefusal(422, 'unreadable picture');
    // Every frame of an animation is decoded (Astro's service keeps animations): all count.
    if (width * height * Math.max(1, metadata.pages ?? 1) > maxPixels) {
      throw new ProxyRefusal(413, 'picture too large');
    }
    const config = {
      ...options.imageConfig,
      dangerouslyProcessSVG: false,
      service: {
        entrypoint: options.imageConfig.service?.entrypoint ?? '',
        config: { ...options.imageConfig.service?.config, limitInputPixels: maxPixels },
      },
    };
    const transform: Parameters<LocalImageService['transform']>[1] = {
      src: request.href.href,
      width: request.width,
      height: request.height,
      format: request.format,
      ...(request.quality === undefined ? {} : { quality: request.quality }),
    };
    let output: { data: Uint8Array; format: string };
    try {
      output = await sharpService.transform(
        bytes,
        transform,
        config as unknown as Parameters<typeof sharpService.transform>[2],
        SILENT_LOGGER,
      );
    } catch {
      throw new ProxyRefusal(422, 'unreadable picture');
    }
    // Astro's service hands the source back when sharp cannot encode it: never sent.
    if (
      output.data === bytes ||
      output.format !== request.format ||
      rasterFormat(output.data) !== request.format
    ) {
      throw new ProxyRefusal(422, 'unreadable picture');
    }
    return output.data;
  }

  async function produce(request: PictureRequest, key: string): Promise<Uint8Array> {
    const cache = cacheFor();
    const kept = await cache?.read(key, request.format);
    // A kept file is served only as what it must be (a file damaged on disk is encoded again).
    if (kept && rasterFormat(kept) === request.format) return kept;
    const source = await fetchGate.run(() => fetchSource(request.href));
    const data = await encodeGate.run(() => encode(source, request));
    await cache?.write(key, request.format, data);
    return data;
  }

  return {
    gates: { encode: encodeGate, fetch: fetchGate },
    async handle(url) {
      try {
        const request = parsePictureRequest(url.searchParams, options.imageConfig);
        const key = variantKey(request);
        let pending = inFlight.get(key);
        if (pending === undefined) {
          pending = produce(request, key).finally(() => inFlight.delete(key));
          inFlight.set(key, pending);
        }
        const data = await pending;
        return pictureReply(data, request.format);
      } catch (error) {
        if (error instanceof ProxyRefusal) return refusal(error.status, error.message);
        if (error instanceof GateFullError) return refusal(503, 'busy');
        warn(`[image] ${error instanceof Error ? error.message : String(error)}`);
        return refusal(502, 'picture unavailable');
      }
    },
  };
}

/** The body of `response`, or a 413 refusal past `max` bytes. */
async function readCapped(response: Response, max: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel();
    throw new ProxyRefusal(413, 'picture too large');
  }
  if (response.body === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new ProxyRefusal(413, 'picture too large');
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Headers of every reply of the proxy. */
export const PROXY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': PICTURE_CSP,
  'X-Content-Type-Options': 'nosniff',
};

function pictureReply(data: Uint8Array, format: string): Response {
  const body = new Uint8Array(data);
  return new Response(body, {
    status: 200,
    headers: {
      ...PROXY_HEADERS,
      'Content-Type': CONTENT_TYPES[format] ?? 'application/octet-stream',
      'Cache-Control': 'public, max-age=31536000, immutable',
      ETag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    },
  });
}

/** A short plain-text refusal, never cached, never the HTML error page. */
export function refusal(
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): Response {
  return new Response(`${message}\n`, {
    status,
    headers: {
      ...PROXY_HEADERS,
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      ...(status === 503 ? { 'Retry-After': '1' } : {}),
      ...headers,
    },
  });
}
