/**
 * Starts reading the catalogue when `astro build` starts (astro.config.mjs), so that the
 * commerce service's replies (at 10,000 products, ~40 pages of products and ~1,000 option
 * batches) arrive while Vite bundles, instead of after it, with the build waiting in its first
 * getStaticPaths (bench:build: ~8 s on the sandbox; longer on the real API, whose latency
 * dominates). The read is handed over through `globalThis`, since the pages run from a bundle
 * with its own module instances, and only to a build whose connection is the same; otherwise,
 * or when it failed, catalogue.ts reads the catalogue itself.
 *
 * The same slot carries later versions of the catalogue to a build kept alive to publish edits
 * (src/server/publish/page-publisher.ts): `replaceCatalogueRead` hands over a patched read under a new
 * generation, and catalogue.ts indexes it again before the next page it renders.
 */
import {
  createBigCommerceClient,
  type BigCommerceClientOptions,
} from '../connectors/bigcommerce/index.ts';
import { readCatalogue, type CatalogueRead } from './catalogue-source.ts';
import { readEnvironment } from '../config/environment.ts';

const SLOT = Symbol.for('literie.catalogue-prefetch');
/** Limits of one upstream call of the build's read: one attempt, and all its retries. */
const BUILD_READ_TIMEOUT_MS = 30_000;
const BUILD_READ_TOTAL_MS = 120_000;

interface Prefetch {
  connection: string;
  read: Promise<CatalogueRead>;
  /** 0 for the read the build started with, then one more for each replacement. */
  generation: number;
}

type Holder = typeof globalThis & { [SLOT]?: Prefetch | undefined };

// getCatalogue asks with the same options object for every page a build renders: its key once.
const keys = new WeakMap<Readonly<BigCommerceClientOptions>, string>();

function connectionKey(options: Readonly<BigCommerceClientOptions>): string {
  let key = keys.get(options);
  if (key === undefined) {
    key = keyOf(options);
    keys.set(options, key);
  }
  return key;
}

function keyOf(options: Readonly<BigCommerceClientOptions>): string {
  return JSON.stringify([
    options.apiUrl,
    options.storeHash,
    options.channelId ?? 1,
    options.accessToken,
  ]);
}

/**
 * The connection of the build from its environment variables, parsed by the one table of the
 * environment (`src/shop/config/environment.ts`: the rules and defaults `astro:env` has too);
 * null when one is missing or bad (a `.env` file that only Astro loads, say: Astro reports it).
 */
export function connectionFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): BigCommerceClientOptions | null {
  let settings;
  try {
    settings = readEnvironment(
      [
        'BIGCOMMERCE_API_URL',
        'BIGCOMMERCE_STORE_HASH',
        'BIGCOMMERCE_ACCESS_TOKEN',
        'BIGCOMMERCE_CHANNEL_ID',
      ],
      env,
    );
  } catch {
    return null;
  }
  const storeHash = settings.BIGCOMMERCE_STORE_HASH;
  const accessToken = settings.BIGCOMMERCE_ACCESS_TOKEN;
  if (!storeHash || !accessToken) return null;
  return {
    apiUrl: settings.BIGCOMMERCE_API_URL,
    storeHash,
    accessToken,
    channelId: settings.BIGCOMMERCE_CHANNEL_ID,
  };
}

/**
 * Starts reading the catalogue over `options`, for the build's pages to take (and a build kept
 * alive to publish edits after them); returns the read.
 */
export function startCatalogueRead(options: BigCommerceClientOptions): Promise<CatalogueRead> {
  // No shopper waits on it: longer limits than a page's reads (at 100,000 products, a page of
  // the products list timed out at 10 s while Vite bundled on the same 2 cores).
  const read = readCatalogue(
    createBigCommerceClient({
      ...options,
      timeout: BUILD_READ_TIMEOUT_MS,
      totalTimeout: BUILD_READ_TOTAL_MS,
    }),
  );
  // Nobody may take it (a build that fails first): no unhandled rejection then.
  read.catch(() => undefined);
  (globalThis as Holder)[SLOT] = { connection: connectionKey(options), read, generation: 0 };
  return read;
}

/**
 * The read handed over for this connection and its generation; undefined when there is none,
 * or it is for another connection.
 */
export function handedCatalogueRead(
  options: Readonly<BigCommerceClientOptions>,
): { read: Promise<CatalogueRead>; generation: number } | undefined {
  const prefetch = (globalThis as Holder)[SLOT];
  if (prefetch?.connection !== connectionKey(options)) return undefined;
  return { read: prefetch.read, generation: prefetch.generation };
}

/**
 * Forgets the read handed over.
 * @internal The tests' seam: each case starts without a read handed over.
 */
export function dropCatalogueRead(): void {
  (globalThis as Holder)[SLOT] = undefined;
}

/**
 * Hands over a newer catalogue (an edit applied to the last one) for the pages rendered from
 * now on; returns its generation. Throws when no read was started: there is no build to give
 * it to.
 */
export function replaceCatalogueRead(read: CatalogueRead): number {
  const prefetch = (globalThis as Holder)[SLOT];
  if (prefetch === undefined) throw new Error('no catalogue was handed over to replace');
  prefetch.read = Promise.resolve(read);
  prefetch.generation += 1;
  return prefetch.generation;
}

/** The read handed over, as a render thread of the build takes it (parallel-prerender.ts). */
export interface SettledCatalogueRead {
  connection: string;
  read: CatalogueRead;
}

/**
 * The read handed over once it has arrived, for a render thread; null when there is none or it
 * failed (the thread's pages then read the catalogue themselves, as catalogue.ts does).
 */
export async function settledCatalogueRead(): Promise<SettledCatalogueRead | null> {
  const prefetch = (globalThis as Holder)[SLOT];
  if (prefetch === undefined) return null;
  try {
    return { connection: prefetch.connection, read: await prefetch.read };
  } catch {
    return null;
  }
}

/** Takes the main thread's settled read as this thread's own (before any page renders). */
export function adoptCatalogueRead(settled: SettledCatalogueRead): void {
  (globalThis as Holder)[SLOT] = {
    connection: settled.connection,
    read: Promise.resolve(settled.read),
    generation: 0,
  };
}
