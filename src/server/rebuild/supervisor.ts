/**
 * The supervisor: the cluster primary of `npm start` / `npm run serve`. It holds the listening
 * socket (node:cluster shares it with the workers, which accept connections themselves) and runs
 * `SERVER_WORKERS` server processes (`src/server/serve.ts` in worker mode), all serving one
 * release. Workers verify webhooks and send accepted events here, to the rebuild scheduler
 * (`scheduler.ts`); each build goes into a new directory of the releases folder
 * (`builder.ts`, `releases.ts`). When a build is complete, new workers start on it; once they
 * listen, the old ones are told to drain: they stop taking connections (the new workers take
 * them from the shared socket), finish what they serve, answer `Connection: close` on kept-alive
 * connections, then exit. So no request fails during a swap, and each release's module graph
 * goes away with its processes (re-importing a new SSR bundle in one process would keep every
 * old one in memory). A failed build, or a new release whose workers do not start, leaves the
 * current release serving, logs one line and says so in `status.json`. A worker that dies is
 * replaced.
 *
 * Publishing without a full build: with `publisher` set, each full build stays alive once done
 * (builder.ts). A batch of edits (products, categories, brands, content entries) then goes to it first:
 * it re-renders the pages the edits touch into the live release, and the workers forget their
 * rendered listing views and search results (`render-cache:purge`). When it answers that only a
 * full build is right, or fails, or is gone, or does not answer within its deadline
 * (`publishTimeoutMs`, plus 2 s an edit: it is then stopped), the batch gets a full build as
 * before. A release
 * served without a kept build (a restart on an existing build) gets one from a warm-up full build
 * right after start; `fullBuildEveryMs` also runs a full build when the served one is older.
 *
 * Retries: a publish that failed while reading its edits on a transient cause (an upstream 5xx,
 * a timeout, a lost connection: failure.ts) keeps the kept build (its data is as it was), and a
 * full build that failed on one keeps the kept build and the release served; either way the
 * scheduler builds the events again after a backoff (5 s doubling, at most 5 min), with those
 * that came meanwhile, until it succeeds. The status says `retrying`, when, after how many
 * attempts and why (the failure's own message, secrets removed).
 *
 * Several copies, one build (`coordination`, with `REDIS_URL`): every copy's supervisor adds the
 * events its workers accept to Redis, and the one copy holding the build lease
 * (`coordination.ts`) builds or publishes for all of them, into the releases folder they share,
 * then points `current.json` at the result. Every copy watches that pointer
 * (`watchReleasePointer`): a new release gets its workers swapped in as above, a new publish
 * count has them drop their cached renders. Only the holder prunes, keeping what any copy says
 * it serves. Without Redis no copy builds (events wait here until it answers).
 */
import cluster, { type Worker } from 'node:cluster';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { oneLine } from '../../shop/faults/failures.ts';
import { runBuild, type KeptPublisher } from './builder.ts';
import { freePort } from '../free-port.ts';
import type { Edit } from './publish-edits.ts';
import { copyName, createCoordination, type Coordination } from './coordination.ts';
import { parsePublisherReply, publishableEdits } from './publish-edits.ts';
import {
  isStandbyMessage,
  parseEventMessage,
  sendOrDrop,
  WORKER_ENV,
  type DrainMessage,
  type ListenMessage,
} from './messages.ts';
import {
  copyStatusFile,
  createServingHeartbeat,
  isSharedRelease,
  linkProjectModules,
  logFileOf,
  missingBuildFile,
  newReleaseId,
  pruneReleases,
  CURRENT_FILE,
  NEXT_FILE,
  readReleasePointer,
  STATUS_FILE,
  watchReleasePointer,
  writeCurrentRelease,
  writeJsonAtomic,
  writeNextRelease,
  type Release,
  type ReleasePointer,
  type ServingHeartbeat,
} from './releases.ts';
import {
  createRebuildScheduler,
  type BuildOutcome,
  type RebuildBatch,
  type RebuildEvent,
  type RebuildScheduler,
  type RetrySettings,
} from './scheduler.ts';
import { log as logger } from '../../shop/config/log.ts';

export interface RebuildSettings {
  debounceMs: number;
  timeoutMs: number;
  /** `[node, scripts/build.ts, '--out-dir']` (the directory is appended) or a shell line. */
  command: readonly string[] | { shell: string };
  /** The build's environment (the server's upstream). */
  env: NodeJS.ProcessEnv;
  /** Keep each full build alive to publish edits without a full build. */
  publisher?: boolean;
  /** A full build runs when the served one is older than this (ms; 0 or unset: never). */
  fullBuildEveryMs?: number;
  /**
   * How long the kept build may take to answer a publish (ms, plus 2 s an edit; default 90 s),
   * after which it is stopped and the edits get a full build.
   */
  publishTimeoutMs?: number;
  /** Backoff of the retries of a transient failure (default: 5 s doubling, at most 5 min). */
  retry?: RetrySettings;
  /**
   * Several copies sharing `releasesDir` build once through Redis at `url` (`REDIS_URL`):
   * `coordination.ts`. Each copy is named by this machine's name and its port.
   */
  coordination?: { url: string };
}

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
  /** Longest drain of a retiring worker (ms, default 30 s). */
  drainLimitMs?: number;
  /** Longest wait for a new worker to listen (ms, default 60 s). */
  startLimitMs?: number;
  log?: (line: string) => void;
  logError?: (line: string) => void;
}

export interface BuildRecord {
  id: string;
  startedAt: string;
  finishedAt?: string;
  durationMs?: number;
  result: 'running' | 'succeeded' | 'failed';
  error?: string;
  /** A full build, or a publish of the edits into the live release. */
  kind?: 'build' | 'publish';
  /** A publish: the pages it rendered again and removed. */
  pages?: { written: number; removed: number };
  /** Events the build covers. */
  events: number;
  log: string;
}

/** Several copies (`RebuildSettings.coordination`): which one builds. */
export interface CopiesStatus {
  /** This copy. */
  name: string;
  /** `builder`: it holds the build lease; `follower`: it serves what the builder publishes. */
  role: 'builder' | 'follower';
  /** The copy holding the lease, as last seen (null: none known). */
  builder: string | null;
  redis: 'reachable' | 'unreachable';
  /** The last release published by another copy that this one could not switch to. */
  switchFailed?: { id: string; error: string; at: string };
}

/** A failed build or publish waiting to be tried again (`RebuildStatus.retry`). */
export interface RetryStatus {
  /** Failed attempts in a row so far. */
  attempts: number;
  /** When the next one starts. */
  at: string;
  /** Why the last one failed. */
  cause: string;
}

/** What `status.json` and `GET /webhooks/status` say. */
export interface RebuildStatus {
  /** `retrying`: the last build or publish failed on a transient cause, tried again at `retry.at`. */
  state: 'idle' | 'waiting' | 'building' | 'retrying' | 'failed';
  rebuilds: boolean;
  /** `generation`: the publishes into the release so far. */
  current: { id: string; builtAt: string; servingSince: string; generation: number };
  /** With several copies sharing the build (null: this copy builds alone). */
  copies: CopiesStatus | null;
  lastBuild: BuildRecord | null;
  lastSuccess: { id: string; finishedAt: string } | null;
  /** A failed build or publish waiting to be tried again (null: none). */
  retry: RetryStatus | null;
  queuedEvents: number;
  lastEvent: { source: string; topic: string; id: string; at: string } | null;
  builds: number;
  workers: number;
  updatedAt: string;
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
  close(): Promise<void>;
}

interface WorkerState {
  release: Release;
  phase: 'starting' | 'serving' | 'retiring';
  /**
   * Started ahead (`WORKER_ENV.standby`): `loading`, then `waiting` once it says so, until told
   * to listen (`released`).
   */
  standby?: 'loading' | 'waiting' | 'released';
}

/** A worker just forked, and its start: resolves once it listens. */
interface Forked {
  worker: Worker;
  listening: Promise<Worker>;
}

const iso = (ms: number) => new Date(ms).toISOString();

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Default of `RebuildSettings.publishTimeoutMs`. */
export const DEFAULT_PUBLISH_TIMEOUT_MS = 90_000;

/**
 * How long the kept build may take to publish `edits`: `baseMs` plus 2 s an edit, at most the
 * time of a full build (`capMs`).
 */
export function publishDeadline(edits: readonly Edit[], baseMs: number, capMs: number): number {
  return Math.min(capMs, baseMs + 2_000 * edits.length);
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
  const drainLimitMs = options.drainLimitMs ?? 30_000;
  const startLimitMs = options.startLimitMs ?? 60_000;
  const port = options.port === 0 ? await freePort(options.host) : options.port;
  const shared = options.rebuild?.coordination ?? null;
  const name = shared === null ? null : copyName(os.hostname(), port);
  // Copies sharing the folder each say their own status.
  const statusFile =
    name === null ? path.join(releasesDir, STATUS_FILE) : copyStatusFile(releasesDir, name);
  const states = new Map<Worker, WorkerState>();
  const abort = new AbortController();
  let current: Release = { ...options.initial, dir: path.resolve(options.initial.dir) };
  let previous: Release | null = null;
  let servingSince = Date.now();
  let closing = false;
  let lastBuild: BuildRecord | null = null;
  let lastSuccess: RebuildStatus['lastSuccess'] = null;
  let scheduler: RebuildScheduler | null = null;
  let coordination: Coordination | null = null;
  let recentCrashes: number[] = [];
  /** The release a build is writing (not pruned meanwhile). */
  let building: string | null = null;
  /** What this copy uses, said in the releases folder for any copy that prunes (releases.ts). */
  let heartbeat: ServingHeartbeat | null = null;
  // Several copies publish only into the release they all share.
  const keepInitial =
    options.rebuild?.publisher === true &&
    (shared === null || isSharedRelease(releasesDir, current));
  /** The kept build of the current release (to publish edits into it), when there is one. */
  let kept: { releaseId: string; publisher: KeptPublisher } | null =
    options.initialPublisher && keepInitial
      ? { releaseId: options.initial.id, publisher: options.initialPublisher }
      : null;
  if (kept === null) options.initialPublisher?.stop();
  /** Publishes into the current release so far: its render cache generation. */
  let publishes = 0;
  let requestIds = 0;
  const pointerKey = (pointer: ReleasePointer) =>
    `${pointer.release.id}#${String(pointer.generation)}`;
  // The pointer's publish count carries over a restart on its release.
  const atStart = options.rebuild === null ? null : await readReleasePointer(releasesDir);
  const startPointer = atStart !== null && !('problem' in atStart) ? atStart : null;
  if (startPointer?.release.id === current.id) publishes = startPointer.generation;
  /** The pointer this copy acted on: the one at start, then each written or followed. */
  let seenPointer = startPointer === null ? null : pointerKey(startPointer);
  /** The same for `next.json` (several copies): a release to start workers on ahead. */
  let seenNext: string | null = null;
  if (shared !== null) {
    const next = await readReleasePointer(releasesDir, NEXT_FILE);
    if (next !== null && !('problem' in next)) seenNext = pointerKey(next);
  }
  let switchFailed: { key: string; id: string; error: string; at: number } | null = null;

  // Workers accept their connections themselves, from the one listening socket the primary
  // opens and shares. Round robin (Linux's default) hands each connection over from the
  // primary and waits for the worker's acknowledgement before handing the next: under load a
  // busy worker reads one a turn of its event loop, so 50 new connections waited up to 1 s.
  // The kernel queues them instead, and whichever worker is free takes the next one.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  cluster.setupPrimary({ exec: options.workerExec, args: [], silent: false });

  const copiesStatus = (): CopiesStatus | null => {
    if (coordination === null || name === null) return null;
    return {
      name,
      role: coordination.holds() ? 'builder' : 'follower',
      builder: coordination.holder(),
      redis: coordination.reachable() ? 'reachable' : 'unreachable',
      ...(switchFailed === null
        ? {}
        : {
            switchFailed: {
              id: switchFailed.id,
              error: switchFailed.error,
              at: iso(switchFailed.at),
            },
          }),
    };
  };

  const status = (): RebuildStatus => {
    const snapshot = scheduler?.snapshot();
    const phase = snapshot?.phase ?? 'idle';
    const event = snapshot?.lastEvent ?? null;
    const retry = snapshot?.retry ?? null;
    return {
      state:
        phase === 'building'
          ? phase
          : retry !== null
            ? 'retrying'
            : phase !== 'idle'
              ? phase
              : lastBuild?.result === 'failed'
                ? 'failed'
                : 'idle',
      rebuilds: options.rebuild !== null,
      current: {
        id: current.id,
        builtAt: iso(current.builtAt),
        servingSince: iso(servingSince),
        generation: publishes,
      },
      copies: copiesStatus(),
      lastBuild,
      lastSuccess,
      retry:
        retry === null
          ? null
          : { attempts: retry.attempts, at: iso(retry.at), cause: oneLine(retry.error) },
      queuedEvents: snapshot?.pending ?? 0,
      lastEvent: event && {
        source: event.source,
        topic: event.topic,
        id: event.id,
        at: iso(event.receivedAt),
      },
      builds: snapshot?.builds ?? 0,
      workers: [...states.values()].filter((s) => s.phase === 'serving').length,
      updatedAt: iso(Date.now()),
    };
  };

  // Status writes in order (each atomic), at most one queued behind the one running.
  let writing: Promise<void> = Promise.resolve();
  let writeQueued = false;
  const writeStatus = () => {
    if (options.rebuild === null || writeQueued) return;
    writeQueued = true;
    writing = writing.then(async () => {
      writeQueued = false;
      await writeJsonAtomic(statusFile, status()).catch((error: unknown) => {
        logError(`[rebuild] could not write ${statusFile}: ${String(error)}`);
      });
    });
  };

  const workerEnv = (
    release: Release,
    assetDirs: string[],
    generation: number,
    standby: boolean,
  ): NodeJS.ProcessEnv => ({
    [WORKER_ENV.role]: '1',
    ...(standby ? { [WORKER_ENV.standby]: '1' } : {}),
    [WORKER_ENV.distDir]: release.dir,
    [WORKER_ENV.assetDirs]: JSON.stringify(assetDirs),
    ...(options.rebuild === null ? {} : { [WORKER_ENV.statusFile]: statusFile }),
    [WORKER_ENV.generation]: String(generation),
    PORT: String(port),
    HOST: options.host,
  });

  // Events accepted before the coordination starts (it starts once the first workers listen).
  const early: RebuildEvent[] = [];
  const onMessage = (message: unknown) => {
    const parsed = parseEventMessage(message);
    if (parsed === null || scheduler === null || closing) return;
    const { event } = parsed;
    const what = `${event.source} ${oneLine(event.topic)} ${oneLine(event.id)}`;
    if (shared === null) {
      log(`[rebuild] ${what}: rebuild scheduled`);
      scheduler.notify(event);
      return;
    }
    log(`[rebuild] ${what}: rebuild scheduled (by the copy holding the build lease)`);
    if (coordination === null) early.push(event);
    else coordination.push(event);
  };

  /** Tells a worker started ahead to listen (at once, or once it has loaded its release). */
  const letListen = (worker: Worker) => {
    const state = states.get(worker);
    if (state?.standby === undefined || state.standby === 'released') return;
    const wasWaiting = state.standby === 'waiting';
    state.standby = 'released';
    if (!wasWaiting) return;
    const message: ListenMessage = { type: 'serve:listen' };
    // Gone: its start fails, and the swap with it.
    sendOrDrop(worker, message);
  };

  /**
   * Forks a worker on `release` (its render cache at `generation`); `listening` resolves once it
   * listens. `standby`: it waits to listen until `letListen`.
   */
  const fork = (
    release: Release,
    assetDirs: string[],
    generation: number,
    standby = false,
  ): Forked => {
    const worker = cluster.fork(workerEnv(release, assetDirs, generation, standby));
    states.set(worker, { release, phase: 'starting', ...(standby ? { standby: 'loading' } : {}) });
    worker.on('message', (message: unknown) => {
      const state = states.get(worker);
      if (state?.standby !== undefined && isStandbyMessage(message)) {
        const released = state.standby === 'released';
        state.standby = 'waiting';
        if (released) letListen(worker);
        return;
      }
      onMessage(message);
    });
    worker.once('exit', (code, signal) => {
      onExit(worker, code, signal);
    });
    const listening = new Promise<Worker>((resolve, reject) => {
      const timer = setTimeout(() => {
        worker.off('listening', onListening);
        worker.process.kill('SIGKILL');
        reject(new Error(`did not listen within ${seconds(startLimitMs)}`));
      }, startLimitMs);
      const onListening = () => {
        clearTimeout(timer);
        const state = states.get(worker);
        if (state) state.phase = 'serving';
        resolve(worker);
      };
      worker.once('listening', onListening);
      worker.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`exited (${signal || String(code)}) before it listened`));
      });
    });
    return { worker, listening };
  };

  /** Tells a worker to finish its connections and exit; killed past the limit. */
  const retire = (
    worker: Worker,
    assetDirs: string[],
    limitMs = drainLimitMs,
    closeIdle = false,
  ) => {
    const state = states.get(worker);
    if (!state || state.phase === 'retiring') return;
    state.phase = 'retiring';
    const message: DrainMessage = { type: 'serve:drain', assetDirs, limitMs, closeIdle };
    sendOrDrop(worker, message, () => worker.process.kill('SIGTERM'));
    setTimeout(() => {
      if (worker.process.exitCode === null && worker.process.signalCode === null) {
        worker.process.kill('SIGKILL');
      }
    }, limitMs + 5_000).unref();
  };

  /** The releases this copy needs: the current, the previous, those its workers run. */
  const releasesUsed = (): Set<string> => {
    const used = new Set([current.id, ...(previous ? [previous.id] : [])]);
    if (building !== null) used.add(building);
    for (const state of states.values()) used.add(state.release.id);
    return used;
  };

  /**
   * Deletes the releases no one needs: all but the current, the previous, the one being built
   * and those a worker still runs (a draining worker keeps its release until it exits, then
   * this runs again). With several copies, only the holder of the build lease prunes, and it
   * keeps what every copy says it uses.
   */
  let pruning: Promise<void> = Promise.resolve();
  const pruneUnused = (): Promise<void> => {
    if (options.rebuild === null) return pruning;
    pruning = pruning.then(async () => {
      if (coordination !== null && !coordination.holds()) return;
      // Read once the folder is listed: what any live copy sharing it says it uses (a copy
      // names a build before starting it), and what the pointers name.
      const keep = async () => {
        const kept = heartbeat === null ? releasesUsed() : await heartbeat.inUse();
        if (coordination === null) return kept;
        const elsewhere = await coordination.releasesInUse();
        if (elsewhere === null) return null; // Redis cannot say: nothing goes
        for (const id of elsewhere) kept.add(id);
        return kept;
      };
      await pruneReleases(releasesDir, keep).catch((pruneError: unknown) => {
        logError(`[rebuild] could not prune old releases: ${String(pruneError)}`);
      });
    });
    return pruning;
  };

  const onExit = (worker: Worker, code: number | null, signal: string | null) => {
    const state = states.get(worker);
    states.delete(worker);
    writeStatus();
    if (state?.phase === 'retiring' && !closing) void pruneUnused();
    if (state?.phase !== 'serving' || closing) return;
    // A serving worker died: replace it (backing off if it keeps dying).
    const t = Date.now();
    recentCrashes = [...recentCrashes.filter((at) => t - at < 60_000), t];
    const delay = Math.min(30_000, 500 * 2 ** (recentCrashes.length - 1));
    logError(
      `[serve] worker ${String(worker.process.pid)} of ${state.release.id} exited (${signal ?? String(code)}); replacing it in ${seconds(delay)}`,
    );
    setTimeout(() => {
      if (closing) return;
      const release = current;
      fork(release, previous ? [path.join(previous.dir, 'client')] : [], publishes)
        .listening.then((replacement) => {
          // The release changed while it started: it is not needed any more.
          if (release.id !== current.id) retire(replacement, [path.join(current.dir, 'client')]);
        })
        .catch((error: unknown) => {
          logError(`[serve] replacement worker failed: ${String(error)}`);
        });
    }, delay).unref();
  };

  /**
   * Workers started ahead on the release another copy is about to point `current.json` to
   * (`next.json`): loaded, not listening, so the switch is at once.
   */
  let ahead: { release: Release; generation: number; started: Forked[] } | null = null;
  const dropAhead = () => {
    if (ahead === null) return;
    for (const { worker } of ahead.started) {
      if (states.get(worker)?.phase === 'starting') worker.process.kill('SIGTERM');
    }
    ahead = null;
  };
  const startAhead = (pointer: ReleasePointer) => {
    dropAhead();
    const fallback = [path.join(current.dir, 'client')];
    const started = Array.from({ length: options.workers }, () =>
      fork(pointer.release, fallback, pointer.generation, true),
    );
    // A failure shows at the swap that uses them.
    for (const { listening } of started) listening.catch(() => undefined);
    ahead = { ...pointer, started };
    log(
      `[rebuild] ${pointer.release.id} is about to go live (another copy): its workers start ahead`,
    );
  };

  /**
   * Starts the workers of `release` (after `generation` publishes), or lets those started ahead
   * listen, and retires the others; throws when they do not start.
   */
  const swapTo = async (release: Release, generation: number) => {
    const fallback = [path.join(current.dir, 'client')];
    const startedAhead = ahead?.release.id === release.id ? ahead : null;
    if (startedAhead === null) dropAhead();
    ahead = null;
    const starting =
      startedAhead === null
        ? Array.from(
            { length: options.workers },
            () => fork(release, fallback, generation).listening,
          )
        : startedAhead.started.map(({ worker, listening }) => {
            letListen(worker);
            return listening;
          });
    const started = await Promise.allSettled(starting);
    const failure = started.find((result) => result.status === 'rejected');
    if (failure) {
      // The ones that listen may have taken connections: let them finish those.
      for (const result of started) {
        if (result.status === 'fulfilled') retire(result.value, []);
      }
      throw failure.reason instanceof Error ? failure.reason : new Error(String(failure.reason));
    }
    previous = current;
    current = release;
    publishes = generation;
    servingSince = Date.now();
    // Started ahead with another publish count: they drop what they would have cached.
    if (startedAhead !== null && startedAhead.generation !== generation) purgeWorkers();
    const newAssets = [path.join(release.dir, 'client')];
    for (const [worker, state] of states) {
      if (state.release.id !== release.id) retire(worker, newAssets);
    }
  };

  /** The workers of the current release forget their cached renders (a publish). */
  const purgeWorkers = () => {
    for (const [worker, state] of states) {
      if (state.release.id !== current.id) continue;
      // Exiting: its renders go with it.
      sendOrDrop(worker, { type: 'render-cache:purge', generation: publishes });
    }
  };

  // Swaps, publishes and pointer writes one at a time: a release published by another copy
  // and this copy's own build never swap at once.
  let exclusive: Promise<unknown> = Promise.resolve();
  const serially = <T>(task: () => Promise<T>): Promise<T> => {
    const result = exclusive.then(task, task);
    exclusive = result.catch(() => undefined);
    return result;
  };

  /**
   * Points `current.json` at what this copy now serves: the release restarts resume, and the
   * other copies follow. With several copies, only while this one holds the build lease.
   */
  const pointAt = async (release: Release, generation: number) => {
    if (!isSharedRelease(releasesDir, release)) return;
    if (coordination !== null && !coordination.holds()) {
      logError(
        `[rebuild] ${release.id} (publish ${String(generation)}) is served here only: the build lease was lost, another copy builds`,
      );
      return;
    }
    try {
      await writeCurrentRelease(releasesDir, release, generation);
      seenPointer = pointerKey({ release, generation });
    } catch (error) {
      logError(
        `[rebuild] could not point ${releasesDir}/current.json at ${release.id}: ${String(error)}`,
      );
    }
  };

  /** A pointer file, read; a problem is logged once (until it changes) and gives null. */
  const lastProblems = new Map<string, string>();
  const readPointer = async (file: typeof CURRENT_FILE | typeof NEXT_FILE) => {
    const read = await readReleasePointer(releasesDir, file);
    if (read === null || !('problem' in read)) {
      lastProblems.delete(file);
      return read;
    }
    if (lastProblems.get(file) !== read.problem) {
      logError(`[rebuild] ${read.problem}: not followed`);
    }
    lastProblems.set(file, read.problem);
    return null;
  };

  /**
   * Acts on `current.json` when another copy changed it: a new release gets this copy's workers
   * swapped in (no request fails), a new publish count has them drop their cached renders. A
   * release that does not start here leaves the current one serving, tried again in 30 s.
   * Before that, a newer release in `next.json` gets its workers started ahead.
   */
  const follow = async () => {
    if (closing) return;
    const next = await readPointer(NEXT_FILE);
    // The builder's swap failed (it removed next.json): the workers started ahead go.
    if (ahead !== null && ahead.release.id !== next?.release.id) dropAhead();
    if (next !== null && pointerKey(next) !== seenNext) {
      seenNext = pointerKey(next);
      const newer = next.release.id !== current.id && next.release.builtAt > current.builtAt;
      if (newer && ahead?.release.id !== next.release.id) startAhead(next);
    }
    const read = await readPointer(CURRENT_FILE);
    if (read === null) return;
    const key = pointerKey(read);
    if (key === seenPointer) return;
    const { release, generation } = read;
    if (release.id === current.id) {
      seenPointer = key;
      if (generation === publishes) return;
      publishes = generation;
      purgeWorkers();
      log(
        `[rebuild] ${current.id}: publish ${String(generation)} by another copy, cached renders dropped`,
      );
      writeStatus();
      return;
    }
    if (switchFailed?.key === key && Date.now() - switchFailed.at < 30_000) return;
    const started = Date.now();
    try {
      await swapTo(release, generation);
    } catch (error) {
      const why = oneLine(error instanceof Error ? error.message : String(error));
      switchFailed = { key, id: release.id, error: why, at: Date.now() };
      logError(
        `[rebuild] could not switch to ${release.id} (built by another copy): ${why}; still serving ${current.id}`,
      );
      setTimeout(requestFollow, 30_000).unref();
      writeStatus();
      return;
    }
    seenPointer = key;
    switchFailed = null;
    // A kept build publishes into the release it made, which is not served any more.
    kept?.publisher.stop();
    kept = null;
    log(
      `[rebuild] ${release.id} is live: switched in ${seconds(Date.now() - started)} (built by another copy)`,
    );
    writeStatus();
  };
  let followQueued = false;
  function requestFollow() {
    if (followQueued || closing) return;
    followQueued = true;
    void serially(async () => {
      followQueued = false;
      await follow();
    }).catch((error: unknown) => {
      logError(`[rebuild] could not follow current.json: ${String(error)}`);
    });
  }

  const describeBatch = (batch: RebuildBatch) => {
    const { first } = batch;
    const what = `${first.source} ${oneLine(first.topic)} ${oneLine(first.id)}`;
    return batch.count === 1 ? what : `${what} and ${batch.count - 1} more`;
  };

  /**
   * Publishes a batch of edits through the current release's kept build: `published` when
   * done, `full` when it must be built in full (logged), `retry` when it failed on a transient
   * cause before its data changed (the kept build stays; the scheduler asks again later).
   */
  const publish = async (
    batch: RebuildBatch,
  ): Promise<{ kind: 'published' | 'full' } | { kind: 'retry'; error: string }> => {
    const full = { kind: 'full' } as const;
    const edits = batch.complete ? publishableEdits(batch.events) : null;
    if (edits === null || kept?.releaseId !== current.id) return full;
    // Several copies: only into the release they all serve.
    if (coordination !== null && !isSharedRelease(releasesDir, current)) return full;
    if (!kept.publisher.alive()) {
      kept = null;
      return full;
    }
    const started = Date.now();
    const id = `${current.id}+${String(publishes + 1)}`;
    lastBuild = {
      id,
      startedAt: iso(started),
      result: 'running',
      kind: 'publish',
      events: batch.count,
      log: logFileOf(releasesDir, current.id),
    };
    writeStatus();
    requestIds += 1;
    const settings = options.rebuild;
    const deadlineMs = publishDeadline(
      edits,
      settings?.publishTimeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS,
      settings?.timeoutMs ?? Infinity,
    );
    let deadline: ReturnType<typeof setTimeout> | undefined;
    const answer = await Promise.race([
      kept.publisher
        .request({ type: 'publish', id: requestIds, edits })
        .catch((error: unknown) => ({ type: 'publish-failed', error: String(error) })),
      new Promise((resolve) => {
        deadline = setTimeout(() => {
          resolve({ type: 'publish-failed', error: `no answer within ${seconds(deadlineMs)}` });
        }, deadlineMs);
      }),
    ]);
    clearTimeout(deadline);
    const reply = parsePublisherReply(answer);
    const finished = Date.now();
    if (reply?.type === 'publish-failed' && reply.transient && !reply.dataChanged) {
      // Its data is as it was: it publishes these edits again once the upstream answers.
      lastBuild = {
        ...lastBuild,
        finishedAt: iso(finished),
        durationMs: finished - started,
        result: 'failed',
        error: oneLine(reply.error),
      };
      logError(`[rebuild] ${describeBatch(batch)}: the publish failed: ${oneLine(reply.error)}`);
      writeStatus();
      return { kind: 'retry', error: reply.error };
    }
    if (reply?.type !== 'published') {
      const why =
        reply === null ? 'no answer' : reply.type === 'publish-full' ? reply.reason : reply.error;
      log(`[rebuild] ${describeBatch(batch)}: a full build instead of a publish (${oneLine(why)})`);
      // It may hold the edit's data now, which its pages do not show, or be stuck in a fetch:
      // it publishes nothing more.
      kept.publisher.stop();
      kept = null;
      return full;
    }
    publishes += 1;
    purgeWorkers();
    await pointAt(current, publishes);
    lastBuild = {
      ...lastBuild,
      finishedAt: iso(finished),
      durationMs: finished - started,
      result: 'succeeded',
      pages: { written: reply.written.length, removed: reply.removed.length },
    };
    lastSuccess = { id, finishedAt: iso(finished) };
    log(
      `[rebuild] ${describeBatch(batch)}: published into ${current.id} in ${seconds(finished - started)} (${String(reply.written.length)} page(s) rendered, ${String(reply.removed.length)} removed, ${String(reply.pictures.length)} new picture(s))`,
    );
    writeStatus();
    return { kind: 'published' };
  };

  const build = async (batch: RebuildBatch): Promise<BuildOutcome> => {
    const settings = options.rebuild;
    if (settings === null) return { ok: false, error: 'rebuilds are off' };
    const published = await serially(() => publish(batch));
    if (published.kind === 'published') return { ok: true };
    if (published.kind === 'retry') return { ok: false, error: published.error, retry: true };
    const started = Date.now();
    const id = newReleaseId(started);
    const dir = path.join(releasesDir, id);
    const logFile = logFileOf(releasesDir, id);
    lastBuild = {
      id,
      startedAt: iso(started),
      result: 'running',
      kind: 'build',
      events: batch.count,
      log: logFile,
    };
    building = id;
    // Named in the folder before the build makes its directory (any copy may prune meanwhile).
    await heartbeat?.beat();
    writeStatus();
    log(`[rebuild] building ${id} (${describeBatch(batch)})`);
    const command = 'shell' in settings.command ? settings.command : [...settings.command, dir];
    const result = await runBuild({
      outDir: dir,
      command,
      env: settings.env,
      logFile,
      timeoutMs: settings.timeoutMs,
      signal: abort.signal,
      publisher: settings.publisher === true,
    });
    let error = result.ok ? null : result.error;
    // Only a build that failed on its own transient cause is tried again.
    const transient = !result.ok && result.transient;
    const builtPublisher = result.ok ? (result.publisher ?? null) : null;
    let inUse = false;
    if (error === null) {
      const missing = await missingBuildFile(dir);
      if (missing !== null) error = `incomplete build: ${missing} is missing`;
    }
    const release: Release = {
      id,
      dir,
      builtAt: Date.now(),
      ...(options.target === undefined ? {} : { target: options.target }),
    };
    if (error === null && closing) error = 'stopped (server shutting down)';
    if (error === null && coordination !== null && !(await coordination.confirm())) {
      error = 'another copy took the build lease meanwhile: it builds for every copy';
    }
    if (error === null) {
      try {
        await serially(async () => {
          if (coordination !== null) {
            // The other copies start its workers while this one does.
            await writeNextRelease(releasesDir, release).catch((nextError: unknown) => {
              logError(`[rebuild] could not write ${NEXT_FILE}: ${String(nextError)}`);
            });
            seenNext = pointerKey({ release, generation: 0 });
          }
          try {
            await swapTo(release, 0);
          } catch (swapError) {
            // The other copies drop the workers they started ahead on it.
            if (coordination !== null) await rm(path.join(releasesDir, NEXT_FILE), { force: true });
            throw swapError;
          }
          await pointAt(release, 0);
        });
      } catch (swapError) {
        inUse = true; // its workers may still be draining: pruned later
        error = `the new release did not start: ${swapError instanceof Error ? swapError.message : String(swapError)}`;
      }
    }
    building = null;
    const finished = Date.now();
    if (error !== null) {
      builtPublisher?.stop();
      if (!inUse) await rm(dir, { recursive: true, force: true });
      lastBuild = {
        ...lastBuild,
        finishedAt: iso(finished),
        durationMs: finished - started,
        result: 'failed',
        error: oneLine(error),
      };
      // The kept build of the release served stays: edits keep publishing into it.
      logError(
        `[rebuild] build ${id} failed after ${seconds(finished - started)}: ${oneLine(error)} (log: ${logFile}); still serving ${current.id}${transient ? ', tried again later' : ''}`,
      );
      writeStatus();
      return { ok: false, error, retry: transient };
    }
    kept?.publisher.stop();
    kept = builtPublisher === null ? null : { releaseId: id, publisher: builtPublisher };
    await pruneUnused();
    lastBuild = {
      ...lastBuild,
      finishedAt: iso(finished),
      durationMs: finished - started,
      result: 'succeeded',
    };
    lastSuccess = { id, finishedAt: iso(finished) };
    log(
      `[rebuild] ${id} is live: built and swapped in ${seconds(finished - started)} for ${batch.count} event(s)`,
    );
    writeStatus();
    return { ok: true };
  };

  /**
   * A batch for the scheduler. With several copies: only while this copy holds the build lease
   * (else the holder, reading the same events from Redis, builds them), and once done, the
   * events it covered are recorded as built (a copy taking the lease later reads on from there).
   */
  const buildBatch = async (batch: RebuildBatch): Promise<BuildOutcome> => {
    if (coordination === null) return build(batch);
    // What the batch covers: every event read so far (the scheduler took them all, just now).
    const upto = coordination.position();
    if (!(await coordination.confirm())) {
      log(`[rebuild] ${describeBatch(batch)}: not built here, another copy holds the build lease`);
      return { ok: true };
    }
    let outcome: BuildOutcome | null = null;
    try {
      outcome = await build(batch);
      return outcome;
    } finally {
      // A build tried again later has not covered its events yet: a copy taking the lease
      // meanwhile reads them again.
      const retried = outcome !== null && !outcome.ok && outcome.retry === true;
      if (upto !== null && !retried) await coordination.built(upto);
    }
  };

  if (options.rebuild !== null) {
    await linkProjectModules(
      releasesDir,
      options.nodeModules ?? path.resolve(import.meta.dirname, '../../../node_modules'),
    );
    scheduler = createRebuildScheduler({
      debounceMs: options.rebuild.debounceMs,
      ...(options.rebuild.retry === undefined ? {} : { retry: options.rebuild.retry }),
      build: buildBatch,
      onChange: writeStatus,
    });
  }

  if (options.rebuild !== null || isSharedRelease(releasesDir, current)) {
    heartbeat = createServingHeartbeat({
      releasesDir,
      copy: name ?? copyName(os.hostname(), port),
      inUse: releasesUsed,
      logError,
    });
    await heartbeat.beat();
  }

  // The first workers: the server does not start without them.
  try {
    await Promise.all(
      Array.from({ length: options.workers }, () => fork(current, [], publishes).listening),
    );
  } catch (error) {
    closing = true;
    for (const worker of states.keys()) worker.process.kill('SIGKILL');
    await heartbeat?.stop();
    throw new Error(
      `the server did not start on ${current.dir}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  servingSince = Date.now();
  writeStatus();

  const fullBuildFor = (topic: 'warm-up' | 'schedule', id: string) => {
    log(`[rebuild] a full build (${topic}: ${id})`);
    scheduler?.notify({ source: 'supervisor', topic, id, receivedAt: Date.now() });
  };
  const warmUp = () => {
    if (options.rebuild?.publisher === true && kept === null) {
      fullBuildFor('warm-up', `kept build to publish edits into ${current.id}`);
    }
  };

  let stopFollowing: (() => void) | null = null;
  if (shared !== null && name !== null && scheduler !== null) {
    const localScheduler = scheduler;
    await mkdir(releasesDir, { recursive: true });
    coordination = createCoordination({
      url: shared.url,
      name,
      onEvent: (event) => {
        localScheduler.notify(event);
      },
      onLease: (held) => {
        if (held) warmUp();
        else {
          // Another copy builds and publishes now, with its own kept build.
          kept?.publisher.stop();
          kept = null;
        }
        writeStatus();
      },
      onChange: writeStatus,
      inUse: () => [...releasesUsed()],
      log,
      logError,
    });
    for (const event of early.splice(0)) coordination.push(event);
    stopFollowing = watchReleasePointer(releasesDir, requestFollow);
    writeStatus();
  } else {
    warmUp();
  }
  const every = options.rebuild?.fullBuildEveryMs ?? 0;
  const schedule =
    every > 0
      ? setInterval(
          () => {
            const snapshot = scheduler?.snapshot();
            if (closing || snapshot?.phase !== 'idle') return;
            if (coordination !== null && !coordination.holds()) return;
            if (Date.now() - current.builtAt >= every) {
              fullBuildFor(
                'schedule',
                `${current.id} is older than ${String(every / 3_600_000)} h`,
              );
            }
          },
          Math.min(every, 60_000),
        )
      : null;
  schedule?.unref();

  return {
    url: `http://${options.host === '127.0.0.1' ? 'localhost' : options.host}:${port}`,
    port,
    current: () => current,
    status,
    notify(event) {
      scheduler?.notify(event);
    },
    settled: () => scheduler?.settled() ?? Promise.resolve(),
    async close() {
      if (closing) return;
      closing = true;
      if (schedule) clearInterval(schedule);
      stopFollowing?.();
      abort.abort();
      kept?.publisher.stop();
      await scheduler?.stop();
      // The lease goes at once: another copy builds from now on.
      await coordination?.close();
      const exits = [...states.keys()].map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.process.exitCode !== null || worker.process.signalCode !== null) {
              resolve();
              return;
            }
            worker.once('exit', () => {
              resolve();
            });
          }),
      );
      for (const worker of states.keys()) {
        const state = states.get(worker);
        if (state) state.phase = 'serving'; // retire() again with the short limit
        retire(worker, [], 5_000, true);
      }
      await Promise.all(exits);
      await heartbeat?.stop();
      await writing;
    },
  };
}
