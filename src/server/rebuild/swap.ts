/**
 * The swap from one release to the next (`supervisor.ts`, on the workers of `worker-pool.ts`):
 * the new release's workers start, or those started ahead are told to listen, and once every
 * new one listens the others drain (they stop taking connections, which the new workers take
 * from the shared socket, and finish what is in flight). So no request fails, and an old
 * release's module graph leaves with its processes. A new worker that does not start fails the
 * swap, and the current release keeps serving.
 *
 * Workers started ahead (several copies): on the release another copy is about to point
 * `current.json` to (`next.json`), loaded but not listening, so the switch is at once.
 */
import path from 'node:path';
import type { Release, ReleasePointer } from './releases.ts';
import type { SupervisorLog, SupervisorState } from './supervisor-state.ts';
import type { Forked, WorkerPool } from './worker-pool.ts';

export class Swap {
  readonly #pool: WorkerPool;
  readonly #state: SupervisorState;
  readonly #workers: number;
  readonly #log: SupervisorLog['log'];
  /** Workers started ahead on the release of `next.json` (several copies). */
  #ahead: { release: Release; generation: number; started: Forked[] } | null = null;

  constructor(options: {
    pool: WorkerPool;
    state: SupervisorState;
    /** Workers per release. */
    workers: number;
    log: SupervisorLog['log'];
  }) {
    this.#pool = options.pool;
    this.#state = options.state;
    this.#workers = options.workers;
    this.#log = options.log;
  }

  /** The release the workers started ahead are on (null: none). */
  aheadOf(): string | null {
    return this.#ahead?.release.id ?? null;
  }

  /** Kills the workers started ahead that do not listen yet. */
  dropAhead(): void {
    if (this.#ahead === null) return;
    for (const { worker } of this.#ahead.started) {
      if (this.#pool.phaseOf(worker) === 'starting') worker.process.kill('SIGTERM');
    }
    this.#ahead = null;
  }

  /** Starts workers ahead on the release another copy is about to make current. */
  startAhead(pointer: ReleasePointer): void {
    this.dropAhead();
    const fallback = [path.join(this.#state.current.dir, 'client')];
    const started = Array.from({ length: this.#workers }, () =>
      this.#pool.fork(pointer.release, fallback, pointer.generation, true),
    );
    // A failure shows at the swap that uses them.
    for (const { listening } of started) listening.catch(() => undefined);
    this.#ahead = { ...pointer, started };
    this.#log(
      `[rebuild] ${pointer.release.id} is about to go live (another copy): its workers start ahead`,
    );
  }

  /**
   * Starts the workers of `release` (after `generation` publishes), or lets those started ahead
   * listen, and retires the others; throws when they do not start.
   */
  async swapTo(release: Release, generation: number): Promise<void> {
    const state = this.#state;
    const pool = this.#pool;
    const fallback = [path.join(state.current.dir, 'client')];
    const startedAhead = this.#ahead?.release.id === release.id ? this.#ahead : null;
    if (startedAhead === null) this.dropAhead();
    this.#ahead = null;
    const starting =
      startedAhead === null
        ? Array.from(
            { length: this.#workers },
            () => pool.fork(release, fallback, generation).listening,
          )
        : startedAhead.started.map(({ worker, listening }) => {
            pool.letListen(worker);
            return listening;
          });
    const started = await Promise.allSettled(starting);
    const failure = started.find((result) => result.status === 'rejected');
    if (failure) {
      // The ones that listen may have taken connections: let them finish those.
      for (const result of started) {
        if (result.status === 'fulfilled') pool.retire(result.value, []);
      }
      throw failure.reason instanceof Error ? failure.reason : new Error(String(failure.reason));
    }
    state.previous = state.current;
    state.current = release;
    state.publishes = generation;
    state.servingSince = Date.now();
    // Started ahead with another publish count: they drop what they would have cached.
    if (startedAhead !== null && startedAhead.generation !== generation) pool.purge();
    pool.retireOthers(release.id, [path.join(release.dir, 'client')]);
  }
}
