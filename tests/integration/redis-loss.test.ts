/**
 * What a Redis restarted without persistence (`FLUSHALL`) and a skewed clock must not bring
 * back, on a real redis-server started by this file: two API bridges on one sandbox
 * stand for two server copies, the second one's clock 301 s behind. After FLUSHALL a logged-in
 * and a logged-out cookie both read nothing; a password reset on the skewed copy ends a session
 * the other copy issued just before; a webhook replayed after FLUSHALL is refused once its
 * window has passed, and accepted at most once inside it; a genuine webhook reaching a copy
 * whose clock is 300 s behind is answered 503 with a line naming the skew.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import type { CurrentCustomer } from '../../src/lib/commerce/types.ts';
import { createResetTokens } from '../../src/shop/auth/password-reset.ts';
import { createSessionManager } from '../../src/shop/auth/session.ts';
import { createRedisStore } from '../../src/shop/state/redis.ts';
import type { SharedStore } from '../../src/shop/state/types.ts';
import type { RebuildEvent } from '../../src/server/rebuild/scheduler.ts';
import { signContentfulRequest } from '../../src/server/webhooks/contentful.ts';
import { createWebhookRoutes } from '../../src/server/webhooks/routes.ts';
import { redisAvailable, startRedis, type TestRedis } from './helpers/redis.ts';
import { startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';
import {
  BREVO_KEY,
  SESSION_SECRET,
  startShopApi,
  type Shopper,
  type ShopApi,
} from './helpers/shop-api.ts';

/** The skewed copy's clock: 301 s behind. */
const SKEW_MS = -301_000;

let emails = 0;
const newEmail = () => `perte.${Date.now()}.${(emails += 1)}@example.fr`;

/** The same browser on another server copy: its cookies, sent to `api`. */
function sameBrowser(api: ShopApi, shopper: Shopper): Shopper {
  const other = api.shopper();
  for (const [name, value] of shopper.cookies) other.cookies.set(name, value);
  return other;
}

const customerOf = async (shopper: Shopper) =>
  (await shopper.data<CurrentCustomer | null>('getCustomers', []))?.id ?? null;

/** Whether the cookies read nothing: no customer, and an account method answers 401. */
async function readsNothing(shopper: Shopper): Promise<boolean> {
  const customer = await customerOf(shopper);
  const addresses = await shopper.call('getCustomerAddress', []);
  return customer === null && addresses.status === 401;
}

async function resetToken(sandbox: TestSandbox, email: string): Promise<string> {
  const headers = { 'api-key': BREVO_KEY };
  const listed = (await (
    await fetch(
      `${sandbox.url}/brevo/v3/smtp/emails?email=${encodeURIComponent(email)}&sort=desc`,
      { headers },
    )
  ).json()) as { transactionalEmails: { uuid: string }[] };
  const uuid = listed.transactionalEmails[0]?.uuid ?? '';
  const mail = (await (
    await fetch(`${sandbox.url}/brevo/v3/smtp/emails/${uuid}`, { headers })
  ).json()) as { body: string };
  const href = /href="([^"]+)"/.exec(mail.body)?.[1]?.replaceAll('&amp;', '&') ?? '';
  return new URL(href).searchParams.get('resetToken') ?? '';
}

describe.runIf(redisAvailable())('a Redis that loses its data, a copy whose clock is off', () => {
  let redis: TestRedis;
  let sandbox: TestSandbox;
  let a: ShopApi;
  let skewed: ShopApi;
  let flushAll: () => Promise<void>;
  let closeAdmin: () => Promise<void>;

  beforeAll(async () => {
    redis = await startRedis();
    sandbox = await startTestSandbox();
    const admin = createClient({ url: redis.url });
    await admin.connect();
    flushAll = async () => {
      await admin.flushAll();
    };
    closeAdmin = async () => {
      await admin.close();
    };
    a = await startShopApi({ sandbox, store: createRedisStore({ url: redis.url }) });
    const store = createRedisStore({ url: redis.url });
    skewed = await startShopApi({
      sandbox,
      store,
      account: {
        sessions: createSessionManager({
          secret: SESSION_SECRET,
          store,
          resellerArea: true,
          now: () => Date.now() + SKEW_MS,
        }),
        resetTokens: createResetTokens({
          secret: SESSION_SECRET,
          store,
          now: () => Math.floor((Date.now() + SKEW_MS) / 1000),
        }),
      },
    });
  });

  afterAll(async () => {
    await a.close();
    await skewed.close();
    await closeAdmin();
    await sandbox.close();
    await redis.stop();
  });

  test('after FLUSHALL, a logged-in and a logged-out cookie both read nothing, on both copies', async () => {
    const kept = a.shopper();
    const id = await kept.login(CUSTOMERS.marie.email, CUSTOMERS.marie.password);
    const leaving = skewed.shopper();
    await leaving.login(CUSTOMERS.marie.email, CUSTOMERS.marie.password);
    const replay = sameBrowser(a, leaving);
    expect(await customerOf(replay)).toBe(id);
    expect((await leaving.call('logoutCustomer', [])).status).toBe(200);
    expect(await readsNothing(replay)).toBe(true);
    expect(await customerOf(kept)).toBe(id);

    await flushAll();

    for (const api of [a, skewed]) {
      expect(await readsNothing(sameBrowser(api, kept))).toBe(true);
      expect(await readsNothing(sameBrowser(api, replay))).toBe(true);
    }
    // The shopper logs in again, and that session holds on both copies.
    const again = skewed.shopper();
    expect(await again.login(CUSTOMERS.marie.email, CUSTOMERS.marie.password)).toBe(id);
    expect(await customerOf(sameBrowser(a, again))).toBe(id);
  });

  test('a reset on the copy 301 s behind ends a session the other copy issued just before', async () => {
    const email = newEmail();
    const shopper = a.shopper();
    const created = await shopper.data<CurrentCustomer>('createCustomer', [
      { email, firstName: 'Léa', lastName: 'Horloge', password: 'Ancien123', createAccount: true },
    ]);
    await skewed.shopper().data('generateOttAndToken', [{ email }]);
    const token = await resetToken(sandbox, email);
    // A session issued by the copy on time, right before the reset.
    const issued = a.shopper();
    expect(await issued.login(email, 'Ancien123')).toBe(created.id);

    expect(
      await skewed
        .shopper()
        .call('sendResetPasswordEmail', [{ password: 'Nouveau456', resetToken: token }]),
    ).toMatchObject({ status: 200, json: { data: { email } } });

    for (const api of [a, skewed]) {
      expect(await readsNothing(sameBrowser(api, issued))).toBe(true);
      expect(await readsNothing(sameBrowser(api, shopper))).toBe(true);
    }
    // The new password logs in on either copy, whatever its clock.
    const fresh = skewed.shopper();
    expect(await fresh.login(email, 'Nouveau456')).toBe(created.id);
    expect(await customerOf(sameBrowser(a, fresh))).toBe(created.id);
  });

  test('a webhook replayed after FLUSHALL: refused past its window, accepted at most once inside it; a skewed clock is 503', async () => {
    const secret = 'c'.repeat(64);
    let clock = Date.now();
    const events: RebuildEvent[] = [];
    const store: SharedStore = createRedisStore({ url: redis.url });
    // This copy's clock is right until `skew` moves it.
    let skew = 0;
    const lines: string[] = [];
    const routes = createWebhookRoutes({
      contentfulSecret: secret,
      bigcommerceSecret: 'bigcommerce-webhook-secret-0123456789',
      store,
      onEvent: (event) => events.push(event),
      now: () => clock + skew,
      log: (line) => lines.push(line),
    });
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      void routes.handle(req, res, new URL(req.url ?? '/', 'http://x').pathname, false);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const body = JSON.stringify({ sys: { id: 'entree-perte', type: 'Entry' } });
    const headers = signContentfulRequest({
      method: 'POST',
      path: '/webhooks/contentful',
      headers: {
        'Content-Type': 'application/vnd.contentful.management.v1+json',
        'X-Contentful-Topic': 'ContentManagement.Entry.publish',
      },
      body,
      secret,
      timestamp: clock,
    });
    const post = async () =>
      (
        await fetch(`http://127.0.0.1:${port}/webhooks/contentful`, {
          method: 'POST',
          headers,
          body,
        })
      ).status;
    const bigcommerceBody = JSON.stringify({
      scope: 'store/product/updated',
      store_id: '1001',
      data: { type: 'product', id: 77 },
      hash: 'perte',
      created_at: Math.floor(clock / 1000),
      producer: 'stores/sandbox',
    });
    const postBigCommerce = async () =>
      (
        await fetch(`http://127.0.0.1:${port}/webhooks/bigcommerce`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-webhook-secret': 'bigcommerce-webhook-secret-0123456789',
          },
          body: bigcommerceBody,
        })
      ).status;
    try {
      expect([await post(), await post()]).toEqual([202, 409]);
      expect([await postBigCommerce(), await postBigCommerce()]).toEqual([202, 409]);
      await flushAll();
      // Inside the window the replay store alone knew it: accepted once more, then refused.
      clock += 10_000;
      expect([await post(), await post()]).toEqual([202, 409]);
      await flushAll();
      // From 30 s on (Contentful's TTL) the window refuses it, whatever the store lost.
      clock += 20_000;
      expect([await post(), await post()]).toEqual([401, 401]);
      // BigCommerce's window is 5 minutes: past it, refused too.
      clock += 5 * 60_000;
      expect([await postBigCommerce(), await postBigCommerce()]).toEqual([401, 401]);
      expect(events).toHaveLength(3);

      // The same copy, its clock now 300 s behind: a genuine webhook just signed is 503
      // (retried by the sender), with one line naming the skew; nothing is accepted.
      skew = -300_000;
      const fresh = JSON.stringify({ sys: { id: 'entree-horloge', type: 'Entry' } });
      const reply = await fetch(`http://127.0.0.1:${port}/webhooks/contentful`, {
        method: 'POST',
        headers: signContentfulRequest({
          method: 'POST',
          path: '/webhooks/contentful',
          headers: { 'X-Contentful-Topic': 'ContentManagement.Entry.publish' },
          body: fresh,
          secret,
          timestamp: clock,
        }),
        body: fresh,
      });
      expect(reply.status).toBe(503);
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(lines.filter((line) => line.includes('clock is 300 s behind'))).toHaveLength(1);
      expect(events).toHaveLength(3);
    } finally {
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
      await store.close();
    }
  });
});
