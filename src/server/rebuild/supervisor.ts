/**
 * The supervisor: the cluster primary of `npm start` / `npm run serve`. It holds the listening
 * socket (node:cluster shares it with the workers, which accept connections themselves) and runs
 * `SERVER_WORKERS` server processes (`src/server/serve.ts` in worker mode), all serving one
 * release. Workers verify webhooks and send accepted events here. This module wires its parts,
 * which share one state object (`supervisor-state.ts`):
 *
 * - `worker-pool.ts`: the workers; one that dies is replaced.
 * - `swap.ts`: a complete build gets new workers; once they listen, the old ones drain and exit,
 *   so no request fails and each release's module graph goes away with its processes
 *   (re-importing a new SSR bundle in one process would keep every old one in memory).
 * - `build-or-publish.ts` (and `publish-batch.ts`): the rebuild scheduler's batches, published
 *   into the live release by the kept build or built in full into a new release directory
 *   (`builder.ts`, `releases.ts`); transient failures retried after a backoff; the warm-up and
 *   scheduled full builds.
 * - `release-pointers.ts`: `current.json` and `next.json`, following the copy that builds,
 *   pruning old releases.
 * - `status.ts`: `status.json` (a failed build, or a new release whose workers do not start,
 *   leaves the current release serving and says so there).
 *
 * Several copies, one build (`coordination`, with `REDIS_URL`): every copy's supervisor adds the
 * events its workers accept to Redis, and the one copy holding the build lease
 * (`coordination.ts`) builds or publishes for all of them, into the releases folder they share,
 * then points `current.json` at the result, which every other copy follows. Only the holder
 * prunes, keeping what any copy says it serves. Without Redis no copy builds (events wait here
 * until it answers).
 */
import cluster, { type Worker } from 'node:cluster';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { oneLine } from '../../shop/faults/failures.ts';
import { log as logger } from '../../shop/config/log.ts';
import { BuildOrPublish } from './build-or-publish.ts';
import type { KeptPublisher } from './builder.ts';
import { copyName, createCoordination } from './coordination.ts';
import { parseEventMessage } from './messages.ts';
import { ReleasePointers } from './release-pointers.ts';
import {
  copyStatusFile,
  createServingHeartbeat,
  isSharedRelease,
  linkProjectModules,
  STATUS_FILE,
  watchReleasePointer,
  type Release,
} from './releases.ts';
import type { RebuildEvent, RebuildScheduler } from './scheduler.ts';
import { StatusReport, type RebuildStatus } from './status.ts';
import { createSerially, type RebuildSettings, type SupervisorState } from './supervisor-state.ts';
import { Swap } from './swap.ts';
import { freePort } from '../free-port.ts';
import { startMetricsServer, watchRelease, WorkerMetrics } from '../metrics-endpoint.ts';
import { WorkerPool } from './worker-pool.ts';

export type { BuildRecord, RebuildStatus } from './status.ts';

export interface SupervisorOptions {
  /** The worker's script (`src/server/serve.ts`). */
  workerExec: string;
  /** The release served at start. */
  initial: Release;
  /** The kept build that made `initial` (`npm start`'s own build), to publish edits into it. */
  initialPublisher?: KeptPublisher;
  port: number;
  host: string;
  workers: number;
  releasesDir: string;
  /** Rebuilds on webhook events; null: none (the webhooks are off). */
  rebuild: RebuildSettings | null;
  /** Written with each release (`current.json`): the upstream it was built against. */
  target?: string;
  /**
   * The project's `node_modules`, which builds in the releases folder import from (default:
   * this project's).
   */
  nodeModules?: string;
  /** The metrics listener (`GET /metrics`, metrics-endpoint.ts); unset: none. */
  metrics?: { port: number; host: string };
  /** Longest drain of a retiring worker (ms, default 30 s). */
  drainLimitMs?: number;
  /** Longest wait for a new worker to listen (ms, default 60 s). */
  startLimitMs?: number;
  log?: (line: string) => void;
  logError?: (line: string) => void;
}

export interface Supervisor {
  url: string;
  port: number;
  current(): Release;
  status(): RebuildStatus;
  /** Records an event as if a worker had accepted it (tests). */
  notify(event: RebuildEvent): void;
  /** Resolves when no build is pending or running. */
  settled(): Promise<void>;
  /** A stop began (`src/server/shutdown.ts`): every worker's `/readyz` fails; all keep serving. */
  unready(): void;
  /**
   * Ends the rebuilds for a stop: a full build under way is given up (its release never made
   * current, its events not recorded as built), a publish under way finishes within `limitMs`
   * or is given up the same way, and the build lease is released (another copy takes over).
   */
  stopRebuilds(limitMs: number): Promise<void>;
  /**
   * Stops: the rebuilds as `stopRebuilds` (a publish given up at once when not called before),
   * then every worker drains within `drainLimitMs` (default 5 s) and exits.
   */
  close(drainLimitMs?: number): Promise<void>;
  /** Kills every worker at once (a second signal: stop now). */
  kill(): void;
}

export async function startSupervisor(options: SupervisorOptions): Promise<Supervisor> {
  if (!cluster.isPrimary) throw new Error('startSupervisor runs in the cluster primary only');
  const log =
    options.log ??
    ((line: string) => {
      logger.info(line);
    });
  const logError =
    options.logError ??
    ((line: string) => {
      logger.error(line);
    });
  const releasesDir = path.resolve(options.releasesDir);
  const port = options.port === 0 ? await freePort(options.host) : options.port;
  const shared = options.rebuild?.coordination ?? null;
  const name = shared === null ? null : copyName(os.hostname(), port);
  // Copies sharing the folder each say their own status.
  const statusFile =
    name === null ? path.join(releasesDir, STATUS_FILE) : copyStatusFile(releasesDir, name);
  const abort = new AbortController();
  const current: Release = { ...options.initial, dir: path.resolve(options.initial.dir) };
  // Several copies publish only into the release they all share.
  const keepInitial =
    options.rebuild?.publisher === true &&
    (shared === null || isSharedRelease(releasesDir, current));
  const state: SupervisorState = {
    current,
    previous: null,
    servingSince: Date.now(),
    publishes: 0,
    closing: false,
    building: null,
    kept:
      options.initialPublisher && keepInitial
        ? { releaseId: options.initial.id, publisher: options.initialPublisher }
        : null,
    coordination: null,
    heartbeat: null,
  };
  if (state.kept === null) options.initialPublisher?.stop();
  const serially = createSerially();
  const writeStatus = () => {
    status.write();
  };

  // The metrics of the workers, asked for when `/metrics` is read; the live release's own.
  const workerMetrics = new WorkerMetrics(() => pool.workers());
  watchRelease(() => ({ id: state.current.id, generation: state.publishes }));

  // Events accepted before the coordination starts (it starts once the first workers listen).
  const early: RebuildEvent[] = [];
  const onMessage = (message: unknown, worker: Worker) => {
    if (workerMetrics.receive(worker, message)) return;
    const parsed = parseEventMessage(message);
    if (parsed === null || scheduler === null || state.closing) return;
    const { event } = parsed;
    const what = `${event.source} ${oneLine(event.topic)} ${oneLine(event.id)}`;
    if (shared === null) {
      log(`[rebuild] ${what}: rebuild scheduled`);
      scheduler.notify(event);
      return;
    }
    log(`[rebuild] ${what}: rebuild scheduled (by the copy holding the build lease)`);
    if (state.coordination === null) early.push(event);
    else state.coordination.push(event);
  };

  const pool: WorkerPool = new WorkerPool({
    state,
    workerExec: options.workerExec,
    workers: options.workers,
    host: options.host,
    port,
    statusFile: options.rebuild === null ? null : statusFile,
    drainLimitMs: options.drainLimitMs ?? 30_000,
    startLimitMs: options.startLimitMs ?? 60_000,
    onMessage,
    onExit: writeStatus,
    onRetired: () => {
      void pointers.prune();
    },
    log,
    logError,
  });
  const swap = new Swap({ pool, state, workers: options.workers, log });
  const pointers = new ReleasePointers({
    state,
    releasesDir,
    rebuilds: options.rebuild !== null,
    pool,
    swap,
    serially,
    onChange: writeStatus,
    log,
    logError,
  });
  const status: StatusReport = new StatusReport({
    state,
    rebuilds: options.rebuild !== null,
    name,
    statusFile,
    scheduler: (): RebuildScheduler | null => scheduler,
    switchFailed: () => pointers.switchFailed(),
    servingWorkers: () => pool.serving(),
    logError,
  });
  // The durations of the last successful runs, for the expected end (kept across restarts).
  await status.restore();
  await pointers.readAtStart(shared !== null);
  // Before anything runs: a metrics port already taken stops the start with nothing to undo.
  const metricsServer =
    options.metrics === undefined
      ? null
      : await startMetricsServer({ ...options.metrics, workers: workerMetrics });
  if (metricsServer !== null) log(`[metrics] Prometheus metrics at ${metricsServer.url}`);

  if (options.rebuild !== null) {
    await linkProjectModules(
      releasesDir,
      options.nodeModules ?? path.resolve(import.meta.dirname, '../../../node_modules'),
    );
  }
  const rebuilder: BuildOrPublish | null =
    options.rebuild === null
      ? null
      : new BuildOrPublish({
          ...{ state, settings: options.rebuild, releasesDir, target: options.target },
          ...{ pool, swap, pointers, status, serially, signal: abort.signal, log, logError },
        });
  const scheduler: RebuildScheduler | null = rebuilder?.scheduler ?? null;

  if (options.rebuild !== null || isSharedRelease(releasesDir, current)) {
    state.heartbeat = createServingHeartbeat({
      releasesDir,
      copy: name ?? copyName(os.hostname(), port),
      inUse: () => pointers.releasesUsed(),
      logError,
    });
    await state.heartbeat.beat();
  }

  // The first workers: the server does not start without them.
  try {
    await pool.start();
  } catch (error) {
    state.closing = true;
    pool.kill();
    await state.heartbeat?.stop();
    throw new Error(
      `the server did not start on ${current.dir}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  state.servingSince = Date.now();
  status.write();

  let stopFollowing: (() => void) | null = null;
  if (shared !== null && name !== null && scheduler !== null) {
    const localScheduler = scheduler;
    await mkdir(releasesDir, { recursive: true });
    state.coordination = createCoordination({
      url: shared.url,
      name,
      onEvent: (event) => {
        localScheduler.notify(event);
      },
      onLease: (held) => {
        if (held) rebuilder?.warmUp();
        else {
          // Another copy builds and publishes now, with its own kept build.
          state.kept?.publisher.stop();
          state.kept = null;
        }
        status.write();
      },
      onChange: writeStatus,
      inUse: () => [...pointers.releasesUsed()],
      log,
      logError,
    });
    for (const event of early.splice(0)) state.coordination.push(event);
    stopFollowing = watchReleasePointer(releasesDir, pointers.requestFollow);
    status.write();
  } else {
    rebuilder?.warmUp();
  }
  const stopSchedule = rebuilder?.scheduleFullBuilds() ?? null;

  let rebuildsStopped: Promise<void> | null = null;
  let closed: Promise<void> | null = null;
  const stopRebuilds = (limitMs: number): Promise<void> => {
    rebuildsStopped ??= (async () => {
      state.closing = true;
      stopSchedule?.();
      stopFollowing?.();
      abort.abort(); // a full build under way stops now, and none starts
      // A publish under way may finish within the bound; past it, its kept build is stopped and
      // the publish fails (given up: the lease holder to come publishes its events again).
      const giveUp = setTimeout(() => {
        state.kept?.publisher.stop();
      }, limitMs);
      try {
        await scheduler?.stop();
      } finally {
        clearTimeout(giveUp);
      }
      state.kept?.publisher.stop();
      // The lease goes at once: another copy builds from now on.
      await state.coordination?.close();
    })();
    return rebuildsStopped;
  };

  return {
    url: `http://${options.host === '127.0.0.1' ? 'localhost' : options.host}:${port}`,
    port,
    current: () => state.current,
    status: () => status.status(),
    notify(event) {
      scheduler?.notify(event);
    },
    settled: () => scheduler?.settled() ?? Promise.resolve(),
    unready() {
      pool.unready();
    },
    stopRebuilds,
    async close(drainLimitMs) {
      if (closed !== null) return closed;
      closed = (async () => {
        // The workers drain while a publish under way finishes (a stop's bound) or stops.
        await Promise.all([stopRebuilds(0), pool.close(drainLimitMs)]);
        await metricsServer?.close();
        await state.heartbeat?.stop();
        await status.written();
      })();
      return closed;
    },
    kill() {
      pool.kill();
    },
  };
}
