/**
 * The storefront server's entry (`npm run serve`; `npm start` builds first). Run as a script,
 * it is the supervisor (`rebuild/supervisor.ts`, the cluster primary: rebuilds and swaps
 * releases) and, in the processes it forks, a worker serving one release with `startServer`
 * (`http-server.ts`).
 */
import cluster from 'node:cluster';
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStore } from '../shop/state/index.ts';
import { shareCompressionCores } from './encoding.ts';
import { readServeConfig, ServeConfigError, type ServeConfig } from './rebuild/config.ts';
import {
  isListenMessage,
  isUnreadyMessage,
  parseDrainMessage,
  parseMetricsRequest,
  parsePurgeMessage,
  sendOrDrop,
  WORKER_ENV,
  type EventMessage,
  type StandbyMessage,
} from './rebuild/messages.ts';
import { readCurrentRelease, type Release } from './rebuild/releases.ts';
import { installFetchDeadlines } from './fetch-deadlines.ts';
import { pictureCacheDirOf } from './pictures/picture-cache.ts';
import { startSupervisor, type Supervisor } from './rebuild/supervisor.ts';
import { copyName } from './rebuild/coordination.ts';
import { shareReleasesFolder } from './rebuild/build-settings.ts';
import type { KeptPublisher } from './rebuild/builder.ts';
import { createWebhookRoutes } from './webhooks/routes.ts';
import { readEnvironment } from '../shop/config/environment.ts';
import { log, setLogLevel } from '../shop/config/log.ts';
import { startServer, type RunningServer } from './http-server.ts';
import { stopOnSignals } from './shutdown.ts';
import { registerWorkerMetrics, sendMetrics } from './metrics.ts';

/** Worker mode: serves the release the supervisor names, until told to drain. */
async function runWorker(config: ServeConfig): Promise<void> {
  // Each of the SERVER_WORKERS processes compresses in its own threads: they share the cores.
  shareCompressionCores(config.workers);
  // Every fetch of the worker (on-demand reads, pictures) has a deadline (FETCH_TIMEOUT_MS).
  installFetchDeadlines(config.fetchTimeoutMs);
  const settings = readEnvironment([
    'METRICS_PORT',
    'BIGCOMMERCE_STORE_HASH',
    'REDIS_URL',
    'STATE_DIR',
    'PORT',
    'HOST',
  ]);
  // The process metrics (event loop, GC observers) only when the supervisor serves them.
  if (settings.METRICS_PORT !== undefined) registerWorkerMetrics();
  const distDir = process.env[WORKER_ENV.distDir] ?? 'dist';
  const assetDirs = JSON.parse(process.env[WORKER_ENV.assetDirs] ?? '[]') as string[];
  const statusFile = process.env[WORKER_ENV.statusFile];
  // Always answered, so a webhook sent to a shop without its secret gets 404 and one log line.
  const webhooks = createWebhookRoutes({
    contentfulSecret: config.contentfulSecret,
    bigcommerceSecret: config.bigcommerceSecret,
    bigcommerceStoreHash: settings.BIGCOMMERCE_STORE_HASH,
    statusToken: config.statusToken,
    statusFile,
    // Replays are refused by every copy: the shop's shared store (Redis or the state file),
    // opened on the first accepted notification.
    store: () => createStore({ redisUrl: settings.REDIS_URL, stateDir: settings.STATE_DIR }),
    onEvent: (event) => {
      const message: EventMessage = { type: 'rebuild:event', event };
      sendOrDrop(process, message);
    },
  });
  const generation = Number(process.env[WORKER_ENV.generation] ?? 0);
  // Started ahead: it waits to listen until its release goes live (`serve:listen`).
  const standby = process.env[WORKER_ENV.standby] === '1';
  let goLive: () => void = () => undefined;
  const live = new Promise<void>((resolve) => {
    goLive = resolve;
  });
  let server: RunningServer | null = null;
  // A stop began before the server was up: it starts unready.
  const unready = { told: false };
  const stopReadiness = () => {
    unready.told = true;
    server?.stopReadiness();
  };
  const drain = (limitMs: number, closeIdle: boolean) => {
    if (server === null) process.exit(0); // not listening yet: nothing to finish
    void server.drain(limitMs, closeIdle).finally(() => process.exit(0));
  };
  // Before loading the release: a word from the supervisor meanwhile is not lost.
  process.on('message', (message) => {
    if (isListenMessage(message)) {
      goLive();
      return;
    }
    if (isUnreadyMessage(message)) {
      stopReadiness();
      return;
    }
    const metrics = parseMetricsRequest(message);
    if (metrics !== null) {
      sendMetrics(metrics.id).catch((error: unknown) => {
        log.error({ err: error }, '[metrics] a worker could not send its metrics');
      });
      return;
    }
    const purge = parsePurgeMessage(message);
    if (purge !== null) {
      server?.purgeRenders(purge.generation);
      log.info(
        `[serve] worker ${String(process.pid)}: cached renders dropped (publish ${String(purge.generation)})`,
      );
      return;
    }
    const parsed = parseDrainMessage(message);
    if (parsed === null) return;
    for (const dir of parsed.assetDirs) server?.addAssetFallback(dir);
    drain(parsed.limitMs, parsed.closeIdle);
  });
  // Ctrl-C reaches the whole process group: the supervisor decides when workers stop.
  process.on('SIGINT', () => undefined);
  // A SIGTERM of its own (the whole process group stopped): the same drained stop, by itself.
  process.once('SIGTERM', () => {
    stopReadiness();
    setTimeout(() => {
      drain(config.shutdownTimeoutMs, true);
    }, config.shutdownDelayMs);
  });
  server = await startServer({
    distDir,
    pictureCacheDir: pictureCacheDirOf({
      releasesDir: config.releasesDir,
      rebuilds: config.rebuilds,
      distDir,
    }),
    port: settings.PORT,
    host: settings.HOST,
    assetFallbackDirs: assetDirs,
    webhooks,
    renderCache: { generation: Number.isSafeInteger(generation) ? generation : 0 },
    ...(standby
      ? {
          beforeListen: () => {
            const ready: StandbyMessage = { type: 'serve:standby' };
            sendOrDrop(process, ready);
            return live;
          },
        }
      : {}),
  });
  if (unready.told) server.stopReadiness();
}

/**
 * The release to serve at start: the newest complete one of `distDir` (built at `distBuiltAt`)
 * and the releases folder's current one, when that one was built against `target` after
 * `notBefore` (the sources' time); else `distDir`.
 */
export async function initialRelease(options: {
  distDir: string;
  distBuiltAt: number;
  releasesDir: string;
  target?: string;
  notBefore?: number;
}): Promise<Release> {
  const dist: Release = {
    id: path.basename(path.resolve(options.distDir)),
    dir: path.resolve(options.distDir),
    builtAt: options.distBuiltAt,
  };
  const release = await readCurrentRelease(options.releasesDir);
  if (
    release === null ||
    release.builtAt <= dist.builtAt ||
    release.builtAt < (options.notBefore ?? 0) ||
    (options.target !== undefined && release.target !== options.target)
  ) {
    return dist;
  }
  return release;
}

/** When `distDir` was built: its build stamp (`npm start`), else its SSR entry's time. */
export function distBuiltAt(distDir: string): number {
  const stampFile = path.join(distDir, 'build-stamp.json');
  if (existsSync(stampFile)) {
    try {
      const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as { builtAt?: unknown };
      if (typeof stamp.builtAt === 'number') return stamp.builtAt;
    } catch {
      // Fall back to the file time.
    }
  }
  try {
    return statSync(path.join(distDir, 'server', 'entry.mjs')).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Starts the supervisor on `initial` with the settings of `config`: rebuilds (when a webhook
 * secret is set) run `scripts/build.ts` with this process's environment, kept alive to publish
 * commerce edits unless `PUBLISH_EDITS=0` (`publisher`: the kept build that made `initial`).
 * With `REDIS_URL`, the copies sharing `RELEASES_DIR` build once for all of them
 * (`src/server/rebuild/coordination.ts`).
 */
export function superviseShop(options: {
  config: ServeConfig;
  initial: Release;
  port: number;
  host: string;
  target?: string;
  publisher?: KeptPublisher;
}): Promise<Supervisor> {
  const { config } = options;
  const publish = config.publishEdits; // off with REBUILD_COMMAND (config.ts)
  const values = readEnvironment(['REDIS_URL', 'METRICS_PORT', 'METRICS_HOST']);
  const redisUrl = (values.REDIS_URL ?? '').trim();
  return startSupervisor({
    workerExec: import.meta.filename,
    initial: options.initial,
    port: options.port,
    host: options.host,
    workers: config.workers,
    releasesDir: config.releasesDir,
    ...(options.target === undefined ? {} : { target: options.target }),
    ...(options.publisher === undefined ? {} : { initialPublisher: options.publisher }),
    // Never public: a port of its own, on the loopback unless METRICS_HOST says otherwise.
    ...(values.METRICS_PORT === undefined
      ? {}
      : { metrics: { port: values.METRICS_PORT, host: values.METRICS_HOST } }),
    rebuild: config.rebuilds
      ? {
          debounceMs: config.debounceMs,
          publishDebounceMs: config.publishDebounceMs,
          timeoutMs: config.buildTimeoutMs,
          command:
            config.buildCommand === undefined
              ? [
                  process.execPath,
                  path.join(import.meta.dirname, '../../scripts/build.ts'),
                  ...(publish ? ['--publisher'] : []),
                  '--out-dir',
                ]
              : { shell: config.buildCommand },
          env: { ...process.env },
          publisher: publish,
          fullBuildEveryMs: config.fullBuildEveryMs,
          publishTimeoutMs: config.publishTimeoutMs,
          ...(redisUrl === '' ? {} : { coordination: { url: redisUrl } }),
        }
      : null,
  });
}

/**
 * Exits with the reason when the releases folder holds another shop's releases (other build
 * settings) that a live copy serves (`lib/build-settings.ts`); else this copy's settings are
 * the folder's. Before anything is built or served from it.
 */
export async function shareReleasesOrExit(
  scope: string,
  releasesDir: string,
  port: number,
): Promise<void> {
  const share = await shareReleasesFolder({
    releasesDir,
    env: process.env,
    self: copyName(os.hostname(), port),
  });
  if (share.ok) {
    if (share.recorded === 'replaced') {
      console.log(
        `[${scope}] ${releasesDir}: the build settings changed (${share.differ.join(', ')}) and no copy serves from it: its releases are now this shop's`,
      );
    }
    return;
  }
  console.error(`[${scope}] ${share.message}`);
  process.exit(1);
}

/** The drained stop's settings (`SHUTDOWN_DELAY_MS`, `SHUTDOWN_TIMEOUT_MS`). */
export function drainSettings(config: ServeConfig): { delayMs: number; timeoutMs: number } {
  return { delayMs: config.shutdownDelayMs, timeoutMs: config.shutdownTimeoutMs };
}

/** Where the drained stop's lines go: the start and end on stdout, failures to the log. */
export const shutdownLog = {
  info: (line: string) => {
    console.log(line);
  },
  error: (line: string) => {
    log.error(line);
  },
};

/** The settings of the environment, or exit with the reason (startup). */
export function serveConfigOrExit(scope: string): ServeConfig {
  try {
    const config = readServeConfig(process.env);
    setLogLevel(config.logLevel);
    return config;
  } catch (error) {
    if (!(error instanceof ServeConfigError)) throw error;
    console.error(`[${scope}] ${error.message}`);
    process.exit(1);
  }
}

if (import.meta.main && cluster.isWorker && process.env[WORKER_ENV.role] === '1') {
  await runWorker(serveConfigOrExit('serve'));
} else if (import.meta.main) {
  // `npm run serve` serves DIST_DIR as it is (benches and tests name their build); rebuilds
  // go to RELEASES_DIR and are swapped in. `npm start` also resumes the newest release.
  const config = serveConfigOrExit('serve');
  const settings = readEnvironment(['DIST_DIR', 'PORT', 'HOST']);
  const distDir = settings.DIST_DIR;
  const port = settings.PORT;
  if (config.rebuilds) await shareReleasesOrExit('serve', config.releasesDir, port);
  const supervisor = await superviseShop({
    config,
    initial: {
      id: path.basename(path.resolve(distDir)),
      dir: path.resolve(distDir),
      builtAt: distBuiltAt(distDir),
    },
    port,
    host: settings.HOST,
  });
  console.log(`[serve] shop at ${supervisor.url} (release ${supervisor.current().id})`);
  stopOnSignals(supervisor, drainSettings(config), shutdownLog);
}
