/**
 * What a full build or a publish under way says in the status (`status.ts`), so editors and
 * operators see what is happening: WHAT runs and why (the events and their topics, a warm-up,
 * the schedule; for a full build, why it is not a publish), SINCE WHEN, and the EXPECTED END.
 *
 * The expected end is the start plus the median duration of the last `DURATIONS_KEPT`
 * successful runs of the same kind (full builds, publishes) of this releases folder; null when
 * none is known. The durations are kept in the status file, so they survive a restart.
 */
import * as z from 'zod';
import { oneLine } from '../../shop/faults/failures.ts';
import { publishableEdits } from './publish-edits.ts';
import type { RebuildBatch, RebuildEvent } from './scheduler.ts';

/** Successful runs of each kind whose durations the expected end comes from. */
export const DURATIONS_KEPT = 5;

/** Entities a reason names at most (the batch's first ones). */
const IDS_NAMED = 10;

/** Topics a reason names at most. */
const TOPICS_NAMED = 20;

export type RunKind = 'build' | 'publish';

/** Why a full build or a publish runs. */
export interface RunReason {
  /**
   * `events`: webhook notifications; `warm-up`: a build kept alive to publish edits into the
   * release served; `schedule`: the served build is older than `FULL_BUILD_EVERY_HOURS`.
   */
  cause: 'events' | 'warm-up' | 'schedule';
  /** Events the run covers (repeats of one entity included). */
  events: number;
  /** Distinct entities per source and topic (`Entry.publish`, `store/product/updated`...). */
  topics: { source: string; topic: string; count: number }[];
  /** The entities named, the first `IDS_NAMED` (`source:id`). */
  ids: string[];
  /** A full build: why it is not a publish (null: a publish). */
  fullBecause: string | null;
}

/** A run under way, as the status says it. */
export interface RunActivity {
  kind: RunKind;
  reason: RunReason;
  /** When it started (ISO). */
  since: string;
  /** The median of the last successful runs of this kind (ms; null: none known). */
  expectedMs: number | null;
  /** `since` plus `expectedMs` (ISO; null: none known). */
  expectedEnd: string | null;
}

/** The durations (ms) of the last successful runs of each kind, newest last. */
export interface RunDurations {
  build: number[];
  publish: number[];
}

const durationList = z
  .array(z.number().int().nonnegative().max(86_400_000))
  .max(100)
  .transform((list) => list.slice(-DURATIONS_KEPT));

/** What a status file says of the durations; anything else is ignored. */
const durationsSchema = z.object({
  durations: z.object({ build: durationList, publish: durationList }),
});

/** The durations a status file (parsed JSON) holds, or none when it holds none that are valid. */
export function durationsFromStatus(value: unknown): RunDurations {
  const parsed = durationsSchema.safeParse(value);
  return parsed.success ? parsed.data.durations : { build: [], publish: [] };
}

/** `durations` with one more success of `ms`, the oldest beyond `DURATIONS_KEPT` dropped. */
export function withDuration(durations: readonly number[], ms: number): number[] {
  return [...durations, Math.max(0, Math.round(ms))].slice(-DURATIONS_KEPT);
}

/** The expected duration: the median of the last `DURATIONS_KEPT` (null: none). */
export function expectedDuration(durations: readonly number[]): number | null {
  const last = durations.slice(-DURATIONS_KEPT).toSorted((a, b) => a - b);
  if (last.length === 0) return null;
  const middle = Math.floor(last.length / 2);
  const upper = last[middle] ?? 0;
  return last.length % 2 === 1 ? upper : Math.round(((last[middle - 1] ?? upper) + upper) / 2);
}

/** A run started at `startedAt` (ISO), as the status says it. */
export function runActivity(
  run: { kind: RunKind; startedAt: string; reason: RunReason },
  durations: RunDurations,
): RunActivity {
  const expectedMs = expectedDuration(durations[run.kind]);
  const start = Date.parse(run.startedAt);
  return {
    kind: run.kind,
    reason: run.reason,
    since: run.startedAt,
    expectedMs,
    expectedEnd:
      expectedMs === null || Number.isNaN(start)
        ? null
        : new Date(start + expectedMs).toISOString(),
  };
}

const supervisorCause = (event: RebuildEvent): RunReason['cause'] | null =>
  event.source !== 'supervisor'
    ? null
    : event.topic === 'warm-up' || event.topic === 'schedule'
      ? event.topic
      : null;

/** Why `batch` runs; `fullBecause`: why it is a full build (null: a publish). */
export function reasonOf(batch: RebuildBatch, fullBecause: string | null): RunReason {
  const topics = new Map<string, { source: string; topic: string; count: number }>();
  for (const event of batch.events) {
    const key = `${event.source} ${event.topic}`;
    const known = topics.get(key);
    if (known !== undefined) known.count += 1;
    else if (topics.size < TOPICS_NAMED) {
      topics.set(key, { source: event.source, topic: oneLine(event.topic), count: 1 });
    }
  }
  const cause = batch.events.map(supervisorCause).find((found) => found !== null) ?? 'events';
  return {
    cause,
    events: batch.count,
    topics: [...topics.values()],
    ids: batch.events
      .filter((event) => event.source !== 'supervisor')
      .slice(0, IDS_NAMED)
      .map((event) => `${event.source}:${oneLine(event.id)}`),
    fullBecause: fullBecause === null ? null : oneLine(fullBecause),
  };
}

/**
 * Why a batch is not edits the kept build may publish (null: it is): too many events, a
 * warm-up or scheduled build, or an event the kept build does not take.
 */
export function notEdits(batch: RebuildBatch, maxEvents: number): string | null {
  if (!batch.complete) return `more than ${String(maxEvents)} distinct events`;
  for (const event of batch.events) {
    const cause = supervisorCause(event);
    if (cause !== null) return `a ${cause} build is a full build`;
    if (publishableEdits([event]) === null) {
      return `${event.source} ${oneLine(event.topic)} is not an edit the kept build publishes`;
    }
  }
  return batch.events.length === 0 ? 'no edit in the batch' : null;
}
