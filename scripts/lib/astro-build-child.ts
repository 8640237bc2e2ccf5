/**
 * Runs `astro build` in this process and prints one JSON line with its peak memory, so the
 * parent (scripts/build.ts, scripts/bench-build.ts) can report it. Arguments: [outDir].
 */
import { build } from 'astro';

const outDir = process.argv[2];
const started = performance.now();
await build({ ...(outDir ? { outDir } : {}), logLevel: 'warn' });
const usage = process.resourceUsage();
console.log(
  `ASTRO_BUILD_RESULT ${JSON.stringify({
    seconds: (performance.now() - started) / 1000,
    maxRssMb: Math.round(usage.maxRSS / 1024),
  })}`,
);
