/**
 * The connectors and the API against a sandbox with faults injected (its `/__sandbox/faults`
 * endpoint): bounded time (per-attempt timeouts, the request's budget, retries included), the
 * normalised error of spec §8 with its status and French message key, one log line without
 * stack, catalogue reads cached (single flight, normalised arguments, served while upstream is
 * down) and marked cacheable, recovery once the fault is cleared.
 *
 * No stopwatch: which bound ended a call is shown by the outcome. A client whose own timeouts
 * are longer than the test can last ends a hanging call only through the budget; a latency
 * between two bounds answers under the longer one and times out under the shorter one.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { CACHEABLE_REPLY } from '../../src/shop/api/handle.ts';
import {
  createBigCommerceClient,
  getStoreMeta,
  type BigCommerceClient,
} from '../../src/shop/connectors/bigcommerce/index.ts';
import {
  createBrevoClient,
  sendTransactionalEmail,
} from '../../src/shop/connectors/brevo/index.ts';
import {
  API_BUDGET_MS,
  WRITE_BUDGET_MS,
  withBudget,
} from '../../src/shop/connectors/http/budget.ts';
import type { FaultSpec } from '@literie/sandbox/faults';
import { BREVO_KEY, someVariant, startShopApi, type ShopApi } from './helpers/shop-api.ts';
import { captureLog } from '../unit/helpers/log-lines.ts';

let api: ShopApi;
/** Upstream requests of `client` (not the shop API's). */
let attempts = 0;
/** The signals of those requests (aborted: the client gave up on the attempt). */
let signals: AbortSignal[] = [];
let client: BigCommerceClient;
/** The same, with timeouts of its own (10 min) no test outlasts: only a budget ends its calls. */
let patient: BigCommerceClient;

const STORE = '/stores/sandbox';
const PATIENT_MS = 600_000;

beforeAll(async () => {
  api = await startShopApi();
  const options = {
    apiUrl: api.sandbox.url,
    storeHash: api.sandbox.storeHash,
    accessToken: api.sandbox.token,
    channelId: 1,
    fetch: (input: Request | URL | string, init?: RequestInit) => {
      attempts += 1;
      const signal = input instanceof Request ? input.signal : init?.signal;
      if (signal) signals.push(signal);
      return fetch(input, init);
    },
  };
  client = createBigCommerceClient(options);
  patient = createBigCommerceClient({
    ...options,
    timeout: PATIENT_MS,
    totalTimeout: PATIENT_MS,
  });
});

afterAll(async () => {
  await api.close();
});

afterEach(async () => {
  await fetch(`${api.sandbox.url}/__sandbox/faults`, {
    method: 'DELETE',
    headers: { 'X-Auth-Token': api.sandbox.token },
  });
  attempts = 0;
  signals = [];
  api.clearUpstream();
  vi.restoreAllMocks();
});

async function fault(spec: FaultSpec): Promise<void> {
  const response = await fetch(`${api.sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'X-Auth-Token': api.sandbox.token, 'Content-Type': 'application/json' },
    body: JSON.stringify(spec),
  });
  expect(response.status).toBe(201);
}

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ ok: true }),
    (error: unknown) => error,
  );

describe('connectors', () => {
  test('a hanging upstream: the call ends with the request budget (TIMEOUT 504)', async () => {
    await fault({ down: 'hang', match: `${STORE}/v2/store` });
    // The client would wait 10 min: the budget alone ends the call, one attempt, cut.
    const value = await outcome(withBudget(400, () => getStoreMeta(patient)));
    expect(value).toMatchObject({ name: 'BigCommerceError', code: 'TIMEOUT', status: 504 });
    expect(attempts).toBe(1);
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
  });

  test('a spent budget: no call is made', async () => {
    // The budget's clock (performance.now) is fake: the budget is spent before the call.
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const value = await outcome(
        withBudget(100, () => {
          vi.advanceTimersByTime(100);
          return getStoreMeta(client);
        }),
      );
      expect(value).toMatchObject({ code: 'TIMEOUT', status: 504 });
      expect(attempts).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  test('a reset connection: retried twice, then NETWORK_ERROR 502', async () => {
    await fault({ down: true, match: `${STORE}/v2/store` });
    const value = await outcome(withBudget(2_500, () => getStoreMeta(client)));
    expect(value).toMatchObject({ code: 'NETWORK_ERROR', status: 502 });
    expect(attempts).toBe(3);
  });

  test('a passing 503: the retry answers', async () => {
    await fault({ status: 503, match: `${STORE}/v2/store`, times: 1 });
    const store = await withBudget(2_500, () => getStoreMeta(client));
    expect(store.name).not.toBe('');
    expect(attempts).toBe(2);
  });

  test('outside a budget, the per-attempt timeout still bounds a slow reply (body included)', async () => {
    // The reply would come after 400 ms: a success unless the 150 ms timeout cuts it first.
    await fault({ latencyMs: 400, match: `${STORE}/v2/store` });
    const quick = createBigCommerceClient({
      apiUrl: api.sandbox.url,
      storeHash: api.sandbox.storeHash,
      accessToken: api.sandbox.token,
      timeout: 150,
    });
    const value = await outcome(getStoreMeta(quick));
    expect(value).toMatchObject({ code: 'TIMEOUT', status: 504 });
  });

  test('Brevo: a hanging upstream ends with the budget (TIMEOUT 504)', async () => {
    await fault({ down: 'hang', match: '/brevo/v3/' });
    // Its own timeout (10 min) cannot end the call: the budget does.
    const brevo = createBrevoClient({
      apiUrl: `${api.sandbox.url}/brevo/v3`,
      apiKey: BREVO_KEY,
      timeout: PATIENT_MS,
    });
    const value = await outcome(
      withBudget(300, () =>
        sendTransactionalEmail(brevo, {
          sender: { email: 'contact@literie-exemple.fr', name: 'Literie' },
          to: [{ email: 'marie.martin@example.fr' }],
          subject: 'Test',
          htmlContent: '<p>Test</p>',
        }),
      ),
    );
    expect(value).toMatchObject({ name: 'BrevoError', code: 'TIMEOUT', status: 504 });
  });
});

describe('API: catalogue reads cached', () => {
  test('cacheable replies say so; concurrent identical calls make one upstream call', async () => {
    const shopper = api.shopper();
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => shopper.call('getCategoryTree')),
    );
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(api.upstream.filter((u) => u.url.includes('/categories/tree'))).toHaveLength(1);
    api.clearUpstream();
    const again = await shopper.call('getCategoryTree');
    expect(again.json).toEqual(replies[0]?.json);
    expect(api.upstream).toEqual([]);
  });

  test('the same arguments in another order are one entry; other arguments another', async () => {
    const shopper = api.shopper();
    await shopper.call('getProducts', [{ limit: 2, page: 1 }]);
    await shopper.call('getProducts', [{ page: 1, limit: 2 }]);
    expect(api.upstream).toHaveLength(1);
    await shopper.call('getProducts', [{ page: 2, limit: 2 }]);
    expect(api.upstream).toHaveLength(2);
  });

  test('a cached read answers while upstream is down', async () => {
    const shopper = api.shopper();
    const before = await shopper.call('getAllBanners');
    await fault({ down: true, match: `${STORE}/` });
    api.clearUpstream();
    expect(await shopper.call('getAllBanners')).toEqual(before);
    // From the cache at once: upstream is not even tried.
    expect(api.upstream).toEqual([]);
  });
});

describe('API: upstream down, slow or failing → the normalised error, bounded', () => {
  test.each<[string, FaultSpec, number, string]>([
    ['hanging', { down: 'hang' }, 504, 'error.upstreamTimeout'],
    ['slower than the budget', { latencyMs: 5_000 }, 504, 'error.upstreamTimeout'],
    ['resetting connections', { down: 'reset' }, 502, 'error.upstreamUnavailable'],
    ['answering 500', { status: 500 }, 502, 'error.upstreamUnavailable'],
    ['answering 503', { status: 503 }, 503, 'error.upstreamUnavailable'],
    ['answering 429', { status: 429 }, 503, 'error.upstreamUnavailable'],
  ])('upstream %s (%j): %i %s, one log line', async (_case, spec, status, message) => {
    // 'slower than the budget': a reply the client's own timeout (10 s) would wait for; the
    // API's read budget (2.5 s) ends it.
    await fault({ ...spec, match: `${STORE}/v3/catalog/products` });
    const { lines, restore } = captureLog();
    const value = await api
      .shopper()
      .call('getProductsWithFilter', [{ searchTerm: `panne-${String(status)}` }]);
    restore();
    expect(value.status).toBe(status);
    expect(value.json).toEqual({ message, statusCode: status });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'error',
      msg: '[upstream] call failed',
      scope: 'api',
      what: 'bigcommerce.getProductsWithFilter failed',
      service: 'bigcommerce',
      endpoint: 'GET v3/catalog/products',
    });
    expect(String(lines[0]?.code)).toMatch(/^(TIMEOUT|NETWORK_ERROR|UPSTREAM_ERROR|RATE_LIMITED)$/);
  });

  test('a method that writes (not retried) is bounded by the longer write budget', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const line = await someVariant(api);
    const shopper = api.shopper();
    const cart = await shopper.data<{ id: string }>('createCart', [
      { lineItems: [{ ...line, quantity: 1 }] },
    ]);
    // Two writes at once: one slower than a read's budget but within a write's (it is
    // answered), one slower than a write's budget but within the client's 10 s timeout (the
    // write budget ends it). The newest matching fault wins: the add gets the first.
    await fault({ latencyMs: WRITE_BUDGET_MS + 2_000, method: 'POST', match: `${STORE}/v3/carts` });
    await fault({
      latencyMs: API_BUDGET_MS + 1_000,
      method: 'POST',
      match: `${STORE}/v3/carts/${cart.id}/items`,
    });
    api.clearUpstream();
    const [added, created] = await Promise.all([
      shopper.call('addCartItems', [{ cartId: cart.id, lineItems: [{ ...line, quantity: 1 }] }]),
      api.shopper().call('createCart', [{ lineItems: [{ ...line, quantity: 1 }] }]),
    ]);
    expect(added.status).toBe(200);
    expect(created).toMatchObject({
      status: 504,
      json: { message: 'error.upstreamTimeout', statusCode: 504 },
    });
    // Not retried: one POST to create.
    const creates = api.upstream.filter(
      (u) => u.method === 'POST' && /\/v3\/carts(\?|$)/.test(u.url),
    );
    expect(creates).toHaveLength(1);
  });

  test('recovery: once the fault is cleared, the next call succeeds', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const shopper = api.shopper();
    await fault({ down: true, match: `${STORE}/v3/catalog/products` });
    expect((await shopper.call('getProductsWithFilter', [{ searchTerm: 'retour' }])).status).toBe(
      502,
    );
    await fetch(`${api.sandbox.url}/__sandbox/faults`, {
      method: 'DELETE',
      headers: { 'X-Auth-Token': api.sandbox.token },
    });
    const reply = await shopper.call('getProductsWithFilter', [{ searchTerm: 'retour' }]);
    expect(reply.status).toBe(200);
  });
});

test('error replies are never cacheable; successful catalogue reads are', async () => {
  const headers = async (method: string, args: unknown[]) => {
    const response = await fetch(`${api.base}/api/bigcommerce/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: api.base },
      body: JSON.stringify(args),
    });
    await response.arrayBuffer();
    return response.headers.get('cache-control');
  };
  expect(await headers('getStoreMeta', [])).toBe(CACHEABLE_REPLY);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  await fault({ down: true, match: `${STORE}/v3/catalog/products` });
  expect(await headers('getProductsWithFilter', [{ searchTerm: 'jamais-lu' }])).toBe('no-store');
  expect(await headers('getCart', [{ id: 'x' }])).toBe('no-store');
});
