/**
 * Writes `.br` and `.gz` siblings of the compressible assets of the static output (hashed JS
 * and CSS, SVG, XML...), compressed once so the server never compresses them again.
 * Pages are left to the server, which compresses each on first request and keeps the result
 * (`src/server/serve.ts`): 10,000 pages are ~1 GB of HTML, and compressing them here cost the
 * build more time (~17 s on 2 cores) than it saves a shopper (~1 ms per page, once).
 * The work is spread over one worker thread per core, in shares of about equal bytes.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { PRECOMPRESSED } from './encoding.ts';

/** Below this size compression does not pay for its header. */
const MIN_BYTES = 512;

/**
 * The files below `dir` to precompress. Directories are read concurrently: a build has one per
 * product (`p/{id}/`), and reading 10,000 of them one after the other took 0.4 s against 0.1 s.
 */
async function filesToCompress(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.filter((e) => e.isDirectory()).map((e) => filesToCompress(path.join(dir, e.name))),
  );
  return [
    ...entries
      .filter((e) => e.isFile() && PRECOMPRESSED.test(e.name))
      .map((e) => path.join(dir, e.name)),
    ...nested.flat(),
  ];
}

/** Files only crawlers fetch (sitemaps, robots.txt): compressed well, not hardest. */
const CRAWLER_FILES = /\.(xml|txt)$/;

/**
 * Brotli quality for `file`: 11 (hardest) for what browsers load, assets being few and cached
 * for a year; 9 for crawler files. The sitemap of 10,000 pages took 0.9 s at 11 for 42 KB
 * against 25 ms at 9 for 57 KB: the build, and so every publish, waited on it for a file that
 * search engines fetch a few times a day.
 */
export function brotliQuality(file: string): number {
  return CRAWLER_FILES.test(file) ? 9 : 11;
}

/** Relative time to compress `bytes` of `file`: brotli 9 is ~30 times faster than 11. */
export function compressionWork(file: string, bytes: number): number {
  return brotliQuality(file) === 11 ? bytes : bytes / 30;
}

/** Compresses one file (quality by `brotliQuality`; gzip at its hardest, which is fast). */
async function compressFile(file: string): Promise<void> {
  const body = await readFile(file);
  if (body.length < MIN_BYTES) return;
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: brotliQuality(file),
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gz = gzipSync(body, { level: 9 });
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
}

async function compressAll(files: readonly string[]): Promise<void> {
  for (const file of files) await compressFile(file);
}

/**
 * Splits files into `count` shares of about equal work, heaviest first (compression time grows
 * with size and quality: shares by count left one thread working alone at the end). `size` is
 * that work: the bytes, weighted by `compressionWork`.
 */
export function balancedShares(
  files: readonly { file: string; size: number }[],
  count: number,
): string[][] {
  const shares = Array.from({ length: Math.max(1, count) }, () => ({
    bytes: 0,
    files: [] as string[],
  }));
  for (const { file, size } of [...files].sort((a, b) => b.size - a.size)) {
    const lightest = shares.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    lightest.files.push(file);
    lightest.bytes += size;
  }
  return shares.map((share) => share.files).filter((share) => share.length > 0);
}

/** Compresses every compressible file below `dir`; returns the number of files. */
export async function precompress(
  dir: string,
  threads = Math.max(1, os.availableParallelism()),
): Promise<number> {
  const files = await filesToCompress(dir);
  const shares = balancedShares(
    await Promise.all(
      files.map(async (file) => ({ file, size: compressionWork(file, (await stat(file)).size) })),
    ),
    threads,
  );
  await Promise.all(
    shares.map(
      (share) =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(new URL(import.meta.url), { workerData: share });
          worker.once('message', () => {
            resolve();
          });
          worker.once('error', reject);
          worker.once('exit', (code) => {
            if (code !== 0) reject(new Error(`precompress worker exited with ${code}`));
          });
        }),
    ),
  );
  return files.length;
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  await compressAll(workerData as string[]);
  port.postMessage('done');
}
