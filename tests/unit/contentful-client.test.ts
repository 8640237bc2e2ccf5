/**
 * The Contentful client with a stand-in fetch (no network): the URL and bearer header, retries
 * of GETs on 429 (waiting `X-Contentful-RateLimit-Reset`) and 5xx, no retry on 4xx, errors
 * carrying the status and Contentful's error id without the token, replies checked by schema,
 * and every call cut to the request's time budget. The clock and the timers are fake: waits
 * take no time and are measured exactly.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { withBudget } from '../../src/shop/connectors/http/budget.ts';
import {
  createContentfulClient,
  type ContentfulClientOptions,
} from '../../src/shop/connectors/contentful/client.ts';
import { ContentfulError } from '../../src/shop/connectors/contentful/errors.ts';
import { upstreamFailure } from '../../src/shop/faults/failures.ts';

const TOKEN = 'cda-secret-token-123';
interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

function fakeClient(replies: Reply[], options: Partial<ContentfulClientOptions> = {}) {
  const requests: Request[] = [];
  const client = createContentfulClient({
    apiUrl: 'https://cdn.example/',
    spaceId: 'space',
    environment: 'master',
    accessToken: TOKEN,
    ...options,
    fetch: async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      requests.push(request);
      const reply = replies[Math.min(requests.length - 1, replies.length - 1)] ?? { status: 500 };
      if (reply.delayMs !== undefined) {
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, reply.delayMs);
          request.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(request.signal.reason as Error);
          });
        });
      }
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json', ...reply.headers },
      });
    },
  });
  return { client, requests };
}

const OK = { status: 200, body: { ok: true } };
const Schema = z.object({ ok: z.boolean() });
const error = (id: string, message = 'x') => ({
  sys: { type: 'Error', id },
  message,
  requestId: 'req-1',
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** `promise` once settled, the fake clock moved from timer to timer until then. */
async function settled<T>(promise: Promise<T>): Promise<T> {
  const state = { done: false };
  const mark = () => {
    state.done = true;
  };
  promise.then(mark, mark);
  while (!state.done) await vi.advanceTimersToNextTimerAsync();
  return promise;
}

async function failure(promise: Promise<unknown>): Promise<ContentfulError> {
  try {
    await settled(promise);
  } catch (caught) {
    expect(caught).toBeInstanceOf(ContentfulError);
    return caught as ContentfulError;
  }
  throw new Error('expected a failure');
}

describe('requests', () => {
  test('URL, query and bearer token', async () => {
    const { client, requests } = fakeClient([OK]);
    expect(client.scheme).toBe('https:');
    await expect(
      client.get('entries', Schema, {
        content_type: 'navigation',
        'fields.identifier': 'Main Navigation',
        skip: undefined,
      }),
    ).resolves.toEqual({ ok: true });
    const [request] = requests;
    expect(request?.url).toBe(
      'https://cdn.example/spaces/space/environments/master/entries?content_type=navigation&fields.identifier=Main+Navigation',
    );
    expect(request?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(request?.method).toBe('GET');
  });

  test('an http API gives http to asset URLs', () => {
    expect(
      createContentfulClient({
        apiUrl: 'http://127.0.0.1:1/contentful',
        spaceId: 's',
        accessToken: 't',
      }).scheme,
    ).toBe('http:');
  });
});

describe('retries', () => {
  test('a 429 waits X-Contentful-RateLimit-Reset seconds, then succeeds', async () => {
    const { client, requests } = fakeClient([
      {
        status: 429,
        body: error('RateLimitExceeded'),
        headers: { 'X-Contentful-RateLimit-Reset': '1' },
      },
      OK,
    ]);
    const started = performance.now();
    await expect(settled(client.get('entries', Schema))).resolves.toEqual({ ok: true });
    expect(performance.now() - started).toBe(1_000);
    expect(requests).toHaveLength(2);
  });

  test('a 5xx is retried with a short backoff, twice at most', async () => {
    const { client, requests } = fakeClient([
      { status: 503 },
      { status: 500 },
      { status: 502, body: error('ServerError') },
    ]);
    const started = performance.now();
    const caught = await failure(client.get('entries', Schema));
    expect(requests).toHaveLength(3);
    expect(caught).toMatchObject({ status: 502, code: 'UPSTREAM_ERROR', id: 'ServerError' });
    expect(performance.now() - started).toBe(300 + 600);
  });

  test('a rate-limit reset longer than the longest wait fails at once', async () => {
    const { client, requests } = fakeClient([
      {
        status: 429,
        body: error('RateLimitExceeded'),
        headers: { 'X-Contentful-RateLimit-Reset': '60' },
      },
    ]);
    const started = performance.now();
    const caught = await failure(client.get('entries', Schema));
    expect(requests).toHaveLength(1);
    expect(performance.now() - started).toBe(0);
    expect(caught).toMatchObject({ status: 429, code: 'RATE_LIMITED', id: 'RateLimitExceeded' });
    expect(upstreamFailure(caught)).toEqual({ status: 503, message: 'error.upstreamUnavailable' });
  });

  test.each([400, 401, 403, 404, 422])('a %d is not retried', async (status) => {
    const { client, requests } = fakeClient([{ status, body: error('X') }]);
    await failure(client.get('entries', Schema));
    expect(requests).toHaveLength(1);
  });
});

describe('errors', () => {
  test('401: status, code, Contentful id and request id; no token in the message', async () => {
    const { client } = fakeClient([
      {
        status: 401,
        body: error(
          'AccessTokenInvalid',
          `The access token you sent (${TOKEN}) could not be found or is invalid.`,
        ),
        headers: { 'X-Contentful-Request-Id': 'abc' },
      },
    ]);
    const caught = await failure(client.get('entries', Schema));
    expect(caught).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
      id: 'AccessTokenInvalid',
      requestId: 'abc',
      endpoint: 'GET entries',
    });
    expect(caught.message).not.toContain(TOKEN);
    expect(caught.message).toContain('AccessTokenInvalid');
    // The shopper did nothing wrong: a content-service refusal is answered 502.
    expect(upstreamFailure(caught)).toEqual({ status: 502, message: 'error.upstreamUnavailable' });
  });

  test('a reply that is not JSON, or not of the schema', async () => {
    const { client } = fakeClient([{ status: 200, body: { ok: 'yes' } }]);
    expect(await failure(client.get('entries', Schema))).toMatchObject({
      code: 'INVALID_RESPONSE',
      status: 502,
    });
    const broken = createContentfulClient({
      apiUrl: 'https://cdn.example',
      spaceId: 's',
      accessToken: TOKEN,
      fetch: () => Promise.resolve(new Response('{not json', { status: 200 })),
    });
    expect(await failure(broken.get('entries', Schema))).toMatchObject({
      code: 'INVALID_RESPONSE',
      status: 502,
    });
  });

  test('an error body that is not Contentful-shaped', async () => {
    const { client } = fakeClient([{ status: 404, body: '<html>' }]);
    expect(await failure(client.get('entries/x', Schema))).toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
      id: undefined,
    });
  });

  test('unreachable', async () => {
    const client = createContentfulClient({
      apiUrl: 'https://cdn.example',
      spaceId: 's',
      accessToken: TOKEN,
      retryLimit: 0,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    expect(await failure(client.get('entries', Schema))).toMatchObject({
      code: 'NETWORK_ERROR',
      status: 502,
    });
  });
});

describe('time budget', () => {
  test('an attempt is cut to what is left of the budget', async () => {
    const { client } = fakeClient([{ ...OK, delayMs: 2_000 }]);
    const started = performance.now();
    const caught = await failure(withBudget(200, () => client.get('entries', Schema)));
    expect(caught).toMatchObject({ code: 'TIMEOUT', status: 504 });
    expect(performance.now() - started).toBe(200);
    expect(upstreamFailure(caught)).toEqual({ status: 504, message: 'error.upstreamTimeout' });
  });

  test('no retry wait past the budget; no call once it is spent', async () => {
    const { client, requests } = fakeClient([
      { status: 429, headers: { 'X-Contentful-RateLimit-Reset': '1' } },
      OK,
    ]);
    const started = performance.now();
    const caught = await failure(withBudget(300, () => client.get('entries', Schema)));
    expect(caught).toMatchObject({ status: 429 });
    expect(requests).toHaveLength(1);
    expect(performance.now() - started).toBe(0);
    const spent = await failure(withBudget(0, () => client.get('entries', Schema)));
    expect(spent).toMatchObject({ code: 'TIMEOUT' });
    expect(requests).toHaveLength(1);
  });

  test('the total timeout bounds the retries outside a budget', async () => {
    const { client, requests } = fakeClient([{ status: 503 }], {
      totalTimeout: 400,
      retryLimit: 5,
    });
    const started = performance.now();
    await failure(client.get('entries', Schema));
    // 300 ms, a second attempt, then the next wait (600 ms) would end past 400 ms: no third.
    expect(requests).toHaveLength(2);
    expect(performance.now() - started).toBe(300);
  });
});
