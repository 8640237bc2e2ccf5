/**
 * The supervisor's workers (`supervisor.ts`): server processes (`src/server/serve.ts` in worker
 * mode) forked by node:cluster, all listening on the one socket the primary shares. The swap
 * from one release to the next uses them (`swap.ts`).
 *
 * - A worker is `starting` until it listens, then `serving`, then `retiring` once told to drain
 *   (`serve:drain`: it stops taking connections, finishes what it serves, answers
 *   `Connection: close` on kept-alive ones, then exits; killed past the drain limit).
 * - A worker started ahead (`standby`) loads its release and waits to be told to listen.
 * - A serving worker that dies is replaced, after a backoff that grows while it keeps dying.
 */
import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import {
  isStandbyMessage,
  sendOrDrop,
  WORKER_ENV,
  type DrainMessage,
  type ListenMessage,
  type UnreadyMessage,
} from './messages.ts';
import type { Release } from './releases.ts';
import { seconds, type SupervisorLog, type SupervisorState } from './supervisor-state.ts';

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
export interface Forked {
  worker: Worker;
  listening: Promise<Worker>;
}

export interface WorkerPoolOptions extends SupervisorLog {
  state: SupervisorState;
  /** The worker's script (`src/server/serve.ts`). */
  workerExec: string;
  /** Workers per release. */
  workers: number;
  host: string;
  /** Resolved: every worker listens with the same arguments. */
  port: number;
  /** The status file the workers' `GET /webhooks/status` reads (null: rebuilds are off). */
  statusFile: string | null;
  /** Longest drain of a retiring worker (ms). */
  drainLimitMs: number;
  /** Longest wait for a new worker to listen (ms). */
  startLimitMs: number;
  /** A message of a worker other than its standby signal (an accepted event, its metrics). */
  onMessage: (message: unknown, worker: Worker) => void;
  /** A worker exited (the status changes). */
  onExit: () => void;
  /** A retiring worker exited: its release may be pruned now. */
  onRetired: () => void;
}

export class WorkerPool {
  readonly #options: WorkerPoolOptions;
  readonly #state: SupervisorState;
  readonly #states = new Map<Worker, WorkerState>();
  #recentCrashes: number[] = [];
  /** A stop began: every worker, including one that starts now, fails its readiness. */
  #unready = false;

  constructor(options: WorkerPoolOptions) {
    this.#options = options;
    this.#state = options.state;
    // Workers accept their connections themselves, from the one listening socket the primary
    // opens and shares. Round robin (Linux's default) hands each connection over from the
    // primary and waits for the worker's acknowledgement before handing the next: under load a
    // busy worker reads one a turn of its event loop, so 50 new connections waited up to 1 s.
    // The kernel queues them instead, and whichever worker is free takes the next one.
    cluster.schedulingPolicy = cluster.SCHED_NONE;
    cluster.setupPrimary({ exec: options.workerExec, args: [], silent: false });
  }

  /** Every worker: starting, started ahead, serving or retiring. */
  workers(): Worker[] {
    return [...this.#states.keys()];
  }

  /** Workers that listen now. */
  serving(): number {
    return [...this.#states.values()].filter((s) => s.phase === 'serving').length;
  }

  /** The releases the workers run (a draining worker keeps its release until it exits). */
  releases(): string[] {
    return [...this.#states.values()].map((s) => s.release.id);
  }

  /** The first workers, on the current release; throws when one does not start. */
  async start(): Promise<void> {
    const { current, publishes } = this.#state;
    await Promise.all(
      Array.from(
        { length: this.#options.workers },
        () => this.fork(current, [], publishes).listening,
      ),
    );
  }

  /** Kills every worker at once (the server did not start). */
  kill(): void {
    for (const worker of this.#states.keys()) worker.process.kill('SIGKILL');
  }

  #workerEnv(
    release: Release,
    assetDirs: string[],
    generation: number,
    standby: boolean,
  ): NodeJS.ProcessEnv {
    const { statusFile, port, host } = this.#options;
    return {
      [WORKER_ENV.role]: '1',
      ...(standby ? { [WORKER_ENV.standby]: '1' } : {}),
      [WORKER_ENV.distDir]: release.dir,
      [WORKER_ENV.assetDirs]: JSON.stringify(assetDirs),
      ...(statusFile === null ? {} : { [WORKER_ENV.statusFile]: statusFile }),
      [WORKER_ENV.generation]: String(generation),
      PORT: String(port),
      HOST: host,
    };
  }

  /** Tells a worker started ahead to listen (at once, or once it has loaded its release). */
  letListen(worker: Worker): void {
    const state = this.#states.get(worker);
    if (state?.standby === undefined || state.standby === 'released') return;
    const wasWaiting = state.standby === 'waiting';
    state.standby = 'released';
    if (!wasWaiting) return;
    const message: ListenMessage = { type: 'serve:listen' };
    // Gone: its start fails, and the swap with it.
    sendOrDrop(worker, message);
  }

  /**
   * Forks a worker on `release` (its render cache at `generation`); `listening` resolves once it
   * listens. `standby`: it waits to listen until `letListen`.
   */
  fork(release: Release, assetDirs: string[], generation: number, standby = false): Forked {
    const worker = cluster.fork(this.#workerEnv(release, assetDirs, generation, standby));
    this.#states.set(worker, {
      release,
      phase: 'starting',
      ...(standby ? { standby: 'loading' } : {}),
    });
    worker.on('message', (message: unknown) => {
      const state = this.#states.get(worker);
      if (state?.standby !== undefined && isStandbyMessage(message)) {
        const released = state.standby === 'released';
        state.standby = 'waiting';
        if (released) this.letListen(worker);
        return;
      }
      this.#options.onMessage(message, worker);
    });
    worker.once('exit', (code, signal) => {
      this.#onExit(worker, code, signal);
    });
    const { startLimitMs } = this.#options;
    const listening = new Promise<Worker>((resolve, reject) => {
      const timer = setTimeout(() => {
        worker.off('listening', onListening);
        worker.process.kill('SIGKILL');
        reject(new Error(`did not listen within ${seconds(startLimitMs)}`));
      }, startLimitMs);
      const onListening = () => {
        clearTimeout(timer);
        const state = this.#states.get(worker);
        if (state) state.phase = 'serving';
        if (this.#unready) this.#sendUnready(worker);
        resolve(worker);
      };
      worker.once('listening', onListening);
      worker.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`exited (${signal || String(code)}) before it listened`));
      });
    });
    return { worker, listening };
  }

  /** Tells a worker to finish its connections and exit; killed past the limit. */
  retire(
    worker: Worker,
    assetDirs: string[],
    limitMs = this.#options.drainLimitMs,
    closeIdle = false,
  ): void {
    const state = this.#states.get(worker);
    if (!state || state.phase === 'retiring') return;
    state.phase = 'retiring';
    const message: DrainMessage = { type: 'serve:drain', assetDirs, limitMs, closeIdle };
    sendOrDrop(worker, message, () => worker.process.kill('SIGTERM'));
    setTimeout(() => {
      if (worker.process.exitCode === null && worker.process.signalCode === null) {
        worker.process.kill('SIGKILL');
      }
    }, limitMs + 5_000).unref();
  }

  #onExit(worker: Worker, code: number | null, signal: string | null): void {
    const state = this.#states.get(worker);
    this.#states.delete(worker);
    const { closing } = this.#state;
    this.#options.onExit();
    if (state?.phase === 'retiring' && !closing) this.#options.onRetired();
    if (state?.phase !== 'serving' || closing) return;
    // A serving worker died: replace it (backing off if it keeps dying).
    const t = Date.now();
    this.#recentCrashes = [...this.#recentCrashes.filter((at) => t - at < 60_000), t];
    const delay = Math.min(30_000, 500 * 2 ** (this.#recentCrashes.length - 1));
    this.#options.logError(
      `[serve] worker ${String(worker.process.pid)} of ${state.release.id} exited (${signal ?? String(code)}); replacing it in ${seconds(delay)}`,
    );
    setTimeout(() => {
      if (this.#state.closing) return;
      const { current: release, previous, publishes } = this.#state;
      this.fork(release, previous ? [path.join(previous.dir, 'client')] : [], publishes)
        .listening.then((replacement) => {
          // The release changed while it started: it is not needed any more.
          const { current } = this.#state;
          if (release.id !== current.id) {
            this.retire(replacement, [path.join(current.dir, 'client')]);
          }
        })
        .catch((error: unknown) => {
          this.#options.logError(`[serve] replacement worker failed: ${String(error)}`);
        });
    }, delay).unref();
  }

  /** The phase of a worker (undefined: it exited). */
  phaseOf(worker: Worker): WorkerState['phase'] | undefined {
    return this.#states.get(worker)?.phase;
  }

  /** Retires every worker not on `releaseId`, pointing them at its files meanwhile. */
  retireOthers(releaseId: string, assetDirs: string[]): void {
    for (const [worker, state] of this.#states) {
      if (state.release.id !== releaseId) this.retire(worker, assetDirs);
    }
  }

  /** The workers of the current release forget their cached renders (a publish). */
  purge(): void {
    const { current, publishes } = this.#state;
    for (const [worker, state] of this.#states) {
      if (state.release.id !== current.id) continue;
      // Exiting: its renders go with it.
      sendOrDrop(worker, { type: 'render-cache:purge', generation: publishes });
    }
  }

  #sendUnready(worker: Worker): void {
    const message: UnreadyMessage = { type: 'serve:unready' };
    sendOrDrop(worker, message);
  }

  /** Every worker's `/readyz` fails from now on (they keep serving): a stop began. */
  unready(): void {
    this.#unready = true;
    for (const worker of this.#states.keys()) this.#sendUnready(worker);
  }

  /**
   * Every worker drains within `limitMs` (default 5 s), closing idle connections; resolves
   * once all exit.
   */
  async close(limitMs = 5_000): Promise<void> {
    const exits = [...this.#states.keys()].map(
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
    for (const worker of this.#states.keys()) {
      const state = this.#states.get(worker);
      if (state) state.phase = 'serving'; // retire() again with the short limit
      this.retire(worker, [], limitMs, true);
    }
    await Promise.all(exits);
  }
}
