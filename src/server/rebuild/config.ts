/**
 * The server scripts' run-time settings for webhooks and rebuilds, parsed from the environment
 * by its one table (`src/shop/config/environment.ts`: rules and defaults) and validated once at
 * startup (`src/server/serve.ts`, `scripts/start.ts`): a bad value stops the
 * server with one clear line naming the variable, never a half-configured endpoint.
 *
 * - `CONTENTFUL_WEBHOOK_SECRET`: the Contentful webhook signing secret (64 characters);
 *   unset, `POST /webhooks/contentful` answers 404.
 * - `BIGCOMMERCE_WEBHOOK_SECRET`: the value of the `X-Webhook-Secret` header the BigCommerce
 *   hooks were registered with (at least 32 characters); unset, `/webhooks/bigcommerce` is 404.
 * - `REBUILD_STATUS_TOKEN`: bearer token for `GET /webhooks/status` from off the machine
 *   (at least 32 characters; loopback callers need none).
 * - `RELEASES_DIR` (default: `DIST_DIR` followed by `-releases`, so `dist-releases`): where each
 *   rebuild goes, one directory per build. Following `DIST_DIR`, two shops started from one
 *   checkout with their own builds (`npm start` beside a test run's copy) never share it by
 *   accident; copies meant to share one set it to the same folder.
 * - `SERVER_WORKERS` (default 1): server processes per release.
 * - `REBUILD_DEBOUNCE_MS` (default 1500): quiet time after an event before the build starts.
 * - `PUBLISH_DEBOUNCE_MS` (default 300): the quiet time instead when the events waiting are
 *   edits the kept build can publish (a publish takes seconds, not a full build's minutes: an
 *   edit is not held back 1.5 s to be batched; the saves of one edit, sent within it, still are).
 * - `REBUILD_TIMEOUT_MS` (default 1800000): a build running longer is stopped and failed (a full
 *   build of 100,000 products takes 10 to 15 minutes on 2 cores).
 * - `PUBLISH_EDITS` (default 1): keep each full build alive and publish edits
 *   (products, categories, brands, content entries and assets) through it, re-rendering only the pages they touch; 0: every
 *   event is a full build. Off with `REBUILD_COMMAND`.
 * - `FULL_BUILD_EVERY_HOURS` (default 24; 0: never): a full build runs when the one being
 *   served is older, however many edits were published into it since.
 * - `PUBLISH_TIMEOUT_MS` (default 90000, plus 2 s an edit): the kept build not answering a
 *   publish within it is stopped, and the edits get a full build.
 * - `FETCH_TIMEOUT_MS` (default 30000): the longest wait of each step of a fetch (connect,
 *   headers, each piece of the body) of the server's workers and of builds
 *   (src/server/fetch-deadlines.ts).
 * - `SHUTDOWN_DELAY_MS` (default 5000): on SIGTERM, how long the copy keeps serving while its
 *   `/readyz` already fails, so a balancer stops sending it requests (src/server/shutdown.ts).
 * - `SHUTDOWN_TIMEOUT_MS` (default 25000): then, how long the requests in flight have to finish.
 * - `REBUILD_COMMAND` (tests only): a shell command run instead of `scripts/build.ts`, with the
 *   new release's directory in `$RELEASE_DIR`.
 */
import path from 'node:path';
import type { LogLevel } from '../../shop/config/log.ts';
import { EnvironmentError, readEnvironment } from '../../shop/config/environment.ts';

export interface ServeConfig {
  contentfulSecret: string | undefined;
  bigcommerceSecret: string | undefined;
  statusToken: string | undefined;
  releasesDir: string;
  workers: number;
  debounceMs: number;
  publishDebounceMs: number;
  buildTimeoutMs: number;
  buildCommand: string | undefined;
  /** Commerce edits are published through the kept full build (no `REBUILD_COMMAND`). */
  publishEdits: boolean;
  /** A full build runs when the served one is older (ms; 0: never). */
  fullBuildEveryMs: number;
  /** The kept build's deadline to answer a publish (ms, plus 2 s an edit). */
  publishTimeoutMs: number;
  /** Connect, headers and body timeout of every fetch (ms). */
  fetchTimeoutMs: number;
  /** On SIGTERM: serving on while `/readyz` fails, before the drain (ms). */
  shutdownDelayMs: number;
  /** The drain's bound: requests in flight (and a publish under way) finish within it (ms). */
  shutdownTimeoutMs: number;
  /** Whether any webhook is configured, hence rebuilds run. */
  rebuilds: boolean;
  /** spec §9 log verbosity (`LOG_LEVEL`, default error). */
  logLevel: LogLevel;
}

export class ServeConfigError extends Error {
  override name = 'ServeConfigError';
}

/**
 * The default releases folder of a shop whose build is `distDir` (`DIST_DIR`, default `dist`):
 * beside it, with `-releases` appended (`dist` → `dist-releases`, `/srv/shop/dist-test/` →
 * `/srv/shop/dist-test-releases`).
 */
export function defaultReleasesDir(distDir = 'dist'): string {
  const trimmed = distDir.trim().replace(/[\\/]+$/, '');
  const base = path.basename(trimmed);
  // `.`, `..` or a root: the folder it names, spelled out.
  const named = base === '' || base === '.' || base === '..' ? path.resolve(distDir) : trimmed;
  return `${named === path.parse(named).root ? path.join(named, 'dist') : named}-releases`;
}

/** The variables of the storefront server's settings (rules and defaults: environment.ts). */
const SERVE_VARIABLES = [
  'CONTENTFUL_WEBHOOK_SECRET',
  'BIGCOMMERCE_WEBHOOK_SECRET',
  'REBUILD_STATUS_TOKEN',
  'RELEASES_DIR',
  'SERVER_WORKERS',
  'REBUILD_DEBOUNCE_MS',
  'PUBLISH_DEBOUNCE_MS',
  'REBUILD_TIMEOUT_MS',
  'REBUILD_COMMAND',
  'PUBLISH_EDITS',
  'FULL_BUILD_EVERY_HOURS',
  'PUBLISH_TIMEOUT_MS',
  'FETCH_TIMEOUT_MS',
  'SHUTDOWN_DELAY_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'LOG_LEVEL',
  'DIST_DIR',
] as const;

/** The settings of `env`, or a `ServeConfigError` naming each bad variable. */
export function readServeConfig(env: NodeJS.ProcessEnv): ServeConfig {
  let value;
  try {
    value = readEnvironment(SERVE_VARIABLES, env);
  } catch (error) {
    if (error instanceof EnvironmentError) throw new ServeConfigError(error.message);
    throw error;
  }
  return {
    contentfulSecret: value.CONTENTFUL_WEBHOOK_SECRET,
    bigcommerceSecret: value.BIGCOMMERCE_WEBHOOK_SECRET,
    statusToken: value.REBUILD_STATUS_TOKEN,
    releasesDir: value.RELEASES_DIR ?? defaultReleasesDir(value.DIST_DIR),
    workers: value.SERVER_WORKERS,
    debounceMs: value.REBUILD_DEBOUNCE_MS,
    publishDebounceMs: value.PUBLISH_DEBOUNCE_MS,
    buildTimeoutMs: value.REBUILD_TIMEOUT_MS,
    buildCommand: value.REBUILD_COMMAND,
    publishEdits: value.PUBLISH_EDITS === '1' && value.REBUILD_COMMAND === undefined,
    fullBuildEveryMs: value.FULL_BUILD_EVERY_HOURS * 3_600_000,
    publishTimeoutMs: value.PUBLISH_TIMEOUT_MS,
    fetchTimeoutMs: value.FETCH_TIMEOUT_MS,
    shutdownDelayMs: value.SHUTDOWN_DELAY_MS,
    shutdownTimeoutMs: value.SHUTDOWN_TIMEOUT_MS,
    rebuilds:
      value.CONTENTFUL_WEBHOOK_SECRET !== undefined ||
      value.BIGCOMMERCE_WEBHOOK_SECRET !== undefined,
    logLevel: value.LOG_LEVEL,
  };
}
