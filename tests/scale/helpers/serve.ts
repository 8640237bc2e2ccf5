/**
 * The production server as `npm start --no-build` runs it (upstream from the environment,
 * the sandbox reused on SANDBOX_PORT), with the render cache's page lifetimes taken from
 * PAGE_FRESH_MS and PAGE_STALE_MS, so a test can see a cached page outlive its freshness.
 * A child process of the post-build tests; prints `[serve] shop at URL` once listening.
 */
import { ensureUpstream } from '../../../scripts/lib/upstream.ts';
import { startServer } from '../../../src/server/http-server.ts';

const upstream = await ensureUpstream();
Object.assign(process.env, upstream.env);
const lifetime = (name: string): number | undefined =>
  process.env[name] === undefined ? undefined : Number(process.env[name]);
const pageFreshMs = lifetime('PAGE_FRESH_MS');
const pageStaleMs = lifetime('PAGE_STALE_MS');
const server = await startServer({
  distDir: process.env.DIST_DIR ?? 'dist',
  port: Number(process.env.PORT ?? 4321),
  host: '127.0.0.1',
  renderCache: {
    ...(pageFreshMs === undefined ? {} : { pageFreshMs }),
    ...(pageStaleMs === undefined ? {} : { pageStaleMs }),
  },
});
console.log(`[serve] shop at ${server.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.all([server.close(), upstream.close()]).finally(() => process.exit(0));
  });
}
