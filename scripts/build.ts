/**
 * `npm run build`: builds the shop against the configured upstream (the sandbox when no
 * credentials are set), then precompresses the static output. Options: `--out-dir DIR`, inside
 * the project or anywhere else (a release folder on a shared volume): see `prepareOutDir`.
 * `--publisher` (with an IPC channel: the rebuild supervisor) keeps the build alive afterwards
 * to publish edits (lib/publisher-loop.ts): its messages are relayed both ways, and
 * `publisher-ready` goes up once the output is complete, precompressed files included.
 *
 * A failed build ends with exit code 1 and its cause on one `BUILD_FAILURE {json}` line (the
 * astro child's, or this script's own: src/server/rebuild/failure.ts), never a stack line.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  describeFailure,
  failureLine,
  readFailureLine,
  type FailureCause,
} from '../src/server/rebuild/failure.ts';
import { sendOrDrop } from '../src/server/rebuild/messages.ts';
import { linkProjectModules } from '../src/server/rebuild/releases.ts';
import { precompress } from '../src/server/precompress.ts';
import { run, spawnCaptured } from './lib/run.ts';
import { ensureUpstream, loadDotEnv, type Upstream } from './lib/upstream.ts';

export interface BuildResult {
  seconds: number;
  astroSeconds: number;
  /** CPU time of the astro build process, all its threads. */
  astroCpuSeconds: number;
  maxRssMb: number;
  compressedFiles: number;
}

/** The project folder (this file's parent's parent) and its packages. */
const projectRoot = path.resolve(import.meta.dirname, '..');
const projectModules = path.join(projectRoot, 'node_modules');

function isInside(dir: string, parent: string): boolean {
  const relative = path.relative(parent, dir);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Readies an output folder. Inside the project, Astro empties it itself. Outside, the bundles
 * Astro writes there (and imports while it pre-renders, then the server at run time) import
 * packages the way Node resolves them, from the folders above them, where the project's
 * `node_modules` is not: the folder gets a `node_modules` link to the project's, and is emptied
 * here, keeping that link, since Astro's own emptying would remove it. A folder holding the
 * project, or the file system's root, is refused rather than emptied. Returns whether Astro
 * must leave the folder as it is.
 */
export async function prepareOutDir(outDir: string): Promise<{ keepOutDir: boolean }> {
  const dir = path.resolve(outDir);
  if (isInside(dir, projectRoot)) return { keepOutDir: false };
  if (isInside(projectRoot, dir) || dir === path.parse(dir).root) {
    throw new Error(
      `--out-dir ${dir} holds the project or is the root: choose a folder of its own`,
    );
  }
  await mkdir(dir, { recursive: true });
  for (const entry of await readdir(dir)) {
    if (entry !== 'node_modules') {
      await rm(path.join(dir, entry), { recursive: true, force: true });
    }
  }
  await linkProjectModules(dir, projectModules);
  return { keepOutDir: true };
}

/** The kept-alive build of `--publisher`, once its output is complete. */
export interface KeptBuild {
  /** Relays a message to the build. */
  send(message: unknown): void;
  /** Messages from the build (after `publisher-ready`). */
  onMessage(listener: (message: unknown) => void): void;
  /** Resolves with the build's exit code. */
  exited: Promise<number>;
  /** Signals the build's process. */
  kill(signal: NodeJS.Signals): void;
}

/**
 * Runs the astro build child; with `keep`, over IPC, resolving once it says `publisher-ready`
 * (the build is done and the child stays to publish), with a handle on it.
 */
function runAstroChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  keep: boolean,
): Promise<{ code: number; stdout: string; kept: KeptBuild | null }> {
  if (!keep) {
    return run(process.execPath, args, { env, capture: true }).then((r) => ({ ...r, kept: null }));
  }
  const { child, stdout, exited } = spawnCaptured(process.execPath, args, {
    env: { ...env, BUILD_PUBLISHER: '1' },
    ipc: true,
  });
  return new Promise((resolve, reject) => {
    const onReady = (message: unknown) => {
      if ((message as { type?: unknown } | null)?.type !== 'publisher-ready') return;
      child.off('message', onReady);
      resolve({
        code: 0,
        stdout: stdout(),
        kept: {
          send: (m) => {
            sendOrDrop(child, m);
          },
          onMessage: (listener) => {
            child.on('message', listener);
          },
          exited,
          kill: (signal) => {
            child.kill(signal);
          },
        },
      });
    };
    child.on('message', onReady);
    exited.then((code) => {
      resolve({ code: code === 0 ? 1 : code, stdout: stdout(), kept: null });
    }, reject);
  });
}

/** The astro child failed: its cause, as it printed it. */
export class AstroBuildError extends Error {
  override name = 'AstroBuildError';
  readonly failure: FailureCause;

  constructor(failure: FailureCause) {
    super(`astro build failed: ${failure.message}`);
    this.failure = failure;
  }
}

/** Builds into `outDir` (default `dist`) with the given upstream environment. */
export async function buildShop(
  upstream: Upstream,
  outDir = 'dist',
  options: { keep?: boolean } = {},
): Promise<BuildResult & { kept: KeptBuild | null }> {
  const started = performance.now();
  const { keepOutDir } = await prepareOutDir(outDir);
  const { code, stdout, kept } = await runAstroChild(
    [
      '--max-semi-space-size=64',
      path.join(import.meta.dirname, 'lib/astro-build-child.ts'),
      path.resolve(outDir),
    ],
    { ...upstream.env, ...(keepOutDir ? { BUILD_KEEP_OUT_DIR: '1' } : {}) },
    options.keep === true,
  );
  if (code !== 0) {
    throw new AstroBuildError(
      readFailureLine(stdout) ?? {
        message: `exit code ${String(code)} without a cause (see the output above)`,
        transient: false,
      },
    );
  }
  if (options.keep === true && kept === null) {
    throw new Error('the build ended without keeping itself to publish');
  }

  const line = stdout.split('\n').find((l) => l.startsWith('ASTRO_BUILD_RESULT '));
  const result = JSON.parse(line?.slice('ASTRO_BUILD_RESULT '.length) ?? '{}') as {
    seconds?: number;
    cpuSeconds?: number;
    maxRssMb?: number;
  };
  const compressedFiles = await precompress(path.join(outDir, 'client'));
  return {
    seconds: (performance.now() - started) / 1000,
    astroSeconds: result.seconds ?? Number.NaN,
    astroCpuSeconds: result.cpuSeconds ?? Number.NaN,
    maxRssMb: result.maxRssMb ?? Number.NaN,
    compressedFiles,
    kept,
  };
}

if (import.meta.main) {
  loadDotEnv();
  const outIndex = process.argv.indexOf('--out-dir');
  const outDir = outIndex > 0 ? (process.argv[outIndex + 1] ?? 'dist') : 'dist';
  // Publishing needs someone to publish for: the supervisor, over IPC.
  const keep = process.argv.includes('--publisher') && process.send !== undefined;
  const upstream = await ensureUpstream().catch((error: unknown) => {
    console.log(failureLine(describeFailure(error)));
    process.exit(1);
  });
  try {
    const result = await buildShop(upstream, outDir, { keep });
    console.log(
      `[build] ${outDir} built in ${result.seconds.toFixed(1)} s (astro ${result.astroSeconds.toFixed(1)} s, peak ${result.maxRssMb} MB), ${result.compressedFiles} files precompressed`,
    );
    const { kept } = result;
    if (kept !== null) {
      kept.onMessage((message) => sendOrDrop(process, message));
      process.on('message', (message) => {
        kept.send(message);
      });
      // The supervisor gone, the kept build goes too.
      process.once('disconnect', () => {
        kept.send({ type: 'stop' });
      });
      process.send?.({ type: 'publisher-ready' });
      process.exitCode = await kept.exited;
    }
  } catch (error) {
    const failure = error instanceof AstroBuildError ? error.failure : describeFailure(error);
    console.error(`[build] ${outDir} failed: ${failure.message}`);
    console.log(failureLine(failure));
    process.exitCode = 1;
  } finally {
    await upstream.close();
  }
}
