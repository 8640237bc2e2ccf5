/**
 * `npm run build`: builds the shop against the configured upstream (the sandbox when no
 * credentials are set), then precompresses the static output. Options: `--out-dir DIR`, inside
 * the project or anywhere else (a release folder on a shared volume): see `prepareOutDir`.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { linkProjectModules } from '../src/server/rebuild/releases.ts';
import { precompress } from './lib/precompress.ts';
import { run } from './lib/run.ts';
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

/** Builds into `outDir` (default `dist`) with the given upstream environment. */
export async function buildShop(upstream: Upstream, outDir = 'dist'): Promise<BuildResult> {
  const started = performance.now();
  const { keepOutDir } = await prepareOutDir(outDir);
  const { code, stdout } = await run(
    process.execPath,
    [
      '--max-semi-space-size=64',
      path.join(import.meta.dirname, 'lib/astro-build-child.ts'),
      path.resolve(outDir),
    ],
    { env: { ...upstream.env, ...(keepOutDir ? { BUILD_KEEP_OUT_DIR: '1' } : {}) }, capture: true },
  );
  if (code !== 0) throw new Error(`astro build failed with exit code ${code}`);
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
  };
}

if (import.meta.main) {
  loadDotEnv();
  const outIndex = process.argv.indexOf('--out-dir');
  const outDir = outIndex > 0 ? (process.argv[outIndex + 1] ?? 'dist') : 'dist';
  const upstream = await ensureUpstream();
  try {
    const result = await buildShop(upstream, outDir);
    console.log(
      `[build] ${outDir} built in ${result.seconds.toFixed(1)} s (astro ${result.astroSeconds.toFixed(1)} s, peak ${result.maxRssMb} MB), ${result.compressedFiles} files precompressed`,
    );
  } finally {
    await upstream.close();
  }
}
