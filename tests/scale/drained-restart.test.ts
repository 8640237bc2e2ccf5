/**
 * The drained restart (src/server/shutdown.ts, docs/operations.md "Probes and the drained
 * stop"): two `npm start --no-build` copies of the build `npm test` made, sharing one Redis and
 * one releases folder, behind a test balancer that polls each copy's `/readyz` every 100 ms and
 * sends requests round robin to the copies that answered 200, never retrying one. Under
 * autocannon (static pages, on-demand listing views and search results, API reads), copy A is
 * stopped with SIGTERM, waited for, started again on its port and waited for until ready, then
 * copy B the same way: not one request fails, each copy exits 0 after its drain, and the build
 * lease moves to the copy that stayed when its holder stops. Also: the build's sitemaps and
 * files name no probe. Run by `npm test` after the build (vitest project `scale`); by hand:
 * `DIST_DIR=dist-x SANDBOX_PORT=N npx vitest run --project scale tests/scale/drained-restart.test.ts`.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Result } from 'autocannon';
import { describe, expect, test } from 'vitest';
import { statusWhen, type ShopChild } from '../integration/helpers/rebuild.ts';
import { redisAvailable } from '../integration/helpers/redis.ts';
import { startBalancer, type TestBalancer } from './helpers/balancer.ts';
import { useTwoCopies } from './helpers/copies.ts';
import { autocannon, failuresOf, loadRequests, NO_FAILURES } from './helpers/load.ts';
import { DIST_DIR } from './helpers/suite.ts';

const SECRET = 'd'.repeat(64);
const DELAY_MS = 600; // above the balancer's 100 ms poll, several times over

/** Polls `until` every 50 ms, at most `timeoutMs`. */
async function waitFor(until: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await until())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${String(timeoutMs)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(redisAvailable())('a drained restart of two copies under load', () => {
  const copies = useTwoCopies({
    name: 'drained-restart',
    env: (base) => ({
      ...process.env,
      ...base,
      SESSION_SECRET: 'drained-restart-test-session-secret-0123456789',
      CONTENTFUL_WEBHOOK_SECRET: SECRET,
      REBUILD_COMMAND: `cp -r "${path.resolve(DIST_DIR)}/." "$RELEASE_DIR"`,
      SHUTDOWN_DELAY_MS: String(DELAY_MS),
      SHUTDOWN_TIMEOUT_MS: '15000',
    }),
  });

  test('the probes are no page of the build', async () => {
    const client = path.join(DIST_DIR, 'client');
    const sitemaps = (await readdir(client)).filter((name) => /^sitemap-.*\.xml$/.test(name));
    expect(sitemaps.length).toBeGreaterThan(0);
    for (const sitemap of sitemaps) {
      expect(await readFile(path.join(client, sitemap), 'utf8')).not.toMatch(/healthz|readyz/);
    }
    const files = await readdir(client, { recursive: true });
    expect(files.filter((name) => /healthz|readyz/.test(name))).toEqual([]);
  });

  test('A then B restarted with SIGTERM under load: 0 failed requests, each exit 0', async () => {
    const { holder, follower, start } = copies();
    const balancer: TestBalancer = await startBalancer([holder.base, follower.base], 100);
    try {
      await waitFor(
        () => balancer.ready(holder.base) && balancer.ready(follower.base),
        'both copies ready at the balancer',
      );
      const requests = [
        ...loadRequests(DIST_DIR),
        {
          path: '/api/bigcommerce/getCategoryTree',
          method: 'POST' as const,
          body: '[]',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
        },
      ];
      // Runs until stopped, once both restarts are done.
      let stopLoad: () => void = () => undefined;
      const load = new Promise<Result>((resolve, reject) => {
        const instance = autocannon(
          { url: balancer.url, connections: 8, duration: 300, requests },
          (error: unknown, result: Result) => {
            if (error instanceof Error) reject(error);
            else if (error) reject(new Error('the load failed'));
            else resolve(result);
          },
        );
        stopLoad = () => {
          instance.stop();
        };
      });

      /** SIGTERM, its exit code, then the same copy started again on its port, ready. */
      const restart = async (
        copy: ShopChild,
      ): Promise<{ code: number | null; again: ShopChild }> => {
        const exited = new Promise<number | null>((resolve) => {
          copy.child.once('exit', (code) => {
            resolve(code);
          });
        });
        copy.child.kill('SIGTERM');
        await waitFor(() => !balancer.ready(copy.base), 'the balancer saw it unready', 5_000);
        const code = await exited;
        expect(copy.output()).toContain('[serve] drained: stopped');
        const again = await start({}, Number(new URL(copy.base).port));
        await waitFor(() => balancer.ready(copy.base), 'the restarted copy ready');
        return { code, again };
      };

      /** Waits until the balancer has sent 200 more requests to each copy. */
      const bothServe = async () => {
        const from = [holder.base, follower.base].map((base) => balancer.sent(base));
        await waitFor(
          () =>
            [holder.base, follower.base].every(
              (base, i) => balancer.sent(base) >= (from[i] ?? 0) + 200,
            ),
          'both copies serving',
        );
      };

      await bothServe();
      const a = await restart(holder);
      // The lease was released at once: the copy that stayed builds now.
      await statusWhen(follower.base, (status) => status.copies?.role === 'builder', 15_000);
      await bothServe();
      const b = await restart(follower);
      await bothServe();
      stopLoad();
      const result = await load;
      await balancer.close(); // its final counts

      console.log(
        `[drained-restart] ${String(result.requests.total)} requests through the balancer, ${String(result.non2xx)} non-2xx, ${String(result.errors)} errors; exits ${String(a.code)} and ${String(b.code)}`,
      );
      console.log(
        `[drained-restart] readiness seen by the balancer:\n${balancer.changes().join('\n')}`,
      );
      expect([a.code, b.code]).toEqual([0, 0]);
      expect(balancer.failures(), balancer.changes().join('\n')).toEqual({ proxied: 0, noCopy: 0 });
      expect(result.requests.total).toBeGreaterThan(500);
      expect(failuresOf(result)).toEqual(NO_FAILURES);
    } finally {
      await balancer.close();
    }
  }, 240_000);
});
