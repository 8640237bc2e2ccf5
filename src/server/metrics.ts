/**
 * A server worker's metrics (prom-client, in the process's one registry,
 * `src/shop/config/metrics.ts`): requests and their time by route kind, counted once per reply
 * (`http-server.ts`), and the render cache's lookups (`render-cache.ts`). The supervisor asks
 * each worker for its registry over IPC (`metrics:request`) and serves the sum of them all
 * with its own on `METRICS_PORT` (`metrics-endpoint.ts`).
 *
 * The serving path pays no label object, hash or string per request: every series these
 * count is known in advance, kept in a typed array and turned into prom-client's values only
 * when the metrics are read.
 */
import http, { type IncomingMessage } from 'node:http';
import type { Metric } from 'prom-client';
import { metricsRegistry, registerProcessMetrics } from '../shop/config/metrics.ts';
import type { MetricsReplyMessage } from './rebuild/messages.ts';
import { sendOrDrop } from './rebuild/messages.ts';
import { ROUTE_KINDS, type RouteKind } from './route-kind.ts';
import { OTHER_KIND, ShopResponse } from './shop-response.ts';

type Labels = Readonly<Record<string, string>>;

/** One value of a metric as prom-client reads it (`registry.getMetricsAsJSON()`). */
interface SeriesValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/** A metric whose series are fixed in advance, read by the registry like prom-client's own. */
abstract class FixedMetric {
  readonly aggregator = 'sum';
  abstract readonly type: 'counter' | 'histogram';
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  constructor(name: string, help: string, labelNames: readonly string[]) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
  }
  protected abstract values(): SeriesValue[];
  abstract reset(): void;
  get() {
    const { name, help, type, aggregator } = this;
    return Promise.resolve({ name, help, type, aggregator, values: this.values() });
  }
  /** Registers it in the process's registry, or returns the one registered under its name. */
  register<T extends FixedMetric>(this: T): T {
    const registry = metricsRegistry();
    const found = registry.getSingleMetric(this.name) as unknown;
    if (found instanceof FixedMetric) return found as T;
    registry.registerMetric(this as unknown as Metric);
    return this;
  }
}

/** A counter over a fixed list of label sets, each counted by its index. */
class FixedCounter extends FixedMetric {
  readonly type = 'counter';
  readonly #series: readonly Labels[];
  readonly #counts: Float64Array;
  /** Series shown while still at zero (the others appear once counted). */
  readonly #always: (index: number) => boolean;
  constructor(
    name: string,
    help: string,
    series: readonly Labels[],
    always: (index: number) => boolean = () => true,
  ) {
    super(name, help, Object.keys(series[0] ?? {}));
    this.#series = series;
    this.#counts = new Float64Array(series.length);
    this.#always = always;
  }
  inc(index: number): void {
    this.#counts[index] = (this.#counts[index] ?? 0) + 1;
  }
  protected values(): SeriesValue[] {
    const values: SeriesValue[] = [];
    this.#series.forEach((labels, index) => {
      const value = this.#counts[index] ?? 0;
      if (value > 0 || this.#always(index)) values.push({ value, labels: { ...labels } });
    });
    return values;
  }
  reset(): void {
    this.#counts.fill(0);
  }
}

/** A histogram over a fixed list of label sets. */
class FixedHistogram extends FixedMetric {
  readonly type = 'histogram';
  readonly #series: readonly Labels[];
  readonly #bounds: readonly number[];
  /** Per series: one count per bound and one past the last (not cumulative), then the sum. */
  readonly #cells: Float64Array;
  constructor(name: string, help: string, series: readonly Labels[], bounds: readonly number[]) {
    super(name, help, Object.keys(series[0] ?? {}));
    this.#series = series;
    this.#bounds = bounds;
    this.#cells = new Float64Array(series.length * (bounds.length + 2));
  }
  observe(index: number, value: number): void {
    const bounds = this.#bounds;
    const row = index * (bounds.length + 2);
    let bucket = 0;
    while (bucket < bounds.length && value > (bounds[bucket] ?? Infinity)) bucket++;
    const cells = this.#cells;
    cells[row + bucket] = (cells[row + bucket] ?? 0) + 1;
    cells[row + bounds.length + 1] = (cells[row + bounds.length + 1] ?? 0) + value;
  }
  protected values(): SeriesValue[] {
    const values: SeriesValue[] = [];
    const bounds = this.#bounds;
    this.#series.forEach((labels, index) => {
      const row = index * (bounds.length + 2);
      let cumulative = 0;
      for (let bucket = 0; bucket <= bounds.length; bucket++) {
        cumulative += this.#cells[row + bucket] ?? 0;
        values.push({
          value: cumulative,
          // `le` first, as prom-client's own histograms write it.
          labels: { le: bucket < bounds.length ? (bounds[bucket] ?? 0) : '+Inf', ...labels },
          metricName: `${this.name}_bucket`,
        });
      }
      const sum = this.#cells[row + bounds.length + 1] ?? 0;
      values.push({ value: sum, labels: { ...labels }, metricName: `${this.name}_sum` });
      values.push({ value: cumulative, labels: { ...labels }, metricName: `${this.name}_count` });
    });
    return values;
  }
  reset(): void {
    this.#cells.fill(0);
  }
}

/** Methods counted by name; any other is `other`. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'other'] as const;
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
/** Replies of a page take a millisecond (a file) to seconds (a cold render). */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const KIND_INDEX = new Map<RouteKind, number>(ROUTE_KINDS.map((kind, index) => [kind, index]));
const METHOD_INDEX = new Map<string, number>(METHODS.map((method, index) => [method, index]));
const OTHER_METHOD = METHODS.indexOf('other');

const requests = new FixedCounter(
  'shop_http_requests_total',
  'Replies by route kind, method and status class',
  ROUTE_KINDS.flatMap((kind) =>
    METHODS.flatMap((method) => STATUS_CLASSES.map((status) => ({ kind, method, status }))),
  ),
  () => false,
).register();

const durations = new FixedHistogram(
  'shop_http_request_duration_seconds',
  'Time from the request to the end of its reply, by route kind, in seconds',
  ROUTE_KINDS.map((kind) => ({ kind })),
  REQUEST_BUCKETS,
).register();

/** Render cache lookups: what was found, and the last layer asked (memory, then Redis). */
const LOOKUPS = [
  { result: 'hit', layer: 'memory' },
  { result: 'hit', layer: 'redis' },
  { result: 'miss', layer: 'memory' },
  { result: 'miss', layer: 'redis' },
] as const;

const lookups = new FixedCounter(
  'shop_render_cache_lookups_total',
  'Render cache lookups by result (hit, miss) and the last layer asked (memory, redis)',
  LOOKUPS,
).register();

/** Counts a render cache lookup: found or not, and whether Redis was asked. */
export function countCacheLookup(hit: boolean, askedRedis: boolean): void {
  lookups.inc((hit ? 0 : 2) + (askedRedis ? 1 : 0));
}

/** Says what kind of route a request is (its metrics' `kind`); the last word counts. */
export function markRoute(res: http.ServerResponse, kind: RouteKind): void {
  if (res instanceof ShopResponse) res.routeKind = KIND_INDEX.get(kind) ?? OTHER_KIND;
}

/**
 * Counts a sent reply: `this` is the reply (called by the one `finish` listener all replies
 * share, `shop-response.ts` `replySent`).
 */
export function countReply(this: ShopResponse): void {
  const kind = this.routeKind;
  const method = METHOD_INDEX.get((this.req as IncomingMessage | undefined)?.method ?? '');
  const status = Math.min(4, Math.max(0, Math.floor(this.statusCode / 100) - 1));
  requests.inc((kind * METHODS.length + (method ?? OTHER_METHOD)) * STATUS_CLASSES.length + status);
  durations.observe(kind, (performance.now() - this.startedAt) / 1000);
}

/**
 * The worker's side of the metrics: its registry with the process metrics, and the answer to
 * the supervisor's `metrics:request` (the registry as JSON, `metrics:reply`).
 */
export function registerWorkerMetrics(): void {
  registerProcessMetrics();
}

/** Sends this process's metrics to the supervisor (the reply to `metrics:request` `id`). */
export async function sendMetrics(id: number): Promise<void> {
  const metrics = await metricsRegistry().getMetricsAsJSON();
  const reply: MetricsReplyMessage = { type: 'metrics:reply', id, metrics };
  sendOrDrop(process, reply);
}
