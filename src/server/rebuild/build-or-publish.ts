/**
 * The supervisor's build-or-publish decision (`supervisor.ts`): it owns the rebuild scheduler
 * (`scheduler.ts`) and decides what each batch of events becomes, and when a full build runs
 * with no event.
 *
 * - A publish first (`publish-batch.ts`), when every event is an edit the kept build can publish
 *   (`publishableEdits`) and the kept build made the release served.
 * - A full build otherwise, or when the kept build answers that only a full build is right,
 *   fails, is gone or does not answer in time: a new release directory, swapped in once complete
 *   (`swap.ts`), the new kept build replacing the old one.
 * - A retry (the scheduler asks again after its backoff) when a publish failed on a transient
 *   cause before its data changed (the kept build stays), or a full build failed on its own
 *   transient cause (the kept build and the release served stay).
 * - With several copies, only while this copy holds the build lease; once done, the events the
 *   batch covered are recorded as built (not when a stop gave it up: the next holder builds them).
 * - A warm-up full build when the release is served without a kept build (a restart on an
 *   existing build), and one when the served build is older than `fullBuildEveryMs`.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { oneLine } from '../../shop/faults/failures.ts';
import { reasonOf } from './activity.ts';
import { recordBuild } from '../metrics-endpoint.ts';
import { runBuild } from './builder.ts';
import { BatchPublisher, describeBatch } from './publish-batch.ts';
import type { ReleasePointers } from './release-pointers.ts';
import { logFileOf, missingBuildFile, newReleaseId, type Release } from './releases.ts';
import {
  createRebuildScheduler,
  type BuildOutcome,
  type RebuildBatch,
  type RebuildScheduler,
} from './scheduler.ts';
import type { StatusReport } from './status.ts';
import {
  iso,
  seconds,
  type RebuildSettings,
  type Serially,
  type SupervisorLog,
  type SupervisorState,
} from './supervisor-state.ts';
import type { Swap } from './swap.ts';
import type { WorkerPool } from './worker-pool.ts';

export interface BuildOrPublishOptions extends SupervisorLog {
  state: SupervisorState;
  settings: RebuildSettings;
  releasesDir: string;
  /** Written with each release (`current.json`): the upstream it was built against. */
  target: string | undefined;
  pool: WorkerPool;
  swap: Swap;
  pointers: ReleasePointers;
  status: StatusReport;
  serially: Serially;
  /** Aborted when the supervisor closes: a build under way stops. */
  signal: AbortSignal;
}

export class BuildOrPublish {
  readonly #options: BuildOrPublishOptions;
  readonly #state: SupervisorState;
  readonly #publisher: BatchPublisher;
  readonly scheduler: RebuildScheduler;

  constructor(options: BuildOrPublishOptions) {
    this.#options = options;
    this.#state = options.state;
    this.#publisher = new BatchPublisher(options);
    const { settings, status } = options;
    this.scheduler = createRebuildScheduler({
      debounceMs: settings.debounceMs,
      editQuiet: {
        isEdit: (event) => BatchPublisher.isEdit(event),
        ms: () => (this.#publisher.canPublishNow() ? (settings.publishDebounceMs ?? null) : null),
      },
      ...(settings.retry === undefined ? {} : { retry: settings.retry }),
      build: this.#run,
      onChange: () => {
        status.write();
      },
    });
  }

  #fullBuildFor(topic: 'warm-up' | 'schedule', id: string): void {
    this.#options.log(`[rebuild] a full build (${topic}: ${id})`);
    this.scheduler.notify({ source: 'supervisor', topic, id, receivedAt: Date.now() });
  }

  /** A full build to get a kept build, when the release served has none. */
  warmUp(): void {
    if (this.#options.settings.publisher === true && this.#state.kept === null) {
      this.#fullBuildFor('warm-up', `kept build to publish edits into ${this.#state.current.id}`);
    }
  }

  /**
   * A full build whenever the served one is older than `fullBuildEveryMs` (checked at most
   * every minute, only when idle, with several copies only by the lease holder); returns the
   * function that stops it (null: no schedule).
   */
  scheduleFullBuilds(): (() => void) | null {
    const every = this.#options.settings.fullBuildEveryMs ?? 0;
    if (every <= 0) return null;
    const state = this.#state;
    const schedule = setInterval(
      () => {
        const snapshot = this.scheduler.snapshot();
        if (state.closing || snapshot.phase !== 'idle') return;
        if (state.coordination !== null && !state.coordination.holds()) return;
        if (Date.now() - state.current.builtAt >= every) {
          this.#fullBuildFor(
            'schedule',
            `${state.current.id} is older than ${String(every / 3_600_000)} h`,
          );
        }
      },
      Math.min(every, 60_000),
    );
    schedule.unref();
    return () => {
      clearInterval(schedule);
    };
  }

  /**
   * A batch for the scheduler. With several copies: only while this copy holds the build lease
   * (else the holder, reading the same events from Redis, builds them), and once done, the
   * events it covered are recorded as built (a copy taking the lease later reads on from there).
   */
  readonly #run = async (batch: RebuildBatch): Promise<BuildOutcome> => {
    const { coordination } = this.#state;
    if (coordination === null) return this.#build(batch);
    // What the batch covers: every event read so far (the scheduler took them all, just now).
    const upto = coordination.position();
    if (!(await coordination.confirm())) {
      this.#options.log(
        `[rebuild] ${describeBatch(batch)}: not built here, another copy holds the build lease`,
      );
      return { ok: true };
    }
    let outcome: BuildOutcome | null = null;
    try {
      outcome = await this.#build(batch);
      return outcome;
    } finally {
      // A build tried again later has not covered its events yet: a copy taking the lease
      // meanwhile reads them again. Nor has one given up by a stop: the next holder builds them.
      const retried = outcome !== null && !outcome.ok && outcome.retry === true;
      const givenUp = this.#state.closing && outcome?.ok !== true;
      if (upto !== null && !retried && !givenUp) await coordination.built(upto);
    }
  };

  /** A batch a stop gave up (a publish past the stop's bound): said in the status and the log. */
  #givenUp(batch: RebuildBatch): BuildOutcome {
    const { status, log } = this.#options;
    const error = 'stopped (server shutting down)';
    const running = status.lastBuild?.result === 'running' ? status.lastBuild : null;
    if (running !== null) {
      const finished = Date.now();
      status.lastBuild = {
        ...running,
        result: 'failed',
        error,
        finishedAt: iso(finished),
        durationMs: finished - Date.parse(running.startedAt),
      };
      status.write();
    }
    log(`[rebuild] ${describeBatch(batch)}: given up, ${error}; not recorded as built`);
    return { ok: false, error };
  }

  /** A publish when it can be one, else a full build into a new release, swapped in. */
  async #build(batch: RebuildBatch): Promise<BuildOutcome> {
    const state = this.#state;
    const { settings, releasesDir, status, swap, pointers, serially, log, logError } =
      this.#options;
    const published = await serially(() => this.#publisher.publish(batch));
    if (published.kind === 'published') return { ok: true };
    if (published.kind === 'retry') return { ok: false, error: published.error, retry: true };
    // A stop began (a publish given up falls through to here): no full build starts.
    if (this.#state.closing) return this.#givenUp(batch);
    const reason = reasonOf(batch, published.reason);
    const started = Date.now();
    const id = newReleaseId(started);
    const dir = path.join(releasesDir, id);
    const logFile = logFileOf(releasesDir, id);
    const record = {
      id,
      startedAt: iso(started),
      result: 'running',
      kind: 'build',
      events: batch.count,
      reason,
      log: logFile,
    } as const;
    status.lastBuild = record;
    state.building = id;
    // Named in the folder before the build makes its directory (any copy may prune meanwhile).
    await state.heartbeat?.beat();
    status.write();
    log(
      `[rebuild] building ${id} (${describeBatch(batch)}${reason.fullBecause === null ? '' : `; a full build: ${reason.fullBecause}`})`,
    );
    const command = 'shell' in settings.command ? settings.command : [...settings.command, dir];
    const result = await runBuild({
      outDir: dir,
      command,
      env: settings.env,
      logFile,
      timeoutMs: settings.timeoutMs,
      signal: this.#options.signal,
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
    const { target } = this.#options;
    const release: Release = {
      id,
      dir,
      builtAt: Date.now(),
      ...(target === undefined ? {} : { target }),
    };
    if (error === null && state.closing) error = 'stopped (server shutting down)';
    const { coordination } = state;
    if (error === null && coordination !== null && !(await coordination.confirm())) {
      error = 'another copy took the build lease meanwhile: it builds for every copy';
    }
    if (error === null) {
      try {
        await serially(async () => {
          // The other copies start its workers while this one does.
          if (coordination !== null) await pointers.announceNext(release);
          try {
            await swap.swapTo(release, 0);
          } catch (swapError) {
            // The other copies drop the workers they started ahead on it.
            if (coordination !== null) await pointers.withdrawNext();
            throw swapError;
          }
          await pointers.pointAt(release, 0);
        });
      } catch (swapError) {
        inUse = true; // its workers may still be draining: pruned later
        error = `the new release did not start: ${swapError instanceof Error ? swapError.message : String(swapError)}`;
      }
    }
    state.building = null;
    const finished = Date.now();
    const took = { finishedAt: iso(finished), durationMs: finished - started };
    recordBuild('build', error === null ? 'succeeded' : 'failed', took.durationMs);
    if (error !== null) {
      builtPublisher?.stop();
      if (!inUse) await rm(dir, { recursive: true, force: true });
      status.finished({ ...record, ...took, result: 'failed', error: oneLine(error) });
      // The kept build of the release served stays: edits keep publishing into it.
      logError(
        `[rebuild] build ${id} failed after ${seconds(finished - started)}: ${oneLine(error)} (log: ${logFile}); still serving ${state.current.id}${transient ? ', tried again later' : ''}`,
      );
      status.write();
      return { ok: false, error, retry: transient };
    }
    state.kept?.publisher.stop();
    state.kept = builtPublisher === null ? null : { releaseId: id, publisher: builtPublisher };
    await pointers.prune();
    status.finished({ ...record, ...took, result: 'succeeded' });
    status.lastSuccess = { id, finishedAt: iso(finished) };
    log(
      `[rebuild] ${id} is live: built and swapped in ${seconds(finished - started)} for ${batch.count} event(s)`,
    );
    status.write();
    return { ok: true };
  }
}
