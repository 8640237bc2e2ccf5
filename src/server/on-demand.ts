/**
 * The on-demand side of the storefront server: replies of Astro's node handler (pages rendered
 * on request, the API middleware, the 404 page) caught in a `ReplySink`, then sent with the
 * security headers, the right reason phrase and, for text, compressed by `Accept-Encoding`.
 * Pages that do not depend on the shopper (`cache-key.ts`) and the API's catalogue reads are
 * served from the render cache (`render-cache.ts`): rendered once per key from a request
 * without the shopper's cookies, kept with their compressed variants, revalidated in the
 * background when stale, and served in place of a failed render.
 */
import { EventEmitter } from 'node:events';
import {
  STATUS_CODES,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { RenderKey } from './cache-key.ts';
import { notModified } from './conditional.ts';
import { FALLBACK_PAGE_HEADERS, FALLBACK_PAGE_HTML, needsFallback } from './fallback-page.ts';
import {
  compress,
  isCompressibleType,
  MIN_COMPRESS_BYTES,
  negotiateCoding,
  type Coding,
} from './encoding.ts';
import { sharedHead, withSecurityHeaders } from './headers.ts';
import {
  cachedReply,
  digest,
  etagOf,
  freshness,
  type CachedReply,
  type RenderCache,
  type RenderOutcome,
} from './render-cache.ts';
import { ReplySink, type BufferedReply, type ReplyHead, type ReplyTarget } from './reply-sink.ts';
import { SHARED_RENDER_PEER } from '../shop/auth/client.ts';
import { createGate } from './gate.ts';
import { log } from '../shop/config/log.ts';
import { asRequestOf, requestIdOfReply } from './request-id.ts';

/** Astro's node handler (`@astrojs/node` in middleware mode), as the entry exports it. */
export type AppHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface OnDemandOptions {
  handler: AppHandler;
  cache: RenderCache | null;
  /** Whether the request came over https (HSTS). */
  isHttps: (req: IncomingMessage) => boolean;
  /** How long a cached page is fresh, then servable stale while re-rendered (60 s, 300 s). */
  pageFreshMs?: number;
  pageStaleMs?: number;
  /** Renders of cacheable pages run at once (`RENDER_CONCURRENCY`); others wait their turn. */
  renderConcurrency?: number;
  now?: () => number;
}

export interface OnDemand {
  /** Hands the request to the application and relays its reply. */
  relay(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** A cacheable page: from the render cache, rendered from its canonical URL on a miss. */
  page(req: IncomingMessage, res: ServerResponse, key: RenderKey): Promise<void>;
  /** An API call (`POST /api/{service}/{method}`), cached when the API marks it cacheable. */
  api(req: IncomingMessage, res: ServerResponse, service: string, method: string): Promise<void>;
}

/**
 * Renders of cacheable pages (listing views, search results) at once in one server process.
 * Two: one renders while the other waits (on upstream, on a pause of Astro's rendering). At 50
 * connections of never-seen listing views: 52 req/s without a limit, 71 with 4, 93 with 2 (the
 * collector's threads: 8.4, 3.6 and 2.1 ms per render). A render waiting on upstream keeps its
 * place, within its time budget (1.5 s); a stale copy is served meanwhile when there is one.
 */
const RENDER_CONCURRENCY = 2;

/** Largest reply buffered for compression; longer ones are streamed as they come. */
const MAX_BUFFERED = 8 * 1024 * 1024;
/** Largest API call body read ahead to key the cache (catalogue reads are tiny). */
const MAX_KEYED_BODY = 8 * 1024;
/** Cached replies keep these headers of the rendered reply; the server sets the rest. */
const KEPT_HEADERS = [
  'content-type',
  'content-language',
  'content-security-policy',
  'x-robots-tag',
  'link',
  'cache-control',
];

/** Writes a status line with its standard reason phrase (Astro leaves it '' or stale). */
export function writeHead(res: ServerResponse, status: number, headers: OutgoingHttpHeaders) {
  res.writeHead(status, STATUS_CODES[status] ?? 'Unknown', headers);
}

function headerText(value: OutgoingHttpHeaders[string]): string {
  if (value === undefined) return '';
  return Array.isArray(value) ? value.join(', ') : String(value);
}

function withVary(headers: OutgoingHttpHeaders, name: string): void {
  const vary = headerText(headers.vary);
  if (
    vary.split(',').some((v) => v.trim().toLowerCase() === name.toLowerCase() || v.trim() === '*')
  ) {
    return;
  }
  headers.vary = vary === '' ? name : `${vary}, ${name}`;
}

/** Lower-cased names (Astro writes lower-case; the fake handlers of tests may not). */
function lowerCased(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = value;
  }
  return out;
}

function noBody(status: number, method: string | undefined): boolean {
  return method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200);
}

/** `s-maxage` and `stale-while-revalidate` of a shared-cacheable `Cache-Control`, in ms. */
export function sharedLifetime(cacheControl: string): { freshMs: number; staleMs: number } | null {
  const directives = cacheControl.toLowerCase();
  if (!/(?:^|,)\s*public\s*(?:,|$)/.test(directives)) return null;
  if (/(?:^|,)\s*(?:private|no-store|no-cache)\b/.test(directives)) return null;
  const seconds = (name: string) => {
    const match = new RegExp(`(?:^|,)\\s*${name}=(\\d{1,9})\\b`).exec(directives);
    return match ? Number(match[1]) * 1000 : null;
  };
  const freshMs = seconds('s-maxage');
  if (freshMs === null || freshMs <= 0) return null;
  return { freshMs, staleMs: seconds('stale-while-revalidate') ?? 0 };
}

/**
 * A request for the application that carries nothing of the shopper: the method, the URL,
 * `headers` as given (host, content type...) and a body already read. Renders made from it
 * cannot depend on a cookie, so they can be shared.
 */
function detachedRequest(
  method: string,
  url: string,
  headers: IncomingHttpHeaders,
  body?: Buffer,
): IncomingMessage {
  const socket = { encrypted: false, remoteAddress: SHARED_RENDER_PEER };
  return Object.assign(new EventEmitter(), {
    method,
    url,
    headers,
    rawHeaders: [],
    httpVersion: '1.1',
    socket,
    body,
    complete: true,
  }) as unknown as IncomingMessage;
}

/** Reads a request body of exactly `length` bytes, or null when the client sends otherwise. */
function readBody(req: IncomingMessage, length: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= length) chunks.push(chunk);
    });
    req.once('end', () => {
      resolve(size === length ? Buffer.concat(chunks, size) : null);
    });
    req.once('error', () => {
      resolve(null);
    });
  });
}

/** API bodies up to this many bytes name their cached reply themselves (not hashed). */
const MAX_NAMED_BODY = 256;

const API_PATH = /^\/api\/([A-Za-z0-9_-]{1,64})\/([A-Za-z0-9_-]{1,64})$/;

/** `service` and `method` of an API path, or null. */
export function apiCall(pathname: string): { service: string; method: string } | null {
  const match = API_PATH.exec(pathname);
  return match?.[1] && match[2] ? { service: match[1], method: match[2] } : null;
}

/** Whether a cached reply is worth compressing (then its head says `Vary: Accept-Encoding`). */
function compressibleReply(reply: CachedReply): boolean {
  return (
    reply.identity.length >= MIN_COMPRESS_BYTES && isCompressibleType(reply.headers['content-type'])
  );
}

/** The head of a cached reply in `coding`, security headers and length apart. */
function cachedHead(reply: CachedReply, coding: Coding, cacheControl: string): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {
    ...reply.headers,
    'cache-control': cacheControl,
    etag: etagOf(reply, coding),
  };
  if (compressibleReply(reply)) headers.vary = 'Accept-Encoding';
  if (coding !== 'identity') headers['content-encoding'] = coding;
  return headers;
}

/** Creates the on-demand side of the server. */
export function createOnDemand(options: OnDemandOptions): OnDemand {
  const { handler, cache, isHttps } = options;
  const now = options.now ?? Date.now;
  const pageFreshMs = options.pageFreshMs ?? 60_000;
  const pageStaleMs = options.pageStaleMs ?? 300_000;
  // A render is main-thread work between short waits: fifty at once only interleave, each
  // fifty times longer, with their objects alive across garbage collections.
  const renders = createGate(options.renderConcurrency ?? RENDER_CONCURRENCY);
  const renderSlot = <T>(task: () => Promise<T>): Promise<T> => renders.run(task);
  const pagePolicy =
    `public, max-age=0, s-maxage=${Math.round(pageFreshMs / 1000)}, ` +
    `stale-while-revalidate=${Math.round(pageStaleMs / 1000)}, stale-if-error=86400`;
  // API methods whose replies said they may be shared (`Cache-Control: public, s-maxage`).
  const cacheableMethods = new Set<string>();

  /** Sends a whole reply: security headers, reason phrase, compressed when worth it. */
  async function send(req: IncomingMessage, res: ServerResponse, reply: BufferedReply) {
    const secure = isHttps(req);
    let headers = lowerCased(reply.headers);
    for (const name of ['content-length', 'transfer-encoding']) headers[name] = undefined;
    let body = reply.body;
    // An error page that failed leaves an empty error reply: the fallback message (spec §8).
    if (req.method !== 'HEAD' && needsFallback(req.url, reply.status, body.length)) {
      headers = { ...headers, ...FALLBACK_PAGE_HEADERS };
      body = Buffer.from(FALLBACK_PAGE_HTML);
    }
    const empty = noBody(reply.status, req.method);
    if (
      !empty &&
      headers['content-encoding'] === undefined &&
      isCompressibleType(headerText(headers['content-type'])) &&
      body.length >= MIN_COMPRESS_BYTES
    ) {
      withVary(headers, 'Accept-Encoding');
      const coding = negotiateCoding(req.headers['accept-encoding']);
      if (coding !== 'identity') {
        body = await compress(body, coding);
        headers['content-encoding'] = coding;
      }
    }
    if (reply.status !== 204 && reply.status !== 304)
      headers['content-length'] = String(body.length);
    writeHead(res, reply.status, withSecurityHeaders(headers, secure));
    res.end(empty ? undefined : body);
  }

  /** Streams the rest of a reply to the client as the application writes it. */
  function streamTo(req: IncomingMessage, res: ServerResponse, head: ReplyHead): ReplyTarget {
    const headers = lowerCased(head.headers);
    if (headers['content-length'] === undefined) headers['transfer-encoding'] = undefined;
    writeHead(res, head.status, withSecurityHeaders(headers, isHttps(req)));
    return {
      write: (chunk) => {
        res.write(chunk);
      },
      end: () => {
        res.end();
      },
      abort: () => {
        res.destroy();
      },
    };
  }

  function failed(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    log.error(
      {
        err: error,
        method: req.method ?? 'GET',
        url: (req.url ?? '').slice(0, 200),
        reqId: requestIdOfReply(res),
      },
      '[serve] an on-demand reply failed',
    );
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // A page gets the fallback message with a link home (spec §8); the API its error shape.
    const api = (req.url ?? '').startsWith('/api/');
    const body = api
      ? JSON.stringify({ message: 'Internal Server Error', statusCode: 500 })
      : FALLBACK_PAGE_HTML;
    const headers: OutgoingHttpHeaders = api
      ? { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }
      : { ...FALLBACK_PAGE_HEADERS };
    headers['content-length'] = String(Buffer.byteLength(body));
    writeHead(res, 500, withSecurityHeaders(headers, isHttps(req)));
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /**
   * Runs the handler on `req` into a sink, as the request `res` answers (its id on the render's
   * log lines and upstream calls); resolves with the buffered reply.
   */
  async function render(req: IncomingMessage, res: ServerResponse): Promise<BufferedReply> {
    const sink = new ReplySink(req, { maxBuffer: MAX_BUFFERED });
    await asRequestOf(res, () => handler(req, sink as unknown as ServerResponse));
    if (!sink.writableEnded && !sink.destroyed)
      sink.destroy(new Error('The handler left the reply open'));
    const reply = await sink.done;
    if (!reply) throw new Error('The reply was not buffered');
    return reply;
  }

  /** What to keep of a rendered reply, or null when it must not be shared. */
  function keepable(reply: BufferedReply, lifetime: { freshMs: number; staleMs: number }) {
    const headers = lowerCased(reply.headers);
    if (reply.status !== 200 || headers['set-cookie'] !== undefined) return null;
    if (headers['content-encoding'] !== undefined) return null;
    const control = headerText(headers['cache-control']).toLowerCase();
    if (/\b(?:private|no-store)\b/.test(control)) return null;
    const kept: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = headers[name];
      if (value !== undefined) kept[name] = headerText(value);
    }
    return cachedReply(kept, reply.body, { now: now(), ...lifetime });
  }

  async function sendCached(
    req: IncomingMessage,
    res: ServerResponse,
    key: string,
    reply: CachedReply,
    cacheControl: string,
  ): Promise<void> {
    if (!cache) throw new Error('No render cache');
    const coding: Coding = compressibleReply(reply)
      ? negotiateCoding(req.headers['accept-encoding'])
      : 'identity';
    const etag = etagOf(reply, coding);
    const secure = isHttps(req);
    if (notModified(req.headers, etag)) {
      writeHead(res, 304, withSecurityHeaders(cachedHead(reply, coding, cacheControl), secure));
      res.end();
      return;
    }
    const body = await cache.variant(key, reply, coding);
    const length = String(body.length);
    const name = `${coding} ${secure ? 's' : ''} ${length} ${cacheControl}`;
    const head = sharedHead(reply, name, () => {
      const headers = cachedHead(reply, coding, cacheControl);
      headers['content-length'] = length;
      return withSecurityHeaders(headers, secure);
    });
    writeHead(res, 200, head);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /**
   * The shared path of cached replies: fresh or stale from the cache (a stale one is
   * re-rendered in the background), else one render per key for all waiting requests; a
   * failed render (5xx or error) answered with the last copy when there is one.
   */
  async function cached(
    req: IncomingMessage,
    res: ServerResponse,
    key: string,
    produce: () => Promise<RenderOutcome<BufferedReply>>,
    cacheControl: (reply: CachedReply) => string,
  ): Promise<void> {
    if (!cache) throw new Error('No render cache');
    const entry = await cache.get(key);
    const state = entry ? freshness(entry, now()) : 'expired';
    if (entry && state !== 'expired') {
      if (state === 'stale') {
        cache.fill(key, produce).catch((error: unknown) => {
          log.error(
            { err: error, url: (req.url ?? '').slice(0, 200), reqId: requestIdOfReply(res) },
            '[serve] a cached page could not be rendered again',
          );
        });
      }
      return sendCached(req, res, key, entry, cacheControl(entry));
    }
    let outcome: RenderOutcome<BufferedReply>;
    try {
      outcome = await cache.fill(key, produce);
    } catch (error) {
      if (entry) return sendCached(req, res, key, entry, cacheControl(entry));
      failed(req, res, error);
      return;
    }
    if (outcome.cache) return sendCached(req, res, key, outcome.cache, cacheControl(outcome.cache));
    if (outcome.pass.status >= 500 && entry) {
      return sendCached(req, res, key, entry, cacheControl(entry));
    }
    return send(req, res, outcome.pass);
  }

  return {
    async relay(req, res) {
      const sink = new ReplySink(req, {
        maxBuffer: MAX_BUFFERED,
        onHead: (head) => {
          const headers = lowerCased(head.headers);
          // Untyped error replies are buffered too: an empty one gets the fallback page.
          const buffer =
            !noBody(head.status, req.method) &&
            headers['content-encoding'] === undefined &&
            (isCompressibleType(headerText(headers['content-type'])) ||
              (head.status >= 400 && headers['content-type'] === undefined));
          return buffer ? null : streamTo(req, res, head);
        },
        onOverflow: (head, buffered) => {
          const target = streamTo(req, res, head);
          target.write(buffered);
          return target;
        },
      });
      res.once('close', () => {
        sink.abandon();
      });
      try {
        await asRequestOf(res, () => handler(req, sink as unknown as ServerResponse));
        if (!sink.writableEnded && !sink.destroyed) {
          sink.destroy(new Error('The handler left the reply open'));
        }
        const reply = await sink.done;
        if (!reply) return; // streamed
        const call = req.method === 'POST' ? apiCall(req.url ?? '') : null;
        if (call && reply.status === 200 && lowerCased(reply.headers)['set-cookie'] === undefined) {
          const control = headerText(lowerCased(reply.headers)['cache-control']);
          if (sharedLifetime(control)) cacheableMethods.add(`${call.service}/${call.method}`);
        }
        await send(req, res, reply);
      } catch (error) {
        if (res.destroyed) return;
        failed(req, res, error);
      }
    },

    async page(req, res, key) {
      if (!cache) {
        req.url = key.url;
        return this.relay(req, res);
      }
      const host = req.headers.host ?? '';
      const produce = async (): Promise<RenderOutcome<BufferedReply>> => {
        const reply = await renderSlot(() =>
          render(detachedRequest('GET', key.url, { host, accept: 'text/html,*/*;q=0.8' }), res),
        );
        const kept = keepable(reply, { freshMs: pageFreshMs, staleMs: pageStaleMs });
        return kept ? { cache: kept } : { pass: reply };
      };
      return cached(req, res, cache.keyOf(key.key), produce, () => pagePolicy);
    },

    async api(req, res, service, method) {
      const length = Number(req.headers['content-length'] ?? 'x');
      const host = (req.headers.host ?? '').toLowerCase();
      if (
        !cache ||
        !cacheableMethods.has(`${service}/${method}`) ||
        !Number.isInteger(length) ||
        length < 0 ||
        length > MAX_KEYED_BODY
      ) {
        return this.relay(req, res);
      }
      const body = await readBody(req, length);
      if (body === null) {
        if (!res.headersSent) res.destroy();
        return;
      }
      const headers: IncomingHttpHeaders = {
        host,
        'content-type': req.headers['content-type'] ?? 'application/json',
        'content-length': String(body.length),
        accept: 'application/json',
      };
      const produce = async (): Promise<RenderOutcome<BufferedReply>> => {
        const reply = await render(detachedRequest('POST', req.url ?? '', headers, body), res);
        const lifetime = sharedLifetime(headerText(lowerCased(reply.headers)['cache-control']));
        const kept = lifetime ? keepable(reply, lifetime) : null;
        return kept ? { cache: kept } : { pass: reply };
      };
      // A short body names the reply as it is (its bytes as latin1, one character each), a
      // longer one by its digest: keyOf remembers the names of hot calls, so a hot call costs no
      // hashing.
      const named =
        body.length <= MAX_NAMED_BODY ? `=${body.toString('latin1')}` : `#${digest(body)}`;
      const key = cache.keyOf(`api:${host}/${service}/${method}:${named}`);
      return cached(
        req,
        res,
        key,
        produce,
        (reply) => reply.headers['cache-control'] ?? 'no-store',
      );
    },
  };
}
