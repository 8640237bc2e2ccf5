/**
 * The BigCommerce HTTP client over real HTTP, against a scripted upstream on a free port:
 * URL prefix and headers, GET-only retries, timeouts, and errors turned into BigCommerceError
 * without secrets. (Reply parsing against the sandbox: bigcommerce-catalog/store tests.)
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import {
  createBigCommerceClient,
  getChannel,
  type BigCommerceClient,
} from '../../src/shop/connectors/bigcommerce/index.ts';
import { BigCommerceError } from '../../src/shop/connectors/bigcommerce/errors.ts';
import { CHANNEL_ID_HEADER } from '../../src/shop/connectors/bigcommerce/client.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A reply, or `hold`: the upstream keeps the request open and never answers. */
type Script = (seen: Seen, attempt: number) => { status: number; body?: string; hold?: boolean };

let server: Server;
let apiUrl = '';
let script: Script = () => ({ status: 200, body: '{}' });
let seen: Seen[] = [];

const TOKEN = 'tok-4f9a-secret';
const STORE = 'hash42';

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      seen.push(entry);
      const reply = script(entry, seen.length);
      if (reply.hold === true) return;
      res.writeHead(reply.status, { 'Content-Type': 'application/json' });
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

beforeEach(() => {
  seen = [];
});

function client(extra: { channelId?: number; timeout?: number } = {}): BigCommerceClient {
  return createBigCommerceClient({
    apiUrl: `${apiUrl}/`,
    storeHash: STORE,
    accessToken: TOKEN,
    ...extra,
  });
}

const Anything = z.unknown();

describe('requests', () => {
  test('are prefixed with /stores/{hash}/ and carry the auth, JSON and channel headers', async () => {
    script = () => ({ status: 200, body: '{"ok":true}' });
    await client({ channelId: 3 }).get('v3/catalog/products', Anything, {
      'id:in': '1,2',
      page: 2,
    });
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe('/stores/hash42/v3/catalog/products?id%3Ain=1%2C2&page=2');
    expect(request?.headers['x-auth-token']).toBe(TOKEN);
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers[CHANNEL_ID_HEADER.toLowerCase()]).toBe('3');
  });

  test('withChannel sends the other channel id and keeps the original client as it was', async () => {
    script = () => ({ status: 200, body: '{}' });
    const base = client({ channelId: 1 });
    const other = base.withChannel(7);
    expect(other.channelId).toBe(7);
    await other.get('v2/store', Anything);
    await base.get('v2/store', Anything);
    expect(seen.map((s) => s.headers['x-channel-id'])).toEqual(['7', '1']);
  });

  test('a client without channel sends no channel header', async () => {
    script = () => ({ status: 200, body: '{}' });
    await client().get('v2/store', Anything);
    expect(seen[0]?.headers['x-channel-id']).toBeUndefined();
  });

  test('send() posts JSON', async () => {
    script = () => ({ status: 200, body: '{"data":{"id":5}}' });
    const reply = await client().send(
      'post',
      'v3/carts',
      z.object({ data: z.object({ id: z.number() }) }),
      {
        json: { line_items: [] },
      },
    );
    expect(reply.data.id).toBe(5);
    expect(seen[0]?.method).toBe('POST');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ line_items: [] });
  });
});

describe('retries', () => {
  test('a GET answered 503 is retried, then succeeds', async () => {
    script = (_s, attempt) =>
      attempt === 1 ? { status: 503, body: '{}' } : { status: 200, body: '{"n":1}' };
    const reply = await client().get('v2/store', z.object({ n: z.number() }));
    expect(reply.n).toBe(1);
    expect(seen).toHaveLength(2);
  });

  test('a POST answered 503 is not retried', async () => {
    script = () => ({ status: 503, body: '{"status":503,"title":"Service Unavailable"}' });
    await expect(client().send('post', 'v3/carts', Anything)).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      status: 503,
    });
    expect(seen).toHaveLength(1);
  });

  test('a GET answered 404 is not retried', async () => {
    script = () => ({ status: 404, body: '{"status":404,"title":"Not found"}' });
    await expect(client().get('v2/store', Anything)).rejects.toBeInstanceOf(BigCommerceError);
    expect(seen).toHaveLength(1);
  });
});

describe('errors', () => {
  test('a v3 error keeps the status and the upstream title and field errors', async () => {
    script = () => ({
      status: 422,
      body: '{"status":422,"title":"The filter(s): limit are invalid.","type":"x","errors":{"limit":"limit must be between 1 and 250"}}',
    });
    const error = await client()
      .get('v3/catalog/products', Anything)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BigCommerceError);
    expect(error).toMatchObject({
      code: 'UNPROCESSABLE_ENTITY',
      status: 422,
      title: 'The filter(s): limit are invalid.',
      message: 'The filter(s): limit are invalid.',
      errors: { limit: 'limit must be between 1 and 250' },
      endpoint: 'GET v3/catalog/products',
    });
  });

  test('a v2 error array gives its message', async () => {
    script = () => ({ status: 401, body: '[{"status":401,"message":"No valid credentials."}]' });
    await expect(client().get('v2/store', Anything)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      status: 401,
      message: 'No valid credentials.',
    });
  });

  test('messages never carry the token nor the store hash', async () => {
    script = () => ({ status: 403, body: `{"title":"token ${TOKEN} denied for stores/${STORE}"}` });
    const error = (await client()
      .get('v2/store', Anything)
      .catch((e: unknown) => e)) as BigCommerceError;
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).not.toContain(TOKEN);
    expect(error.message).not.toContain(STORE);
    expect(JSON.stringify(error)).not.toContain(TOKEN);
  });

  test('an error without a body gets a generic message with the status', async () => {
    script = () => ({ status: 500 });
    await expect(client().send('delete', 'v3/carts/abc', Anything)).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      status: 500,
      message: 'BigCommerce DELETE v3/carts/abc failed with status 500',
    });
  });

  test('a reply that is not JSON is INVALID_RESPONSE (502)', async () => {
    script = () => ({ status: 200, body: '<html>oops</html>' });
    await expect(client().get('v2/store', Anything)).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
      status: 502,
    });
  });

  test('a reply that does not match the schema is INVALID_RESPONSE naming the field', async () => {
    script = () => ({ status: 200, body: '{"data":{"id":"seven"}}' });
    await expect(
      client().get('v3/x', z.object({ data: z.object({ id: z.number() }) })),
    ).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
      status: 502,
      message: 'Unexpected BigCommerce reply for GET v3/x at data.id',
    });
  });

  test('a slow upstream is a TIMEOUT (504), at its deadline', async () => {
    // The upstream holds the request; the client's deadline runs on a fake clock (the HTTP
    // exchange itself is real).
    script = () => ({ status: 200, hold: true });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const arrived = once(server, 'request');
      let settled = false;
      const call = client({ timeout: 100 }).send('post', 'v3/carts', Anything);
      const outcome = expect(call).rejects.toMatchObject({ code: 'TIMEOUT', status: 504 });
      void call.catch(() => undefined).finally(() => (settled = true));
      await arrived;
      await vi.advanceTimersByTimeAsync(99);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await outcome;
    } finally {
      vi.useRealTimers();
    }
  });

  test('an unreachable upstream is a NETWORK_ERROR (502)', async () => {
    const closed = createBigCommerceClient({
      apiUrl: 'http://127.0.0.1:9',
      storeHash: STORE,
      accessToken: TOKEN,
      retryLimit: 0,
    });
    await expect(closed.get('v2/store', Anything)).rejects.toMatchObject({
      code: 'NETWORK_ERROR',
      status: 502,
    });
  });
});

describe('getChannel', () => {
  test('a reply carrying errors raises CHANNEL_ERROR (spec §8)', async () => {
    script = () => ({
      status: 200,
      body: JSON.stringify({
        data: {
          id: 1,
          name: 'Boutique',
          currencies: { default_currency: 'EUR', enabled_currencies: ['EUR'] },
        },
        errors: [{ code: 'currencies', message: 'Currencies could not be loaded' }],
      }),
    });
    await expect(getChannel(client({ channelId: 1 }))).rejects.toMatchObject({
      name: 'BigCommerceError',
      code: 'CHANNEL_ERROR',
    });
  });

  test('a reply with an empty errors list is a channel', async () => {
    script = () => ({
      status: 200,
      body: JSON.stringify({
        data: {
          id: 4,
          name: 'Boutique',
          currencies: { default_currency: 'EUR', enabled_currencies: ['EUR', 'CHF'] },
        },
        errors: [],
      }),
    });
    await expect(getChannel(client({ channelId: 4 }))).resolves.toEqual({
      id: 4,
      name: 'Boutique',
      defaultCurrency: 'EUR',
      enabledCurrencies: ['EUR', 'CHF'],
    });
    expect(seen[0]?.url).toBe('/stores/hash42/v3/channels/4?include=currencies');
  });
});
