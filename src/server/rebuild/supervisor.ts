/**
 * The supervisor: the cluster primary of `npm start` / `npm run serve`. It holds the listening
 * socket (node:cluster hands each connection to a worker, round robin) and runs
 * `SERVER_WORKERS` server processes (`scripts/serve.ts` in worker mode), all serving one
 * release. Workers verify webhooks and send accepted events here, to the rebuild scheduler
 * (`scheduler.ts`); each build goes into a new directory of the releases folder
 * (`builder.ts`, `releases.ts`). When a build is complete, new workers start on it; once they
 * listen, the old ones are told to drain: they stop taking connections (the primary gives
 * those to the new workers; a connection it had handed to a closing worker comes back and
 * goes to another), finish what they serve, answer `Connection: close` on kept-alive
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
 * full build is right, or fails, or is gone, the batch gets a full build as before. A release
 * served without a kept build (a restart on an existing build) gets one from a warm-up full build
 * right after start; `fullBuildEveryMs` also runs a full build when the served one is older.
 */
import cluster, { type Worker } from 'node:cluster';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { oneLine } from '../../lib/server/failures.ts';
import { runBuild, type KeptPublisher } from './builder.ts';
import { parsePublisherReply, publishableEdits } from './publish-edits.ts';
import { parseEventMessage, WORKER_ENV, type DrainMessage } from './messages.ts';
import {
  linkProjectModules,
  logFileOf,
  missingBuildFile,
  newReleaseId,
  pruneReleases,
  STATUS_FILE,
  writeCurrentRelease,
  writeJsonAtomic,
  type Release,
} from './releases.ts';
import {
  createRebuildScheduler,
  type BuildOutcome,
  type RebuildBatch,
  type RebuildEvent,
  type RebuildScheduler,
} from './scheduler.ts';
import { log as logger } from '../../lib/server/log.ts';

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
}

export interface SupervisorOptions {
  /** The worker's script (`scripts/serve.ts`). */
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

/** What `status.json` and `GET /webhooks/status` say. */
export interface RebuildStatus {
  state: 'idle' | 'waiting' | 'building' | 'failed';
  rebuilds: boolean;
  current: { id: string; builtAt: string; servingSince: string };
  lastBuild: BuildRecord | null;
  lastSuccess: { id: string; finishedAt: string } | null;
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
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A free port on `host`. Workers must all listen with the same arguments (the cluster shares
 * one socket per address and port), so port 0 is resolved once, here.
 */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => {
        resolve(port);
      });
    });
  });
}
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

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
  const statusFile = path.join(releasesDir, STATUS_FILE);
  const port = options.port === 0 ? await freePort(options.host) : options.port;
  const states = new Map<Worker, WorkerState>();
  const abort = new AbortController();
  let current: Release = { ...options.initial, dir: path.resolve(options.initial.dir) };
  let previous: Release | null = null;
  let servingSince = Date.now();
  let closing = false;
  let lastBuild: BuildRecord | null = null;
  let lastSuccess: RebuildStatus['lastSuccess'] = null;
  let scheduler: RebuildScheduler | null = null;
  let recentCrashes: number[] = [];
  /** The kept build of the current release (to publish edits into it), when there is one. */
  let kept: { releaseId: string; publisher: KeptPublisher } | null =
    options.initialPublisher && options.rebuild?.publisher === true
      ? { releaseId: options.initial.id, publisher: options.initialPublisher }
      : null;
  if (kept === null) options.initialPublisher?.stop();
  /** Publishes into the current release so far: its render cache generation. */
  let publishes = 0;
  let requestIds = 0;

  cluster.setupPrimary({ exec: options.workerExec, args: [], silent: false });

  const status = (): RebuildStatus => {
    const snapshot = scheduler?.snapshot();
    const phase = snapshot?.phase ?? 'idle';
    const event = snapshot?.lastEvent ?? null;
    return {
      state: phase !== 'idle' ? phase : lastBuild?.result === 'failed' ? 'failed' : 'idle',
      rebuilds: options.rebuild !== null,
      current: { id: current.id, builtAt: iso(current.builtAt), servingSince: iso(servingSince) },
      lastBuild,
      lastSuccess,
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

  const workerEnv = (release: Release, assetDirs: string[]): NodeJS.ProcessEnv => ({
    [WORKER_ENV.role]: '1',
    [WORKER_ENV.distDir]: release.dir,
    [WORKER_ENV.assetDirs]: JSON.stringify(assetDirs),
    ...(options.rebuild === null ? {} : { [WORKER_ENV.statusFile]: statusFile }),
    [WORKER_ENV.generation]: String(release.id === current.id ? publishes : 0),
    PORT: String(port),
    HOST: options.host,
  });

  const onMessage = (message: unknown) => {
    const parsed = parseEventMessage(message);
    if (parsed === null || scheduler === null || closing) return;
    const { event } = parsed;
    log(
      `[rebuild] ${event.source} ${oneLine(event.topic)} ${oneLine(event.id)}: rebuild scheduled`,
    );
    scheduler.notify(event);
  };

  /** Forks a worker on `release`; resolves once it listens. */
  const fork = (release: Release, assetDirs: string[]): Promise<Worker> => {
    const worker = cluster.fork(workerEnv(release, assetDirs));
    states.set(worker, { release, phase: 'starting' });
    worker.on('message', onMessage);
    worker.once('exit', (code, signal) => {
      onExit(worker, code, signal);
    });
    return new Promise((resolve, reject) => {
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
    try {
      worker.send(message);
    } catch {
      worker.process.kill('SIGTERM');
    }
    setTimeout(() => {
      if (worker.process.exitCode === null && worker.process.signalCode === null) {
        worker.process.kill('SIGKILL');
      }
    }, limitMs + 5_000).unref();
  };

  /**
   * Deletes the releases no one needs: all but the current, the previous and those a worker
   * still runs (a draining worker keeps its release until it exits, then this runs again).
   */
  let pruning: Promise<void> = Promise.resolve();
  const pruneUnused = (): Promise<void> => {
    if (options.rebuild === null) return pruning;
    pruning = pruning.then(async () => {
      const keep = new Set([current.id, ...(previous ? [previous.id] : [])]);
      for (const state of states.values()) keep.add(state.release.id);
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
      fork(release, previous ? [path.join(previous.dir, 'client')] : [])
        .then((replacement) => {
          // The release changed while it started: it is not needed any more.
          if (release.id !== current.id) retire(replacement, [path.join(current.dir, 'client')]);
        })
        .catch((error: unknown) => {
          logError(`[serve] replacement worker failed: ${String(error)}`);
        });
    }, delay).unref();
  };

  /** Starts the workers of `release` and retires the others; throws when they do not start. */
  const swapTo = async (release: Release) => {
    const fallback = [path.join(current.dir, 'client')];
    const started = await Promise.allSettled(
      Array.from({ length: options.workers }, () => fork(release, fallback)),
    );
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
    servingSince = Date.now();
    const newAssets = [path.join(release.dir, 'client')];
    for (const [worker, state] of states) {
      if (state.release.id !== release.id) retire(worker, newAssets);
    }
  };

  const describeBatch = (batch: RebuildBatch) => {
    const { first } = batch;
    const what = `${first.source} ${oneLine(first.topic)} ${oneLine(first.id)}`;
    return batch.count === 1 ? what : `${what} and ${batch.count - 1} more`;
  };

  /**
   * Publishes a batch of edits through the current release's kept build: true when
   * done, false when it must be built in full (logged).
   */
  const publish = async (batch: RebuildBatch): Promise<boolean> => {
    const edits = batch.complete ? publishableEdits(batch.events) : null;
    if (edits === null || kept?.releaseId !== current.id) return false;
    if (!kept.publisher.alive()) {
      kept = null;
      return false;
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
    const reply = parsePublisherReply(
      await kept.publisher
        .request({ type: 'publish', id: requestIds, edits })
        .catch((error: unknown) => ({ type: 'publish-failed', error: String(error) })),
    );
    const finished = Date.now();
    if (reply?.type !== 'published') {
      const why =
        reply === null ? 'no answer' : reply.type === 'publish-full' ? reply.reason : reply.error;
      log(`[rebuild] ${describeBatch(batch)}: a full build instead of a publish (${oneLine(why)})`);
      // It holds the edit's data now, which its pages do not show: it publishes nothing more.
      kept.publisher.stop();
      kept = null;
      return false;
    }
    publishes += 1;
    for (const [worker, state] of states) {
      if (state.release.id === current.id) {
        worker.send({ type: 'render-cache:purge', generation: publishes });
      }
    }
    lastBuild = {
      ...lastBuild,
      finishedAt: iso(finished),
      durationMs: finished - started,
      result: 'succeeded',
      pages: { written: reply.written.length, removed: reply.removed.length },
    };
    lastSuccess = { id, finishedAt: iso(finished) };
    log(
      `[rebuild] ${describeBatch(batch)}: published into ${current.id} in ${seconds(finished - started)} (${String(reply.written.length)} page(s) rendered, ${String(reply.removed.length)} removed)`,
    );
    writeStatus();
    return true;
  };

  const build = async (batch: RebuildBatch): Promise<BuildOutcome> => {
    const settings = options.rebuild;
    if (settings === null) return { ok: false, error: 'rebuilds are off' };
    if (await publish(batch)) return { ok: true };
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
    if (error === null) {
      try {
        await swapTo(release);
      } catch (swapError) {
        inUse = true; // its workers may still be draining: pruned later
        error = `the new release did not start: ${swapError instanceof Error ? swapError.message : String(swapError)}`;
      }
    }
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
      logError(
        `[rebuild] build ${id} failed after ${seconds(finished - started)}: ${oneLine(error)} (log: ${logFile}); still serving ${current.id}`,
      );
      writeStatus();
      return { ok: false, error };
    }
    kept?.publisher.stop();
    kept = builtPublisher === null ? null : { releaseId: id, publisher: builtPublisher };
    publishes = 0;
    await writeCurrentRelease(releasesDir, release);
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

  if (options.rebuild !== null) {
    await linkProjectModules(
      releasesDir,
      options.nodeModules ?? path.resolve(import.meta.dirname, '../../../node_modules'),
    );
    scheduler = createRebuildScheduler({
      debounceMs: options.rebuild.debounceMs,
      build,
      onChange: writeStatus,
    });
  }

  // The first workers: the server does not start without them.
  try {
    await Promise.all(Array.from({ length: options.workers }, () => fork(current, [])));
  } catch (error) {
    closing = true;
    for (const worker of states.keys()) worker.process.kill('SIGKILL');
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
  if (options.rebuild?.publisher === true && kept === null) {
    fullBuildFor('warm-up', `kept build to publish edits into ${current.id}`);
  }
  const every = options.rebuild?.fullBuildEveryMs ?? 0;
  const schedule =
    every > 0
      ? setInterval(
          () => {
            const snapshot = scheduler?.snapshot();
            if (closing || snapshot?.phase !== 'idle') return;
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
      abort.abort();
      kept?.publisher.stop();
      await scheduler?.stop();
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
      await writing;
    },
  };
}
