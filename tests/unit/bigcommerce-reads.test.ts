/**
 * How the build's BigCommerce reads behave when upstream misbehaves (every read paged
 * and retried; a read is complete or fails, never partial): the client's retries of a GET (a
 * 429 waits BigCommerce's `X-Rate-Limit-Time-Reset-Ms`, a timed-out attempt is sent again), and
 * `collectPages` / `getAllProducts` over stand-in pages (a failed page fails the list and stops
 * the walk, a list that changed while read is read again, options of a product deleted meanwhile
 * never leave it without them). Fake clock and timers: waits take no time and are exact.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import type { Page, Product } from '../../src/lib/commerce/types.ts';
import {
  createBigCommerceClient,
  type BigCommerceClient,
  type BigCommerceClientOptions,
} from '../../src/shop/connectors/bigcommerce/client.ts';
import { collectPages, getAllProducts } from '../../src/shop/connectors/bigcommerce/catalog.ts';
import { BigCommerceError } from '../../src/shop/connectors/bigcommerce/errors.ts';

interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Never answers (until the attempt's timeout aborts it). */
  hang?: boolean;
}

function fakeClient(replies: Reply[], options: Partial<BigCommerceClientOptions> = {}) {
  const requests: Request[] = [];
  const client = createBigCommerceClient({
    apiUrl: 'https://api.example',
    storeHash: 'store',
    accessToken: 'token-secret',
    ...options,
    fetch: async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      requests.push(request);
      const reply = replies[Math.min(requests.length - 1, replies.length - 1)] ?? { status: 500 };
      if (reply.hang === true) {
        await new Promise((_resolve, reject) => {
          request.signal.addEventListener('abort', () => {
            reject(request.signal.reason as Error);
          });
        });
      }
      return new Response(reply.status === 200 ? '{"ok":true}' : '{"status":0,"title":"x"}', {
        status: reply.status,
        headers: { 'Content-Type': 'application/json', ...reply.headers },
      });
    },
  });
  return { client, requests };
}

const Schema = z.object({ ok: z.boolean() });

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

describe('client retries of a GET', () => {
  test('a 429 waits X-Rate-Limit-Time-Reset-Ms, then succeeds', async () => {
    const { client, requests } = fakeClient([
      { status: 429, headers: { 'X-Rate-Limit-Time-Reset-Ms': '4500' } },
      { status: 200 },
    ]);
    const started = performance.now();
    await expect(settled(client.get('v3/catalog/products', Schema))).resolves.toEqual({
      ok: true,
    });
    expect(performance.now() - started).toBe(4_500);
    expect(requests).toHaveLength(2);
  });

  test('a 429 with Retry-After (seconds) waits that long', async () => {
    const { client } = fakeClient([
      { status: 429, headers: { 'Retry-After': '2' } },
      { status: 200 },
    ]);
    const started = performance.now();
    await settled(client.get('v3/catalog/products', Schema));
    expect(performance.now() - started).toBe(2_000);
  });

  test('a rate-limit reset beyond the longest wait fails at once', async () => {
    const { client, requests } = fakeClient([
      { status: 429, headers: { 'X-Rate-Limit-Time-Reset-Ms': '45000' } },
    ]);
    await expect(settled(client.get('v3/catalog/products', Schema))).rejects.toMatchObject({
      status: 429,
    });
    expect(requests).toHaveLength(1);
  });

  test('an attempt that timed out is sent again (a GET is safe to repeat)', async () => {
    const { client, requests } = fakeClient([{ status: 0, hang: true }, { status: 200 }], {
      timeout: 1_000,
    });
    await expect(settled(client.get('v3/catalog/products', Schema))).resolves.toEqual({
      ok: true,
    });
    expect(requests).toHaveLength(2);
  });

  test('a 5xx twice then an answer: three attempts; a POST is never retried', async () => {
    const get = fakeClient([{ status: 502 }, { status: 503 }, { status: 200 }]);
    await expect(settled(get.client.get('v2/store', Schema))).resolves.toEqual({ ok: true });
    expect(get.requests).toHaveLength(3);
    const post = fakeClient([{ status: 503 }, { status: 200 }]);
    await expect(settled(post.client.send('post', 'v3/carts', Schema))).rejects.toMatchObject({
      status: 503,
    });
    expect(post.requests).toHaveLength(1);
  });
});

/** Pages of `items` as BigCommerce gives them, `perPage` a page. */
function pageOf<T>(
  items: readonly T[],
  page: number,
  perPage: number,
  total = items.length,
): Page<T> {
  return {
    items: items.slice((page - 1) * perPage, page * perPage),
    pagination: {
      total,
      count: Math.min(perPage, Math.max(0, items.length - (page - 1) * perPage)),
      perPage,
      currentPage: page,
      totalPages: Math.ceil(total / perPage),
    },
  };
}

const numbers = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('collectPages', () => {
  test('every page, in order, a few at a time', async () => {
    const asked: number[] = [];
    const items = await collectPages((page) => {
      asked.push(page);
      return Promise.resolve(pageOf(numbers(95), page, 10));
    }, 4);
    expect(items).toEqual(numbers(95));
    expect(asked.sort((a, b) => a - b)).toEqual(numbers(10));
  });

  test('a failed page fails the list, and no page is asked for after it', async () => {
    const asked: number[] = [];
    const failure = new BigCommerceError('down', {
      code: 'UPSTREAM_ERROR',
      status: 503,
      endpoint: 'GET v3/catalog/products',
    });
    await expect(
      collectPages(async (page) => {
        asked.push(page);
        await Promise.resolve();
        if (page === 3) throw failure;
        return pageOf(numbers(200), page, 10);
      }, 2),
    ).rejects.toBe(failure);
    // Page 3 failed while page 2 or 4 was in flight: nothing beyond them was started.
    expect(Math.max(...asked)).toBeLessThanOrEqual(4);
  });

  test('a list that changed while it was read is read again', async () => {
    let walk = 0;
    const items = await collectPages((page) => {
      if (page === 1) walk += 1;
      // During the first walk a product is created after page 1 (which counted 30): the
      // later pages count 31, their offsets shifted.
      if (walk === 1 && page === 1) return Promise.resolve(pageOf(numbers(30), page, 10));
      return Promise.resolve(pageOf(numbers(31), page, 10));
    }, 3);
    expect(walk).toBe(2);
    expect(items).toEqual(numbers(31));
  });

  test('a list whose items never add up to its total fails, it is not cut', async () => {
    // Page 3 keeps coming back empty: 20 items for a total of 30.
    const read = collectPages((page) =>
      Promise.resolve(page === 3 ? pageOf([], 1, 10, 30) : pageOf(numbers(30), page, 10)),
    );
    await expect(read).rejects.toThrow(
      /changed while it was read, 3 times.*20 items read for a total of 30/,
    );
  });

  test('more than 1,000 pages is refused rather than cut', async () => {
    await expect(
      collectPages((page) => Promise.resolve(pageOf(numbers(1_001), page, 1))),
    ).rejects.toThrow(/1001 pages/);
  });
});

describe('getAllProducts', () => {
  const product = (id: number) =>
    ({ id, name: `P${id}`, options: [], modifiers: [] }) as unknown as Product;

  test('options by id, 10 a request; a product gone from its batch is left out, not shown bare', async () => {
    const ids = numbers(25);
    const batches: string[] = [];
    const client = {
      channelId: 1,
      get: async (_path: string, _schema: unknown, params: Record<string, unknown>) => {
        await Promise.resolve();
        const batch = params['id:in'];
        if (typeof batch !== 'string') return pageOf(ids.map(product), Number(params.page), 250);
        batches.push(batch);
        // Product 7 was deleted between the list and its batch.
        const found = batch
          .split(',')
          .map(Number)
          .filter((id) => id !== 7)
          .map((id) => ({ ...product(id), options: [{ id: id * 10 }] }));
        return pageOf(found, 1, 10);
      },
    } as unknown as BigCommerceClient;
    const products = await getAllProducts(client);
    expect(batches).toHaveLength(3);
    expect(products.map((p) => p.id)).toEqual(ids.filter((id) => id !== 7));
    expect(products.every((p) => p.options.length === 1)).toBe(true);
  });
});
