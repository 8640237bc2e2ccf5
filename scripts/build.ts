/**
 * `npm run build`: builds the shop against the configured upstream (the sandbox when no
 * credentials are set), then precompresses the static output. Options: `--out-dir DIR`.
 */
import path from 'node:path';
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

/** Builds into `outDir` (default `dist`) with the given upstream environment. */
export async function buildShop(upstream: Upstream, outDir = 'dist'): Promise<BuildResult> {
  const started = performance.now();
  const { code, stdout } = await run(
    process.execPath,
    [
      '--max-semi-space-size=64',
      path.join(import.meta.dirname, 'lib/astro-build-child.ts'),
      path.resolve(outDir),
    ],
    { env: upstream.env, capture: true },
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
