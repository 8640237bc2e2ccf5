/**
 * The messages between the supervisor (cluster primary, `supervisor.ts`) and its server
 * workers (`src/server/serve.ts` in worker mode), and the environment a worker starts with.
 * Workers are the supervisor's own processes, but their messages are still parsed: a worker
 * serves the internet, so what it says is checked like any other input.
 */
import * as z from 'zod';
import type { RebuildEvent } from './scheduler.ts';

/** Environment variables the supervisor gives each worker. */
export const WORKER_ENV = {
  /** Set to '1' in a worker. */
  role: 'SERVE_WORKER',
  /** The release (build directory) it serves. */
  distDir: 'SERVE_DIST_DIR',
  /** JSON array of earlier releases' `client/` dirs whose `/_astro/` files it also serves. */
  assetDirs: 'SERVE_ASSET_DIRS',
  /** The status file of `GET /webhooks/status` (unset: no rebuilds). */
  statusFile: 'SERVE_STATUS_FILE',
  /** How many publishes the release has had (the render cache's generation). */
  generation: 'SERVE_GENERATION',
  /**
   * Set to '1': started ahead (a release another copy is about to point to). It loads
   * everything, says `serve:standby`, and listens only once told `serve:listen`.
   */
  standby: 'SERVE_STANDBY',
} as const;

/** Worker → supervisor: a worker started ahead has loaded its release and waits to listen. */
export interface StandbyMessage {
  type: 'serve:standby';
}

/** Supervisor → worker started ahead: its release is live, take connections. */
export interface ListenMessage {
  type: 'serve:listen';
}

export function isStandbyMessage(message: unknown): boolean {
  return z.object({ type: z.literal('serve:standby') }).safeParse(message).success;
}

export function isListenMessage(message: unknown): boolean {
  return z.object({ type: z.literal('serve:listen') }).safeParse(message).success;
}

/** Worker → supervisor: an accepted webhook notification. */
export interface EventMessage {
  type: 'rebuild:event';
  event: RebuildEvent;
}

/**
 * Supervisor → worker: stop taking connections and exit once the open ones are done (at most
 * `limitMs`), serving the new release's `/_astro/` files (`assetDirs`) meanwhile, so a page of
 * the new release loaded on another connection finds its assets here too.
 */
export interface DrainMessage {
  type: 'serve:drain';
  assetDirs: string[];
  limitMs: number;
  /** Shutting down: idle kept-alive connections are closed at once, not at their timeout. */
  closeIdle: boolean;
}

/**
 * Supervisor → worker: a stop began (`src/server/shutdown.ts`): `/readyz` answers 503 from now
 * on while the worker keeps serving, until it is told to drain.
 */
export interface UnreadyMessage {
  type: 'serve:unready';
}

export function isUnreadyMessage(message: unknown): boolean {
  return z.object({ type: z.literal('serve:unready') }).safeParse(message).success;
}

/**
 * Supervisor → worker: a publish rewrote pages of the release it serves; forget rendered
 * replies (listing views, search results, catalogue reads) from before it.
 */
export interface PurgeMessage {
  type: 'render-cache:purge';
  /** The release's count of publishes. */
  generation: number;
}

const purgeMessageSchema = z.object({
  type: z.literal('render-cache:purge'),
  generation: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

export function parsePurgeMessage(message: unknown): PurgeMessage | null {
  const parsed = purgeMessageSchema.safeParse(message);
  return parsed.success ? parsed.data : null;
}

const eventMessageSchema = z.object({
  type: z.literal('rebuild:event'),
  event: z.object({
    source: z.enum(['contentful', 'bigcommerce']),
    topic: z.string().max(100),
    id: z.string().max(100),
    receivedAt: z.number(),
  }),
});

const drainMessageSchema = z.object({
  type: z.literal('serve:drain'),
  assetDirs: z.array(z.string().max(4096)).max(10),
  limitMs: z.number().int().min(0).max(600_000),
  closeIdle: z.boolean(),
});

export function parseEventMessage(message: unknown): EventMessage | null {
  const parsed = eventMessageSchema.safeParse(message);
  return parsed.success ? parsed.data : null;
}

export function parseDrainMessage(message: unknown): DrainMessage | null {
  const parsed = drainMessageSchema.safeParse(message);
  return parsed.success ? parsed.data : null;
}

/** Supervisor → worker: send your metrics (someone reads `/metrics` on `METRICS_PORT`). */
export interface MetricsRequestMessage {
  type: 'metrics:request';
  id: number;
}

/** Worker → supervisor: its metrics registry, as prom-client's `getMetricsAsJSON()` says it. */
export interface MetricsReplyMessage {
  type: 'metrics:reply';
  id: number;
  metrics: readonly unknown[];
}

const requestIdSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

const metricsRequestSchema = z.object({ type: z.literal('metrics:request'), id: requestIdSchema });

export function parseMetricsRequest(message: unknown): MetricsRequestMessage | null {
  const parsed = metricsRequestSchema.safeParse(message);
  return parsed.success ? parsed.data : null;
}

/** Names as Prometheus takes them, every metric of the shop under `shop_`. */
const METRIC_NAME = /^shop_[a-zA-Z0-9_]{1,200}$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,100}$/;

/**
 * One metric of a worker's registry. A value may be NaN (a gauge with no sample yet), which
 * JSON sends as `null` (left out by the supervisor).
 */
const workerMetricSchema = z.object({
  name: z.string().regex(METRIC_NAME),
  help: z.string().max(1000),
  type: z.enum(['counter', 'gauge', 'histogram', 'summary']),
  aggregator: z.enum(['omit', 'sum', 'first', 'min', 'max', 'average']),
  values: z
    .array(
      z.object({
        value: z.union([z.number(), z.nan()]).nullable(),
        labels: z
          .record(z.string().regex(LABEL_NAME), z.union([z.string().max(500), z.number()]))
          .refine((labels) => Object.keys(labels).length <= 10, 'at most 10 labels'),
        metricName: z.string().regex(METRIC_NAME).optional(),
      }),
    )
    .max(20_000),
});

const metricsReplySchema = z.object({
  type: z.literal('metrics:reply'),
  id: requestIdSchema,
  metrics: z.array(workerMetricSchema).max(1000),
});

export type WorkerMetric = z.output<typeof workerMetricSchema>;

export function parseMetricsReply(
  message: unknown,
): { id: number; metrics: WorkerMetric[] } | null {
  const parsed = metricsReplySchema.safeParse(message);
  return parsed.success ? parsed.data : null;
}

/** One end of an IPC channel: a child process, a cluster worker, or this process's parent. */
interface IpcEnd {
  send?: (message: never, callback: (error: Error | null) => void) => boolean;
}

/**
 * Sends over IPC to a process that may be gone. Node reports a send on a closed channel
 * (`EPIPE`, `ERR_IPC_CHANNEL_CLOSED`) later, as an `error` event that would end the sender
 * when nobody listens; with a callback it comes here instead, and the message is dropped: the
 * other end's exit is handled where it is watched. False when it was not sent.
 */
export function sendOrDrop(end: IpcEnd, message: unknown, onDropped?: (error: Error) => void) {
  if (end.send === undefined) return false;
  try {
    return end.send(message as never, (error) => {
      if (error !== null) onDropped?.(error);
    });
  } catch (error) {
    onDropped?.(error instanceof Error ? error : new Error(String(error)));
    return false;
  }
}
