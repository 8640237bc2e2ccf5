/**
 * The shop's Prometheus metrics (prom-client): one registry per process, and the metrics the
 * shop's server side counts itself, upstream calls (`connectors/http/upstream-client.ts`) and
 * throttle refusals (`throttle/throttle.ts`). The storefront server adds its own to the same
 * registry (`src/server/metrics.ts`) and its supervisor serves them all on `METRICS_PORT`
 * (`src/server/metrics-endpoint.ts`, `docs/operations.md`).
 *
 * One registry, whoever loads this module: the Node server imports it from `src/`, and the
 * Astro server bundle (`dist/server/entry.mjs`) holds a copy of it, so the registry and each
 * metric live on `globalThis` under a registered symbol, made by the first copy loaded and
 * found by the others (two registries would leave the bundle's counts unserved).
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const REGISTRY_KEY = Symbol.for('literie.shop.metrics-registry');

/** The process's metrics registry (one per process, whichever copy of this module asks). */
export function metricsRegistry(): Registry {
  const holder = globalThis as unknown as Record<symbol, Registry | undefined>;
  let registry = holder[REGISTRY_KEY];
  if (registry === undefined) {
    registry = new Registry();
    holder[REGISTRY_KEY] = registry;
  }
  return registry;
}

/** The metric of the registry named `name`, made by `make` when none is registered yet. */
export function sharedMetric<T>(name: string, make: (registry: Registry) => T): T {
  const registry = metricsRegistry();
  return (registry.getSingleMetric(name) as T | undefined) ?? make(registry);
}

/** Every metric name starts so (and the process metrics' too). */
export const METRIC_PREFIX = 'shop_';

/** The upstream services, as the `service` label says them. */
export const UPSTREAM_SERVICES = ['bigcommerce', 'contentful', 'brevo', 'reviews'] as const;
export type UpstreamService = (typeof UPSTREAM_SERVICES)[number];

/** How an upstream call ended: a usable reply, a failure, or its time spent. */
export type UpstreamOutcome = 'ok' | 'error' | 'timeout';

/** The `service` label of a connector's name (`BigCommerce` → `bigcommerce`), or null. */
export function upstreamServiceOf(name: string): UpstreamService | null {
  const service = name.toLowerCase();
  return (UPSTREAM_SERVICES as readonly string[]).includes(service)
    ? (service as UpstreamService)
    : null;
}

const UPSTREAM_REQUESTS = 'shop_upstream_requests_total';
const UPSTREAM_DURATION = 'shop_upstream_request_duration_seconds';
const UPSTREAM_RETRIES = 'shop_upstream_retries_total';
const THROTTLE_REFUSALS = 'shop_throttle_refusals_total';

/** Upstream calls take milliseconds to seconds (a build's catalogue pages, a slow service). */
const UPSTREAM_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const upstreamRequests = () =>
  sharedMetric(
    UPSTREAM_REQUESTS,
    (registry) =>
      new Counter({
        name: UPSTREAM_REQUESTS,
        help: 'Upstream calls by service and outcome (ok, error, timeout), retries included in one call',
        labelNames: ['service', 'outcome'] as const,
        registers: [registry],
      }),
  );

const upstreamDuration = () =>
  sharedMetric(
    UPSTREAM_DURATION,
    (registry) =>
      new Histogram({
        name: UPSTREAM_DURATION,
        help: 'Time of an upstream call, retries and their waits included, in seconds',
        labelNames: ['service'] as const,
        buckets: UPSTREAM_BUCKETS,
        registers: [registry],
      }),
  );

const upstreamRetries = () =>
  sharedMetric(
    UPSTREAM_RETRIES,
    (registry) =>
      new Counter({
        name: UPSTREAM_RETRIES,
        help: 'Upstream attempts made again after a failed one, by service',
        labelNames: ['service'] as const,
        registers: [registry],
      }),
  );

const throttleRefusals = () =>
  sharedMetric(
    THROTTLE_REFUSALS,
    (registry) =>
      new Counter({
        name: THROTTLE_REFUSALS,
        help: 'Attempts the account throttle refused (asked to wait), by rule',
        labelNames: ['rule'] as const,
        registers: [registry],
      }),
  );

/** Counts one upstream call, its outcome and its time (seconds, retries included). */
export function recordUpstreamCall(
  service: UpstreamService,
  outcome: UpstreamOutcome,
  seconds: number,
): void {
  upstreamRequests().inc({ service, outcome });
  upstreamDuration().observe({ service }, seconds);
}

/** Counts one more attempt of an upstream call after a failed one. */
export function recordUpstreamRetry(service: UpstreamService): void {
  upstreamRetries().inc({ service });
}

/** Counts one attempt the throttle refused, by the name of the rule that refused it. */
export function recordThrottleRefusal(rule: string): void {
  throttleRefusals().inc({ rule });
}

/**
 * The shop's own metrics, registered at once (at zero), so a dashboard finds every name
 * before the first call, and prom-client's process metrics (CPU, memory, event loop lag,
 * `shop_` prefixed). Called once by each server process (the worker, the supervisor).
 */
export function registerProcessMetrics(): Registry {
  const registry = metricsRegistry();
  upstreamRequests();
  upstreamDuration();
  upstreamRetries();
  throttleRefusals();
  if (registry.getSingleMetric(`${METRIC_PREFIX}process_cpu_seconds_total`) === undefined) {
    collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
  }
  return registry;
}
