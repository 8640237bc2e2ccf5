/**
 * The Prometheus metrics over real HTTP (`src/server/metrics-endpoint.ts`, `metrics.ts`):
 * the supervised server (`node src/server/serve.ts`, two workers) on a tiny dist made here,
 * with `METRICS_PORT`. After a static page, a listing view, an API call and a webhook's build,
 * `GET /metrics` on the metrics port answers the text format with the names and labels a
 * dashboard relies on, summed over the workers, with the supervisor's builds and live release;
 * the shop's port answers 404 for `/metrics`; without `METRICS_PORT` nothing listens. The
 * upstream client and the throttle count into the process's registry: checked here in process
 * against a local upstream (the production build's own count, through its bundle:
 * `tests/scale/metrics.test.ts`).
 */
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as z from 'zod';
import { freePort } from '../../src/server/free-port.ts';
import { metricsRegistry } from '../../src/shop/config/metrics.ts';
import { createUpstreamClient } from '../../src/shop/connectors/http/upstream-client.ts';
import { createMemoryStore } from '../../src/shop/state/memory.ts';
import { createAccountThrottle, THROTTLE_RULES } from '../../src/shop/throttle/throttle.ts';
import {
  sendPublish,
  settledAfter,
  startServe,
  writeTinyDist,
  type ShopChild,
} from './helpers/rebuild.ts';

const SECRET = 'm'.repeat(64);
const COMMAND = 'set -e\ncp -r "$FIXTURE_DIST/." "$RELEASE_DIR"';

/** The value of one series (`name{labels}`) in a Prometheus text, or null when absent. */
function valueOf(text: string, series: string): number | null {
  const line = text.split('\n').find((row) => row.startsWith(`${series} `));
  return line === undefined ? null : Number(line.slice(series.length + 1));
}

/**
 * The status of a request on a new connection (a kept-alive one may reach a worker of the
 * release before, which drains and exits with its counts).
 */
function statusOf(url: string, method = 'GET', body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method, agent: false }, (response) => {
      response.resume();
      response.on('end', () => {
        resolve(response.statusCode ?? 0);
      });
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** Whether a port takes connections. */
function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      resolve(false);
    });
  });
}

describe('the supervisor serves the metrics on METRICS_PORT only', () => {
  let root = '';
  let dist = '';
  let shop: ShopChild | undefined;
  let metricsPort = 0;

  const startShop = (extra: NodeJS.ProcessEnv): Promise<ShopChild> =>
    startServe({
      dist,
      releases: path.join(root, 'releases'),
      rebuild: { command: COMMAND, secret: SECRET, debounceMs: 100 },
      env: { SERVER_WORKERS: '2', METRICS_PORT: '', METRICS_HOST: '', ...extra },
    });

  const scrape = async () => {
    const response = await fetch(`http://127.0.0.1:${String(metricsPort)}/metrics`);
    return { response, text: await response.text() };
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'metrics-'));
    dist = path.join(root, 'dist');
    await writeTinyDist(dist);
    metricsPort = await freePort();
    shop = await startShop({ METRICS_PORT: String(metricsPort) });
  });

  afterAll(async () => {
    await shop?.stop();
    await rm(root, { recursive: true, force: true });
  });

  test('requests by kind, render cache lookups, builds and the live release', async () => {
    const base = shop?.base ?? '';
    // A build first: its new workers replace those that served until then, with their counts.
    expect(await sendPublish(base, 'entry-1', SECRET)).toBe(202);
    const settled = await settledAfter(base, 1);
    expect(settled.lastBuild?.result).toBe('succeeded');
    // Two of each, so both workers' counts are likely summed (each takes its own connections).
    for (let round = 0; round < 2; round++) {
      expect(await statusOf(`${base}/`)).toBe(200);
      expect(await statusOf(`${base}/c/matelas?sort=2`)).toBe(404);
      expect(await statusOf(`${base}/api/bigcommerce/getProducts`, 'POST', '[]')).toBe(404);
    }
    expect(await statusOf(`${base}/webhooks/status`)).toBe(200);
    const { response, text } = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    // Requests by route kind, method and status class, their time by kind (summed over both
    // workers: each series is counted once, whichever worker served it).
    expect(valueOf(text, 'shop_http_requests_total{kind="static",method="GET",status="2xx"}')).toBe(
      2,
    );
    expect(
      valueOf(text, 'shop_http_requests_total{kind="listing_view",method="GET",status="4xx"}'),
    ).toBe(2);
    expect(valueOf(text, 'shop_http_requests_total{kind="api",method="POST",status="4xx"}')).toBe(
      2,
    );
    expect(
      valueOf(text, 'shop_http_requests_total{kind="webhook",method="GET",status="2xx"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toContain('# TYPE shop_http_request_duration_seconds histogram');
    expect(valueOf(text, 'shop_http_request_duration_seconds_count{kind="static"}')).toBe(2);
    expect(
      valueOf(text, 'shop_http_request_duration_seconds_bucket{le="+Inf",kind="listing_view"}'),
    ).toBe(2);
    // The listing view is a shared URL: looked up in the render cache (memory only here).
    const lookups =
      (valueOf(text, 'shop_render_cache_lookups_total{result="miss",layer="memory"}') ?? 0) +
      (valueOf(text, 'shop_render_cache_lookups_total{result="hit",layer="memory"}') ?? 0);
    expect(lookups).toBeGreaterThanOrEqual(2);
    // Every shop metric is there from the start, at zero when nothing was counted.
    for (const name of [
      'shop_upstream_requests_total',
      'shop_upstream_request_duration_seconds',
      'shop_upstream_retries_total',
      'shop_throttle_refusals_total',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    // The supervisor's own: the build, the release it made live, its publishes (none).
    expect(valueOf(text, 'shop_builds_total{kind="build",outcome="succeeded"}')).toBe(1);
    expect(valueOf(text, 'shop_build_duration_seconds_count{kind="build"}')).toBe(1);
    expect(valueOf(text, `shop_release_info{release="${settled.current.id}"}`)).toBe(1);
    expect(text.match(/^shop_release_info\{/gm)).toHaveLength(1);
    expect(valueOf(text, 'shop_release_generation')).toBe(0);
    // Process metrics, prefixed, from every process.
    expect(valueOf(text, 'shop_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('# TYPE shop_nodejs_eventloop_lag_seconds gauge');
  });

  test('the shop port never serves the metrics; the metrics port serves nothing else', async () => {
    const base = shop?.base ?? '';
    const onShop = await fetch(`${base}/metrics`);
    expect(onShop.status).toBe(404);
    expect(await onShop.text()).not.toContain('shop_http_requests_total');
    expect((await fetch(`http://127.0.0.1:${String(metricsPort)}/`)).status).toBe(404);
    const post = await fetch(`http://127.0.0.1:${String(metricsPort)}/metrics`, {
      method: 'POST',
    });
    expect(post.status).toBe(405);
  });

  test('without METRICS_PORT no metrics listener is opened', async () => {
    // The port the first shop's metrics listen on, free again once it stops.
    await shop?.stop();
    shop = undefined;
    expect(await listens(metricsPort)).toBe(false);
    shop = await startShop({ METRICS_PORT: '' });
    expect((await fetch(`${shop.base}/`)).status).toBe(200);
    expect(await listens(metricsPort)).toBe(false);
    expect((await fetch(`${shop.base}/metrics`)).status).toBe(404);
  });
});

describe('the upstream client and the throttle count into the registry', () => {
  let upstream: Server;
  let upstreamUrl = '';
  let flaky = 0;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      if (req.url === '/ok') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      } else if (req.url === '/flaky' && flaky++ === 0) {
        res.writeHead(503);
        res.end();
      } else if (req.url === '/flaky') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      } else if (req.url === '/silent') {
        // Never answers: the call's timeout ends it.
      } else {
        res.writeHead(500);
        res.end();
      }
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const address = upstream.address();
    upstreamUrl = `http://127.0.0.1:${String(typeof address === 'object' && address ? address.port : 0)}`;
  });

  afterAll(async () => {
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  class CallError extends Error {
    readonly code: string;
    constructor(message: string, init: { code: string }) {
      super(message);
      this.code = init.code;
    }
  }

  const reviewsClient = () =>
    createUpstreamClient({
      service: 'Reviews',
      prefix: upstreamUrl,
      headers: {},
      timeout: 300,
      retry: { kind: 'wait', limit: 2, wait: () => 5, maxWait: 1_000 },
      error: CallError,
      httpError: (error, endpoint) =>
        new CallError(`${endpoint}: ${String(error.response.status)}`, { code: 'HTTP' }),
      secrets: [],
    });

  const read = async (series: string) => valueOf(await metricsRegistry().metrics(), series) ?? 0;

  test('outcomes, retries and time by service', async () => {
    const ok = 'shop_upstream_requests_total{service="reviews",outcome="ok"}';
    const failed = 'shop_upstream_requests_total{service="reviews",outcome="error"}';
    const timedOut = 'shop_upstream_requests_total{service="reviews",outcome="timeout"}';
    const retries = 'shop_upstream_retries_total{service="reviews"}';
    const calls = 'shop_upstream_request_duration_seconds_count{service="reviews"}';
    const before = await Promise.all([ok, failed, timedOut, retries, calls].map(read));
    const schema = z.object({ ok: z.boolean() });
    const client = reviewsClient();
    await expect(client.get('ok', schema)).resolves.toEqual({ ok: true });
    await expect(client.get('flaky', schema)).resolves.toEqual({ ok: true });
    await expect(client.post('broken', schema)).rejects.toThrow(CallError);
    await expect(client.post('silent', schema)).rejects.toMatchObject({ code: 'TIMEOUT' });
    const after = await Promise.all([ok, failed, timedOut, retries, calls].map(read));
    expect(after.map((value, index) => value - (before[index] ?? 0))).toEqual([2, 1, 1, 1, 4]);
  });

  test('a refused attempt counts against the rule that refused it', async () => {
    const throttle = createAccountThrottle({
      store: createMemoryStore(),
      secret: 's'.repeat(32),
    });
    const series = 'shop_throttle_refusals_total{rule="loginAccount"}';
    const before = await read(series);
    const attempt = () =>
      throttle.login({ email: 'marie@example.fr', address: '192.0.2.7', deviceCookie: undefined });
    // The free attempts, the one that starts the wait, then refused ones.
    let refused = 0;
    for (let i = 0; i < THROTTLE_RULES.loginAccount.free + 2; i++) {
      if (!(await attempt()).allowed) refused += 1;
    }
    expect(refused).toBeGreaterThan(0);
    expect((await read(series)) - before).toBe(refused);
  });
});
