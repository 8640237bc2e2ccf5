/**
 * Expected upstream failures vs bugs: the status and message key the API answers for each
 * (normaliseError), the one-line log without stack (control characters escaped, whatever the
 * request put in it), and the time budget requests share.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ApiError, normaliseError } from '../../src/shop/api/handle.ts';
import {
  BigCommerceError,
  type BigCommerceErrorCode,
} from '../../src/shop/connectors/bigcommerce/errors.ts';
import { BrevoError } from '../../src/shop/connectors/brevo/client.ts';
import { ReviewsError } from '../../src/shop/connectors/reviews/client.ts';
import { budgetLeft, withBudget } from '../../src/shop/connectors/http/budget.ts';
import {
  logFailure,
  ON_DEMAND_PAGE_CACHE,
  pageOutcome,
  readForPage,
  upstreamFailure,
} from '../../src/shop/faults/failures.ts';
import { captureLog } from './helpers/log-lines.ts';

const bc = (code: BigCommerceErrorCode, status: number) =>
  new BigCommerceError(`BigCommerce GET v3/catalog/products failed (${code})`, {
    code,
    status,
    endpoint: 'GET v3/catalog/products',
  });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('upstreamFailure and normaliseError', () => {
  test.each([
    ['timeout', bc('TIMEOUT', 504), 504, 'error.upstreamTimeout'],
    ['unreachable', bc('NETWORK_ERROR', 502), 502, 'error.upstreamUnavailable'],
    ['unusable reply', bc('INVALID_RESPONSE', 502), 502, 'error.upstreamUnavailable'],
    ['upstream 500', bc('UPSTREAM_ERROR', 500), 502, 'error.upstreamUnavailable'],
    ['upstream 502', bc('UPSTREAM_ERROR', 502), 502, 'error.upstreamUnavailable'],
    ['upstream 503', bc('UPSTREAM_ERROR', 503), 503, 'error.upstreamUnavailable'],
    ['upstream 429', bc('RATE_LIMITED', 429), 503, 'error.upstreamUnavailable'],
    [
      'Brevo timeout',
      new BrevoError('Brevo POST smtp/email timed out', { code: 'TIMEOUT', status: 504 }),
      504,
      'error.upstreamTimeout',
    ],
    [
      'Brevo unreachable',
      new BrevoError('Brevo POST smtp/email failed', { code: 'NETWORK_ERROR', status: 502 }),
      502,
      'error.upstreamUnavailable',
    ],
  ])('%s → %i %s', (_case, error, status, message) => {
    expect(upstreamFailure(error)).toEqual({ status, message });
    expect(normaliseError(error)).toEqual({ message, statusCode: status });
  });

  test.each([
    ['an upstream 404', bc('NOT_FOUND', 404), { statusCode: 404 }],
    ['an upstream 422', bc('UNPROCESSABLE_ENTITY', 422), { statusCode: 422 }],
    [
      'an API error',
      new ApiError(400, 'INVALID_ARGUMENTS', 'Bad'),
      { message: 'Bad', statusCode: 400 },
    ],
    [
      'a bug',
      new TypeError('x is undefined'),
      { message: 'Internal server error', statusCode: 500 },
    ],
    [
      'a look-alike',
      Object.assign(new Error('fake'), { code: 'TIMEOUT', status: 504 }),
      { statusCode: 504 },
    ],
  ])('%s is not an upstream failure', (_case, error, body) => {
    expect(upstreamFailure(error)).toBeUndefined();
    expect(normaliseError(error)).toMatchObject(body);
  });
});

describe('logFailure', () => {
  test('an upstream failure: one line, a stable message, no stack', () => {
    const { lines, restore } = captureLog();
    logFailure('api', 'bigcommerce.getProducts failed', bc('TIMEOUT', 504));
    restore();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'error',
      msg: '[upstream] call failed',
      scope: 'api',
      what: 'bigcommerce.getProducts failed',
      service: 'bigcommerce',
      endpoint: 'GET v3/catalog/products',
      code: 'TIMEOUT',
      status: 504,
      reason: 'BigCommerce GET v3/catalog/products failed (TIMEOUT)',
    });
    expect(lines[0]).not.toHaveProperty('err');
  });

  test("the reviews provider's failure is an upstream failure too, not a bug", () => {
    const { lines, restore } = captureLog();
    const failure = new ReviewsError('Reviews GET site-1/site timed out', {
      code: 'TIMEOUT',
      status: 504,
    });
    logFailure('layout', 'No guaranteed-reviews site rating', failure);
    restore();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: '[upstream] call failed',
      service: 'reviews',
      code: 'TIMEOUT',
      status: 504,
      reason: 'Reviews GET site-1/site timed out',
    });
    expect(lines[0]).not.toHaveProperty('err');
  });

  test('a bug: logged with the error itself (its stack)', () => {
    const { lines, restore } = captureLog();
    const bug = new TypeError('x is undefined');
    logFailure('listing', 'listing view /c/matelas', bug);
    restore();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: '[bug] unexpected error',
      scope: 'listing',
      what: 'listing view /c/matelas',
      err: { type: 'TypeError', message: 'x is undefined' },
    });
    expect(String((lines[0]?.err as { stack?: string }).stack)).toContain('x is undefined');
  });

  test('whatever a request put in the context, the line stays one line', () => {
    const { lines, restore } = captureLog();
    try {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (what) => {
          lines.length = 0;
          logFailure('search', what, bc('NETWORK_ERROR', 502));
          expect(lines).toHaveLength(1);
          const line = lines[0];
          // eslint-disable-next-line no-control-regex -- no control character may remain
          expect(line?.what).not.toMatch(/[\n\r\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
          expect(String(line?.what).length).toBeLessThanOrEqual(301);
          expect(line).toMatchObject({ scope: 'search', code: 'NETWORK_ERROR', status: 502 });
        }),
      );
    } finally {
      restore();
    }
  });
});

describe('readForPage', () => {
  test('the value when the read succeeds', async () => {
    expect(await readForPage('search', 'results', () => Promise.resolve(3))).toEqual({ value: 3 });
  });

  test('the failure (logged once) when upstream fails', async () => {
    const { lines, restore } = captureLog();
    const read = await readForPage('search', 'results', () => Promise.reject(bc('TIMEOUT', 504)));
    restore();
    expect(read).toEqual({ failure: { status: 504, message: 'error.upstreamTimeout' } });
    expect(lines).toHaveLength(1);
  });

  test('a bug is thrown on, not logged here', async () => {
    const { lines, restore } = captureLog();
    await expect(
      readForPage('search', 'results', () => Promise.reject(new RangeError('bug'))),
    ).rejects.toThrow('bug');
    restore();
    expect(lines).toEqual([]);
  });
});

describe('budget', () => {
  test('outside a budget there is none', () => {
    expect(budgetLeft()).toBeUndefined();
  });

  // The budget's clock (performance.now) and the timers are fake: exact readings, no waiting.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  test('inside, what is left; the innermost budget replaces the outer one; it follows awaits', async () => {
    await withBudget(1_000, async () => {
      expect(budgetLeft()).toBe(1_000);
      const inner = withBudget(5_000, async () => {
        await wait(5);
        expect(budgetLeft()).toBe(4_995);
      });
      await vi.advanceTimersByTimeAsync(5);
      await inner;
      const later = wait(20);
      await vi.advanceTimersByTimeAsync(20);
      await later;
      expect(budgetLeft()).toBe(975);
    });
    expect(budgetLeft()).toBeUndefined();
  });

  test('a spent budget reads 0', () => {
    withBudget(1, () => {
      vi.advanceTimersByTime(10);
      expect(budgetLeft()).toBe(0);
    });
  });
});

describe('pageOutcome (status and caching of an on-demand page)', () => {
  const response = () => ({ status: 200, headers: new Headers() });
  test('an upstream failure: its status, never cached', () => {
    const r = response();
    pageOutcome(r, { status: 504, message: 'error.upstreamTimeout' }, true);
    expect([r.status, r.headers.get('cache-control')]).toEqual([504, 'no-store']);
  });
  test('found: cacheable a minute; not found: 404 with no cache header', () => {
    const found = response();
    pageOutcome(found, undefined, true);
    expect([found.status, found.headers.get('cache-control')]).toEqual([200, ON_DEMAND_PAGE_CACHE]);
    const missing = response();
    pageOutcome(missing, undefined, false);
    expect([missing.status, missing.headers.get('cache-control')]).toEqual([404, null]);
  });
});
