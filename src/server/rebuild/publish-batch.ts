/**
 * A batch of edits published into the live release by its kept build (`build-or-publish.ts`):
 * the kept build re-renders the pages the edits touch, the workers drop their cached renders
 * (`render-cache:purge`) and `current.json` counts one more publish. The kept build has
 * `publishTimeoutMs` (90 s by default) plus 2 s an edit, at most a full build's time limit, to
 * answer; past it, or when it answers that only a full build is right, or fails, it is stopped
 * and the batch gets a full build. A publish that failed on a transient cause before its data
 * changed keeps the kept build, and the scheduler asks again after its backoff.
 */
import { oneLine } from '../../shop/faults/failures.ts';
import { notEdits, reasonOf } from './activity.ts';
import { recordBuild } from '../metrics-endpoint.ts';
import { parsePublisherReply, publishableEdits, type Edit } from './publish-edits.ts';
import type { ReleasePointers } from './release-pointers.ts';
import { isSharedRelease, logFileOf } from './releases.ts';
import { MAX_BATCH_EVENTS, type RebuildBatch, type RebuildEvent } from './scheduler.ts';
import type { StatusReport } from './status.ts';
import {
  iso,
  seconds,
  type RebuildSettings,
  type SupervisorLog,
  type SupervisorState,
} from './supervisor-state.ts';
import type { WorkerPool } from './worker-pool.ts';

/** Default of `RebuildSettings.publishTimeoutMs`. */
const DEFAULT_PUBLISH_TIMEOUT_MS = 90_000;

/**
 * How long the kept build may take to publish `edits`: `baseMs` plus 2 s an edit, at most the
 * time of a full build (`capMs`).
 */
function publishDeadline(edits: readonly Edit[], baseMs: number, capMs: number): number {
  return Math.min(capMs, baseMs + 2_000 * edits.length);
}

/** The batch in a log line: its first event, and how many more. */
export const describeBatch = (batch: RebuildBatch) => {
  const { first } = batch;
  const what = `${first.source} ${oneLine(first.topic)} ${oneLine(first.id)}`;
  return batch.count === 1 ? what : `${what} and ${batch.count - 1} more`;
};

export interface BatchPublisherOptions extends SupervisorLog {
  state: SupervisorState;
  settings: RebuildSettings;
  releasesDir: string;
  pool: WorkerPool;
  pointers: ReleasePointers;
  status: StatusReport;
}

export class BatchPublisher {
  readonly #options: BatchPublisherOptions;
  readonly #state: SupervisorState;
  #requestIds = 0;

  constructor(options: BatchPublisherOptions) {
    this.#options = options;
    this.#state = options.state;
  }

  /** Whether `event` is an edit a publish can take (`publishableEdits`). */
  static isEdit(event: RebuildEvent): boolean {
    return publishableEdits([event]) !== null;
  }

  /**
   * Whether edits would be published now rather than built in full, as far as can be told
   * before reading them (the scheduler's quiet time for them, `PUBLISH_DEBOUNCE_MS`).
   */
  canPublishNow(): boolean {
    const { kept } = this.#state;
    return (
      this.#options.settings.publisher === true &&
      kept?.releaseId === this.#state.current.id &&
      kept.publisher.alive()
    );
  }

  /**
   * Publishes a batch of edits through the current release's kept build: `published` when
   * done, `full` when it must be built in full (logged; `reason` says why, for the status),
   * `retry` when it failed on a transient cause before its data changed (the kept build stays;
   * the scheduler asks again later).
   */
  async publish(
    batch: RebuildBatch,
  ): Promise<
    { kind: 'published' } | { kind: 'full'; reason: string } | { kind: 'retry'; error: string }
  > {
    const state = this.#state;
    const { settings, releasesDir, status, pool, pointers, log, logError } = this.#options;
    const full = (reason: string) => ({ kind: 'full', reason }) as const;
    const edits = batch.complete ? publishableEdits(batch.events) : null;
    if (edits === null) return full(notEdits(batch, MAX_BATCH_EVENTS) ?? 'not edits');
    if (settings.publisher !== true) return full('publishing edits is off (PUBLISH_EDITS)');
    const { kept } = state;
    if (kept?.releaseId !== state.current.id) return full('no kept build of the release served');
    // Several copies: only into the release they all serve.
    if (state.coordination !== null && !isSharedRelease(releasesDir, state.current)) {
      return full('the release served is not in the shared releases folder');
    }
    if (!kept.publisher.alive()) {
      state.kept = null;
      return full('the kept build has stopped');
    }
    const started = Date.now();
    const id = `${state.current.id}+${String(state.publishes + 1)}`;
    const record = {
      id,
      startedAt: iso(started),
      result: 'running',
      kind: 'publish',
      events: batch.count,
      reason: reasonOf(batch, null),
      log: logFileOf(releasesDir, state.current.id),
    } as const;
    status.lastBuild = record;
    status.write();
    this.#requestIds += 1;
    const deadlineMs = publishDeadline(
      edits,
      settings.publishTimeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS,
      settings.timeoutMs,
    );
    let deadline: ReturnType<typeof setTimeout> | undefined;
    const answer = await Promise.race([
      kept.publisher
        .request({ type: 'publish', id: this.#requestIds, edits })
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
    const took = { finishedAt: iso(finished), durationMs: finished - started };
    // Failed but tried again later, or handed to a full build (the metrics' outcomes).
    const retried = reply?.type === 'publish-failed' && reply.transient && !reply.dataChanged;
    const outcome = reply?.type === 'published' ? 'succeeded' : retried ? 'failed' : 'full';
    recordBuild('publish', outcome, took.durationMs);
    if (retried) {
      // Its data is as it was: it publishes these edits again once the upstream answers.
      status.finished({ ...record, ...took, result: 'failed', error: oneLine(reply.error) });
      logError(`[rebuild] ${describeBatch(batch)}: the publish failed: ${oneLine(reply.error)}`);
      status.write();
      return { kind: 'retry', error: reply.error };
    }
    if (reply?.type !== 'published') {
      const why =
        reply === null ? 'no answer' : reply.type === 'publish-full' ? reply.reason : reply.error;
      log(`[rebuild] ${describeBatch(batch)}: a full build instead of a publish (${oneLine(why)})`);
      // It may hold the edit's data now, which its pages do not show, or be stuck in a fetch:
      // it publishes nothing more.
      kept.publisher.stop();
      state.kept = null;
      return full(
        reply === null
          ? 'the kept build gave no valid answer'
          : reply.type === 'publish-full'
            ? `the kept build asks for one: ${why}`
            : `the publish failed: ${why}`,
      );
    }
    state.publishes += 1;
    pool.purge();
    await pointers.pointAt(state.current, state.publishes);
    status.finished({
      ...record,
      ...took,
      result: 'succeeded',
      pages: { written: reply.written.length, removed: reply.removed.length },
    });
    status.lastSuccess = { id, finishedAt: iso(finished) };
    log(
      `[rebuild] ${describeBatch(batch)}: published into ${state.current.id} in ${seconds(finished - started)} (${String(reply.written.length)} page(s) rendered, ${String(reply.removed.length)} removed, ${String(reply.pictures.length)} new picture(s))`,
    );
    status.write();
    return { kind: 'published' };
  }
}
