/**
 * Several copies under faults: two `npm start --no-build` copies of the build
 * `npm test` made (DIST_DIR) on one Redis and one releases folder, the second one's clock
 * 300 s behind (`helpers/skewed-clock.ts`, preloaded into it alone). The rebuild command is a
 * copy of that build plus `/edits.txt`, a snapshot of the test's "upstream" (a file each edit
 * appends a line to, then sends its signed webhook), slowed down while the test needs a build
 * in flight. Under a request loop on every live copy:
 *
 * - the copy holding the build lease is killed with SIGKILL in the middle of a build, and its
 *   lease left without an expiry: the other (skewed) copy takes the lease within 20 s and
 *   builds the edit;
 * - the killed copy is started again: it serves the shared release at once, and follows;
 * - Redis is restarted without persistence in the middle of the next build (its data is gone,
 *   the lease with it): the copies see it and a full build publishes the edit;
 * - one more edit after all that.
 *
 * Every edit ends up live on every copy, not one request fails, one copy builds. A shopper who
 * logged out before the Redis restart stays logged out after it (the second test: sessions valid
 * only while their record exists). Run by `npm test` after the build (vitest project `scale`);
 * by hand: `DIST_DIR=dist-x SANDBOX_PORT=N npx vitest run --project scale tests/scale/copies-faults.test.ts`.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createClient } from 'redis';
import { afterAll, describe, expect, test } from 'vitest';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { KEYS } from '../../src/server/rebuild/coordination-records.ts';
import {
  readStatus,
  sendPublish,
  statusWhen,
  type ShopChild,
} from '../integration/helpers/rebuild.ts';
import { redisAvailable, startRedis, type TestRedis } from '../integration/helpers/redis.ts';
import { useTwoCopies } from './helpers/copies.ts';
import { pagesOf } from './helpers/load.ts';
import { DIST_DIR } from './helpers/suite.ts';

const SECRET = 'e'.repeat(64);
const SKEW_MS = -300_000;
const SKEWED_CLOCK = path.resolve(import.meta.dirname, 'helpers/skewed-clock.ts');

/** Requests every page of `pagesOf` on `copy` in a loop until stopped; what failed. */
function requestLoop(copy: ShopChild) {
  const pages = pagesOf(DIST_DIR);
  const failures: string[] = [];
  let requests = 0;
  let stopped = false;
  const loop = async () => {
    for (let i = 0; !stopped; i++) {
      const page = pages[i % pages.length] ?? '/';
      try {
        const response = await fetch(`${copy.base}${page}`, {
          headers: { 'accept-encoding': 'gzip, br', accept: 'text/html,*/*' },
        });
        await response.arrayBuffer();
        requests += 1;
        if (response.status !== 200) failures.push(`${page}: ${String(response.status)}`);
      } catch (error) {
        failures.push(`${page}: ${String(error)}`);
      }
    }
  };
  const running = Promise.all([loop(), loop()]);
  return {
    async stop() {
      stopped = true;
      await running;
      return { requests, failures };
    },
  };
}

/** A shopper's cookie jar and the API calls the test makes with it. */
class Shopper {
  readonly cookies = new Map<string, string>();

  async call(copy: ShopChild, method: string, args: unknown[] = []) {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Origin: copy.base,
      'Sec-Fetch-Site': 'same-origin',
    };
    if (this.cookies.size > 0) {
      headers.Cookie = [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    }
    const response = await fetch(`${copy.base}/api/bigcommerce/${method}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(args),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      if (/;\s*max-age=0(;|$)/i.test(cookie)) this.cookies.delete(pair.slice(0, at));
      else this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return { status: response.status, json: (await response.json()) as { data?: unknown } };
  }

  clone(): Shopper {
    const copy = new Shopper();
    for (const [name, value] of this.cookies) copy.cookies.set(name, value);
    return copy;
  }

  /** The account this cookie reads on `copy` (null: none). */
  async customer(copy: ShopChild): Promise<number | null> {
    const reply = await this.call(copy, 'getCustomers');
    expect(reply.status).toBe(200);
    return (reply.json.data as { id?: number } | null)?.id ?? null;
  }
}

describe.runIf(redisAvailable())('two copies under faults', () => {
  let content = '';
  let slowFlag = '';
  const copies = useTwoCopies({
    name: 'copies-faults',
    env: (base, root) => {
      content = path.join(root, 'content.txt');
      slowFlag = path.join(root, 'slow');
      writeFileSync(content, '');
      return {
        ...process.env,
        ...base,
        SESSION_SECRET: 'copies-faults-test-session-secret-0123456789',
        CONTENTFUL_WEBHOOK_SECRET: SECRET,
        REBUILD_DEBOUNCE_MS: '200',
        FULL_BUILD_EVERY_HOURS: '0',
        CONTENT_FILE: content,
        SLOW_FLAG: slowFlag,
        FIXTURE_DIST: path.resolve(DIST_DIR),
        REBUILD_COMMAND: [
          'set -e',
          'cp -r "$FIXTURE_DIST/." "$RELEASE_DIR"',
          'cp "$CONTENT_FILE" "$RELEASE_DIR/client/edits.txt"',
          'if [ -f "$SLOW_FLAG" ]; then sleep 4; fi',
        ].join('\n'),
      };
    },
    followerEnv: {
      TEST_CLOCK_SKEW_MS: String(SKEW_MS),
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${SKEWED_CLOCK}`.trim(),
    },
  });

  /** The Redis started again by the test (the first one is the helper's). */
  let restarted: TestRedis | undefined;
  /** A restarted copy. */
  let shopper: { copy: ShopChild; loggedOut: Shopper } | undefined;
  afterAll(async () => {
    await restarted?.stop();
  });

  const edits: string[] = [];
  const edit = async (copy: ShopChild, name: string) => {
    edits.push(name);
    appendFileSync(content, `${name}\n`);
    expect(await sendPublish(copy.base, name, SECRET)).toBe(202);
  };
  const live = async (copy: ShopChild) => {
    const response = await fetch(`${copy.base}/edits.txt`);
    const text = response.status === 200 ? await response.text() : '';
    return text.split('\n').filter(Boolean);
  };
  /** Every edit so far is live on `copy` (each build serves the whole upstream). */
  const allLive = (copy: ShopChild) =>
    expect.poll(() => live(copy), { timeout: 60_000, interval: 200 }).toEqual([...edits]);

  test('kill -9 of the holder, a Redis restart mid-build, a skewed clock: 0 edits lost, 0 requests failed', async () => {
    const { holder: a, follower: b, redis, start } = copies();
    const raw = createClient({ url: redis.url });
    raw.on('error', () => undefined);
    await raw.connect();
    // The second copy's clock is 300 s behind (what it writes in its status says so).
    const skewed = (await (await fetch(`${b.base}/webhooks/status`)).json()) as {
      updatedAt: string;
    };
    expect(Date.parse(skewed.updatedAt) - Date.now()).toBeLessThan(SKEW_MS + 60_000);

    const loads = new Map([
      [a, requestLoop(a)],
      [b, requestLoop(b)],
    ]);
    const results: { copy: string; requests: number; failures: string[] }[] = [];
    const stopLoad = async (copy: ShopChild) => {
      const result = await loads.get(copy)?.stop();
      loads.delete(copy);
      if (result) results.push({ copy: copy.base, ...result });
    };

    // 1. An edit through the holder: both copies serve it.
    await edit(a, 'edit-1');
    await allLive(a);
    await allLive(b);

    // 2. The holder is killed in the middle of the next build, its lease left without expiry.
    await writeFile(slowFlag, '');
    await edit(a, 'edit-2');
    await statusWhen(a.base, (status) => status.state === 'building', 20_000);
    await stopLoad(a); // a dead copy answers nothing: a balancer sends its shoppers elsewhere
    a.child.kill('SIGKILL');
    // In one transaction: the live copy gives a lease without expiry one at its next look.
    const [persisted, ttl] = await raw.multi().persist(KEYS.lease).pTTL(KEYS.lease).exec();
    expect(persisted).toBe(1);
    expect(ttl).toBe(-1);
    // The skewed copy takes the lease within 20 s and builds what the dead one had not.
    await statusWhen(b.base, (status) => status.copies?.role === 'builder', 20_000);
    expect(b.output()).toContain('had no expiry');
    await allLive(b);

    // 3. The killed copy is started again (a normal clock): it follows the skewed builder.
    const a2 = await start();
    loads.set(a2, requestLoop(a2));
    const builderName = (await readStatus(b.base)).copies?.name;
    await statusWhen(a2.base, (status) => status.copies?.builder === builderName, 20_000);
    // It serves the release the others serve at once, not its own older build.
    await expect.poll(() => live(a2), { timeout: 10_000 }).toEqual([...edits]);

    // A shopper logs in and out before Redis loses its data (checked by the next test).
    const browser = new Shopper();
    const login = await browser.call(a2, 'loginCustomer', [
      { email: CUSTOMERS.marie.email, password: CUSTOMERS.marie.password },
    ]);
    expect(login.status).toBe(200);
    const kept = browser.clone();
    expect(await kept.customer(a2)).not.toBeNull();
    expect((await browser.call(a2, 'logoutCustomer')).status).toBe(200);
    expect(await kept.customer(a2)).toBeNull();
    shopper = { copy: a2, loggedOut: kept };

    // 4. Redis restarts without persistence while the skewed copy builds the next edit.
    await edit(a2, 'edit-3');
    await statusWhen(b.base, (status) => status.state === 'building', 20_000);
    await raw.close();
    await redis.stop();
    restarted = await startRedis(redis.port);
    await rm(slowFlag, { force: true });
    await allLive(b);
    await allLive(a2);
    // Each copy says so at its own first look once Redis answers again.
    await expect
      .poll(() => [b, a2].filter((copy) => copy.output().includes('Redis lost its data')).length, {
        timeout: 15_000,
      })
      .toBe(2);
    // The build in flight was published only if its copy held the new Redis's lease by then.
    const dropped = b.output().includes('another copy took the build lease meanwhile');
    console.log(
      `[copies-faults] the build in flight at the Redis restart was ${dropped ? 'dropped (lease lost)' : 'published (lease taken again first)'}; a full build followed`,
    );

    // 5. One more edit, through the restarted copy: live on both.
    await edit(a2, 'edit-4');
    await allLive(b);
    await allLive(a2);

    // Exactly one builder; every request of the loops answered 200.
    const roles = await Promise.all(
      [b, a2].map(async (copy) => (await readStatus(copy.base)).copies?.role),
    );
    expect(roles.sort()).toEqual(['builder', 'follower']);
    await stopLoad(b);
    await stopLoad(a2);
    console.log(
      `[copies-faults] ${results.map((r) => `${r.copy}: ${String(r.requests)} requests, ${String(r.failures.length)} failed`).join('; ')}`,
    );
    for (const result of results) {
      expect(result.requests, result.copy).toBeGreaterThan(50);
      expect(result.failures, result.copy).toEqual([]);
    }
  }, 300_000);

  test('a shopper who logged out before Redis lost its data stays logged out', async () => {
    // Needs sessions valid only while their server-side record exists.
    expect(shopper, 'the first test ran').toBeDefined();
    if (shopper === undefined) return;
    const { follower } = copies();
    expect(await shopper.loggedOut.customer(shopper.copy)).toBeNull();
    expect(await shopper.loggedOut.customer(follower)).toBeNull();
  });
});
