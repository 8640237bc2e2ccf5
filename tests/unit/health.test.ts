/**
 * The probes' rules (src/server/health.ts): `/readyz` is ready only when the worker is not
 * draining, listens on its loaded release and its state store answered; otherwise it names the
 * first failing check, in that order. `/healthz` answers whatever the facts. Methods other than
 * GET and HEAD are refused as elsewhere, and every reply says `no-store`.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  createStoreProbe,
  healthReply,
  readiness,
  type ReadinessFacts,
  type StoreProbe,
} from '../../src/server/health.ts';

const facts = fc.record({
  draining: fc.boolean(),
  listening: fc.boolean(),
  storeFailure: fc.option(fc.string({ minLength: 1, maxLength: 40 }), { nil: null }),
});

/** A store probe answering `answer`, counting its checks. */
function fakeProbe(answer: string | null): StoreProbe & { checks: number } {
  const probe = {
    checks: 0,
    check() {
      probe.checks += 1;
      return Promise.resolve(answer);
    },
    close: () => Promise.resolve(),
  };
  return probe;
}

describe('the readiness rule', () => {
  test('ready exactly when no check fails', () => {
    fc.assert(
      fc.property(facts, (f: ReadinessFacts) => {
        const verdict = readiness(f);
        expect(verdict.ready).toBe(!f.draining && f.listening && f.storeFailure === null);
      }),
    );
  });

  test('each failing check is named, the first in order draining, release, store', () => {
    fc.assert(
      fc.property(facts, (f: ReadinessFacts) => {
        const verdict = readiness(f);
        if (verdict.ready) return;
        const expected = f.draining ? 'draining' : !f.listening ? 'release' : 'store';
        expect(verdict.check).toBe(expected);
        if (expected === 'store') expect(verdict.reason).toBe(f.storeFailure);
      }),
    );
    expect(readiness({ draining: true, listening: true, storeFailure: null })).toMatchObject({
      ready: false,
      check: 'draining',
    });
    expect(readiness({ draining: false, listening: false, storeFailure: null })).toMatchObject({
      ready: false,
      check: 'release',
    });
    expect(readiness({ draining: false, listening: true, storeFailure: 'Redis is away' })).toEqual({
      ready: false,
      check: 'store',
      reason: 'Redis is away',
    });
  });
});

describe('the probes replies', () => {
  const ready = () => ({ draining: false, listening: true });

  test('/readyz: 200 when ready, 503 naming the check otherwise, no-store JSON', async () => {
    const ok = await healthReply('/readyz', 'GET', ready, fakeProbe(null));
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ status: 'ready' });
    expect(ok.headers).toMatchObject({
      'cache-control': 'no-store',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(ok.body)),
    });
    const down = await healthReply('/readyz', 'GET', ready, fakeProbe('no PONG'));
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toEqual({ status: 'unready', check: 'store', reason: 'no PONG' });
    expect(down.headers['cache-control']).toBe('no-store');
  });

  test('a draining worker answers 503 without asking the store', async () => {
    const probe = fakeProbe(null);
    const reply = await healthReply(
      '/readyz',
      'HEAD',
      () => ({ draining: true, listening: true }),
      probe,
    );
    expect(reply.status).toBe(503);
    expect(JSON.parse(reply.body)).toMatchObject({ check: 'draining' });
    expect(probe.checks).toBe(0);
  });

  test('/healthz: 200 whatever the readiness, without the store', async () => {
    const probe = fakeProbe('down');
    const reply = await healthReply(
      '/healthz',
      'GET',
      () => ({ draining: true, listening: false }),
      probe,
    );
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ status: 'ok' });
    expect(probe.checks).toBe(0);
  });

  test('OPTIONS 204 and other methods 405, with Allow', async () => {
    for (const path of ['/healthz', '/readyz'] as const) {
      const options = await healthReply(path, 'OPTIONS', ready, fakeProbe(null));
      expect(options.status).toBe(204);
      expect(options.headers.allow).toBe('GET, HEAD, OPTIONS');
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const refused = await healthReply(path, method, ready, fakeProbe(null));
        expect(refused.status).toBe(405);
        expect(refused.headers.allow).toBe('GET, HEAD, OPTIONS');
        expect(refused.headers['cache-control']).toBe('no-store');
      }
    }
  });
});

describe('the store probe', () => {
  test('the memory store answers', async () => {
    const probe = createStoreProbe({ stateDir: ':memory:' });
    expect(await probe.check()).toBeNull();
    await probe.close();
  });

  test('a Redis address that is not one fails the check with the reason', async () => {
    const probe = createStoreProbe({ redisUrl: 'http://not-redis' });
    expect(await probe.check()).toMatch(/^the state store does not answer: REDIS_URL must be/);
    await probe.close();
  });
});
