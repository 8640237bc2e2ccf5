/**
 * Runs `astro build` in this process and prints one JSON line with its duration, CPU time and
 * peak memory, so the parent (scripts/build.ts, scripts/bench-build.ts) can report it.
 * Arguments: [outDir] [root] (root: the project folder, default the working directory).
 * `BUILD_CACHE_DIR` sets Astro's cache folder (content store, optimised images; default
 * `node_modules/.astro`), so a bench builds cold and never shares that store with another build
 * running at the same time.
 *
 * `BUILD_KEEP_OUT_DIR=1` tells Astro not to empty the output folder (scripts/build.ts has
 * emptied it, keeping the `node_modules` link a folder outside the project needs).
 *
 * `BUILD_PUBLISHER=1` keeps the process alive once the build is done, rendering pages again on
 * request over IPC (publisher-loop.ts): the rebuild supervisor publishes an edit this way,
 * without building the whole site. Without an IPC channel it has no effect. The build's render
 * threads are then kept too (src/server/render-threads/render-pool.ts), and stopped with it:
 * a publish's pages render on them as well as on this thread.
 *
 * `BUILD_LOG_LEVEL` (debug, info, warn, error, silent; default warn) sets Astro's log level.
 *
 * Every fetch of the process (the catalogue read, Astro's picture fetch, a publish's pictures)
 * has connect, headers and body timeouts of `FETCH_TIMEOUT_MS` (src/server/fetch-deadlines.ts).
 * A build that fails prints its cause as one `BUILD_FAILURE {json}` line (the error's and its
 * causes' messages, secrets removed, and whether it may pass: src/server/rebuild/failure.ts),
 * which the rebuild supervisor shows in its status and uses to retry, then exits with code 1.
 *
 * `BUILD_CPU_PROF=dir` profiles the build's main thread (V8's sampling profiler, every 0.5 ms)
 * into `dir/astro-build-{time}.cpuprofile`, with source maps on the bundled chunks (kept under
 * `dir/chunks-{time}/`, since Astro deletes its prerender bundle after the build) and Astro's
 * phase timings logged: `node scripts/lib/profile-summary.ts dir/...cpuprofile` reads it.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { build } from 'astro';
import { fetchTimeoutFromEnv, installFetchDeadlines } from '../../src/server/fetch-deadlines.ts';
import { describeFailure, failureLine } from '../../src/server/rebuild/failure.ts';
import { sendOrDrop } from '../../src/server/rebuild/messages.ts';
import {
  addPictures,
  LISTING_STORE_FILE,
  updateListingStore,
} from '../../src/shop/loaders/listing-store.ts';
import {
  createPagePublisher,
  prerenderAppCapture,
} from '../../src/server/publish/page-publisher.ts';
import { decide, indexed } from '../../src/server/publish/publish-decide.ts';
import { keepRenderThreads, takeRenderPool } from '../../src/server/render-threads/render-pool.ts';
import { createPublishData } from '../../src/server/publish/publish-data.ts';
import {
  servePublishRequests,
  type PublisherReply,
} from '../../src/server/publish/publisher-loop.ts';

// A build is a production build, whatever the environment it was started from says: vitest
// sets NODE_ENV=test and copies its `import.meta.env` into the environment (DEV=1...), which a
// build started from a test would take as its own (`import.meta.env.DEV` true).
process.env.NODE_ENV = 'production';
for (const name of ['DEV', 'PROD', 'MODE', 'SSR']) Reflect.deleteProperty(process.env, name);

const outDir = process.argv[2];
const root = process.argv[3];
const profileDir = process.env.BUILD_CPU_PROF;
const cacheDir = process.env.BUILD_CACHE_DIR;
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
// `BUILD_LOG_LEVEL=info` prints Astro's own log (pages, phase timings, each optimised picture).
const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
const logLevelEnv = process.env.BUILD_LOG_LEVEL;
const logLevel = LOG_LEVELS.find((level) => level === logLevelEnv);
if (logLevelEnv !== undefined && logLevel === undefined) {
  throw new Error(`BUILD_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${logLevelEnv}"`);
}

let session: Session | null = null;
if (profileDir) {
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
}

installFetchDeadlines(fetchTimeoutFromEnv(process.env));

/** Prints the cause of a failure on its one line and ends the process (module comment). */
function fail(error: unknown): never {
  console.error(error);
  console.log(failureLine(describeFailure(error)));
  process.exit(1);
}
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

const keepOutDir = process.env.BUILD_KEEP_OUT_DIR === '1';
const capture = process.env.BUILD_PUBLISHER === '1' && process.send ? prerenderAppCapture() : null;
// A publish's pages render on the build's render threads too (render-pool.ts).
if (capture) keepRenderThreads();
const started = performance.now();
const cpuStarted = process.cpuUsage();
/** Astro's build; a failure prints its cause (`fail`). */
async function runBuild(): Promise<void> {
  try {
    await build({
      ...(outDir ? { outDir } : {}),
      ...(root ? { root } : {}),
      ...(cacheDir ? { cacheDir: path.resolve(cacheDir) } : {}),
      logLevel: logLevel ?? (profileDir ? 'info' : 'warn'),
      ...(profileDir || keepOutDir
        ? {
            vite: {
              build: {
                ...(profileDir ? { sourcemap: true } : {}),
                ...(keepOutDir ? { emptyOutDir: false } : {}),
              },
            },
          }
        : {}),
      ...(capture && !profileDir ? { integrations: [capture.integration] } : {}),
      ...(profileDir
        ? {
            integrations: [
              ...(capture ? [capture.integration] : []),
              {
                name: 'keep-chunks-for-profile',
                hooks: {
                  // The prerender bundle is deleted once pages are written: keep it (and its maps)
                  // so the profile's positions can be read back to the sources.
                  'astro:build:generated': async ({ dir }) => {
                    const target = path.resolve(profileDir, `chunks-${stamp}`);
                    await mkdir(target, { recursive: true });
                    const dist = path.dirname(dir.pathname.replace(/\/$/, ''));
                    await cp(dist, target, {
                      recursive: true,
                      filter: (src) => !/\/client(\/|$)/.test(src),
                    }).catch((error: unknown) => {
                      console.warn(`[profile] could not keep the chunks: ${String(error)}`);
                    });
                  },
                },
              },
            ],
          }
        : {}),
    });
  } catch (error) {
    fail(error);
  }
}

await runBuild();
const seconds = (performance.now() - started) / 1000;
// CPU time of every thread of the process (Vite's, sharp's and the bundler's native ones too):
// a machine busy with other work stretches the wall time, much less this.
const cpu = process.cpuUsage(cpuStarted);

if (session && profileDir) {
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  await mkdir(profileDir, { recursive: true });
  const file = path.resolve(profileDir, `astro-build-${stamp}.cpuprofile`);
  await writeFile(file, JSON.stringify(profile));
  console.log(`[profile] ${file}`);
}

const usage = process.resourceUsage();
console.log(
  `ASTRO_BUILD_RESULT ${JSON.stringify({
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    maxRssMb: Math.round(usage.maxRSS / 1024),
  })}`,
);

const app = capture?.app();
const threads = takeRenderPool();
if (capture && app && outDir) {
  const pictures = capture.pictures();
  if (pictures === null) {
    throw new Error(
      'the build kept no picture registration (astro:build:ssr): publishes could not give pages the pictures a build gives',
    );
  }
  const send = (reply: PublisherReply) => sendOrDrop(process, reply);
  const listingsFile = path.join(path.resolve(outDir), 'server', LISTING_STORE_FILE);
  const hasListings = existsSync(listingsFile);
  console.info(
    `[publish] ready: a publish's pages render here and on ${String(threads?.size ?? 0)} kept render thread(s)`,
  );
  await servePublishRequests({
    publisher: createPagePublisher({
      app,
      clientDir: path.join(path.resolve(outDir), 'client'),
      origin: capture.origin(),
      pictures,
      threads,
      ...(hasListings
        ? {
            recordPictures: (entries) => {
              addPictures(listingsFile, entries);
            },
          }
        : {}),
    }),
    data: createPublishData(process.env),
    decide,
    send,
    pages: new Set(capture.builtPages()),
    sitemaps: capture.sitemaps(),
    listings: hasListings
      ? (before, after) => {
          updateListingStore(listingsFile, indexed(before.catalogue), indexed(after.catalogue));
        }
      : null,
  });
}
// Told to stop (or its parent gone): the kept threads go too.
await threads?.stop();
