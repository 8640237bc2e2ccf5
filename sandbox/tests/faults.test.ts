/**
 * Fault injection of the sandbox over real HTTP: the admin endpoint (auth, validation, list,
 * delete), latency, injected statuses in each API family's error shape, a dead upstream (reset
 * and hang), scoping by path prefix and method, `times`, `probability`, and faults given at start.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { faultsFromEnv } from '../src/faults.ts';
import { startSandbox } from '../src/server.ts';
import { startTestSandbox, type TestSandbox } from '../src/testing.ts';

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox.close();
});

afterEach(async () => {
  await admin('DELETE');
});

const STORE = '/stores/sandbox';

function admin(method: string, body?: unknown, path = '', token = sandbox.token) {
  return fetch(`${sandbox.url}/__sandbox/faults${path}`, {
    method,
    headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function inject(body: unknown): Promise<{ id: number }[]> {
  const res = await admin('POST', body);
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: number }[] }).data;
}

function api(path: string, init: { method?: string; body?: string } = {}) {
  return fetch(`${sandbox.url}${path}`, {
    ...init,
    headers: { 'X-Auth-Token': sandbox.token, Accept: 'application/json' },
  });
}

/**
 * Resolves once the sandbox has taken a request under the only rule, set with `times: 2`: the
 * rule's count is down to one (the request is held, or waiting its latency).
 */
async function picked(): Promise<void> {
  for (;;) {
    const { data } = (await (await admin('GET')).json()) as { data: { times?: number }[] };
    if (data[0]?.times === 1) return;
  }
}

/** Tracks whether `promise` has settled. */
function watch<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  const tracked = promise.finally(() => (done = true));
  return { promise: tracked, settled: () => done };
}

describe('admin endpoint', () => {
  test('refuses a missing or wrong token (401)', async () => {
    expect((await admin('GET', undefined, '', 'wrong')).status).toBe(401);
    expect((await admin('POST', { status: 500 }, '', '')).status).toBe(401);
  });

  test.each([
    [{}, { fault: 'needs latencyMs, status or down' }],
    [{ status: 302 }, { status: 'must be an integer from 400 to 599' }],
    [{ latencyMs: -1 }, { latencyMs: 'must be an integer from 0 to 600000' }],
    [{ latencyMs: 1.5 }, { latencyMs: 'must be an integer from 0 to 600000' }],
    [{ down: 'maybe' }, { down: "must be true, false, 'reset' or 'hang'" }],
    [{ down: true, match: 'stores' }, { match: 'must be a path prefix starting with /' }],
    [{ status: 503, probability: 2 }, { probability: 'must be a number from 0 to 1' }],
    [{ status: 503, times: 0 }, { times: 'must be a positive integer' }],
    [{ status: 503, method: 'TRACE' }, { method: 'must be one of GET, HEAD, POST, PUT, DELETE' }],
    [{ status: 503, down: true }, { status: 'cannot be combined with down' }],
    [{ status: 503, color: 'red' }, { color: 'is not a fault field' }],
    ['503', { fault: 'must be an object' }],
  ])('refuses %j (422 naming the field)', async (body, errors) => {
    const res = await admin('POST', body);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ status: 422, title: 'The fault is invalid.', errors });
    expect(await (await admin('GET')).json()).toEqual({ data: [] });
  });

  test('refuses a body that is not JSON (400)', async () => {
    const res = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'X-Auth-Token': sandbox.token },
      body: '{',
    });
    expect(res.status).toBe(400);
  });

  test('lists, adds (one or many) and removes rules, one or all', async () => {
    const [first] = await inject({ status: 503, match: `${STORE}/v2/store` });
    await inject([
      { latencyMs: 10, match: `${STORE}/v3/catalog`, method: 'GET', times: 3 },
      { down: true, match: '/images/' },
    ]);
    const listed = (await (await admin('GET')).json()) as { data: unknown[] };
    expect(listed.data).toEqual([
      { id: 3, match: '/images/', latencyMs: 0, down: 'reset', probability: 1 },
      {
        id: 2,
        match: `${STORE}/v3/catalog`,
        method: 'GET',
        latencyMs: 10,
        probability: 1,
        times: 3,
      },
      { id: 1, match: `${STORE}/v2/store`, latencyMs: 0, status: 503, probability: 1 },
    ]);
    expect((await admin('DELETE', undefined, `/${first?.id}`)).status).toBe(204);
    expect((await admin('DELETE', undefined, `/${first?.id}`)).status).toBe(404);
    expect(((await (await admin('GET')).json()) as { data: unknown[] }).data).toHaveLength(2);
    expect((await admin('DELETE')).status).toBe(204);
    expect(await (await admin('GET')).json()).toEqual({ data: [] });
  });

  test('is never faulted itself', async () => {
    await inject({ down: true });
    expect((await admin('GET')).status).toBe(200);
    expect((await admin('DELETE')).status).toBe(204);
    expect((await api(`${STORE}/v2/store`)).status).toBe(200);
  });
});

describe('faults', () => {
  test.each([
    [
      `${STORE}/v3/catalog/categories/tree`,
      { status: 503, title: 'Service Unavailable (injected fault)' },
    ],
    [`${STORE}/v2/store`, [{ status: 503, message: 'Service Unavailable (injected fault)' }]],
  ])('an injected status answers %s in its API family error shape', async (path, body) => {
    await inject({ status: 503, match: path });
    const res = await api(path);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject(body);
  });

  test('an injected status on Brevo answers its error shape', async () => {
    await inject({ status: 502, match: '/brevo/v3/' });
    const res = await fetch(`${sandbox.url}/brevo/v3/smtp/emails`, {
      headers: { 'api-key': sandbox.brevoKey },
    });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ message: 'Bad Gateway (injected fault)' });
  });

  test('latency delays the normal reply by its milliseconds', async () => {
    await inject({ latencyMs: 300, match: `${STORE}/v2/store`, times: 2 });
    // The sandbox runs in this process: its latency runs on the fake clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const reply = watch(api(`${STORE}/v2/store`));
      await picked();
      await vi.advanceTimersByTimeAsync(299);
      // One more round trip: an early reply would have come by now.
      expect((await api(`${STORE}/v2/banners`)).status).toBe(200);
      expect(reply.settled()).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await reply.promise).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  test('a fault only touches its path prefix and method', async () => {
    await inject({ status: 500, match: `${STORE}/v3/catalog/products`, method: 'GET' });
    expect((await api(`${STORE}/v3/catalog/products?limit=1`)).status).toBe(500);
    expect((await api(`${STORE}/v3/catalog/brands?limit=1`)).status).toBe(200);
    expect((await api(`${STORE}/v2/store`)).status).toBe(200);
    // Not faulted: the POST reaches the product create route, which finds the body incomplete.
    const post = await api(`${STORE}/v3/catalog/products`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(422);
  });

  test('down resets the connection', async () => {
    await inject({ down: true, match: `${STORE}/v3/` });
    const value = await api(`${STORE}/v3/catalog/categories/tree`).then(
      () => 'answered',
      (error: unknown) => String((error as { cause?: { code?: string } }).cause?.code),
    );
    expect(value).toBe('ECONNRESET');
    expect((await api(`${STORE}/v2/store`)).status).toBe(200);
  });

  test('down: hang never answers; clearing the fault resets the held request', async () => {
    await inject({ down: 'hang', match: `${STORE}/v2/store`, times: 2 });
    const held = watch(
      api(`${STORE}/v2/store`).then(
        () => 'answered',
        (error: unknown) => String((error as { cause?: { code?: string } }).cause?.code),
      ),
    );
    // Taken and held; one more round trip: a reply (or a reset) would have come by now.
    await picked();
    expect((await api(`${STORE}/v2/banners`)).status).toBe(200);
    expect(held.settled()).toBe(false);
    await admin('DELETE');
    expect(await held.promise).toBe('ECONNRESET');
    expect((await api(`${STORE}/v2/store`)).status).toBe(200);
  });

  test('times: the rule affects that many requests, then goes away', async () => {
    await inject({ status: 429, match: `${STORE}/v2/store`, times: 2 });
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await api(`${STORE}/v2/store`)).status);
    expect(statuses).toEqual([429, 429, 200, 200]);
    expect(await (await admin('GET')).json()).toEqual({ data: [] });
  });

  test('probability 0 never fires', async () => {
    await inject({ status: 500, probability: 0 });
    for (let i = 0; i < 5; i += 1) expect((await api(`${STORE}/v2/store`)).status).toBe(200);
  });

  test('the newest matching rule wins', async () => {
    await inject({ status: 500, match: `${STORE}/v2/` });
    await inject({ status: 503, match: `${STORE}/v2/store` });
    expect((await api(`${STORE}/v2/store`)).status).toBe(503);
    expect((await api(`${STORE}/v2/banners`)).status).toBe(500);
  });
});

describe('faults at start', () => {
  test('the faults option is in force from the first request', async () => {
    const faulted = await startSandbox({
      port: 0,
      dataDir: sandbox.dataDir,
      faults: [{ status: 503, match: '/stores/sandbox/v2/store', times: 1 }],
    });
    try {
      const get = () =>
        fetch(`${faulted.url}/stores/sandbox/v2/store`, {
          headers: { 'X-Auth-Token': faulted.token },
        });
      expect((await get()).status).toBe(503);
      expect((await get()).status).toBe(200);
    } finally {
      await faulted.close();
    }
  });

  test('an invalid fault at start fails the start with the fields at fault', async () => {
    await expect(
      startSandbox({ port: 0, dataDir: sandbox.dataDir, faults: [{ status: 99 }] }),
    ).rejects.toThrow('Invalid sandbox fault: {"status":"must be an integer from 400 to 599"}');
  });

  test.each([
    [undefined, []],
    ['', []],
    ['{"status":503}', [{ status: 503 }]],
    ['[{"down":true},{"latencyMs":5}]', [{ down: true }, { latencyMs: 5 }]],
  ])('SANDBOX_FAULTS %j reads as %j', (value, expected) => {
    expect(faultsFromEnv(value)).toEqual(expected);
  });

  test('SANDBOX_FAULTS that is not JSON is a readable error', () => {
    expect(() => faultsFromEnv('status=503')).toThrow(
      'SANDBOX_FAULTS must be JSON: a fault object or an array of them',
    );
  });
});
