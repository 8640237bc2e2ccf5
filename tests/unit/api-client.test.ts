import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { api } from '../../src/lib/api/bigcommerce.ts';
import {
  ApiCallError,
  CALL_ERROR_MESSAGES,
  callApi,
  isOffline,
  isRefusal,
  logCallFailure,
  OFFLINE_MESSAGE,
} from '../../src/lib/api/client.ts';
import { cutReply } from './helpers/shop-api.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function stubFetch(reply: () => Response | Promise<Response>) {
  const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(() =>
    Promise.resolve(reply()),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('callApi request (spec §7: POST /{service}/{method}, body = the argument array)', () => {
  test('POST, JSON array body, JSON content type, same-origin credentials', async () => {
    const fetchMock = stubFetch(() => json({ data: 1 }));
    await callApi('bigcommerce', 'getCart', [{ id: 'x' }]);
    expect(fetchMock).toHaveBeenCalledOnce();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/bigcommerce/getCart');
    expect(init).toMatchObject({
      method: 'POST',
      body: '[{"id":"x"}]',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    });
  });

  test('base URL and no arguments', async () => {
    const fetchMock = stubFetch(() => json({ data: null }));
    await callApi('bigcommerce', 'logoutCustomer', [], { baseUrl: 'https://shop.example' });
    expect(fetchMock.mock.calls[0]?.[0]).toBe(
      'https://shop.example/api/bigcommerce/logoutCustomer',
    );
    expect(fetchMock.mock.calls[0]?.[1].body).toBe('[]');
  });
});

describe('callApi reply', () => {
  test.each([
    ['data', { data: { id: 1 } }, { id: 1 }],
    ['data null', { data: null }, null],
    ['data false', { data: false }, false],
  ] as const)('%s', async (_case, body, expected) => {
    stubFetch(() => json(body));
    await expect(callApi('s', 'm', [])).resolves.toEqual(expected);
  });

  test.each([
    [
      'API error with status (spec §8 message + statusCode)',
      () => json({ message: 'Invalid credentials', statusCode: 401 }, 401),
      { message: 'Invalid credentials', statusCode: 401, code: 'api' },
    ],
    [
      'API error whose body says another status than HTTP (body wins)',
      () => json({ message: 'Invalid credentials', statusCode: 429 }, 401),
      { message: 'Invalid credentials', statusCode: 429, code: 'api' },
    ],
    [
      'API error without statusCode: the response status',
      () => json({ message: 'Cart not found' }, 404),
      { message: 'Cart not found', statusCode: 404, code: 'api' },
    ],
    [
      'message on a 200 without data: 500',
      () => json({ message: 'Oops' }, 200),
      { message: 'Oops', statusCode: 500, code: 'api' },
    ],
    [
      'HTML error page',
      () => new Response('<html>Bad gateway</html>', { status: 502 }),
      { message: 'error.generic', statusCode: 502, code: 'invalid-response' },
    ],
    [
      'empty 200 body',
      () => new Response('', { status: 200 }),
      { message: 'error.generic', statusCode: 500, code: 'invalid-response' },
    ],
    [
      'JSON without data nor message',
      () => json({ foo: 1 }, 200),
      { message: 'error.generic', statusCode: 500, code: 'invalid-response' },
    ],
    [
      'JSON array',
      () => json([1], 200),
      { message: 'error.generic', statusCode: 500, code: 'invalid-response' },
    ],
  ] as const)('%s → ApiCallError', async (_case, reply, expected) => {
    stubFetch(reply);
    const error = await callApi('s', 'm', []).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiCallError);
    expect(error).toMatchObject(expected);
  });

  test('a reply cut while its body streams in → network, not invalid-response', async () => {
    stubFetch(cutReply);
    const error = await callApi('s', 'm', []).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiCallError);
    expect(error).toMatchObject({ statusCode: 500, code: 'network' });
  });

  test('network failure → ApiCallError network 500 with the cause', async () => {
    const cause = new TypeError('fetch failed');
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(cause)),
    );
    const error = await callApi('s', 'm', []).catch((e: unknown) => e);
    expect(error).toMatchObject({
      message: OFFLINE_MESSAGE,
      statusCode: 500,
      code: 'network',
      cause,
    });
  });
});

// An action that fails offline says so ("Vous êtes hors ligne…"), wherever it is
// made: the one call layer gives every store's error slot the offline message, and every island
// showing a call's error is handed its text (CALL_ERROR_MESSAGES).
describe('a call that gets no reply offline fails with the offline message', () => {
  const failure = fc.oneof(
    fc.string().map((text) => new TypeError(text)),
    fc.string().map((text) => new DOMException(text, 'AbortError')),
    fc.string().map((text) => new Error(text)),
    fc.anything(),
  );

  test('property: offline (navigator.onLine false), any failure of the request is the offline message', async () => {
    await fc.assert(
      fc.asyncProperty(failure, async (cause) => {
        vi.stubGlobal('navigator', { onLine: false });
        vi.stubGlobal(
          'fetch',
          vi.fn(() => Promise.reject(cause as Error)),
        );
        const error = await callApi('s', 'm', []).catch((e: unknown) => e);
        expect(error).toMatchObject({ message: OFFLINE_MESSAGE, code: 'network' });
      }),
    );
  });

  test('property: online, a failed connection (TypeError) is the offline message, an abort the generic one', async () => {
    await fc.assert(
      fc.asyncProperty(failure, async (cause) => {
        vi.stubGlobal('navigator', { onLine: true });
        vi.stubGlobal(
          'fetch',
          vi.fn(() => Promise.reject(cause as Error)),
        );
        const error = await callApi('s', 'm', []).catch((e: unknown) => e);
        expect(error).toMatchObject({
          message: cause instanceof TypeError ? OFFLINE_MESSAGE : 'error.generic',
          code: 'network',
        });
      }),
    );
  });

  test('a body cut offline is the offline message; every island that shows a call error has its text', async () => {
    vi.stubGlobal('navigator', { onLine: false });
    stubFetch(cutReply);
    const error = await callApi('s', 'm', []).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: OFFLINE_MESSAGE, code: 'network' });
    expect(CALL_ERROR_MESSAGES).toContain(OFFLINE_MESSAGE);
  });
});

describe('typed wrappers (contract: method name and argument tuple)', () => {
  test.each([
    ['getCart', () => api.getCart({ id: 'c' }), [{ id: 'c' }]],
    ['createCart without items', () => api.createCart(), [{}]],
    ['logoutCustomer', () => api.logoutCustomer(), []],
    ['getCustomers', () => api.getCustomers(), []],
    ['getOrders default page', () => api.getOrders(), [{}]],
    [
      'removeCartItem',
      () => api.removeCartItem({ cartId: 'c', itemId: 'i' }),
      [{ cartId: 'c', itemId: 'i' }],
    ],
    ['deleteCustomerAddress', () => api.deleteCustomerAddress({ id: [3] }), [{ id: [3] }]],
  ] as const)('%s', async (method, run, args) => {
    const fetchMock = stubFetch(() => json({ data: null }));
    await run();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/api/bigcommerce/${method.split(' ')[0] ?? ''}`);
    expect(JSON.parse(init?.body as string)).toEqual(args);
  });
});

describe('logCallFailure (a page logs console errors for faults only)', () => {
  test.each([
    ['Invalid credentials', 401, 'api', 'warn'],
    ['The selected quantity exceeds available stock.', 422, 'api', 'warn'],
    ['Unable to create contact', 400, 'api', 'warn'],
    ['Too many attempts', 429, 'api', 'warn'],
    ['error.upstreamUnavailable', 503, 'api', 'error'],
    ['error.generic', 500, 'network', 'error'],
    ['error.generic', 400, 'invalid-response', 'error'],
    ['offline.action', 500, 'network', 'warn'],
  ] as const)('%s (%i, %s): console.%s', (message, status, code, level) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failure = new ApiCallError(message, status, code);
    logCallFailure('login failed:', failure);
    expect(isRefusal(failure) || isOffline(failure)).toBe(level === 'warn');
    expect((level === 'warn' ? warn : error).mock.calls).toEqual([['login failed:', failure]]);
    expect((level === 'warn' ? error : warn).mock.calls).toEqual([]);
  });

  test('anything that is not a call error is a fault', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    logCallFailure('x', new Error('boom'));
    expect(error).toHaveBeenCalledTimes(1);
    expect(isRefusal(new Error('boom'))).toBe(false);
  });
});
