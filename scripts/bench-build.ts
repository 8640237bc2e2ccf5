/**
 * `npm run bench:build`: seeds a fresh sandbox with 10,000 generated products (BENCH_PRODUCTS
 * to change) and times the full production build against it (astro build and the
 * precompression step), printing pages per second and the build's peak memory. Then, in the
 * same run, builds the same number of trivial pages with bare Astro (scripts/bench/bare-astro.ts)
 * and prints the ratio of the two: the shop's target is at most 5 × bare Astro, 10,000
 * products in 60 s or less on the 2-core reference machine, and a peak memory of 8 GB or less
 * (at 100,000 products). The build renders on a thread beside its main one
 * (`BUILD_RENDER_THREADS`, src/server/render-threads/parallel-prerender.ts).
 *
 * The shop builds cold, as on a fresh clone: Astro's cache (content store, optimised images)
 * lives in `.bench/cache`, emptied first (BENCH_WARM=1 keeps it from the previous run), so the
 * bench never shares it with another build. `BUILD_CPU_PROF=dir` profiles the shop's build
 * (scripts/lib/astro-build-child.ts; summary: scripts/lib/profile-summary.ts); BENCH_BARE=0
 * skips the bare build.
 */
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildBareAstro } from './bench/bare-astro.ts';
import { buildShop } from './build.ts';
import { ensureUpstream } from './lib/upstream.ts';

const products = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const benchDir = path.resolve('.bench');
const outDir = path.join(benchDir, 'dist');
const cacheDir = path.join(benchDir, 'cache');
const bareDir = path.join(benchDir, 'bare');
const sandboxDir = path.join(benchDir, 'sandbox');
/** Target: the shop's build at most this many times bare Astro's. */
const RATIO_TARGET = 5;
/** Target: 10,000 products built in this many seconds or less. */
const SECONDS_TARGET = 60;
const SECONDS_TARGET_PRODUCTS = 10_000;
/** Target: the build's peak memory at most this many MB (100,000 products). */
const MEMORY_TARGET_MB = 8 * 1024;

// Only this bench's folders: others (bench:serve's) may live beside them.
const fresh = [outDir, bareDir, sandboxDir, ...(process.env.BENCH_WARM === '1' ? [] : [cacheDir])];
await Promise.all(fresh.map((dir) => rm(dir, { recursive: true, force: true })));

const seedStarted = performance.now();
const upstream = await ensureUpstream({
  products,
  dataDir: sandboxDir,
  port: Number(process.env.BENCH_SANDBOX_PORT ?? 4393),
});
if (upstream.kind !== 'sandbox') {
  console.error(
    '[bench] unset BIGCOMMERCE_* (or set UPSTREAM=sandbox): the bench seeds a sandbox.',
  );
  process.exit(1);
}
const seedSeconds = (performance.now() - seedStarted) / 1000;

function countHtml(dir: string): number {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) count += countHtml(path.join(dir, entry.name));
    else if (entry.name.endsWith('.html')) count++;
  }
  return count;
}

let result: Awaited<ReturnType<typeof buildShop>>;
try {
  upstream.env.BUILD_CACHE_DIR = cacheDir;
  result = await buildShop(upstream, outDir);
} finally {
  await upstream.close();
}
const pages = countHtml(path.join(outDir, 'client'));
const bare = process.env.BENCH_BARE === '0' ? null : await buildBareAstro(bareDir, pages);

console.log(
  `\n[bench] machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(`[bench] sandbox seeded with ${products} products in ${seedSeconds.toFixed(1)} s`);
console.log(
  `[bench] astro build: ${result.astroSeconds.toFixed(1)} s (CPU ${result.astroCpuSeconds.toFixed(1)} s), peak memory ${result.maxRssMb} MB`,
);
console.log(
  `[bench] full build (astro + precompress ${result.compressedFiles} files): ${result.seconds.toFixed(1)} s`,
);
console.log(`[bench] ${pages} pages, ${(pages / result.seconds).toFixed(0)} pages/s`);
if (products <= SECONDS_TARGET_PRODUCTS) {
  console.log(
    `[bench] target ${SECONDS_TARGET_PRODUCTS} products in <= ${SECONDS_TARGET} s: ${result.seconds <= SECONDS_TARGET ? 'met' : 'MISSED'}`,
  );
}
console.log(
  `[bench] target peak memory <= ${MEMORY_TARGET_MB} MB: ${result.maxRssMb <= MEMORY_TARGET_MB ? 'met' : 'MISSED'}`,
);
if (bare) {
  const ratio = result.seconds / bare.seconds;
  console.log(
    `[bench] bare Astro, ${bare.pages} trivial pages: ${bare.seconds.toFixed(1)} s (astro build ${bare.astroSeconds.toFixed(1)} s, CPU ${bare.cpuSeconds.toFixed(1)} s, peak ${bare.maxRssMb} MB)`,
  );
  console.log(
    `[bench] ratio shop / bare = ${result.seconds.toFixed(1)} / ${bare.seconds.toFixed(1)} = ${ratio.toFixed(1)} × ` +
      `(astro build alone: ${(result.astroSeconds / bare.astroSeconds).toFixed(1)} ×, ` +
      `its CPU time: ${(result.astroCpuSeconds / bare.cpuSeconds).toFixed(1)} ×); ` +
      `target <= ${RATIO_TARGET} ×: ${ratio <= RATIO_TARGET ? 'met' : 'MISSED'}`,
  );
}
