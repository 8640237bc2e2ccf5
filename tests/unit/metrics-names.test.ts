/**
 * The metrics' names, types and label sets (a dashboard and its alerts rely on them): the
 * worker's (`src/server/metrics.ts`), the shop's (`src/shop/config/metrics.ts`) and the
 * supervisor's (`src/server/metrics-endpoint.ts`), in the process's one registry; and the check
 * the supervisor makes of a worker's reply (`parseMetricsReply`), which a real registry passes.
 */
import { describe, expect, test } from 'vitest';
import { watchRelease } from '../../src/server/metrics-endpoint.ts';
import { countCacheLookup } from '../../src/server/metrics.ts';
import { parseMetricsReply } from '../../src/server/rebuild/messages.ts';
import {
  metricsRegistry,
  registerProcessMetrics,
  sharedMetric,
} from '../../src/shop/config/metrics.ts';

const PINNED: Record<string, { type: string; labels: string[] }> = {
  shop_http_requests_total: { type: 'counter', labels: ['kind', 'method', 'status'] },
  shop_http_request_duration_seconds: { type: 'histogram', labels: ['kind'] },
  shop_render_cache_lookups_total: { type: 'counter', labels: ['result', 'layer'] },
  shop_upstream_requests_total: { type: 'counter', labels: ['service', 'outcome'] },
  shop_upstream_request_duration_seconds: { type: 'histogram', labels: ['service'] },
  shop_upstream_retries_total: { type: 'counter', labels: ['service'] },
  shop_throttle_refusals_total: { type: 'counter', labels: ['rule'] },
  shop_builds_total: { type: 'counter', labels: ['kind', 'outcome'] },
  shop_build_duration_seconds: { type: 'histogram', labels: ['kind'] },
  shop_release_info: { type: 'gauge', labels: ['release'] },
  shop_release_generation: { type: 'gauge', labels: [] },
};

registerProcessMetrics();
watchRelease(() => ({ id: 'r20261128-120000-abcd', generation: 3 }));

describe('the metrics a dashboard relies on', () => {
  test('names, types and label names', () => {
    const registry = metricsRegistry();
    for (const [name, { type, labels }] of Object.entries(PINNED)) {
      const metric = registry.getSingleMetric(name) as
        { type?: string; labelNames?: readonly string[] } | undefined;
      expect(metric, name).toBeDefined();
      expect(metric?.type, name).toBe(type);
      expect([...(metric?.labelNames ?? [])], name).toEqual(labels);
    }
  });

  test('every metric of the registry is the shop’s, process metrics included', async () => {
    const names = (await metricsRegistry().getMetricsAsJSON()).map((metric) => metric.name);
    for (const name of names) expect(name).toMatch(/^shop_/);
    expect(names).toContain('shop_process_cpu_seconds_total');
    expect(names).toContain('shop_nodejs_eventloop_lag_seconds');
  });

  test('the live release and the render cache as the text format says them', async () => {
    const text = await metricsRegistry().metrics();
    expect(text).toContain('shop_release_info{release="r20261128-120000-abcd"} 1\n');
    expect(text).toContain('shop_release_generation 3\n');
    const series = 'shop_render_cache_lookups_total{result="hit",layer="redis"}';
    const before = Number(
      new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)$`, 'm').exec(text)?.[1],
    );
    countCacheLookup(true, true);
    expect(await metricsRegistry().metrics()).toContain(`${series} ${String(before + 1)}\n`);
  });

  test('one metric per name, whichever copy of the module registers it', () => {
    const first = sharedMetric('shop_upstream_retries_total', () => {
      throw new Error('made again');
    });
    expect(first).toBe(metricsRegistry().getSingleMetric('shop_upstream_retries_total'));
  });
});

describe("the supervisor's check of a worker's metrics", () => {
  test("a worker's registry passes", async () => {
    const metrics = await metricsRegistry().getMetricsAsJSON();
    const parsed = parseMetricsReply({ type: 'metrics:reply', id: 7, metrics });
    expect(parsed?.id).toBe(7);
    expect(parsed?.metrics.map((metric) => metric.name)).toEqual(
      metrics.map((metric) => metric.name),
    );
  });

  test('a name outside the shop, a bad label name or a bad id is refused', () => {
    const metric = {
      name: 'shop_x_total',
      help: 'x',
      type: 'counter',
      aggregator: 'sum',
      values: [{ value: 1, labels: { kind: 'page' } }],
    };
    const reply = (metrics: unknown[], id: unknown = 1) =>
      parseMetricsReply({ type: 'metrics:reply', id, metrics });
    expect(reply([metric])).not.toBeNull();
    expect(reply([{ ...metric, name: 'other_total' }])).toBeNull();
    expect(reply([{ ...metric, values: [{ value: 1, labels: { 'bad label': 'x' } }] }])).toBeNull();
    expect(reply([{ ...metric, aggregator: 'eval' }])).toBeNull();
    expect(reply([metric], -1)).toBeNull();
  });
});
