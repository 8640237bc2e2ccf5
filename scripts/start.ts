/**
 * `npm start`: the shop at http://localhost:4321. Uses the sandbox when no BigCommerce
 * credentials are configured (started here, or reused if already running), builds the shop
 * when the build is missing or older than the sources or was made against another upstream,
 * then serves it. `--no-build` serves the existing build as it is.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildShop } from './build.ts';
import { startServer } from './serve.ts';
import { ensureUpstream, loadDotEnv } from './lib/upstream.ts';
import { newestMtime } from './lib/sources.ts';

const SOURCES = ['src', 'public', 'astro.config.mjs', 'package-lock.json'];

loadDotEnv();
const distDir = process.env.DIST_DIR ?? 'dist';
const stampFile = path.join(distDir, 'build-stamp.json');
const upstream = await ensureUpstream();
Object.assign(process.env, upstream.env);

const target = `${upstream.env.BIGCOMMERCE_API_URL ?? ''}/${upstream.env.BIGCOMMERCE_STORE_HASH ?? ''}`;
const sourcesTime = Math.max(...(await Promise.all(SOURCES.map(newestMtime))));
const stamp = existsSync(stampFile)
  ? (JSON.parse(readFileSync(stampFile, 'utf8')) as { target?: string; builtAt?: number })
  : {};
const fresh = stamp.target === target && (stamp.builtAt ?? 0) >= sourcesTime;

if (!process.argv.includes('--no-build') && !fresh) {
  console.log(`[start] building the shop against ${upstream.kind} (${target})...`);
  const result = await buildShop(upstream, distDir);
  writeFileSync(stampFile, JSON.stringify({ target, builtAt: Date.now() }));
  console.log(`[start] built in ${result.seconds.toFixed(1)} s`);
}

const server = await startServer({
  distDir,
  port: Number(process.env.PORT ?? 4321),
  host: process.env.HOST ?? '127.0.0.1',
});
console.log(`[start] the shop runs at ${server.url} (upstream: ${upstream.kind})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.all([server.close(), upstream.close()]).finally(() => process.exit(0));
  });
}
