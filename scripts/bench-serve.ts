/**
 * `npm run bench:serve`: how fast the storefront server answers, next to the machine's ceiling.
 * In one run, at 50 connections (wrk with one thread, else autocannon), it measures a bare
 * `node:http` server answering a 16 KB body, then the shop (`src/server/serve.ts`, built into
 * `.bench/serve/dist` against a sandbox in `.bench/serve/sandbox`, rebuilt only when the
 * sources changed): the static product page, a static asset, a listing view (repeated, then
 * with fresh parameters each request), the search results page and the API's
 * `getCategoryTree`. Fresh parameters come twice: a campaign tag the page ignores (one cache
 * key) and a new price bound (every request a new page: the render throughput, which no cache
 * raises, outside the p99 target). Prints requests/s, p50/p99 latency and the ratio to the
 * bare server, the raw and compressed size of the listing page, and the targets on
 * the 2-core reference machine: static page >= 0.5 x bare, repeated listing view >= 0.3 x
 * bare, getCategoryTree >= 0.15 x bare, p99 < 50 ms, 0 errors.
 *
 * Then the cost of a never-seen listing view: the server's CPU time per render,
 * read from `/proc` (utime + stime of the server's processes) around `BENCH_RENDERS` (300)
 * requests with fresh parameters, two at a time, once the server is idle (the median of five
 * batches: on a shared VM one slow moment moves one batch, not the figure): on its main threads
 * (the render, HTTP, most of GC) and on all its threads (with the compression of the cached
 * variants); then, for reference, the same for a page of the same layout with no listing (an
 * unknown category's not-found view): what Astro's page pipeline and the layout cost alone.
 * The render row also prints the server's CPU per request at 50 connections (idle to idle,
 * its backlog included), which says whether the row was bound by the server's CPU.
 * Targets: CPU per render <= 2 ms (main thread), the render row >= 400 req/s, p99 <= 200 ms,
 * the listing HTML <= 100 KB raw. `BENCH_ONLY=regex` measures only the rows whose name
 * matches (`BENCH_ONLY=renders`: the render row and the CPU per render); `BENCH_CPU_PROF=dir`
 * runs the server under V8's profiler and writes its `.cpuprofile` there when the bench ends
 * (`node scripts/lib/profile-summary.ts` reads it).
 *
 * Servers run in child processes, the load generator here. wrk (Debian) is preferred when
 * installed: autocannon costs more CPU per request than the server, so on 2 cores it measures
 * itself (`BENCH_TOOL=autocannon` forces it). `BENCH_SECONDS` (default 8) sets the length of
 * each measurement, `BENCH_CONNECTIONS` (50) the connections, `BENCH_SANDBOX_PORT` (4394) the
 * sandbox's port. Targets are printed `met` or `MISSED`; the exit status stays 0 (a bench).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildShop } from './build.ts';
import { isSandboxListening } from '@literie/sandbox/server';
import { ensureUpstream } from './lib/upstream.ts';
import { newestMtime } from './lib/sources.ts';
import { percentile } from './lib/percentile.ts';
import { compress } from '../src/server/encoding.ts';
import { freePort } from '../src/server/free-port.ts';
import { readEnvironment } from '../src/shop/config/environment.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const benchDir = path.resolve('.bench/serve');
const distDir = path.join(benchDir, 'dist');
const stampFile = path.join(benchDir, 'build-stamp.json');
const SOURCES = ['src', 'public', 'sandbox/src', 'astro.config.mjs', 'package-lock.json'];
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br', accept: 'text/html,*/*' };
const renders = Number(process.env.BENCH_RENDERS ?? 300);
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const cpuProfDir = process.env.BENCH_CPU_PROF;

/** The targets for a never-seen listing view. */
const RENDER_CPU_TARGET_MS = 2;
const RENDER_RPS_TARGET = 400;
const RENDER_P99_TARGET_MS = 200;
const LISTING_KB_TARGET = 100;

/** Starts `node args` and resolves once it prints `ready` (or `[serve] shop at`). */
function startChild(args: string[], env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (/ready|\[serve\] shop at/.test(out)) {
        child.stdout.off('data', onData);
        child.stdout.resume();
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => {
      reject(new Error(`${args.join(' ')} exited with ${code} before it was ready:\n${out}`));
    });
  });
}

const BARE_SERVER = `
const http = require('node:http');
const body = Buffer.alloc(16 * 1024, 'x');
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.argv[1]), '127.0.0.1', () => console.log('ready'));
`;

interface Row {
  name: string;
  /** Requests answered in the run. */
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  bytesPerRequest: number;
  /** The server's CPU ms per request over the run, its backlog included (render row). */
  cpu?: Cpu;
}

interface Load {
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /** Fresh parameters: each request's path is this prefix + a number no other run used. */
  freshPrefix?: string;
}

/** Where the next run's fresh numbers start: each run its own, so none reads another's pages. */
let freshBase = 2000;
function nextFreshBase(): number {
  freshBase += 1_000_000;
  return freshBase;
}

/** Clock ticks per second of the CPU times in `/proc`. */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** The fields of a `/proc/.../stat` line after the command name (field 3, the state, first). */
function statFields(file: string): string[] {
  const stat = readFileSync(file, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The server's processes: the child and its descendants (the cluster's workers). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(statFields(`/proc/${entry}/stat`)[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended meanwhile.
    }
  }
  const tree = [root];
  // An array's iterator reads its length at each step: the descendants pushed are visited too.
  for (const pid of tree) tree.push(...(children.get(pid) ?? []));
  return tree;
}

/** CPU time (user + system, ms) of a process tree: its main threads, and all its threads. */
interface Cpu {
  main: number;
  all: number;
}
function treeCpu(root: number): Cpu {
  let main = 0;
  let all = 0;
  for (const pid of processTree(root)) {
    try {
      const process = statFields(`/proc/${pid}/stat`);
      const thread = statFields(`/proc/${pid}/task/${pid}/stat`);
      all += Number(process[11]) + Number(process[12]);
      main += Number(thread[11]) + Number(thread[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return { main: (main * 1000) / CLOCK_TICKS, all: (all * 1000) / CLOCK_TICKS };
}

/** Resolves once the tree has used under 5 % of a core for 0.4 s (its backlog is done). */
async function whenIdle(root: number): Promise<void> {
  let last = treeCpu(root).all;
  for (let i = 0; i < 150; i++) {
    await new Promise((resolve) => setTimeout(resolve, 400));
    const now = treeCpu(root).all;
    if (now - last < 20) return;
    last = now;
  }
}

interface RenderCost {
  /** CPU ms per render on the server's main threads (the render, HTTP, most of GC). */
  main: number;
  /** CPU ms per render on all its threads (with compression and concurrent GC). */
  all: number;
  /** The lowest and highest main-thread figure of the batches (`main` is their median). */
  range: [number, number];
  failures: number;
}

/** Batches a CPU figure is the median of: one slow moment of a shared VM moves one batch. */
const CPU_BATCHES = 5;

/**
 * The server's CPU time per never-seen page: `count` requests for `url(n)`, each a new page,
 * two at a time (one renders while the other's reply travels), once the server is idle; the
 * median of `CPU_BATCHES` batches. On this VM one batch of the same build ranges over 1.3 to
 * 2.4 ms (waking a sleeping thread costs the waker up to a millisecond there, now and then).
 */
async function cpuPerRender(
  root: number,
  url: (n: number) => string,
  count: number,
  expected = 200,
): Promise<RenderCost> {
  await whenIdle(root);
  const base = nextFreshBase();
  let next = 0;
  let failures = 0;
  const client = async (end: number) => {
    while (next < end) {
      const reply = await fetch(url(base + next++), { headers: BROWSER_HEADERS });
      await reply.arrayBuffer();
      if (reply.status !== expected) failures += 1;
    }
  };
  const batches = count >= CPU_BATCHES * 20 ? CPU_BATCHES : 1;
  const mains: number[] = [];
  const alls: number[] = [];
  for (let batch = 1; batch <= batches; batch += 1) {
    const start = next;
    const end = Math.round((count * batch) / batches);
    const before = treeCpu(root);
    await Promise.all([client(end), client(end)]);
    const after = treeCpu(root);
    mains.push((after.main - before.main) / (end - start));
    alls.push((after.all - before.all) / (end - start));
  }
  return {
    main: percentile(mains, 50),
    all: percentile(alls, 50),
    range: [Math.min(...mains), Math.max(...mains)],
    failures,
  };
}

/** wrk's latency figures (`2.22ms`, `850.00us`, `1.20s`) in milliseconds. */
function wrkMs(output: string, rank: string): number {
  const match = new RegExp(`^\\s*${rank}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(output);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

function wrkBytes(text: string): number {
  const match = /^([\d.]+)([KMG]?B)$/.exec(text);
  if (!match) return Number.NaN;
  const scale = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[match[2] as 'B'];
  return Number(match[1]) * scale;
}

/** One wrk run (one thread: the other core is the server's). */
async function runWrk(url: string, load: Load, duration: number): Promise<Row> {
  const target = new URL(url);
  const lua = [
    `wrk.method = "${load.method ?? 'GET'}"`,
    ...Object.entries({ ...BROWSER_HEADERS, ...load.headers }).map(
      ([name, value]) => `wrk.headers["${name}"] = "${value}"`,
    ),
    load.body === undefined ? '' : `wrk.body = ${JSON.stringify(load.body)}`,
    load.freshPrefix === undefined
      ? ''
      : `counter = ${nextFreshBase()}\nrequest = function()\n  counter = counter + 1\n  return wrk.format(nil, "${load.freshPrefix}" .. counter)\nend`,
  ].join('\n');
  const script = path.join(benchDir, 'load.lua');
  writeFileSync(script, lua);
  const args = ['-t1', `-c${connections}`, `-d${duration}s`, '--timeout', '10s', '--latency'];
  args.push('-s', script, target.href);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', () => {
      resolve(out);
    });
  });
  const total = /(\d+) requests in [\d.]+\w+, ([\d.]+[KMG]?B) read/.exec(output);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(output);
  const requests = Number(total?.[1] ?? 0);
  return {
    name: '',
    requests,
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? 0),
    p50: wrkMs(output, '50'),
    p99: wrkMs(output, '99'),
    errors:
      (socketErrors?.slice(1).reduce((sum, n) => sum + Number(n), 0) ?? 0) +
      Number(non2xx?.[1] ?? 0),
    bytesPerRequest: requests > 0 ? wrkBytes(total?.[2] ?? '') / requests : 0,
  };
}

/** One autocannon run (when wrk is not installed; autocannon's own cost caps it lower). */
async function runAutocannon(url: string, load: Load, duration: number): Promise<Row> {
  let counter = nextFreshBase();
  const target = new URL(url);
  const prefix = load.freshPrefix;
  const result = await autocannon({
    url: target.origin,
    connections,
    duration,
    requests: [
      {
        method: load.method ?? 'GET',
        path: target.pathname + target.search,
        headers: { ...BROWSER_HEADERS, ...load.headers },
        ...(load.body === undefined ? {} : { body: load.body }),
        ...(prefix === undefined
          ? {}
          : {
              setupRequest: (req: autocannon.Request) => {
                counter += 1;
                return { ...req, path: `${prefix}${counter}` };
              },
            }),
      },
    ],
  });
  const total = result.requests.total || 1;
  return {
    name: '',
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    bytesPerRequest: result.throughput.total / total,
  };
}

const useWrk =
  process.env.BENCH_TOOL !== 'autocannon' && spawnSync('wrk', ['-v']).error === undefined;

/**
 * One row: a short warm-up (JIT, caches), then the measurement. With `serverPid`, also the
 * server's CPU time per request over the run, from idle to idle (its backlog included).
 */
async function measure(
  name: string,
  url: string,
  load: Load = {},
  serverPid?: number,
): Promise<Row> {
  const run = useWrk ? runWrk : runAutocannon;
  await run(url, load, 1);
  if (serverPid === undefined) return { ...(await run(url, load, seconds)), name };
  await whenIdle(serverPid);
  const before = treeCpu(serverPid);
  const measured = await run(url, load, seconds);
  await whenIdle(serverPid);
  const after = treeCpu(serverPid);
  const per = Math.max(1, measured.requests);
  return {
    ...measured,
    name,
    cpu: { main: (after.main - before.main) / per, all: (after.all - before.all) / per },
  };
}

async function firstFile(dir: string, pattern: RegExp): Promise<string> {
  const entries = await readdir(dir, { recursive: true });
  const found = entries.filter((entry) => pattern.test(entry)).sort()[0];
  if (found === undefined) throw new Error(`no file matching ${pattern} in ${dir}`);
  return found;
}

const credentials = readEnvironment(['BIGCOMMERCE_STORE_HASH', 'UPSTREAM']);
if (credentials.BIGCOMMERCE_STORE_HASH && credentials.UPSTREAM !== 'sandbox') {
  console.error('[bench] unset BIGCOMMERCE_* (or set UPSTREAM=sandbox): the bench uses a sandbox.');
  process.exit(1);
}

// The sandbox runs in a child of its own: here, the load generator would starve it. Its port
// is fixed: the build inlines the upstream URL (public astro:env values).
const sandboxPort = Number(process.env.BENCH_SANDBOX_PORT ?? 4394);
const sandboxDir = path.join(benchDir, 'sandbox');
const children: ChildProcess[] = [];
const sandboxServer = fileURLToPath(import.meta.resolve('@literie/sandbox/server'));
const sandbox = spawn(process.execPath, [sandboxServer], {
  env: { ...process.env, SANDBOX_PORT: String(sandboxPort), SANDBOX_DATA_DIR: sandboxDir },
  stdio: 'ignore',
});
children.push(sandbox);
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
for (let i = 0; !(await isSandboxListening(sandboxUrl)); i++) {
  if (i > 600 || sandbox.exitCode !== null) throw new Error('[bench] the sandbox did not start');
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const upstream = await ensureUpstream({ dataDir: sandboxDir, port: sandboxPort });

try {
  const sourcesTime = Math.max(...(await Promise.all(SOURCES.map(newestMtime))));
  const stamp = existsSync(stampFile)
    ? (JSON.parse(readFileSync(stampFile, 'utf8')) as { builtAt?: number; upstream?: string })
    : {};
  if (
    !existsSync(path.join(distDir, 'server/entry.mjs')) ||
    (stamp.builtAt ?? 0) < sourcesTime ||
    stamp.upstream !== sandboxUrl
  ) {
    console.log('[bench] building the shop into .bench/serve/dist...');
    const built = await buildShop(upstream, distDir);
    writeFileSync(stampFile, JSON.stringify({ builtAt: Date.now(), upstream: sandboxUrl }));
    console.log(`[bench] built in ${built.seconds.toFixed(1)} s`);
  } else {
    console.log('[bench] reusing .bench/serve/dist (sources unchanged)');
  }

  const barePort = await freePort();
  children.push(await startChild(['-e', BARE_SERVER, String(barePort)], process.env));
  const shopPort = await freePort();
  const profile = cpuProfDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`];
  const server = await startChild(
    [...profile, path.join(import.meta.dirname, '../src/server/serve.ts')],
    {
      ...upstream.env,
      PORT: String(shopPort),
      HOST: '127.0.0.1',
      DIST_DIR: distDir,
    },
  );
  children.push(server);
  const bare = `http://127.0.0.1:${barePort}`;
  const shop = `http://127.0.0.1:${shopPort}`;
  const productPage = (await firstFile(path.join(distDir, 'client/p'), /\.html$/)).replace(
    /\.html$/,
    '',
  );
  const asset = await firstFile(path.join(distDir, 'client/_astro'), /\.css$/);

  // The listing page as a shopper's browser gets it.
  const listingUrl = `${shop}/c/matelas?page=2`;
  const listing = Buffer.from(
    await (await fetch(listingUrl, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer(),
  );

  const rows: Row[] = [];
  const row = async (name: string, url: string, load: Load = {}, serverPid?: number) => {
    if (only === null || only.test(name)) rows.push(await measure(name, url, load, serverPid));
  };
  await row('bare node:http, 16 KB', `${bare}/`);
  await row('static product page', `${shop}/p/${productPage}`);
  await row('static asset (CSS)', `${shop}/_astro/${asset}`);
  await row('listing view, repeated', listingUrl);
  // Fresh parameters the page does not read (a campaign tag): one canonical key, one render.
  await row('listing view, fresh utm_ parameter', listingUrl, {
    freshPrefix: '/c/matelas?page=2&utm_source=',
  });
  await row('search results', `${shop}/resultats-de-recherche/matelas`);
  await row('API getCategoryTree', `${shop}/api/bigcommerce/getCategoryTree`, {
    method: 'POST',
    body: '[]',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
  });
  // Last: fresh listing parameters (a new price bound each time) make every request a new
  // page, so a render: this row is the render throughput, which no cache can raise. The
  // server may still be busy with its backlog after the run.
  const renderRow = 'listing view, fresh prix-max (renders)';
  const freshListing = '/c/matelas?page=2&prix-max=';
  await row(renderRow, listingUrl, { freshPrefix: freshListing }, server.pid);
  // The CPU time of one render, on an idle server (warm: 30 renders first, not counted).
  const measureCpu = only === null || only.test(renderRow);
  let cost: RenderCost | undefined;
  let layoutCost: RenderCost | undefined;
  const unknownListing = '/c/inconnue-';
  if (measureCpu && server.pid !== undefined) {
    const fresh = (n: number) => `${shop}${freshListing}${n}`;
    await cpuPerRender(server.pid, fresh, 30);
    cost = await cpuPerRender(server.pid, fresh, renders);
    // For reference: a page of the same layout with no listing (an unknown category's
    // not-found view), what Astro's page pipeline and the layout cost without the listing.
    const unknown = (n: number) => `${shop}${unknownListing}${n}?page=2`;
    await cpuPerRender(server.pid, unknown, 30, 404);
    layoutCost = await cpuPerRender(server.pid, unknown, renders, 404);
  }

  const ceiling = rows.find((r) => r.name.startsWith('bare'))?.requestsPerSecond ?? Number.NaN;
  console.log(
    `\n[bench] machine: ${os.cpus().length} cores, node ${process.version}, ${useWrk ? 'wrk -t1' : 'autocannon'}, ${connections} connections, ${seconds} s each`,
  );
  console.log(
    `${'what'.padEnd(40)}${'req/s'.padStart(9)}${'x bare'.padStart(8)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'KB/req'.padStart(8)}${'errors'.padStart(8)}`,
  );
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(40)}${r.requestsPerSecond.toFixed(0).padStart(9)}${(r.requestsPerSecond / ceiling).toFixed(2).padStart(8)}${r.p50.toFixed(1).padStart(8)}${r.p99.toFixed(1).padStart(8)}${(r.bytesPerRequest / 1024).toFixed(1).padStart(8)}${String(r.errors).padStart(8)}`,
    );
  }
  // Compressed as the server compresses a view it renders (encoding.ts).
  const [br, gzip] = await Promise.all([compress(listing, 'br'), compress(listing, 'gzip')]);
  const listingKb = listing.length / 1024;
  console.log(
    `\n[bench] listing page HTML (${listingUrl.replace(shop, '')}): ${listingKb.toFixed(1)} KB raw, ${(br.length / 1024).toFixed(1)} KB br, ${(gzip.length / 1024).toFixed(1)} KB gzip`,
  );
  for (const r of rows) {
    if (r.cpu) {
      console.log(
        `[bench] server CPU per request in "${r.name}" at ${connections} connections: ${r.cpu.main.toFixed(2)} ms main thread, ${r.cpu.all.toFixed(2)} ms all threads`,
      );
    }
  }
  if (cost) {
    console.log(
      `[bench] CPU per never-seen listing render (${renders} renders of ${freshListing}N): ${cost.main.toFixed(2)} ms on the server's main thread (median of ${CPU_BATCHES} batches, ${cost.range[0].toFixed(2)}-${cost.range[1].toFixed(2)}), ${cost.all.toFixed(2)} ms on all its threads (with compression)${cost.failures > 0 ? `, ${cost.failures} failed` : ''}`,
    );
  }
  if (layoutCost) {
    console.log(
      `[bench] for reference, the same layout without a listing (${renders} not-found views of ${unknownListing}N?page=2): ${layoutCost.main.toFixed(2)} ms main thread, ${layoutCost.all.toFixed(2)} ms all threads${layoutCost.failures > 0 ? `, ${layoutCost.failures} not 404` : ''}`,
    );
  }
  const byName = (name: string) => rows.find((r) => r.name === name);
  const ratio = (name: string) => (byName(name)?.requestsPerSecond ?? 0) / ceiling;
  const renderFigures = byName(renderRow);
  // A target of a row left out by BENCH_ONLY is not judged.
  const checks: [string, boolean | undefined][] = [
    [
      'static page >= 0.5 x bare',
      byName('static product page') && ratio('static product page') >= 0.5,
    ],
    [
      'repeated listing view >= 0.3 x bare',
      byName('listing view, repeated') && ratio('listing view, repeated') >= 0.3,
    ],
    [
      'getCategoryTree >= 0.15 x bare',
      byName('API getCategoryTree') && ratio('API getCategoryTree') >= 0.15,
    ],
    [
      'p99 < 50 ms for all served pages (the render row excepted)',
      rows.every((r) => r.name === renderRow || r.p99 < 50),
    ],
    ['0 errors', rows.every((r) => r.errors === 0) && (cost?.failures ?? 0) === 0],
    [
      `CPU per never-seen listing render <= ${RENDER_CPU_TARGET_MS} ms (main thread)`,
      cost && cost.main <= RENDER_CPU_TARGET_MS,
    ],
    [
      `never-seen listing renders >= ${RENDER_RPS_TARGET} req/s, p99 <= ${RENDER_P99_TARGET_MS} ms`,
      renderFigures &&
        renderFigures.requestsPerSecond >= RENDER_RPS_TARGET &&
        renderFigures.p99 <= RENDER_P99_TARGET_MS,
    ],
    [`listing HTML <= ${LISTING_KB_TARGET} KB raw`, listingKb <= LISTING_KB_TARGET],
  ];
  for (const [target, met] of checks) {
    if (met !== undefined) console.log(`[bench] ${target}: ${met ? 'met' : 'MISSED'}`);
  }
} finally {
  // The profiled server writes its profiles as it exits: wait for that.
  const exits = children.map(
    (child) =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve(null);
        else child.once('exit', resolve);
      }),
  );
  for (const child of children) child.kill();
  if (cpuProfDir !== undefined) await Promise.all(exits);
  await upstream.close();
}
