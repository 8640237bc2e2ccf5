/**
 * `npm run bench:read`: times the build's upstream reads alone, without rendering a page, at
 * several catalogue sizes (the read must grow linearly with the catalogue). For each
 * size in `BENCH_READ_PRODUCTS` (default `10000,100000`) it starts the sandbox in a child
 * process (as a build sees it: another process, over HTTP) on `BENCH_SANDBOX_PORT` (default
 * 4394), seeded once in `.bench/read-sandbox-{N}` and reused after, then times one after the
 * other, with the shop's own connectors and client settings:
 *
 * - `products`: `readProducts` (pages of 250, then options and modifiers by `id:in`, 10 a request);
 * - `categories`, `brands`: `readCategories`, `readBrands`;
 * - `catalogue`: `readCatalogue`, the three at once as the build runs them;
 * - `layout`: the layout's reads (category tree, hide-category metafields, banners, channel,
 *   the three navigations);
 * - `content`: the content service's (sleep contents, content pages, technologies, tags);
 * - `site rating`: the guaranteed-reviews site rating (the shop's client: 3 s timeout).
 *
 * Each read prints its time, its time per 1,000 products, and its requests by kind (count,
 * mean and slowest time to the reply's headers: a kind whose mean grows with the catalogue is
 * a request that scans it). The last lines compare the sizes' ms per 1,000 products.
 * `BENCH_READS=products,catalogue` times only those reads; `BENCH_SANDBOX_PROF=dir` runs the sandbox under `node --cpu-prof` into `dir` (summary:
 * `node scripts/lib/profile-summary.ts dir/*.cpuprofile`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createBigCommerceClient,
  getAllBanners,
  getCategoriesBatchMetafields,
  getCategoryTree,
  getChannel,
} from '../../src/shop/connectors/bigcommerce/index.ts';
import {
  createContentfulClient,
  getContentPages,
  getNavigations,
  getSleepContents,
  getTags,
  getTechnologies,
} from '../../src/shop/connectors/contentful/index.ts';
import {
  readBrands,
  readCatalogue,
  readCategories,
  readProducts,
} from '../../src/shop/loaders/catalogue-source.ts';
import { createReviewsClient } from '../../src/shop/connectors/reviews/client.ts';
import { REVIEW_SITES } from '../../src/shop/connectors/reviews/sites.ts';
import { isSandboxListening } from '@literie/sandbox/server';
import { SANDBOX_CONTENTFUL } from '../lib/upstream.ts';

const sizes = (process.env.BENCH_READ_PRODUCTS ?? '10000,100000')
  .split(',')
  .map((value) => Number(value.trim()))
  .filter((value) => Number.isInteger(value) && value > 0);
const port = Number(process.env.BENCH_SANDBOX_PORT ?? 4394);
/** `BENCH_READS=products,catalogue`: only these reads (default all). */
const only = process.env.BENCH_READS?.split(',').map((name) => name.trim());
const profileDir = process.env.BENCH_SANDBOX_PROF;
const benchDir = path.resolve('.bench');
const url = `http://127.0.0.1:${port}`;
const TOKEN = 'sandbox-token';

/** A request as the instrumented fetch saw it. */
interface Timed {
  kind: string;
  ms: number;
}
let requests: Timed[] = [];
/** Requests sent and not answered yet (a failed read's siblings may still be running). */
let inFlight = 0;

/** The kind of an upstream request: its path, the catalogue's product lists told apart. */
function kindOf(input: Request | URL | string): string {
  const href = input instanceof Request ? input.url : String(input);
  const { pathname, searchParams } = new URL(href);
  const at = pathname
    .replace(/^\/stores\/[^/]+\//, '')
    .replace(/^\/contentful\/spaces\/[^/]+\/environments\/[^/]+\//, 'contentful ')
    .replace(/^\/guaranteed-reviews\/public\/v3\/reviews\/[^/]+\//, 'reviews ');
  if (at === 'v3/catalog/products') {
    return searchParams.has('id:in')
      ? 'v3/catalog/products id:in (options)'
      : 'v3/catalog/products page';
  }
  return at;
}

const timedFetch = async (input: Request | URL | string, init?: RequestInit) => {
  const started = performance.now();
  inFlight += 1;
  try {
    const response = await fetch(input, init);
    requests.push({ kind: kindOf(input), ms: performance.now() - started });
    return response;
  } finally {
    inFlight -= 1;
  }
};

/**
 * Waits until no request of the last read has been in flight for half a second (the workers
 * of a failed read may still be reading), so that each read is timed alone.
 */
async function drained(): Promise<void> {
  for (let quiet = 0; quiet < 10;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    quiet = inFlight > 0 ? 0 : quiet + 1;
  }
}

async function startSandbox(products: number): Promise<ChildProcess> {
  if (await isSandboxListening(url)) {
    throw new Error(`something already answers on ${url}: set BENCH_SANDBOX_PORT`);
  }
  const dataDir = path.join(benchDir, `read-sandbox-${products}`);
  const args = [
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : []),
    fileURLToPath(import.meta.resolve('@literie/sandbox/server')),
  ];
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      SANDBOX_PORT: String(port),
      SANDBOX_DATA_DIR: dataDir,
      SANDBOX_PRODUCTS: String(products),
      SANDBOX_FAULTS: '',
      SANDBOX_HOSTILE: '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const started = performance.now();
  while (!(await isSandboxListening(url))) {
    if (child.exitCode !== null) throw new Error(`the sandbox exited (${child.exitCode})`);
    if (performance.now() - started > 600_000) throw new Error('the sandbox did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return child;
}

function stopSandbox(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => {
      resolve();
    });
    child.kill('SIGTERM');
  });
}

interface ReadResult {
  name: string;
  ms: number;
  failed?: string;
  requests: Timed[];
}

async function timeRead(name: string, read: () => Promise<unknown>): Promise<ReadResult> {
  requests = [];
  const started = performance.now();
  let failed: string | undefined;
  try {
    await read();
  } catch (error) {
    failed = error instanceof Error ? error.message : String(error);
  }
  const ms = performance.now() - started;
  await drained();
  return { name, ms, requests, ...(failed ? { failed } : {}) };
}

function describeRequests(list: Timed[]): string[] {
  const byKind = new Map<string, number[]>();
  for (const { kind, ms } of list) {
    const times = byKind.get(kind) ?? [];
    times.push(ms);
    byKind.set(kind, times);
  }
  return [...byKind].map(([kind, times]) => {
    const total = times.reduce((a, b) => a + b, 0);
    return `    ${kind}: ${times.length} requests, mean ${(total / times.length).toFixed(1)} ms, slowest ${Math.max(...times).toFixed(0)} ms`;
  });
}

const results = new Map<number, ReadResult[]>();

for (const products of sizes) {
  const seedStarted = performance.now();
  const child = await startSandbox(products);
  console.log(
    `[bench:read] sandbox of ${products} products ready in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
  );
  try {
    const bigcommerce = createBigCommerceClient({
      apiUrl: url,
      storeHash: 'sandbox',
      accessToken: TOKEN,
      channelId: 1,
      fetch: timedFetch,
    });
    const contentful = createContentfulClient({
      apiUrl: `${url}/contentful`,
      spaceId: SANDBOX_CONTENTFUL.spaceId,
      environment: SANDBOX_CONTENTFUL.environment,
      accessToken: SANDBOX_CONTENTFUL.deliveryToken,
      fetch: timedFetch,
    });
    const reviews = createReviewsClient({
      apiUrl: `${url}/guaranteed-reviews/public/v3/reviews`,
      fetch: timedFetch,
    });
    const siteId = REVIEW_SITES[0]?.siteId ?? null;
    const reads: [string, () => Promise<unknown>][] = [
      ['products', () => readProducts(bigcommerce)],
      ['categories', () => readCategories(bigcommerce)],
      ['brands', () => readBrands(bigcommerce)],
      ['catalogue', () => readCatalogue(bigcommerce)],
      [
        'layout',
        () =>
          Promise.all([
            getCategoryTree(bigcommerce),
            getCategoriesBatchMetafields(bigcommerce, { key: 'hide-category' }),
            getAllBanners(bigcommerce),
            getChannel(bigcommerce),
            getNavigations(contentful, { categoryPath: () => null }),
          ]),
      ],
      [
        'content',
        () =>
          Promise.all([
            getSleepContents(contentful),
            getContentPages(contentful),
            getTechnologies(contentful),
            getTags(contentful),
          ]),
      ],
      ['site rating', () => reviews.getSiteRating(siteId)],
    ];
    const done: ReadResult[] = [];
    for (const [name, read] of reads) {
      if (only !== undefined && !only.includes(name)) continue;
      const result = await timeRead(name, read);
      done.push(result);
      const perThousand = (result.ms / products) * 1000;
      console.log(
        `[bench:read] ${products} products, ${name}: ${result.ms.toFixed(0)} ms (${perThousand.toFixed(1)} ms per 1,000 products)${result.failed ? ` FAILED: ${result.failed}` : ''}`,
      );
      for (const line of describeRequests(result.requests)) console.log(line);
    }
    results.set(products, done);
  } finally {
    await stopSandbox(child);
  }
}

if (results.size > 1) {
  const [first = 1, ...others] = [...results.keys()];
  const base = results.get(first) ?? [];
  for (const other of others) {
    const rows = results.get(other) ?? [];
    console.log(`\n[bench:read] ms per 1,000 products, ${other} against ${first}:`);
    for (const row of rows) {
      const before = base.find((r) => r.name === row.name);
      if (!before) continue;
      const a = (before.ms / first) * 1000;
      const b = (row.ms / other) * 1000;
      console.log(
        `  ${row.name.padEnd(12)} ${a.toFixed(2).padStart(8)} -> ${b.toFixed(2).padStart(8)}  (${(b / a).toFixed(2)} ×)${row.failed ? ' FAILED' : ''}`,
      );
    }
  }
}
