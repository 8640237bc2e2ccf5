/**
 * What the parts of the supervisor (`supervisor.ts`) share: the rebuild settings, the one small
 * state object they read and move (the release served, the publishes into it, the kept build,
 * the build under way, the coordination and the heartbeat once they exist), and the queue that
 * runs swaps, publishes and pointer writes one at a time.
 *
 * The parts: `worker-pool.ts` (the workers and the swap), `build-or-publish.ts` (a batch of
 * events published into the live release or built in full), `release-pointers.ts` (the pointer
 * files, following another copy, pruning) and `status.ts` (`status.json`).
 */
import type { KeptPublisher } from './builder.ts';
import type { Coordination } from './coordination.ts';
import type { Release, ServingHeartbeat } from './releases.ts';
import type { RetrySettings } from './scheduler.ts';

export interface RebuildSettings {
  debounceMs: number;
  /**
   * The quiet time when every event waiting is an edit the kept build can publish (ms; default
   * `debounceMs`).
   */
  publishDebounceMs?: number;
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

/** The supervisor's state, one object shared by its parts (each moves only its own fields). */
export interface SupervisorState {
  /** The release the workers serve (moved by the swap). */
  current: Release;
  /** The release served before it (its `/_astro/` files stay reachable meanwhile). */
  previous: Release | null;
  servingSince: number;
  /** Publishes into the current release so far: its render cache generation. */
  publishes: number;
  /** Set once by `close()`. */
  closing: boolean;
  /** The release a build is writing (not pruned meanwhile). */
  building: string | null;
  /** The kept build of the current release (to publish edits into it), when there is one. */
  kept: { releaseId: string; publisher: KeptPublisher } | null;
  /** Several copies (`RebuildSettings.coordination`), once it has started. */
  coordination: Coordination | null;
  /** What this copy uses, said in the releases folder for any copy that prunes (releases.ts). */
  heartbeat: ServingHeartbeat | null;
}

/** Runs tasks one at a time, in order; a failed task does not stop the next. */
export type Serially = <T>(task: () => Promise<T>) => Promise<T>;

export function createSerially(): Serially {
  let exclusive: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const result = exclusive.then(task, task);
    exclusive = result.catch(() => undefined);
    return result;
  };
}

/** The supervisor's two log outputs. */
export interface SupervisorLog {
  log: (line: string) => void;
  logError: (line: string) => void;
}

export const iso = (ms: number) => new Date(ms).toISOString();

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
