/**
 * What the supervisor says of its rebuilds (`supervisor.ts`): the status `GET /webhooks/status`
 * answers, written atomically to `status.json` (or, with several copies sharing the releases
 * folder, to this copy's `copies/{name}.json`) whenever it changes, one write at a time with at
 * most one queued behind it. What a full build or publish under way says (`running`) and the
 * durations its expected end comes from, kept in the file across restarts: `activity.ts`.
 */
import { readFile } from 'node:fs/promises';
import { oneLine } from '../../shop/faults/failures.ts';
import {
  durationsFromStatus,
  runActivity,
  withDuration,
  type RunActivity,
  type RunDurations,
  type RunReason,
} from './activity.ts';
import { writeJsonAtomic } from './releases.ts';
import type { RebuildScheduler } from './scheduler.ts';
import { iso, type SupervisorState } from './supervisor-state.ts';

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
  /** Why it runs: the events, a warm-up or the schedule; a full build says why it is not a publish. */
  reason?: RunReason;
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
interface RetryStatus {
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
  /**
   * The full build or publish under way: what (its reason), since when, and its expected end
   * (`activity.ts`); null when none runs.
   */
  running: RunActivity | null;
  /**
   * The durations (ms) of the last successful full builds and publishes of this releases
   * folder, newest last: what `running.expectedEnd` comes from. Read back at start.
   */
  durations: RunDurations;
  updatedAt: string;
}

export interface StatusInputs {
  state: SupervisorState;
  /** Rebuilds are on (else nothing is written). */
  rebuilds: boolean;
  /** This copy's name, with several copies (else null). */
  name: string | null;
  statusFile: string;
  scheduler: () => RebuildScheduler | null;
  /** The last release of another copy this one could not switch to (release-pointers.ts). */
  switchFailed: () => { id: string; error: string; at: number } | null;
  /** Workers listening now (worker-pool.ts). */
  servingWorkers: () => number;
  logError: (line: string) => void;
}

export class StatusReport {
  /** The last build or publish, and the last that succeeded (moved by build-or-publish.ts). */
  lastBuild: BuildRecord | null = null;
  lastSuccess: RebuildStatus['lastSuccess'] = null;
  #durations: RunDurations = { build: [], publish: [] };
  readonly #inputs: StatusInputs;
  // Status writes in order (each atomic), at most one queued behind the one running.
  #writing: Promise<void> = Promise.resolve();
  #writeQueued = false;

  constructor(inputs: StatusInputs) {
    this.#inputs = inputs;
  }

  /**
   * Reads back the durations the status file kept (a restart): a missing or unreadable file,
   * or one without valid durations, leaves none known.
   */
  async restore(): Promise<void> {
    if (!this.#inputs.rebuilds) return;
    const text = await readFile(this.#inputs.statusFile, 'utf8').catch(() => null);
    if (text === null) return;
    try {
      this.#durations = durationsFromStatus(JSON.parse(text));
    } catch {
      // Not JSON (a file cut short): none known.
    }
  }

  /** A run finished: its record becomes `lastBuild`, and a success counts for the expected end. */
  finished(record: BuildRecord): void {
    this.lastBuild = record;
    const kind = record.kind ?? 'build';
    if (record.result === 'succeeded' && record.durationMs !== undefined) {
      this.#durations = {
        ...this.#durations,
        [kind]: withDuration(this.#durations[kind], record.durationMs),
      };
    }
  }

  #running(): RunActivity | null {
    const record = this.lastBuild;
    if (record?.result !== 'running' || record.reason === undefined) return null;
    return runActivity(
      { kind: record.kind ?? 'build', startedAt: record.startedAt, reason: record.reason },
      this.#durations,
    );
  }

  #copies(): CopiesStatus | null {
    const { coordination } = this.#inputs.state;
    const { name } = this.#inputs;
    if (coordination === null || name === null) return null;
    const switchFailed = this.#inputs.switchFailed();
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
  }

  status(): RebuildStatus {
    const { state } = this.#inputs;
    const snapshot = this.#inputs.scheduler()?.snapshot();
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
              : this.lastBuild?.result === 'failed'
                ? 'failed'
                : 'idle',
      rebuilds: this.#inputs.rebuilds,
      current: {
        id: state.current.id,
        builtAt: iso(state.current.builtAt),
        servingSince: iso(state.servingSince),
        generation: state.publishes,
      },
      copies: this.#copies(),
      lastBuild: this.lastBuild,
      lastSuccess: this.lastSuccess,
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
      workers: this.#inputs.servingWorkers(),
      running: this.#running(),
      durations: this.#durations,
      updatedAt: iso(Date.now()),
    };
  }

  /** Writes the status file (rebuilds on), after the write under way. */
  write(): void {
    if (!this.#inputs.rebuilds || this.#writeQueued) return;
    this.#writeQueued = true;
    const { statusFile, logError } = this.#inputs;
    this.#writing = this.#writing.then(async () => {
      this.#writeQueued = false;
      await writeJsonAtomic(statusFile, this.status()).catch((error: unknown) => {
        logError(`[rebuild] could not write ${statusFile}: ${String(error)}`);
      });
    });
  }

  /** Resolves once the writes asked so far are done. */
  written(): Promise<void> {
    return this.#writing;
  }
}
