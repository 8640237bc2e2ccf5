/**
 * The metrics of the production build (`src/server/metrics-endpoint.ts`): the supervised
 * server (`src/server/serve.ts`, two workers) of the build, on the sandbox, with
 * `METRICS_PORT`. The upstream calls and throttle refusals are counted inside the release's
 * SSR bundle (`dist/server/entry.mjs`, whose connectors and throttle hold their own copy of
 * `src/shop/config/metrics.ts`); they reach `/metrics` only when the bundle and the server
 * share one registry, which this checks, beside the requests by kind and the render cache.
 * Run by `npm test` after the build (vitest project `scale`).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensureUpstream, type Upstream } from '../../scripts/lib/upstream.ts';
import { freePort } from '../../src/server/free-port.ts';
import { startShopChild, type ShopChild } from '../integration/helpers/rebuild.ts';
import { DIST_DIR, requireBuild, SANDBOX_PORT } from './helpers/suite.ts';

let work = '';
let upstream: Upstream | undefined;
let shop: ShopChild | undefined;
let metricsPort = 0;

/** The value of one series (`name{labels}`) in a Prometheus text (0 when absent). */
function valueOf(text: string, series: string): number {
  const line = text.split('\n').find((row) => row.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

beforeAll(async () => {
  requireBuild();
  work = mkdtempSync(path.join(tmpdir(), 'shop-metrics-'));
  upstream = await ensureUpstream({ port: SANDBOX_PORT, dataDir: path.join(work, 'sandbox') });
  metricsPort = await freePort();
  shop = await startShopChild(
    ['src/server/serve.ts'],
    {
      ...process.env,
      ...upstream.env,
      DIST_DIR,
      STATE_DIR: path.join(work, 'state'),
      RELEASES_DIR: path.join(work, 'releases'),
      REDIS_URL: '',
      CONTENTFUL_WEBHOOK_SECRET: '',
      BIGCOMMERCE_WEBHOOK_SECRET: '',
      SERVER_WORKERS: '2',
      METRICS_PORT: String(metricsPort),
    },
    await freePort(),
    '[serve] shop at',
  );
});

afterAll(async () => {
  await shop?.stop();
  await upstream?.close();
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

test('requests, the render cache, upstream calls and refusals of the build reach /metrics', async () => {
  const base = shop?.base ?? '';
  const category = readdirSync(path.join(DIST_DIR, 'client', 'c'))
    .find((file) => file.endsWith('.html'))
    ?.slice(0, -'.html'.length);
  expect(category).toBeDefined();
  const api = (method: string, args: unknown[]) =>
    fetch(`${base}/api/bigcommerce/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify(args),
    });
  for (let round = 0; round < 2; round++) {
    expect((await fetch(`${base}/`)).status).toBe(200);
    expect((await fetch(`${base}/c/${category ?? ''}?sort=3`)).status).toBe(200);
    expect((await api('getCategoryTree', [])).status).toBe(200);
  }
  // Failed logins of one account until the throttle refuses one (429).
  const login = [{ email: 'marie.martin@example.fr', password: 'pas-le-bon-mot-de-passe' }];
  let refused = 0;
  for (let attempt = 0; attempt < 8 && refused === 0; attempt++) {
    const reply = await api('loginCustomer', login);
    await reply.text();
    if (reply.status === 429) refused += 1;
  }
  expect(refused).toBe(1);

  const response = await fetch(`http://127.0.0.1:${String(metricsPort)}/metrics`);
  expect(response.status).toBe(200);
  const text = await response.text();
  expect(
    valueOf(text, 'shop_http_requests_total{kind="page",method="GET",status="2xx"}') +
      valueOf(text, 'shop_http_requests_total{kind="static",method="GET",status="2xx"}'),
  ).toBeGreaterThanOrEqual(2);
  expect(
    valueOf(text, 'shop_http_requests_total{kind="listing_view",method="GET",status="2xx"}'),
  ).toBe(2);
  expect(
    valueOf(text, 'shop_http_requests_total{kind="api",method="POST",status="2xx"}'),
  ).toBeGreaterThanOrEqual(2);
  expect(
    valueOf(text, 'shop_render_cache_lookups_total{result="miss",layer="memory"}') +
      valueOf(text, 'shop_render_cache_lookups_total{result="hit",layer="memory"}'),
  ).toBeGreaterThanOrEqual(2);
  // Counted inside the SSR bundle: the connectors' calls and the throttle's refusal.
  expect(
    valueOf(text, 'shop_upstream_requests_total{service="bigcommerce",outcome="ok"}'),
  ).toBeGreaterThanOrEqual(1);
  expect(
    valueOf(text, 'shop_upstream_request_duration_seconds_count{service="bigcommerce"}'),
  ).toBeGreaterThanOrEqual(1);
  expect(valueOf(text, 'shop_throttle_refusals_total{rule="loginAccount"}')).toBe(1);
  expect(valueOf(text, 'shop_release_generation')).toBe(0);
  expect(text).toMatch(/^shop_release_info\{release="[^"]+"\} 1$/m);
});
