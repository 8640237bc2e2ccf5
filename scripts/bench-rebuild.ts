/**
 * `npm run bench:rebuild`: edits going live under load, end to end (target: an edit live in
 * ≤ 10 s p95 at 10,000 and 100,000 products, no request failing). Starts a sandbox (its own
 * process, `sandbox/src/server.ts`: the default seeded catalogue, or `BENCH_PRODUCTS`
 * generated products) and the shop as `npm start` does (`scripts/start.ts`, which reuses that
 * sandbox, builds when the sources changed and keeps that build alive to publish edits
 * through; a reused build is not kept, so the shop first runs a warm-up full build, waited
 * for here). Each size has its own folder, `.bench/rebuild/{N|seed}/` (sandbox, dist,
 * releases, state, Astro cache): a second run at the same size reuses the seeded sandbox and,
 * when the sources did not change, the build. Prints how long the start took.
 *
 * Then, under a steady autocannon load over a mix of pages (home, the edited products'
 * categories, listing views and search results rendered on demand, an unedited product, a
 * hashed asset; never an edited product's page, whose address moves with its name), renames
 * `BENCH_EDITS` (10) products of different categories one after the other through the
 * sandbox's catalogue API (`PUT /v3/catalog/products/{id}`, which sends the store webhook),
 * each once the previous one is live. The products: in each leaf category in turn, the last
 * product on its first page (with generated products, a generated one: named among the related
 * products of a few pages); `BENCH_PICK=first` takes the first one instead, a hand-written
 * seed product, which the sandbox's generator makes a related product of about 2 % of the
 * generated ones (some 200 pages at 10,000 products, 2,000 at 100,000: the worst case of a
 * publish). Live: the product's old address answers 301 to a page showing the new name, and
 * its category page shows it too. Prints each edit's seconds from the PUT to live, with the
 * status's `lastBuild` (kind `publish` or `build`, pages written and removed, duration, how
 * long after the PUT it started: webhook and debounce), then p50, p95 (nearest rank), max
 * against the target (≤ 10 s p95), the
 * requests made and every failed one (status other than 200, socket error) over the whole run
 * (target 0), and the kept build's memory. The exit code is 1 when a target is missed.
 *
 * `BENCH_PUBLISH=contentful` makes `BENCH_EDITS` content publishes instead, one after the other,
 * each once the previous one is live, through the sandbox's Contentful management API (which
 * sends the signed webhook): a content page's title (`/cgv`), a sleep-content entry's title,
 * a new content page, a content page's body (`/aide`), that new page unpublished (404), in
 * turn (`scripts/lib/bench-content-edits.ts`). Each is checked live on the page showing it, and
 * reported as the product renames are (seconds, build kind, p50, p95, max; same target).
 * `BENCH_RATE` (default 200 requests/s; 0: as fast as it goes) and `BENCH_CONNECTIONS` (20)
 * shape the load, `BENCH_SANDBOX_PORT` (4396) is the sandbox's port (the build inlines the
 * upstream URL, so it is fixed), `BENCH_LIVE_TIMEOUT_S` (300) the longest wait for one edit,
 * `BENCH_START_TIMEOUT_S` (1800) for the sandbox's seed and the shop's first build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync } from 'node:fs';
import autocannon from 'autocannon';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/server/free-port.ts';
import type { BuildRecord, RebuildStatus } from '../src/server/rebuild/supervisor.ts';
import { contentEdits, STEADY_PAGES, type ContentEdit } from './lib/bench-content-edits.ts';
import { categoryListings } from './lib/bench-listings.ts';
import { keptBuildMemory } from './lib/kept-build-memory.ts';
import { percentile } from './lib/percentile.ts';
import { readEnvironment } from '../src/shop/config/environment.ts';

const products = process.env.BENCH_PRODUCTS ? Number(process.env.BENCH_PRODUCTS) : undefined;
if (products !== undefined && !(Number.isInteger(products) && products > 0)) {
  console.error(`[bench] BENCH_PRODUCTS must be a positive integer: ${String(products)}`);
  process.exit(1);
}
const sizeName = products === undefined ? 'seed' : String(products);
const benchDir = path.resolve('.bench/rebuild', sizeName);
const distDir = path.join(benchDir, 'dist');
const releasesDir = path.join(benchDir, 'releases');
const sandboxDir = path.join(benchDir, 'sandbox');
const sandboxPort = Number(process.env.BENCH_SANDBOX_PORT ?? 4396);
const sandboxUrl = `http://127.0.0.1:${String(sandboxPort)}`;
const rate = Number(process.env.BENCH_RATE ?? 200);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const editCount = Math.max(1, Number(process.env.BENCH_EDITS ?? 10));
const liveTimeoutMs = Number(process.env.BENCH_LIVE_TIMEOUT_S ?? 300) * 1000;
const startTimeoutMs = Number(process.env.BENCH_START_TIMEOUT_S ?? 1800) * 1000;
const publishKind = process.env.BENCH_PUBLISH === 'contentful' ? 'contentful' : 'commerce';
const pick = process.env.BENCH_PICK === 'first' ? 'first' : 'last';
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br', accept: 'text/html,*/*' };
/** Target: an edit (commerce or content) live within this, p95. */
const EDIT_TARGET_S = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const credentials = readEnvironment(['BIGCOMMERCE_STORE_HASH', 'UPSTREAM']);
if (credentials.BIGCOMMERCE_STORE_HASH && credentials.UPSTREAM !== 'sandbox') {
  console.error('[bench] unset BIGCOMMERCE_* (or set UPSTREAM=sandbox): the bench uses a sandbox.');
  process.exit(1);
}

const children: ChildProcess[] = [];
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(20_000)]);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void (async () => {
      for (const child of [...children].reverse()) await stop(child);
      process.exit(130);
    })();
  });
}

const port = await freePort();
const base = `http://127.0.0.1:${String(port)}`;
const began = Date.now();

// ── The sandbox, its own process (start.ts reuses a sandbox listening on its port) ─────────
console.log(
  `[bench] sandbox on ${sandboxUrl} (${products === undefined ? 'seed catalogue' : `${String(products)} products`}, data in ${sandboxDir})...`,
);
let sandboxOutput = '';
const sandboxServer = fileURLToPath(import.meta.resolve('@literie/sandbox/server'));
const sandbox = spawn(process.execPath, [sandboxServer], {
  env: {
    ...process.env,
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_DATA_DIR: sandboxDir,
    SANDBOX_SITE_URL: base,
    ...(products === undefined ? {} : { SANDBOX_PRODUCTS: String(products) }),
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
children.push(sandbox);
const onSandboxOutput = (chunk: Buffer) => {
  const text = chunk.toString();
  sandboxOutput += text;
  for (const line of text.split('\n')) {
    if (line.startsWith('[sandbox] BigCommerce sandbox')) console.log(`  ${line.slice(0, 160)}`);
  }
};
sandbox.stdout.on('data', onSandboxOutput);
sandbox.stderr.on('data', onSandboxOutput);

// ── The shop, as npm start runs it ────────────────────────────────────────────────────────
const env: NodeJS.ProcessEnv = {
  ...process.env,
  UPSTREAM: 'sandbox',
  PORT: String(port),
  HOST: '127.0.0.1',
  SANDBOX_PORT: String(sandboxPort),
  SANDBOX_DIR: sandboxDir,
  SANDBOX_SITE_URL: base,
  DIST_DIR: distDir,
  RELEASES_DIR: releasesDir,
  STATE_DIR: path.join(benchDir, 'state'),
  BUILD_CACHE_DIR: path.join(benchDir, 'cache'),
  // The supervisor's `[rebuild]` lines (builds, publishes, warm-up) are at info.
  LOG_LEVEL: readEnvironment(['LOG_LEVEL'], { LOG_LEVEL: 'info', ...process.env }).LOG_LEVEL,
};
// start.ts makes and registers its own secrets on the sandbox.
delete env.CONTENTFUL_WEBHOOK_SECRET;
delete env.BIGCOMMERCE_WEBHOOK_SECRET;
let shop: ChildProcess | null = null;
let shopOutput = '';
mkdirSync(benchDir, { recursive: true });
const shopLogFile = path.join(benchDir, 'shop.log');
const shopLog = createWriteStream(shopLogFile);
const onShopOutput = (chunk: Buffer) => {
  const text = chunk.toString();
  shopOutput += text;
  shopLog.write(chunk);
  for (const line of text.split('\n')) {
    // Each publish is printed with its edit below (and logged in shop.log).
    if (/^\[(start|rebuild|webhooks)\]/.test(line) && !line.includes(': published into ')) {
      console.log(`  shop: ${line}`);
    }
  }
};

async function status(): Promise<RebuildStatus> {
  return (await (await fetch(`${base}/webhooks/status`)).json()) as RebuildStatus;
}

/** Waits until no build is pending or running; the status then. */
async function settled(deadline: number): Promise<RebuildStatus> {
  for (;;) {
    const now = await status();
    if (now.state !== 'waiting' && now.state !== 'building' && now.queuedEvents === 0) return now;
    if (Date.now() > deadline) throw new Error(`the shop is still ${now.state}`);
    await sleep(200);
  }
}

/** Waits until a build or publish after the `count` th is recorded and none is pending. */
async function recorded(count: number, deadline: number): Promise<RebuildStatus> {
  for (;;) {
    const now = await settled(deadline);
    if (now.builds > count || Date.now() > deadline) return now;
    await sleep(200);
  }
}

/** Renames a product through the catalogue API (which sends its store webhook). */
async function renameProduct(id: number, name: string): Promise<void> {
  const response = await fetch(`${sandboxUrl}/stores/sandbox/v3/catalog/products/${String(id)}`, {
    method: 'PUT',
    headers: { 'x-auth-token': 'sandbox-token', 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (!response.ok) throw new Error(`PUT product ${String(id)}: ${String(response.status)}`);
  await response.arrayBuffer();
}

/**
 * True when every page (redirects followed) answers 200 with `text` in it; with `text` null,
 * when every one answers 404 (a page unpublished).
 */
async function allShow(pages: readonly string[], text: string | null): Promise<boolean> {
  const shown = await Promise.all(
    pages.map(async (page) => {
      const response = await fetch(`${base}${page}`, { headers: BROWSER_HEADERS });
      const body = await response.text();
      return text === null
        ? response.status === 404
        : response.status === 200 && body.includes(text);
    }),
  );
  return shown.every(Boolean);
}

/** Waits until `pages` show `text` (null: answer 404): the ms it took from `from`, NaN past the timeout. */
async function liveAfter(
  from: number,
  pages: readonly string[],
  text: string | null,
): Promise<number> {
  while (Date.now() - from < liveTimeoutMs) {
    if (await allShow(pages, text)) return Date.now() - from;
    await sleep(100);
  }
  return Number.NaN;
}

interface EditResult {
  /** `product 101 (/c/matelas)`, `content page title (/cgv)`... */
  what: string;
  liveMs: number;
  build: BuildRecord | null;
}

let exitCode = 0;
let load: autocannon.Instance | null = null;
try {
  // Seeding 100,000 products takes a while: wait for the sandbox to answer.
  const startDeadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (sandbox.exitCode !== null) throw new Error(`the sandbox exited:\n${sandboxOutput}`);
    if (Date.now() > startDeadline) throw new Error(`the sandbox did not start:\n${sandboxOutput}`);
    const answer = await fetch(`${sandboxUrl}/stores/sandbox/v2/store`, { method: 'HEAD' }).catch(
      () => null,
    );
    if (answer && (answer.status === 200 || answer.status === 401)) break;
    await sleep(250);
  }
  const sandboxSeconds = (Date.now() - began) / 1000;

  console.log(`[bench] starting the shop (npm start) on ${base}...`);
  const shopStarted = Date.now();
  shop = spawn(process.execPath, [path.join(import.meta.dirname, 'start.ts')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(shop);
  shop.stdout?.on('data', onShopOutput);
  shop.stderr?.on('data', onShopOutput);
  const running = shop;
  while (!/sandbox webhooks? (registered|not registered)/.test(shopOutput)) {
    if (running.exitCode !== null) throw new Error(`the shop exited:\n${shopOutput}`);
    if (Date.now() > startDeadline) throw new Error(`the shop did not start:\n${shopOutput}`);
    await sleep(200);
  }
  if (shopOutput.includes('sandbox webhook not registered')) {
    throw new Error('the sandbox webhooks could not be registered (see above)');
  }
  const servingMs = Date.now() - shopStarted;
  const builtSeconds = /\[start\] built in ([\d.]+) s/.exec(shopOutput)?.[1];
  // A reused build is not kept: the warm-up full build gives the shop one to publish through.
  const ready = await settled(startDeadline);
  const warmUp = ready.lastEvent?.topic === 'warm-up' ? ready.lastBuild : null;
  if (warmUp && warmUp.result !== 'succeeded') {
    throw new Error(
      `the warm-up build ${warmUp.result}: ${warmUp.error ?? ''} (log ${warmUp.log})`,
    );
  }
  const readyMs = Date.now() - shopStarted;
  const startLine =
    builtSeconds !== undefined
      ? `built in ${builtSeconds} s (kept alive), serving after ${seconds(servingMs)}`
      : `build reused, serving after ${seconds(servingMs)}; warm-up full build ${warmUp ? `${seconds(warmUp.durationMs ?? Number.NaN)} (${warmUp.id})` : 'none'}`;
  console.log(`[bench] shop ready to publish after ${seconds(readyMs)}: ${startLine}`);

  // Pages and edits, from the release being served.
  const served = ready.current.id;
  const servedDir = served === path.basename(distDir) ? distDir : path.join(releasesDir, served);
  const client = path.join(servedDir, 'client');
  const allListings = categoryListings(client);
  // Leaf categories (no category page below theirs), each listing some product on page 1.
  const listings = allListings.filter(
    (listing) =>
      listing.products.length > 0 &&
      !allListings.some((other) => other.category.startsWith(`${listing.category}/`)),
  );
  if (listings.length === 0) throw new Error(`no category page lists a product in ${client}`);
  // Round robin over the categories: each edit in another one while there are others; in
  // each, the last product of page 1 (BENCH_PICK=first: the first).
  const edits: { id: number; oldPage: string; category: string }[] = [];
  const taken = new Set<number>();
  for (let round = 0; edits.length < editCount && round < 50; round += 1) {
    for (const listing of listings) {
      if (edits.length >= editCount) break;
      const candidates = pick === 'first' ? listing.products : [...listing.products].reverse();
      const page = candidates.find((p) => !taken.has(Number(p.split('/')[2])));
      if (page === undefined) continue;
      const id = Number(page.split('/')[2]);
      taken.add(id);
      edits.push({ id, oldPage: page, category: listing.category });
    }
  }
  const editCategories = [...new Set(edits.map((edit) => edit.category))];
  const unedited = listings
    .flatMap((listing) => listing.products)
    .find((page) => !taken.has(Number(page.split('/')[2])));
  const css = readdirSync(path.join(client, '_astro')).find((name) => name.endsWith('.css'));
  const runId = Date.now().toString(36).slice(-5);
  const content =
    publishKind === 'contentful' ? await contentEdits(sandboxUrl, editCount, runId) : null;
  const loadPages = [
    '/',
    ...(publishKind === 'commerce' ? editCategories : editCategories.slice(0, 1)),
    ...editCategories.slice(0, 3).map((category) => `${category}?sort=2`),
    '/resultats-de-recherche/matelas',
    ...(unedited === undefined ? [] : [unedited]),
    ...(css === undefined ? [] : [`/_astro/${css}`]),
    ...(content === null ? [] : [...STEADY_PAGES, content.sleepPage]),
  ];
  // Each page once, before the load: one that fails is reported, and counted under load.
  for (const page of loadPages) {
    const response = await fetch(`${base}${page}`, { headers: BROWSER_HEADERS });
    await response.arrayBuffer();
    if (response.status !== 200) {
      console.log(`[bench] ${page} answers ${String(response.status)} before any edit`);
    }
  }

  // ── Load, edits one after the other, a little more load ─────────────────────────────────
  const failures: { at: number; what: string }[] = [];
  let responses = 0;
  const loadStarted = Date.now();
  let resolveLoad: (result: autocannon.Result) => void = () => undefined;
  const loadDone = new Promise<autocannon.Result>((resolve) => (resolveLoad = resolve));
  load = autocannon(
    {
      url: base,
      connections,
      duration: 3600 * 4,
      timeout: 10,
      ...(rate > 0 ? { overallRate: rate } : {}),
      requests: loadPages.map((page) => ({
        path: page,
        headers: BROWSER_HEADERS,
        onResponse: (statusCode: number) => {
          if (statusCode !== 200) {
            failures.push({ at: Date.now(), what: `status ${String(statusCode)} on ${page}` });
          }
        },
      })),
    },
    (error: Error | null, result) => {
      if (error) failures.push({ at: Date.now(), what: `autocannon: ${error.message}` });
      resolveLoad(result);
    },
  );
  load.on('response', () => {
    responses += 1;
  });
  load.on('reqError', (error: Error) => {
    failures.push({ at: Date.now(), what: error.message });
  });
  await sleep(5_000);
  const editsStarted = Date.now();

  const results: EditResult[] = [];
  // Every edit the same way: made, then checked live on the pages that show it.
  const planned: (Pick<ContentEdit, 'what' | 'text' | 'apply'> & { pages: string[] })[] =
    content === null
      ? edits.map((edit, index) => {
          const name = `Matelas banc essai ${runId} ${String(index + 1)}`;
          return {
            what: `product ${String(edit.id)} (${edit.category})`,
            // The old address answers 301 to the new one (the slug follows the name): followed.
            pages: [edit.oldPage, edit.category],
            text: name,
            apply: () => renameProduct(edit.id, name),
          };
        })
      : content.edits.map((edit) => ({ ...edit, pages: [edit.page] }));
  console.log(
    `[bench] load running; ${String(planned.length)} ${content === null ? 'product renames' : 'content publishes'}, one after the other...`,
  );
  for (const [index, edit] of planned.entries()) {
    const before = await status();
    const put = Date.now();
    await edit.apply();
    const liveMs = await liveAfter(put, edit.pages, edit.text);
    // A page can be live before its publish (a new content page renders on demand): wait for
    // the edit's own build or publish, so that the next edit is not folded into it.
    const after = await recorded(before.builds, Date.now() + liveTimeoutMs);
    const build = after.lastBuild?.id === before.lastBuild?.id ? null : after.lastBuild;
    results.push({ what: edit.what, liveMs, build });
    const pages = build?.pages
      ? `, ${String(build.pages.written)} written, ${String(build.pages.removed)} removed`
      : '';
    // From the edit to the publish's start: the webhook's delivery and the debounce.
    const queued = build
      ? `, started ${seconds(Date.parse(build.startedAt) - put)} after the edit`
      : '';
    console.log(
      `  edit ${String(index + 1)}: ${edit.what} live in ${Number.isNaN(liveMs) ? `NOT LIVE within ${seconds(liveTimeoutMs)}` : seconds(liveMs)}; ${build ? `${build.kind ?? 'build'} ${build.result} in ${seconds(build.durationMs ?? Number.NaN)}${pages}${queued}` : 'no build recorded'}`,
    );
    if (Number.isNaN(liveMs)) break;
  }
  await sleep(5_000);
  const memory = shop.pid === undefined ? null : keptBuildMemory(shop.pid);
  load.stop();
  const result = await loadDone;
  load = null;

  // ── Report ─────────────────────────────────────────────────────────────────────────────
  console.log(
    `\n[bench] machine: ${String(os.cpus().length)} cores, ${String(Math.round(os.totalmem() / 2 ** 30))} GiB, node ${process.version}, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `[bench] catalogue: ${products === undefined ? 'sandbox seed' : `${String(products)} generated products`} (sandbox up in ${sandboxSeconds.toFixed(1)} s), edits: ${content === null ? `${pick} product of page 1 of ${String(editCategories.length)} categories` : 'content publishes of several entry types'}; load: autocannon, ${String(connections)} connections, ${rate > 0 ? `${String(rate)} req/s` : 'unbounded'} over ${String(loadPages.length)} URLs`,
  );
  const shopSettings = readEnvironment([
    'REBUILD_DEBOUNCE_MS',
    'PUBLISH_DEBOUNCE_MS',
    'SERVER_WORKERS',
  ]);
  console.log(
    `[bench] shop: REBUILD_DEBOUNCE_MS ${String(shopSettings.REBUILD_DEBOUNCE_MS)}, PUBLISH_DEBOUNCE_MS ${String(shopSettings.PUBLISH_DEBOUNCE_MS)}, SERVER_WORKERS ${String(shopSettings.SERVER_WORKERS)}; its output in ${shopLogFile}`,
  );
  console.log(`[bench] start: ready to publish after ${seconds(readyMs)} (${startLine})`);
  let missed = false;
  const times = results.map((r) => r.liveMs / 1000);
  const live = times.filter((t) => !Number.isNaN(t));
  const p95 = live.length === times.length ? percentile(live, 95) : Number.NaN;
  const buildKinds = results.map((r) => r.build?.kind ?? '-');
  console.log(
    `[bench] edit → live, ${String(times.length)} edits (s): ${times.map((t) => (Number.isNaN(t) ? 'NOT LIVE' : t.toFixed(1))).join(', ')}`,
  );
  console.log(
    `[bench] edit → live: p50 ${percentile(live, 50).toFixed(1)} s, p95 ${Number.isNaN(p95) ? 'n/a (an edit was not live)' : `${p95.toFixed(1)} s`}, max ${Math.max(...live).toFixed(1)} s (target p95 ≤ ${String(EDIT_TARGET_S)} s: ${p95 <= EDIT_TARGET_S ? 'met' : 'MISSED'})`,
  );
  const publishMs = results.flatMap((r) =>
    r.build?.kind === 'publish' ? [r.build.durationMs ?? 0] : [],
  );
  console.log(
    `[bench] kinds: ${String(buildKinds.filter((k) => k === 'publish').length)} publish, ${String(buildKinds.filter((k) => k === 'build').length)} full build, ${String(buildKinds.filter((k) => k === '-').length)} none; publish duration p50 ${seconds(percentile(publishMs, 50))}, max ${seconds(Math.max(...publishMs))}`,
  );
  missed ||= !(p95 <= EDIT_TARGET_S);
  console.log(
    `[bench] kept build memory: ${memory ? `${String(memory.rssMb)} MB resident (peak ${String(memory.peakMb)} MB), pid ${String(memory.pid)}` : 'no kept build process found'}`,
  );
  console.log(
    `[bench] requests: ${String(result.requests.total)} in ${((Date.now() - loadStarted) / 1000).toFixed(0)} s (${String(responses)} answered), p50 ${String(result.latency.p50)} ms, p99 ${String(result.latency.p99)} ms, max ${String(result.latency.max)} ms`,
  );
  const beforeEdits = failures.filter((failure) => failure.at < editsStarted).length;
  console.log(
    `[bench] failed requests: ${String(failures.length)} (target 0): ${String(beforeEdits)} in the ${seconds(editsStarted - loadStarted)} before the first edit, ${String(failures.length - beforeEdits)} from then on`,
  );
  const kinds = new Map<string, number>();
  for (const failure of failures) kinds.set(failure.what, (kinds.get(failure.what) ?? 0) + 1);
  for (const [what, count] of kinds) console.log(`    ${String(count)} × ${what}`);
  missed ||= failures.length > 0;
  if (missed) {
    console.log('[bench] target MISSED');
    exitCode = 1;
  } else {
    console.log('[bench] targets met');
  }
} catch (error) {
  console.error(`[bench] ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  load?.stop();
  if (shop) await stop(shop);
  await stop(sandbox);
}
process.exit(exitCode);
