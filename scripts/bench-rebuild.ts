/**
 * `npm run bench:rebuild`: a content publish going live under load, end to end. Starts the
 * shop as `npm start` does (`scripts/start.ts`: the supervisor on its own sandbox in
 * `.bench/rebuild/sandbox`, built into `.bench/rebuild/dist` when the sources changed, rebuilds
 * into `.bench/rebuild/releases`, the sandbox's webhooks registered), drives it with autocannon
 * at a steady rate over a mix of pages (home, category, product, a listing view and search
 * results rendered on demand, a hashed asset, the page being changed), then publishes a new
 * title for a content page in the sandbox (management API: update, publish), which signs a
 * webhook to the shop, which builds a new release and swaps it in. Prints the time from the
 * publish until the new title is served, the build's duration, the requests made and every
 * failed one (status other than 200 or a socket error), before, during and after the swap.
 * Targets of issue 8: live within 90 s, 0 failed requests; the exit code is 1 when missed.
 *
 * `BENCH_PUBLISH=bigcommerce` changes a product's name through the catalogue API instead (its
 * store webhook). `BENCH_RATE` (default 200 requests/s; 0: as fast as it goes) and
 * `BENCH_CONNECTIONS` (20) shape the load, `BENCH_SANDBOX_PORT` (4396) is the sandbox's port
 * (the build inlines the upstream URL, so it is fixed), `BENCH_LIVE_TIMEOUT_S` (300) the
 * longest wait for the new content.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SANDBOX_CONTENTFUL } from './lib/upstream.ts';

/** The part of autocannon's API used here (the package ships no types). */
interface AutocannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
interface AutocannonInstance {
  on(event: 'response', listener: (client: unknown, statusCode: number) => void): void;
  on(event: 'reqError', listener: (error: Error) => void): void;
  stop(): void;
}
type Autocannon = (
  options: {
    url: string;
    connections: number;
    duration: number;
    overallRate?: number;
    timeout: number;
    requests: { path: string; headers: Record<string, string> }[];
  },
  done: (error: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const benchDir = path.resolve('.bench/rebuild');
const distDir = path.join(benchDir, 'dist');
const sandboxPort = Number(process.env.BENCH_SANDBOX_PORT ?? 4396);
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
const rate = Number(process.env.BENCH_RATE ?? 200);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const liveTimeoutMs = Number(process.env.BENCH_LIVE_TIMEOUT_S ?? 300) * 1000;
const publishKind = process.env.BENCH_PUBLISH === 'bigcommerce' ? 'bigcommerce' : 'contentful';
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br', accept: 'text/html,*/*' };
const LIVE_TARGET_S = 90;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => {
        resolve(port);
      });
    });
  });
}

if (process.env.BIGCOMMERCE_STORE_HASH && process.env.UPSTREAM !== 'sandbox') {
  console.error('[bench] unset BIGCOMMERCE_* (or set UPSTREAM=sandbox): the bench uses a sandbox.');
  process.exit(1);
}

// ── The shop, as npm start runs it ────────────────────────────────────────────────────────
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  UPSTREAM: 'sandbox',
  PORT: String(port),
  HOST: '127.0.0.1',
  SANDBOX_PORT: String(sandboxPort),
  SANDBOX_DIR: path.join(benchDir, 'sandbox'),
  SANDBOX_SITE_URL: base,
  DIST_DIR: distDir,
  RELEASES_DIR: path.join(benchDir, 'releases'),
  STATE_DIR: path.join(benchDir, 'state'),
};
// start.ts makes and registers its own secrets on the sandbox.
delete env.CONTENTFUL_WEBHOOK_SECRET;
delete env.BIGCOMMERCE_WEBHOOK_SECRET;
console.log(`[bench] starting the shop (npm start) on ${base}, sandbox ${sandboxUrl}...`);
const shop: ChildProcess = spawn(process.execPath, [path.join(import.meta.dirname, 'start.ts')], {
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let shopOutput = '';
const onOutput = (chunk: Buffer) => {
  const text = chunk.toString();
  shopOutput += text;
  for (const line of text.split('\n')) {
    if (/^\[(start|rebuild|webhooks)\]/.test(line)) console.log(`  shop: ${line}`);
  }
};
shop.stdout?.on('data', onOutput);
shop.stderr?.on('data', onOutput);

async function stopShop(): Promise<void> {
  if (shop.exitCode !== null) return;
  const exited = new Promise((resolve) => shop.once('exit', resolve));
  shop.kill('SIGTERM');
  await Promise.race([exited, sleep(20_000)]);
}

interface Status {
  state: string;
  builds: number;
  current: { id: string };
  lastBuild: { id: string; result: string; durationMs?: number; error?: string } | null;
}

async function status(): Promise<Status> {
  return (await (await fetch(`${base}/webhooks/status`)).json()) as Status;
}

/** Publishes a new title of the content page `page-cgv` (`/cgv`); returns what to look for. */
async function publishContentful(): Promise<{ page: string; marker: string }> {
  const entryUrl = `${sandboxUrl}/contentful-management/spaces/${SANDBOX_CONTENTFUL.spaceId}/environments/${SANDBOX_CONTENTFUL.environment}/entries/page-cgv`;
  const auth = { authorization: `Bearer ${SANDBOX_CONTENTFUL.managementToken}` };
  const read = await fetch(entryUrl, { headers: auth });
  if (!read.ok) throw new Error(`GET ${entryUrl}: ${read.status}`);
  const entry = (await read.json()) as {
    sys: { version: number };
    fields: Record<string, unknown>;
    metadata?: unknown;
  };
  const marker = `Conditions générales de vente (${new Date().toISOString().slice(11, 19)})`;
  const put = await fetch(entryUrl, {
    method: 'PUT',
    headers: {
      ...auth,
      'content-type': 'application/vnd.contentful.management.v1+json',
      'x-contentful-version': String(entry.sys.version),
    },
    body: JSON.stringify({
      fields: { ...entry.fields, title: { fr: marker } },
      metadata: entry.metadata,
    }),
  });
  if (!put.ok) throw new Error(`PUT ${entryUrl}: ${put.status} ${await put.text()}`);
  const updated = (await put.json()) as { sys: { version: number } };
  const published = await fetch(`${entryUrl}/published`, {
    method: 'PUT',
    headers: { ...auth, 'x-contentful-version': String(updated.sys.version) },
  });
  if (!published.ok) throw new Error(`publish: ${published.status} ${await published.text()}`);
  return { page: '/cgv', marker };
}

/** Renames the first product of the build through the catalogue API (its store webhook). */
async function publishBigCommerce(productPage: string): Promise<{ page: string; marker: string }> {
  const id = /^\/p\/(\d+)\//.exec(productPage)?.[1] ?? '';
  const marker = `Matelas banc essai ${Date.now().toString(36)}`;
  const response = await fetch(`${sandboxUrl}/stores/sandbox/v3/catalog/products/${id}`, {
    method: 'PUT',
    headers: { 'x-auth-token': 'sandbox-token', 'content-type': 'application/json' },
    body: JSON.stringify({ name: marker }),
  });
  if (!response.ok) throw new Error(`PUT product ${id}: ${response.status}`);
  return { page: productPage, marker };
}

let exitCode = 0;
try {
  const deadline = Date.now() + 15 * 60_000; // a first build may come first
  while (!shopOutput.includes('[start] the shop runs at')) {
    if (shop.exitCode !== null) throw new Error(`the shop exited:\n${shopOutput}`);
    if (Date.now() > deadline) throw new Error(`the shop did not start:\n${shopOutput}`);
    await sleep(200);
  }
  while (!/sandbox webhook(s registered| not registered)/.test(shopOutput)) {
    if (shop.exitCode !== null) throw new Error(`the shop exited:\n${shopOutput}`);
    await sleep(100);
  }
  if (shopOutput.includes('sandbox webhook not registered')) {
    throw new Error('the sandbox webhooks could not be registered (see above)');
  }
  const served = (await status()).current.id;

  // Pages of each kind, from the build being served.
  const servedDir =
    served === path.basename(distDir) ? distDir : path.join(benchDir, 'releases', served);
  const client = path.join(servedDir, 'client');
  const category = readdirSync(path.join(client, 'c'))
    .filter((name) => name.endsWith('.html'))
    .map((name) => `/c/${name.slice(0, -5)}`)[0];
  const productId = readdirSync(path.join(client, 'p'))[0] ?? '';
  const productFile = readdirSync(path.join(client, 'p', productId))[0] ?? '';
  const productPage = `/p/${productId}/${productFile.replace(/\.html$/, '')}`;
  const css = readdirSync(path.join(client, '_astro')).find((name) => name.endsWith('.css'));
  const pages = [
    '/',
    category ?? '/',
    productPage,
    `${category ?? '/c/matelas'}?sort=2`,
    '/resultats-de-recherche/matelas',
    `/_astro/${css ?? ''}`,
    publishKind === 'contentful' ? '/cgv' : productPage,
  ];
  for (const page of pages) {
    const response = await fetch(`${base}${page}`, { headers: BROWSER_HEADERS });
    await response.arrayBuffer();
    if (response.status !== 200)
      throw new Error(`${page} answers ${response.status} before the bench`);
  }

  // ── Load, publish, wait until live, a little more load (old workers draining) ────────────
  const failures: { at: number; what: string }[] = [];
  let responses = 0;
  const loadStarted = Date.now();
  let resolveLoad: (result: AutocannonResult) => void = () => undefined;
  const loadDone = new Promise<AutocannonResult>((resolve) => (resolveLoad = resolve));
  const load = autocannon(
    {
      url: base,
      connections,
      duration: 3600,
      timeout: 10,
      ...(rate > 0 ? { overallRate: rate } : {}),
      requests: pages.map((page) => ({ path: page, headers: BROWSER_HEADERS })),
    },
    (error, result) => {
      if (error) failures.push({ at: Date.now(), what: `autocannon: ${error.message}` });
      resolveLoad(result);
    },
  );
  load.on('response', (_client, statusCode) => {
    responses += 1;
    if (statusCode !== 200) failures.push({ at: Date.now(), what: `status ${statusCode}` });
  });
  load.on('reqError', (error) => {
    failures.push({ at: Date.now(), what: error.message });
  });
  await sleep(5_000);

  const before = await status();
  console.log(`[bench] load running; publishing a change in the sandbox (${publishKind})...`);
  const published = Date.now();
  const { page, marker } =
    publishKind === 'contentful'
      ? await publishContentful()
      : await publishBigCommerce(productPage);
  let liveAt = 0;
  while (Date.now() - published < liveTimeoutMs) {
    const html = await (await fetch(`${base}${page}`)).text();
    if (html.includes(marker)) {
      liveAt = Date.now();
      break;
    }
    await sleep(250);
  }
  const swapDone = Date.now();
  await sleep(5_000);
  load.stop();
  const result = await loadDone;
  const after = await status();

  // ── Report ─────────────────────────────────────────────────────────────────────────────
  const liveSeconds = liveAt === 0 ? Number.NaN : (liveAt - published) / 1000;
  const swapFailures = failures.filter((f) => f.at >= published && f.at <= swapDone + 5_000);
  const build = after.lastBuild;
  console.log(
    `\n[bench] machine: ${os.cpus().length} cores, node ${process.version}; load: autocannon, ${connections} connections, ${rate > 0 ? `${rate} req/s` : 'unbounded'} over ${pages.length} URLs`,
  );
  console.log(
    `  publish → live (${page} shows the new ${publishKind === 'contentful' ? 'title' : 'name'}): ${liveAt === 0 ? `NOT LIVE within ${liveTimeoutMs / 1000} s` : `${liveSeconds.toFixed(1)} s`} (target ≤ ${LIVE_TARGET_S} s)`,
  );
  console.log(
    `  builds: ${after.builds - before.builds}, last ${build?.id ?? '-'} ${build?.result ?? '-'} in ${((build?.durationMs ?? Number.NaN) / 1000).toFixed(1)} s (build and swap); release ${before.current.id} → ${after.current.id}`,
  );
  console.log(
    `  requests: ${result.requests.total} in ${((Date.now() - loadStarted) / 1000).toFixed(0)} s (${responses} answered), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
  );
  console.log(
    `  failed requests: ${failures.length} in all, ${swapFailures.length} from the publish to 5 s after the swap (target 0)`,
  );
  const kinds = new Map<string, number>();
  for (const failure of failures) kinds.set(failure.what, (kinds.get(failure.what) ?? 0) + 1);
  for (const [what, count] of kinds) console.log(`    ${count} × ${what}`);
  if (liveAt === 0 || liveSeconds > LIVE_TARGET_S || failures.length > 0) {
    console.log('[bench] target MISSED');
    exitCode = 1;
  } else {
    console.log('[bench] targets met');
  }
} catch (error) {
  console.error(`[bench] ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  await stopShop();
}
process.exit(exitCode);
