/**
 * The render cache of the storefront server: replies of on-demand pages (and
 * API catalogue reads) that do not depend on the shopper, kept as rendered bytes with their
 * compressed variants, so a repeated request costs a lookup instead of a render. Two tiers:
 * an in-process LRU bounded in bytes, and, when given, the `SharedStore` (Redis with several
 * server copies) so one copy's render serves the others. Keys carry the build id: a new build
 * never serves an old render. Concurrent misses of one key share one render (single flight).
 *
 * Freshness: an entry is fresh for `freshMs`, then served stale while one background render
 * replaces it (stale-while-revalidate), then kept until `keepMs` only to answer in place of a
 * failed render (stale-if-error).
 */
import { hash } from 'node:crypto';
import type { SharedStore } from '../shop/state/types.ts';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { compress, type Coding } from './encoding.ts';
import { log } from '../shop/config/log.ts';
import { countCacheLookup } from './metrics.ts';
import { remembered } from './remembered.ts';

/** A cached reply: always a 200 without cookies. */
export interface CachedReply {
  /** Headers of the reply as rendered (content type, robots...), lower-case names. */
  headers: Record<string, string>;
  identity: Buffer;
  br?: Buffer | undefined;
  gzip?: Buffer | undefined;
  /** Hash of the identity body: the ETag's opaque part. */
  hash: string;
  /** When it was rendered (ms since the epoch). */
  storedAt: number;
  /** How long it is fresh, then how much longer it may be served while re-rendering. */
  freshMs: number;
  staleMs: number;
}

/** A cached reply's state at a given time. */
export type Freshness = 'fresh' | 'stale' | 'expired';

export function freshness(reply: CachedReply, now: number): Freshness {
  const age = now - reply.storedAt;
  if (age < reply.freshMs) return 'fresh';
  if (age < reply.freshMs + reply.staleMs) return 'stale';
  return 'expired';
}

/**
 * The reply's ETag in one coding: strong for the rendered bytes, weak for a compressed variant
 * (each coding is its own representation, and copies may compress one body differently).
 */
export function etagOf(reply: CachedReply, coding: Coding): string {
  return coding === 'identity' ? `"${reply.hash}"` : `W/"${reply.hash}-${coding}"`;
}

/** SHA-256 of `data`, base64url, cut to `length` characters. */
export function digest(data: string | Buffer, length = 27): string {
  return hash('sha256', data, 'base64url').slice(0, length);
}

/** A new cached reply for a rendered body. */
export function cachedReply(
  headers: Record<string, string>,
  body: Buffer,
  timing: { now: number; freshMs: number; staleMs: number },
): CachedReply {
  return {
    headers,
    identity: body,
    hash: digest(body, 22),
    storedAt: timing.now,
    freshMs: timing.freshMs,
    staleMs: timing.staleMs,
  };
}

const CODINGS = ['identity', 'br', 'gzip'] as const;
const inflate = promisify(brotliDecompress);

function replyBytes(reply: CachedReply): number {
  return reply.identity.length + (reply.br?.length ?? 0) + (reply.gzip?.length ?? 0) + 512;
}

/** A decoded reply: `identity` is absent when only compressed bodies were shared. */
export type DecodedReply = Omit<CachedReply, 'identity'> & { identity?: Buffer | undefined };

/** One buffer: 4-byte meta length, meta JSON, then the bodies (for the shared store). */
export function encodeReply(reply: DecodedReply): Buffer {
  const meta = Buffer.from(
    JSON.stringify({
      v: 1,
      headers: reply.headers,
      hash: reply.hash,
      storedAt: reply.storedAt,
      freshMs: reply.freshMs,
      staleMs: reply.staleMs,
      lengths: CODINGS.map((coding) => reply[coding]?.length ?? -1),
    }),
  );
  const size = Buffer.alloc(4);
  size.writeUInt32BE(meta.length);
  const bodies = CODINGS.flatMap((coding) => reply[coding] ?? []);
  return Buffer.concat([size, meta, ...bodies]);
}

interface EncodedMeta {
  v: number;
  headers: Record<string, string>;
  hash: string;
  storedAt: number;
  freshMs: number;
  staleMs: number;
  lengths: number[];
}

/**
 * The reply `encodeReply` wrote, or null for anything else (corrupt, other version, neither
 * the identity body nor brotli).
 */
export function decodeReply(data: Buffer): DecodedReply | null {
  try {
    if (data.length < 4) return null;
    const metaLength = data.readUInt32BE(0);
    if (metaLength > data.length - 4) return null;
    const meta = JSON.parse(data.subarray(4, 4 + metaLength).toString('utf8')) as EncodedMeta;
    if (meta.v !== 1 || meta.lengths.length !== CODINGS.length) return null;
    let offset = 4 + metaLength;
    const bodies: (Buffer | undefined)[] = [];
    for (const length of meta.lengths) {
      if (length < 0) {
        bodies.push(undefined);
        continue;
      }
      if (offset + length > data.length) return null;
      bodies.push(data.subarray(offset, offset + length));
      offset += length;
    }
    const [identity, br, gzip] = bodies;
    if ((identity === undefined && br === undefined) || offset !== data.length) return null;
    return {
      headers: meta.headers,
      identity,
      br,
      gzip,
      hash: meta.hash,
      storedAt: meta.storedAt,
      freshMs: meta.freshMs,
      staleMs: meta.staleMs,
    };
  } catch {
    return null;
  }
}

export interface RenderCacheOptions {
  /** Identifies the build: part of every key. */
  buildId: string;
  /** The release's count of publishes when this process starts (part of every key; 0). */
  generation?: number;
  /** Shared between server copies (Redis); without it the cache is this process's only. */
  store?: SharedStore | null;
  /** Most bytes kept in process (default 128 MiB). */
  maxBytes?: number;
  /** How long a reply is kept in process for stale-if-error once no longer servable (24 h). */
  keepMs?: number;
  /**
   * Most new replies this build shares per minute, all copies together (default 600): a flood
   * of distinct URLs must not fill Redis, which also holds sessions and limits. Shared replies
   * are kept brotli-compressed only, while servable (fresh + stale), so Redis holds at most
   * about quota x minutes servable x 16 KB (60 MB for listing views).
   */
  shareQuotaPerMinute?: number;
  now?: () => number;
  /** Failures of the shared store (logged once a minute by default). */
  onStoreError?: (error: unknown) => void;
}

/** Outcome of a render for the cache: a reply to keep, or one to pass on unkept. */
export type RenderOutcome<T> =
  { cache: CachedReply; pass?: undefined } | { cache?: undefined; pass: T };

export interface RenderCache {
  readonly buildId: string;
  /** The full key of a cacheable request (its name, e.g. a RenderKey's key). */
  keyOf(name: string): string;
  /** The cached reply of `key` (fresh, stale or kept for errors), or null. */
  get(key: string): Promise<CachedReply | null>;
  /** Keeps `reply` under `key`, here and in the shared store. */
  set(key: string, reply: CachedReply): Promise<void>;
  /**
   * The body of `reply` in `coding`, compressing it now when missing (then kept with it).
   */
  variant(key: string, reply: CachedReply, coding: Coding): Promise<Buffer>;
  /**
   * Runs `render` for `key` unless a render of it is already under way, in which case its
   * outcome is shared; a reply to cache is kept before the promise resolves.
   */
  fill<T>(key: string, render: () => Promise<RenderOutcome<T>>): Promise<RenderOutcome<T>>;
  /** Bytes and entries held in process (tests, logs). */
  stats(): { entries: number; bytes: number };
  /**
   * Forgets every reply: a publish changed the data pages show. Keys from now on carry
   * `generation` (the release's count of publishes, the same in every process that serves it),
   * so this process's and the shared store's older replies are never read again (the shared
   * ones expire on their own).
   */
  purge(generation: number): void;
}

/** Creates a render cache. */
export function createRenderCache(options: RenderCacheOptions): RenderCache {
  const now = options.now ?? Date.now;
  const maxBytes = options.maxBytes ?? 128 * 1024 * 1024;
  const keepMs = options.keepMs ?? 24 * 60 * 60 * 1000;
  const store = options.store ?? null;
  const local = new Map<string, { reply: CachedReply; bytes: number; expiresAt: number }>();
  let bytes = 0;
  const flights = new Map<string, Promise<RenderOutcome<unknown>>>();
  const keys = remembered<string>();
  let generation = options.generation ?? 0;
  let lastStoreLog = 0;
  const storeFailed =
    options.onStoreError ??
    ((error: unknown) => {
      // One line a minute at most: a down Redis must not flood the log, nor fail a page.
      if (now() - lastStoreLog < 60_000) return;
      lastStoreLog = now();
      // An expected failure (the store away): its reason, no stack.
      const reason = error instanceof Error ? error.message : String(error);
      log.error({ reason }, '[render-cache] shared store unavailable, serving from this process');
    });

  const drop = (key: string) => {
    const entry = local.get(key);
    if (!entry) return;
    local.delete(key);
    bytes -= entry.bytes;
  };
  const keepLocal = (key: string, reply: CachedReply) => {
    drop(key);
    const size = replyBytes(reply) + key.length;
    if (size > maxBytes / 4) return; // one huge reply must not empty the cache
    const expiresAt = reply.storedAt + reply.freshMs + reply.staleMs + keepMs;
    local.set(key, { reply, bytes: size, expiresAt });
    bytes += size;
    // Maps iterate oldest first; hits move entries to the end (least recently used first out).
    for (const oldKey of local.keys()) {
      if (bytes <= maxBytes) break;
      drop(oldKey);
    }
  };
  const shareQuota = options.shareQuotaPerMinute ?? 600;
  const keepShared = async (key: string, reply: CachedReply) => {
    if (!store) return;
    const ttl = reply.storedAt + reply.freshMs + reply.staleMs - now();
    if (ttl <= 0) return;
    try {
      const minute = Math.floor(now() / 60_000);
      const shared = await store.increment(`page-quota:${options.buildId}:${minute}`, 120_000);
      if (shared > shareQuota) return;
      reply.br ??= await compress(reply.identity, 'br');
      await store.set(key, encodeReply({ ...reply, identity: undefined, gzip: undefined }), ttl);
    } catch (error) {
      storeFailed(error);
    }
  };
  /** A reply read from the store, its identity body restored and checked against its hash. */
  const fromShared = async (data: Buffer): Promise<CachedReply | null> => {
    const decoded = decodeReply(data);
    if (!decoded) return null;
    const identity = decoded.identity ?? (decoded.br ? await inflate(decoded.br) : null);
    if (!identity || digest(identity, 22) !== decoded.hash) return null;
    return { ...decoded, identity };
  };

  const cache: RenderCache = {
    buildId: options.buildId,
    keyOf(name) {
      return keys.get(name, () => `page:${options.buildId}:${String(generation)}:${digest(name)}`);
    },
    async get(key) {
      const entry = local.get(key);
      const at = now();
      if (entry && entry.expiresAt > at) {
        local.delete(key);
        local.set(key, entry);
        // Fresh here: no need to ask the shared store (another copy may hold a newer one, but
        // not a fresher one that matters before this one expires).
        if (!store || freshness(entry.reply, at) === 'fresh') {
          countCacheLookup(true, false);
          return entry.reply;
        }
      } else if (entry) {
        drop(key);
      }
      if (!store) {
        countCacheLookup(false, false);
        return null;
      }
      let shared: CachedReply | null = null;
      try {
        const data = await store.getBuffer(key);
        shared = data ? await fromShared(data) : null;
      } catch (error) {
        storeFailed(error);
      }
      const mine = local.get(key)?.reply ?? null;
      if (shared && (!mine || shared.storedAt > mine.storedAt)) {
        keepLocal(key, shared);
        countCacheLookup(true, true);
        return shared;
      }
      countCacheLookup(mine !== null, true);
      return mine;
    },
    async set(key, reply) {
      keepLocal(key, reply);
      await keepShared(key, reply);
    },
    async variant(key, reply, coding) {
      if (coding === 'identity') return reply.identity;
      const existing = reply[coding];
      if (existing) return existing;
      const body = await compress(reply.identity, coding);
      reply[coding] = body;
      // The entry object is the one held: account for its new size.
      if (local.get(key)?.reply === reply) keepLocal(key, reply);
      return body;
    },
    fill<T>(key: string, render: () => Promise<RenderOutcome<T>>) {
      const running = flights.get(key) as Promise<RenderOutcome<T>> | undefined;
      if (running) return running;
      const flight = (async () => {
        try {
          const outcome = await render();
          if (outcome.cache) await cache.set(key, outcome.cache);
          return outcome;
        } finally {
          flights.delete(key);
        }
      })();
      flights.set(key, flight);
      return flight;
    },
    stats: () => ({ entries: local.size, bytes }),
    purge(next) {
      if (next === generation) return;
      generation = next;
      keys.clear();
      local.clear();
      bytes = 0;
    },
  };
  return cache;
}
