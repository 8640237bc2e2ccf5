/**
 * `npm run bench:build`: seeds a fresh sandbox with 10,000 generated products (BENCH_PRODUCTS
 * to change) and times the full production build against it (astro build and the
 * precompression step), printing pages per second and the build's peak memory. Target on the
 * 2-core reference machine: 10,000 products built in 60 s or less.
 */
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildShop } from './build.ts';
import { ensureUpstream } from './lib/upstream.ts';

const products = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const benchDir = path.resolve('.bench');
const outDir = path.join(benchDir, 'dist');
await rm(benchDir, { recursive: true, force: true });

const seedStarted = performance.now();
const upstream = await ensureUpstream({
  products,
  dataDir: path.join(benchDir, 'sandbox'),
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

try {
  const result = await buildShop(upstream, outDir);
  const pages = countHtml(path.join(outDir, 'client'));
  const target = 60;
  console.log(
    `\n[bench] machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
  );
  console.log(`[bench] sandbox seeded with ${products} products in ${seedSeconds.toFixed(1)} s`);
  console.log(
    `[bench] astro build: ${result.astroSeconds.toFixed(1)} s, peak memory ${result.maxRssMb} MB`,
  );
  console.log(
    `[bench] full build (astro + precompress ${result.compressedFiles} files): ${result.seconds.toFixed(1)} s`,
  );
  console.log(`[bench] ${pages} pages, ${(pages / result.seconds).toFixed(0)} pages/s`);
  console.log(
    `[bench] target ${products} products in <= ${target} s: ${result.seconds <= target ? 'met' : 'MISSED'}`,
  );
} finally {
  await upstream.close();
}
