/**
 * Writes the service worker (`src/sw/worker.ts`, spec §7) to the build's client folder as
 * `/sw.js`, with its version (a hash of the precache and of the offline page) and its precache
 * list (the offline page and the hashed scripts, styles and fonts, no pictures), bundled by
 * esbuild. Prints what it precaches.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { build } from 'esbuild';
import { OFFLINE_PATH, precacheList, SW_PATH } from '../sw/strategy.ts';

const WORKER_SOURCE = fileURLToPath(new URL('../sw/worker.ts', import.meta.url));

/** The worker's text for a client folder: bundled, minified, with its version and list. */
export async function serviceWorkerFor(clientDir: string): Promise<{
  code: string;
  version: string;
  precache: string[];
  bytes: number;
}> {
  const assetsDir = path.join(clientDir, '_astro');
  const files = await readdir(assetsDir).catch(() => [] as string[]);
  const precache = precacheList(files.map((file) => `/_astro/${file}`));
  const hash = createHash('sha256');
  let bytes = 0;
  for (const entry of precache) {
    hash.update(entry).update('\0');
    const file =
      entry === OFFLINE_PATH
        ? path.join(clientDir, `${OFFLINE_PATH.slice(1)}.html`)
        : path.join(clientDir, entry.slice(1));
    if (entry === OFFLINE_PATH) hash.update(await readFile(file));
    bytes += (await stat(file)).size;
  }
  const version = hash.digest('hex').slice(0, 16);
  const result = await build({
    entryPoints: [WORKER_SOURCE],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    minify: true,
    write: false,
    legalComments: 'none',
    define: {
      __SW_VERSION__: JSON.stringify(version),
      __SW_PRECACHE__: JSON.stringify(precache),
    },
  });
  const code = result.outputFiles[0]?.text ?? '';
  if (code === '') throw new Error('The service worker bundle is empty');
  return { code, version, precache, bytes };
}

export function serviceWorker(): AstroIntegration {
  let clientDir = '';
  return {
    name: 'service-worker',
    hooks: {
      'astro:config:done': ({ config }) => {
        clientDir = fileURLToPath(config.build.client);
      },
      'astro:build:done': async ({ logger }) => {
        const worker = await serviceWorkerFor(clientDir);
        await writeFile(path.join(clientDir, SW_PATH.slice(1)), worker.code);
        logger.info(
          `${SW_PATH} ${worker.version}: ${String(worker.precache.length)} files precached, ` +
            `${(worker.bytes / 1024).toFixed(0)} KB`,
        );
      },
    },
  };
}
