/**
 * The server scripts' run-time settings for webhooks and rebuilds, read from the environment
 * and validated once at startup (`src/server/serve.ts`, `scripts/start.ts`): a bad value stops the
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
 * - `REBUILD_COMMAND` (tests only): a shell command run instead of `scripts/build.ts`, with the
 *   new release's directory in `$RELEASE_DIR`.
 */
import path from 'node:path';
import * as z from 'zod';
import { DEFAULT_LOG_LEVEL, LOG_LEVELS, type LogLevel } from '../../shop/config/log.ts';
import { DEFAULT_FETCH_TIMEOUT_MS } from '../fetch-deadlines.ts';

export interface ServeConfig {
  contentfulSecret: string | undefined;
  bigcommerceSecret: string | undefined;
  statusToken: string | undefined;
  releasesDir: string;
  workers: number;
  debounceMs: number;
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
  /** Whether any webhook is configured, hence rebuilds run. */
  rebuilds: boolean;
  /** spec §9 log verbosity (`LOG_LEVEL`, default error). */
  logLevel: LogLevel;
}

export class ServeConfigError extends Error {
  override name = 'ServeConfigError';
}

/** Unset or blank → undefined. */
const blankAsUnset = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const secret = (rule: z.ZodString) => z.preprocess(blankAsUnset, rule.optional());

const integer = (min: number, max: number, fallback: number) =>
  z.preprocess(
    blankAsUnset,
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().int().min(min).max(max))
      .optional()
      .transform((value) => value ?? fallback),
  );

// Printable ASCII without spaces: a header value, copied from a dashboard without surprises.
const PRINTABLE = /^[\x21-\x7e]+$/;

const schema = z.object({
  CONTENTFUL_WEBHOOK_SECRET: secret(
    z
      .string()
      .length(64, 'must be 64 characters (Contentful webhook signing secret)')
      .regex(PRINTABLE, 'must be printable characters without spaces'),
  ),
  BIGCOMMERCE_WEBHOOK_SECRET: secret(
    z
      .string()
      .min(32, 'must be at least 32 characters')
      .max(256, 'must be at most 256 characters')
      .regex(PRINTABLE, 'must be printable characters without spaces'),
  ),
  REBUILD_STATUS_TOKEN: secret(
    z
      .string()
      .min(32, 'must be at least 32 characters')
      .max(256, 'must be at most 256 characters')
      .regex(PRINTABLE, 'must be printable characters without spaces'),
  ),
  RELEASES_DIR: z.preprocess(blankAsUnset, z.string().optional()),
  SERVER_WORKERS: integer(1, 16, 1),
  REBUILD_DEBOUNCE_MS: integer(0, 600_000, 1500),
  REBUILD_TIMEOUT_MS: integer(10_000, 6 * 3_600_000, 1_800_000),
  REBUILD_COMMAND: z.preprocess(blankAsUnset, z.string().optional()),
  PUBLISH_EDITS: z.preprocess(blankAsUnset, z.enum(['0', '1']).default('1')),
  FULL_BUILD_EVERY_HOURS: integer(0, 24 * 365, 24),
  PUBLISH_TIMEOUT_MS: integer(1_000, 6 * 3_600_000, 90_000),
  FETCH_TIMEOUT_MS: integer(100, 600_000, DEFAULT_FETCH_TIMEOUT_MS),
  LOG_LEVEL: z.preprocess(blankAsUnset, z.enum(LOG_LEVELS).default(DEFAULT_LOG_LEVEL)),
});

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

/** The settings of `env`, or a `ServeConfigError` naming each bad variable. */
export function readServeConfig(env: NodeJS.ProcessEnv): ServeConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new ServeConfigError(`invalid environment: ${problems.join('; ')}`);
  }
  const value = parsed.data;
  return {
    contentfulSecret: value.CONTENTFUL_WEBHOOK_SECRET,
    bigcommerceSecret: value.BIGCOMMERCE_WEBHOOK_SECRET,
    statusToken: value.REBUILD_STATUS_TOKEN,
    releasesDir:
      value.RELEASES_DIR ??
      defaultReleasesDir(env.DIST_DIR?.trim() === '' ? undefined : env.DIST_DIR),
    workers: value.SERVER_WORKERS,
    debounceMs: value.REBUILD_DEBOUNCE_MS,
    buildTimeoutMs: value.REBUILD_TIMEOUT_MS,
    buildCommand: value.REBUILD_COMMAND,
    publishEdits: value.PUBLISH_EDITS === '1' && value.REBUILD_COMMAND === undefined,
    fullBuildEveryMs: value.FULL_BUILD_EVERY_HOURS * 3_600_000,
    publishTimeoutMs: value.PUBLISH_TIMEOUT_MS,
    fetchTimeoutMs: value.FETCH_TIMEOUT_MS,
    rebuilds:
      value.CONTENTFUL_WEBHOOK_SECRET !== undefined ||
      value.BIGCOMMERCE_WEBHOOK_SECRET !== undefined,
    logLevel: value.LOG_LEVEL,
  };
}
