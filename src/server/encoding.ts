/**
 * Content coding of the storefront server's replies: which coding a request accepts
 * (`Accept-Encoding` with q-values, through `negotiator`) and compression at the levels the
 * server uses for bodies it compresses itself.
 */
import Negotiator from 'negotiator';
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';

export type Coding = 'br' | 'gzip' | 'identity';

type RankEncodings = (available: string[], options: { preferred: string[] }) => string[];

/** Our order of preference when the client weighs codings equally (`gzip, br`). */
const PREFERRED: readonly Coding[] = ['br', 'gzip', 'identity'];

/** Below this size compression does not pay for its header (nor its CPU). */
export const MIN_COMPRESS_BYTES = 1024;

/**
 * The files the build writes `.br` and `.gz` copies beside (precompress.ts): every compressible
 * file but the pages, which the server compresses on first request and keeps in memory.
 */
export const PRECOMPRESSED = /\.(css|js|mjs|json|svg|xml|txt|webmanifest)$/;

/** Media types worth compressing (text, JSON, XML, SVG, JavaScript). */
const COMPRESSIBLE_TYPE =
  /^(?:text\/|application\/(?:json|xml|javascript|manifest\+json|ld\+json)|image\/svg\+xml)/i;

/** Whether a reply of this `Content-Type` is worth compressing. */
export function isCompressibleType(contentType: string | undefined): boolean {
  return contentType !== undefined && COMPRESSIBLE_TYPE.test(contentType.trim());
}

// Clients send a handful of distinct headers: remember the answers (bounded).
const memo = new Map<string, Coding>();
const MEMO_SIZE = 512;

/**
 * The coding to send among `available` for this `Accept-Encoding` (RFC 9110 section 12.5.3 with
 * q-values: `br;q=0` refuses brotli, `*` accepts anything, no header means identity). Ties go
 * to brotli, then gzip. When the client refuses everything, including identity, identity is
 * sent anyway (RFC 9110 allows it, and a reply beats a 406 here).
 */
export function negotiateCoding(
  acceptEncoding: string | undefined,
  available: readonly Coding[] = PREFERRED,
): Coding {
  const header = acceptEncoding ?? '';
  const memoKey = available.length === 3 ? header : `${available.join(',')}|${header}`;
  const known = memo.get(memoKey);
  if (known !== undefined) return known;
  const offered = PREFERRED.filter((coding) => available.includes(coding));
  // negotiator 1.x takes our preference for ties; its types (0.6) predate the option.
  const negotiator = new Negotiator({ headers: { 'accept-encoding': header } });
  const encodings = negotiator.encodings.bind(negotiator) as RankEncodings;
  const ranked = encodings([...offered], { preferred: [...offered] });
  const chosen = (ranked[0] as Coding | undefined) ?? 'identity';
  if (header.length <= 256) {
    if (memo.size >= MEMO_SIZE) memo.clear();
    memo.set(memoKey, chosen);
  }
  return chosen;
}

/**
 * The threads that compress (compress-worker.ts), started on first use. Not zlib's async calls
 * on libuv's pool: their streams cost the main thread 0.3 to 0.8 ms of bookkeeping per 100 KB
 * page (a never-seen listing view is compressed once per render), and their buffers and
 * compressors counted on the main thread's heap. Here the main thread hands a copy over.
 */
let pool: Piscina<Uint8Array, Uint8Array> | undefined;

/**
 * Compressing threads of one server process: the cores its processes leave free, shared out
 * between them (`SERVER_WORKERS` processes each start a pool); at least one. One on 2 cores.
 */
export function compressionThreads(cores: number, processes: number): number {
  return Math.max(1, Math.floor(cores / Math.max(1, processes)) - 1);
}

let serverProcesses = 1;

/** How many server processes share this machine's cores; set before the first compression. */
export function shareCompressionCores(processes: number): void {
  serverProcesses = processes;
}

function compressors(): Piscina<Uint8Array, Uint8Array> {
  pool ??= new Piscina<Uint8Array, Uint8Array>({
    filename: new URL('./compress-worker.ts', import.meta.url).href,
    maxThreads: compressionThreads(availableParallelism(), serverProcesses),
    minThreads: 1,
    idleTimeout: 60_000,
    // A task the pool cannot hand over at once goes back to the head of the queue, not its
    // tail. Piscina's default sends it to the tail, so under load one body could be passed
    // over again and again: at 50 connections of never-seen listing views a reply waited up to
    // 4 s for its compression while the thread was busy half the time (p99 1.5 s -> 0.28 s).
    stricterFIFO: true,
  });
  return pool;
}

/**
 * `body` compressed with `coding` at the server's on-the-fly levels, off the main thread: close
 * to the best ratio for a fraction of the time of the hardest settings. gzip 6; brotli 3 for a
 * render (`use: 'render'`), which is often asked once: a never-seen listing view (97 KB) is
 * compressed once per render, 0.6-0.8 ms at 3 against 1.0-1.3 ms at 4, for 4 % more bytes
 * (17.8 against 17.0 KB). Brotli 4 for a pre-rendered page (`use: 'page'`), compressed once
 * on its first request and then served many times (5 took 1.5-1.9 ms for 6 % fewer bytes).
 */
export async function compress(
  body: Buffer,
  coding: 'br' | 'gzip',
  use: 'render' | 'page' = 'render',
): Promise<Buffer> {
  // A copy moved to the thread (the caller keeps its body): a memcpy, where sending the body
  // would serialize it.
  const copy = Piscina.move(new Uint8Array(body)) as unknown as Uint8Array;
  const name = coding === 'br' && use === 'page' ? 'brPage' : coding;
  const out = await compressors().run(copy, { name });
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}
