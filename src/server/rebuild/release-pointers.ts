/**
 * The supervisor's release pointers and pruning (`supervisor.ts`, files of `releases.ts`):
 *
 * - `current.json` names what this copy serves after each swap and publish, so a restart resumes
 *   there and the other copies follow (with several copies, written only by the holder of the
 *   build lease); `next.json` names the release about to go live, so they start its workers
 *   ahead.
 * - Following (several copies): when another copy changes `current.json`, a new release gets
 *   this copy's workers swapped in (no request fails), a new publish count has them drop their
 *   cached renders. A release that does not start here leaves the current one serving, tried
 *   again in 30 s. A pointer that does not parse is logged once (until it changes) and ignored.
 * - Pruning: deletes the releases no one needs, keeping the current, the previous, the one
 *   being built, those a worker still runs, those any live copy's heartbeat names and, with
 *   Redis, what every copy says it uses. With several copies only the lease holder prunes.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { oneLine } from '../../shop/faults/failures.ts';
import {
  CURRENT_FILE,
  isSharedRelease,
  NEXT_FILE,
  pruneReleases,
  readReleasePointer,
  writeCurrentRelease,
  writeNextRelease,
  type Release,
  type ReleasePointer,
} from './releases.ts';
import {
  seconds,
  type Serially,
  type SupervisorLog,
  type SupervisorState,
} from './supervisor-state.ts';
import type { Swap } from './swap.ts';
import type { WorkerPool } from './worker-pool.ts';

export interface ReleasePointersOptions extends SupervisorLog {
  state: SupervisorState;
  releasesDir: string;
  /** Rebuilds are on (else nothing is pruned). */
  rebuilds: boolean;
  pool: WorkerPool;
  swap: Swap;
  /** The supervisor's queue of swaps, publishes and pointer writes. */
  serially: Serially;
  /** The status changed. */
  onChange: () => void;
}

const pointerKey = (pointer: ReleasePointer) =>
  `${pointer.release.id}#${String(pointer.generation)}`;

export class ReleasePointers {
  readonly #options: ReleasePointersOptions;
  readonly #state: SupervisorState;
  /** The pointer this copy acted on: the one at start, then each written or followed. */
  #seenPointer: string | null = null;
  /** The same for `next.json` (several copies): a release to start workers on ahead. */
  #seenNext: string | null = null;
  #switchFailed: { key: string; id: string; error: string; at: number } | null = null;
  /** A problem of each pointer file, logged once until it changes. */
  readonly #lastProblems = new Map<string, string>();
  #followQueued = false;
  #pruning: Promise<void> = Promise.resolve();

  constructor(options: ReleasePointersOptions) {
    this.#options = options;
    this.#state = options.state;
  }

  /**
   * Reads the pointers at start: the publish count of `current.json` carries over a restart on
   * its release; with several copies (`shared`), `next.json` as already seen.
   */
  async readAtStart(shared: boolean): Promise<void> {
    const { releasesDir, rebuilds } = this.#options;
    const atStart = rebuilds ? await readReleasePointer(releasesDir) : null;
    const startPointer = atStart !== null && !('problem' in atStart) ? atStart : null;
    if (startPointer?.release.id === this.#state.current.id) {
      this.#state.publishes = startPointer.generation;
    }
    this.#seenPointer = startPointer === null ? null : pointerKey(startPointer);
    if (shared) {
      const next = await readReleasePointer(releasesDir, NEXT_FILE);
      if (next !== null && !('problem' in next)) this.#seenNext = pointerKey(next);
    }
  }

  /** The last release of another copy this one could not switch to (null: none). */
  switchFailed(): { id: string; error: string; at: number } | null {
    return this.#switchFailed;
  }

  /** The releases this copy needs: the current, the previous, those its workers run. */
  releasesUsed(): Set<string> {
    const { current, previous, building } = this.#state;
    const used = new Set([current.id, ...(previous ? [previous.id] : [])]);
    if (building !== null) used.add(building);
    for (const id of this.#options.pool.releases()) used.add(id);
    return used;
  }

  /**
   * Points `current.json` at what this copy now serves: the release restarts resume, and the
   * other copies follow. With several copies, only while this one holds the build lease.
   */
  async pointAt(release: Release, generation: number): Promise<void> {
    const { releasesDir, logError } = this.#options;
    const { coordination } = this.#state;
    if (!isSharedRelease(releasesDir, release)) return;
    if (coordination !== null && !coordination.holds()) {
      logError(
        `[rebuild] ${release.id} (publish ${String(generation)}) is served here only: the build lease was lost, another copy builds`,
      );
      return;
    }
    try {
      await writeCurrentRelease(releasesDir, release, generation);
      this.#seenPointer = pointerKey({ release, generation });
    } catch (error) {
      logError(
        `[rebuild] could not point ${releasesDir}/current.json at ${release.id}: ${String(error)}`,
      );
    }
  }

  /** Writes `next.json` (several copies): the other copies start its workers while this one does. */
  async announceNext(release: Release): Promise<void> {
    const { releasesDir, logError } = this.#options;
    await writeNextRelease(releasesDir, release).catch((nextError: unknown) => {
      logError(`[rebuild] could not write ${NEXT_FILE}: ${String(nextError)}`);
    });
    this.#seenNext = pointerKey({ release, generation: 0 });
  }

  /** Removes `next.json`: the other copies drop the workers they started ahead on it. */
  async withdrawNext(): Promise<void> {
    await rm(path.join(this.#options.releasesDir, NEXT_FILE), { force: true });
  }

  /** A pointer file, read; a problem is logged once (until it changes) and gives null. */
  async #read(file: typeof CURRENT_FILE | typeof NEXT_FILE): Promise<ReleasePointer | null> {
    const read = await readReleasePointer(this.#options.releasesDir, file);
    if (read === null || !('problem' in read)) {
      this.#lastProblems.delete(file);
      return read;
    }
    if (this.#lastProblems.get(file) !== read.problem) {
      this.#options.logError(`[rebuild] ${read.problem}: not followed`);
    }
    this.#lastProblems.set(file, read.problem);
    return null;
  }

  /**
   * Acts on `current.json` when another copy changed it, and before that on a newer release in
   * `next.json` (its workers start ahead).
   */
  async #follow(): Promise<void> {
    const state = this.#state;
    const { pool, swap, log, logError, onChange } = this.#options;
    if (state.closing) return;
    const next = await this.#read(NEXT_FILE);
    // The builder's swap failed (it removed next.json): the workers started ahead go.
    if (swap.aheadOf() !== null && swap.aheadOf() !== next?.release.id) swap.dropAhead();
    if (next !== null && pointerKey(next) !== this.#seenNext) {
      this.#seenNext = pointerKey(next);
      const newer =
        next.release.id !== state.current.id && next.release.builtAt > state.current.builtAt;
      if (newer && swap.aheadOf() !== next.release.id) swap.startAhead(next);
    }
    const read = await this.#read(CURRENT_FILE);
    if (read === null) return;
    const key = pointerKey(read);
    if (key === this.#seenPointer) return;
    const { release, generation } = read;
    if (release.id === state.current.id) {
      this.#seenPointer = key;
      if (generation === state.publishes) return;
      state.publishes = generation;
      pool.purge();
      log(
        `[rebuild] ${state.current.id}: publish ${String(generation)} by another copy, cached renders dropped`,
      );
      onChange();
      return;
    }
    if (this.#switchFailed?.key === key && Date.now() - this.#switchFailed.at < 30_000) return;
    const started = Date.now();
    try {
      await swap.swapTo(release, generation);
    } catch (error) {
      const why = oneLine(error instanceof Error ? error.message : String(error));
      this.#switchFailed = { key, id: release.id, error: why, at: Date.now() };
      logError(
        `[rebuild] could not switch to ${release.id} (built by another copy): ${why}; still serving ${state.current.id}`,
      );
      setTimeout(this.requestFollow, 30_000).unref();
      onChange();
      return;
    }
    this.#seenPointer = key;
    this.#switchFailed = null;
    // A kept build publishes into the release it made, which is not served any more.
    state.kept?.publisher.stop();
    state.kept = null;
    log(
      `[rebuild] ${release.id} is live: switched in ${seconds(Date.now() - started)} (built by another copy)`,
    );
    onChange();
  }

  /** Follows the pointer files once more, in the supervisor's queue (at most one waiting). */
  readonly requestFollow = (): void => {
    if (this.#followQueued || this.#state.closing) return;
    this.#followQueued = true;
    void this.#options
      .serially(async () => {
        this.#followQueued = false;
        await this.#follow();
      })
      .catch((error: unknown) => {
        this.#options.logError(`[rebuild] could not follow current.json: ${String(error)}`);
      });
  };

  /**
   * Deletes the releases no one needs: all but the current, the previous, the one being built
   * and those a worker still runs (a draining worker keeps its release until it exits, then
   * this runs again). With several copies, only the holder of the build lease prunes, and it
   * keeps what every copy says it uses.
   */
  prune(): Promise<void> {
    const { releasesDir, rebuilds, logError } = this.#options;
    if (!rebuilds) return this.#pruning;
    this.#pruning = this.#pruning.then(async () => {
      const state = this.#state;
      if (state.coordination !== null && !state.coordination.holds()) return;
      // Read once the folder is listed: what any live copy sharing it says it uses (a copy
      // names a build before starting it), and what the pointers name.
      const keep = async () => {
        const { coordination, heartbeat } = state;
        const kept = heartbeat === null ? this.releasesUsed() : await heartbeat.inUse();
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
    return this.#pruning;
  }
}
