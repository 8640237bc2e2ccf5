/**
 * The supervisor's metrics (the cluster primary, `rebuild/supervisor.ts`): its own, builds and
 * publishes (counts by kind and outcome, durations) and the live release (its id and count of
 * publishes), and `GET /metrics` in the Prometheus text format on a listener of its own,
 * `METRICS_PORT` on `METRICS_HOST` (127.0.0.1 by default), never on the shop's port. A read
 * asks every worker for its registry over IPC (`metrics:request`, answered by `metrics.ts`),
 * checks each reply (`messages.ts`) and serves the sum of them all with the supervisor's own
 * (prom-client's `AggregatorRegistry.aggregate`). A worker that does not answer within a
 * second (starting, or gone) is left out of that read.
 */
import type { Worker } from 'node:cluster';
import http from 'node:http';
import {
  AggregatorRegistry,
  Counter,
  Gauge,
  Histogram,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';
import { log } from '../shop/config/log.ts';
import { metricsRegistry, registerProcessMetrics, sharedMetric } from '../shop/config/metrics.ts';
import {
  parseMetricsReply,
  sendOrDrop,
  type MetricsRequestMessage,
  type WorkerMetric,
} from './rebuild/messages.ts';

/** A full build, or a publish of edits into the live release. */
export type BuildKind = 'build' | 'publish';
/** `full`: a publish the kept build handed to a full build. */
export type BuildOutcome = 'succeeded' | 'failed' | 'full';

/** Builds take seconds (a publish) to half an hour (a full build of 100,000 products). */
const BUILD_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600];

const builds = () =>
  sharedMetric(
    'shop_builds_total',
    (registry) =>
      new Counter({
        name: 'shop_builds_total',
        help: 'Full builds and publishes by kind (build, publish) and outcome (succeeded, failed, full)',
        labelNames: ['kind', 'outcome'] as const,
        registers: [registry],
      }),
  );

const buildDurations = () =>
  sharedMetric(
    'shop_build_duration_seconds',
    (registry) =>
      new Histogram({
        name: 'shop_build_duration_seconds',
        help: 'Time of a full build or a publish, whatever its outcome, in seconds',
        labelNames: ['kind'] as const,
        buckets: BUILD_BUCKETS,
        registers: [registry],
      }),
  );

/** Counts a build or publish that ended, its outcome and its time. */
export function recordBuild(kind: BuildKind, outcome: BuildOutcome, durationMs: number): void {
  builds().inc({ kind, outcome });
  buildDurations().observe({ kind }, durationMs / 1000);
}

/** The live release as the supervisor knows it (null: no supervisor in this process). */
let liveRelease: (() => { id: string; generation: number }) | null = null;

/**
 * The live release's metrics, read from `live` when the metrics are read: `shop_release_info`
 * (1 for the release served) and `shop_release_generation` (its count of publishes).
 */
export function watchRelease(live: () => { id: string; generation: number }): void {
  liveRelease = live;
  sharedMetric(
    'shop_release_info',
    (registry) =>
      new Gauge({
        name: 'shop_release_info',
        help: 'The release served: 1 for its id',
        labelNames: ['release'] as const,
        registers: [registry],
        collect() {
          this.reset();
          if (liveRelease !== null) this.set({ release: liveRelease().id }, 1);
        },
      }),
  );
  sharedMetric(
    'shop_release_generation',
    (registry) =>
      new Gauge({
        name: 'shop_release_generation',
        help: 'Publishes into the release served since it was built',
        registers: [registry],
        collect() {
          this.set(liveRelease?.().generation ?? 0);
        },
      }),
  );
  builds();
  buildDurations();
}

/** The workers' registries, asked for over IPC. */
export class WorkerMetrics {
  readonly #workers: () => readonly Worker[];
  readonly #timeoutMs: number;
  #next = 0;
  readonly #pending = new Map<
    number,
    { waiting: Set<Worker>; replies: WorkerMetric[][]; done: () => void }
  >();

  constructor(workers: () => readonly Worker[], timeoutMs = 1_000) {
    this.#workers = workers;
    this.#timeoutMs = timeoutMs;
  }

  /** A worker's message: true when it was a metrics reply (taken here), else false. */
  receive(worker: Worker, message: unknown): boolean {
    const reply = parseMetricsReply(message);
    if (reply === null) return false;
    const request = this.#pending.get(reply.id);
    // One reply per asked worker: a late, repeated or unasked one is dropped.
    if (request?.waiting.delete(worker) !== true) return true;
    request.replies.push(reply.metrics);
    if (request.waiting.size === 0) request.done();
    return true;
  }

  /** Every worker's metrics that came within the time limit. */
  async collect(): Promise<WorkerMetric[][]> {
    const id = this.#next++;
    const waiting = new Set(this.#workers().filter((worker) => worker.isConnected()));
    const replies: WorkerMetric[][] = [];
    if (waiting.size === 0) return replies;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.#pending.set(id, { waiting, replies, done: resolve });
      timer = setTimeout(resolve, this.#timeoutMs);
      const ask: MetricsRequestMessage = { type: 'metrics:request', id };
      for (const worker of [...waiting]) {
        sendOrDrop(worker, ask, () => {
          waiting.delete(worker);
          if (waiting.size === 0) resolve();
        });
      }
    });
    clearTimeout(timer);
    this.#pending.delete(id);
    return replies;
  }
}

/** The Prometheus text of the supervisor's metrics and its workers'. */
export async function allMetrics(workers: WorkerMetrics): Promise<string> {
  const own = await metricsRegistry().getMetricsAsJSON();
  const theirs = (await workers.collect()).map((metrics) =>
    metrics.map((metric) => ({
      ...metric,
      values: metric.values.filter((value) => value.value !== null),
    })),
  );
  // The workers' metrics are prom-client's JSON, checked (messages.ts): its own shape.
  const registries: unknown[] = [own, ...theirs];
  return AggregatorRegistry.aggregate(
    registries as MetricObjectWithValues<MetricValue<string>>[][],
  ).metrics();
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** Starts the metrics listener: `GET /metrics` (and HEAD) on `host`:`port`, 404 elsewhere. */
export async function startMetricsServer(options: {
  port: number;
  host: string;
  workers: WorkerMetrics;
}): Promise<MetricsServer> {
  registerProcessMetrics();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const headers = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
    if (path !== '/metrics') {
      res.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not Found\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, allow: 'GET, HEAD' });
      res.end();
      return;
    }
    allMetrics(options.workers).then(
      (text) => {
        res.writeHead(200, {
          ...headers,
          'content-type': AggregatorRegistry.PROMETHEUS_CONTENT_TYPE,
          'content-length': String(Buffer.byteLength(text)),
        });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        log.error({ err: error }, '[metrics] the metrics could not be read');
        res.writeHead(500, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
        res.end('Internal Server Error\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${String(port)}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
