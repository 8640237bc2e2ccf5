/**
 * Several copies publishing an edit: two `npm start --no-build` copies on one Redis,
 * one shared releases folder outside the project, one fresh sandbox, publishing on (the real
 * kept build, no `REBUILD_COMMAND`). The copy holding the build lease has no kept build of a
 * shared release at start, so it runs its warm-up full build into the shared folder, and both
 * copies go to that release. Then a product renamed in the sandbox's catalogue sends its signed
 * store webhook to the OTHER copy: the holder's kept build publishes it into the shared release
 * (its pages and its listings), and both copies show the new name on the product's page and on
 * a listing view they had already rendered and cached, with no new release.
 * Run by `npm test` after the build (vitest project `scale`); by hand:
 * `DIST_DIR=dist-x SANDBOX_PORT=N npx vitest run --project scale tests/scale/copies-publish.test.ts`.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { registerSandboxWebhooks } from '../../scripts/lib/upstream.ts';
import { PRODUCTS } from '@literie/sandbox/fixtures';
import { settledAfter, statusWhen, type ShopChild } from '../integration/helpers/rebuild.ts';
import { redisAvailable } from '../integration/helpers/redis.ts';
import { useTwoCopies } from './helpers/copies.ts';
import { withoutSuiteServices } from './helpers/shop.ts';

const BIGCOMMERCE_SECRET = 'copies-publish-bigcommerce-secret-0123456789';
const NEW_NAME = 'Matelas Élysée Deux Copies';
const HEADERS = { 'accept-encoding': 'br, gzip', accept: 'text/html' };

describe.runIf(redisAvailable())('two copies, one kept build, one edit', () => {
  const copies = useTwoCopies({
    name: 'copies-publish',
    env: (base, root) => ({
      // This test's sandbox and secrets only.
      ...withoutSuiteServices(),
      ...base,
      SESSION_SECRET: 'copies-publish-test-session-secret-0123456789',
      BUILD_CACHE_DIR: path.join(root, 'cache'),
      BIGCOMMERCE_WEBHOOK_SECRET: BIGCOMMERCE_SECRET,
      REBUILD_DEBOUNCE_MS: '100',
      FULL_BUILD_EVERY_HOURS: '0',
    }),
    ready: async ({ holder, follower, sandbox }) => {
      // The holder's warm-up build (a real one), then both copies on it.
      const warm = await settledAfter(holder.base, 1, 240_000);
      expect(warm.lastBuild, JSON.stringify(warm.lastBuild)).toMatchObject({
        result: 'succeeded',
      });
      await statusWhen(follower.base, (status) => status.current.id === warm.current.id, 20_000);
      // The catalogue's store webhooks go to the follower only.
      const problems = await registerSandboxWebhooks({
        sandboxUrl: sandbox.url,
        shopUrl: follower.base,
        contentfulSecret: undefined,
        bigcommerceSecret: BIGCOMMERCE_SECRET,
      });
      expect(problems).toEqual([]);
    },
    timeout: 300_000,
  });

  const page = async (copy: ShopChild, at: string) => {
    const response = await fetch(`${copy.base}${at}`, { headers: HEADERS });
    return { status: response.status, text: await response.text() };
  };

  test('the edit sent to the follower is published once by the holder, and both copies show it', async () => {
    const { holder, follower, sandbox, releases } = copies();
    const product = PRODUCTS.trackingVariant;
    const views = [`/p/${String(product)}/matelas-elysee`, '/c/matelas?sort=2'];
    // Both copies render and cache the pages before the edit.
    for (const copy of [holder, follower]) {
      for (const at of views) {
        const before = await page(copy, at);
        expect(before.status, at).toBe(200);
        expect(before.text, at).toContain('Matelas Élysée');
        expect(before.text, at).not.toContain(NEW_NAME);
      }
    }
    const served = (await statusWhen(holder.base, () => true)).current.id;

    const renamed = await fetch(`${sandbox.url}/stores/sandbox/v3/catalog/products/${product}`, {
      method: 'PUT',
      headers: { 'X-Auth-Token': sandbox.token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: NEW_NAME }),
    });
    expect(renamed.status).toBe(200);

    const published = await statusWhen(
      holder.base,
      (status) => status.lastBuild?.id.startsWith(`${served}+`) === true && status.state === 'idle',
      60_000,
    );
    expect(published.lastBuild, JSON.stringify(published.lastBuild)).toMatchObject({
      result: 'succeeded',
    });
    // Both copies: the new name on the product's page (its new address) and the listing view.
    for (const copy of [holder, follower]) {
      await expect
        .poll(async () => (await page(copy, '/c/matelas?sort=2')).text, { timeout: 10_000 })
        .toContain(NEW_NAME);
      const moved = await fetch(`${copy.base}${views[0] ?? ''}`, { redirect: 'manual' });
      expect(moved.status).toBe(301);
      const target = moved.headers.get('location') ?? '';
      expect((await page(copy, new URL(target, copy.base).pathname)).text).toContain(NEW_NAME);
    }
    // One release, published in place: no second build on either copy.
    const [holderNow, followerNow] = await Promise.all(
      [holder, follower].map((copy) => statusWhen(copy.base, () => true)),
    );
    const lines = (copy: ShopChild, text: string) =>
      copy
        .output()
        .split('\n')
        .filter((line) => line.includes(text));
    // The warm-up was the one build (status counts a publish as a build too).
    expect([
      ...lines(holder, '[rebuild] building '),
      ...lines(follower, '[rebuild] building '),
    ]).toHaveLength(1);
    expect(
      lines(holder, `store/product/updated ${String(product)}: published into ${served}`),
    ).toHaveLength(1);
    expect(holderNow?.lastBuild).toMatchObject({ result: 'succeeded' });
    expect(followerNow?.builds).toBe(0);
    expect(followerNow?.current.id).toBe(served);
    expect((await readdir(releases)).filter((name) => /^r\d{8}-/.test(name))).toEqual([served]);
  }, 120_000);
});
