/**
 * The webhook endpoints over HTTP (src/server/webhooks/routes.ts in `startServer`), on a tiny
 * dist made here: an accepted Contentful publish and BigCommerce product update reach the
 * rebuild (one event each); forged, stale, unsigned, oversized and replayed requests are
 * refused with a short text, one log line without the body, and no event; a refusal records
 * nothing (the genuine request after a forgery with its signature is still accepted); an
 * endpoint without its secret is 404; the status answers loopback callers and the token only.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/http-server.ts';
import { createMemoryStore } from '../../src/shop/state/memory.ts';
import type { SharedStore } from '../../src/shop/state/types.ts';
import type { RebuildEvent } from '../../src/server/rebuild/scheduler.ts';
import { signContentfulRequest } from '../../src/server/webhooks/contentful.ts';
import { createWebhookRoutes } from '../../src/server/webhooks/routes.ts';

const CONTENTFUL_SECRET = 'c'.repeat(64);
const BIGCOMMERCE_SECRET = 'bigcommerce-webhook-secret-0123456789';
const STATUS_TOKEN = 'status-token-0123456789-0123456789';
const STORE_HASH = 'sandbox';

let dir: string;
let server: RunningServer;
let disabledServer: RunningServer;
let events: RebuildEvent[] = [];
let logs: string[] = [];
let clock = Date.now();

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'webhooks-test-'));
  await mkdir(path.join(dir, 'client'), { recursive: true });
  await mkdir(path.join(dir, 'server'), { recursive: true });
  await writeFile(path.join(dir, 'client/index.html'), '<h1>Accueil</h1>');
  await writeFile(
    path.join(dir, 'server/entry.mjs'),
    `export async function handler(req, res) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Introuvable</h1>');
    }`,
  );
  await writeFile(path.join(dir, 'status.json'), JSON.stringify({ state: 'idle' }));
  const webhooks = createWebhookRoutes({
    contentfulSecret: CONTENTFUL_SECRET,
    bigcommerceSecret: BIGCOMMERCE_SECRET,
    bigcommerceStoreHash: STORE_HASH,
    statusToken: STATUS_TOKEN,
    statusFile: path.join(dir, 'status.json'),
    store: createMemoryStore(),
    onEvent: (event) => events.push(event),
    now: () => clock,
    log: (line) => logs.push(line),
  });
  server = await startServer({ distDir: dir, port: 0, webhooks, renderCache: false });
  disabledServer = await startServer({
    distDir: dir,
    port: 0,
    renderCache: false,
    webhooks: createWebhookRoutes({
      store: createMemoryStore(),
      onEvent: (event) => events.push(event),
      log: (line) => logs.push(line),
    }),
  });
});

afterAll(async () => {
  await server.close();
  await disabledServer.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  events = [];
  logs = [];
  clock = Date.now();
});

interface Reply {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One raw HTTP request (node:http: the path and headers go out exactly as given). */
function send(
  base: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Reply> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'POST',
        path: options.path,
        headers: options.headers ?? {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString(),
            headers: res.headers,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const ENTRY_BODY = JSON.stringify({
  sys: { id: 'entree-42', type: 'Entry', contentType: { sys: { id: 'contentPage' } } },
  fields: { title: { fr: 'MARQUEUR-DU-CORPS' } },
});

function contentfulHeaders(
  body = ENTRY_BODY,
  options: { timestamp?: number; topic?: string; path?: string } = {},
): Record<string, string> {
  return signContentfulRequest({
    method: 'POST',
    path: options.path ?? '/webhooks/contentful',
    headers: {
      'Content-Type': 'application/vnd.contentful.management.v1+json',
      'X-Contentful-Topic': options.topic ?? 'ContentManagement.Entry.publish',
    },
    body,
    secret: CONTENTFUL_SECRET,
    timestamp: options.timestamp ?? clock,
  });
}

const postContentful = (
  headers: Record<string, string>,
  body = ENTRY_BODY,
  p = '/webhooks/contentful',
) => send(server.url, { path: p, headers, body });

/** Every log line is one line, names the refusal, and quotes nothing of the body. */
function expectRefusalLogged(status: number) {
  expect(logs).toHaveLength(1);
  expect(logs[0]).toContain(`refused (${status}`);
  expect(logs[0]).not.toMatch(/[\r\n]/);
  expect(logs[0]).not.toContain('MARQUEUR');
}

describe('POST /webhooks/contentful', () => {
  test('a signed publish is accepted: one event, for the rebuild', async () => {
    const reply = await postContentful(contentfulHeaders());
    expect(reply.status).toBe(202);
    expect(JSON.parse(reply.text)).toEqual({ status: 'accepted' });
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(events).toEqual([
      { source: 'contentful', topic: 'Entry.publish', id: 'entree-42', receivedAt: clock },
    ]);
  });

  test('a replay of an accepted request is refused (409) and changes nothing', async () => {
    const headers = contentfulHeaders();
    expect((await postContentful(headers)).status).toBe(202);
    logs = [];
    const replay = await postContentful(headers);
    expect(replay.status).toBe(409);
    expect(replay.text).toBe('Conflict\n');
    expect(events).toHaveLength(1);
    expectRefusalLogged(409);
  });

  test('a forged signature is refused (401), no event', async () => {
    const headers = contentfulHeaders();
    headers['x-contentful-signature'] = 'f'.repeat(64);
    const reply = await postContentful(headers);
    expect(reply.status).toBe(401);
    expect(reply.text).toBe('Unauthorized\n');
    expect(events).toEqual([]);
    expectRefusalLogged(401);
  });

  test('a changed body under a genuine signature is refused, and the genuine one still passes', async () => {
    const headers = contentfulHeaders();
    const forged = ENTRY_BODY.replace('entree-42', 'entree-43');
    expect((await postContentful(headers, forged)).status).toBe(401);
    expect(events).toEqual([]);
    // The refusal recorded nothing: the genuine request is not taken for a replay.
    expect((await postContentful(headers)).status).toBe(202);
    expect(events).toHaveLength(1);
  });

  test('a stale request (31 s) is refused, no event', async () => {
    const headers = contentfulHeaders(ENTRY_BODY, { timestamp: clock - 31_000 });
    const reply = await postContentful(headers);
    expect(reply.status).toBe(401);
    expect(events).toEqual([]);
    expect(logs[0]).toContain('stale-timestamp');
  });

  test('an unsigned request is refused, no event', async () => {
    const reply = await postContentful({
      'content-type': 'application/json',
      'x-contentful-topic': 'ContentManagement.Entry.publish',
    });
    expect(reply.status).toBe(401);
    expect(events).toEqual([]);
    expect(logs[0]).toContain('missing-signature');
  });

  test('a request signed for another path (query added) is refused', async () => {
    const headers = contentfulHeaders();
    const reply = await postContentful(headers, ENTRY_BODY, '/webhooks/contentful?x=1');
    expect(reply.status).toBe(401);
    expect(events).toEqual([]);
  });

  test('a request signed with its query passes (the path as received)', async () => {
    const headers = contentfulHeaders(ENTRY_BODY, { path: '/webhooks/contentful?source=cf' });
    const reply = await postContentful(headers, ENTRY_BODY, '/webhooks/contentful?source=cf');
    expect(reply.status).toBe(202);
  });

  test('an oversized body is refused (413) before it is read whole', async () => {
    const body = JSON.stringify({ sys: { id: 'x' }, pad: 'x'.repeat(1024 * 1024) });
    const reply = await postContentful(contentfulHeaders(body), body);
    expect(reply.status).toBe(413);
    expect(events).toEqual([]);
  });

  test('a verified body that is not a notification is refused (400), no event', async () => {
    const body = '["not", "an", "entry"]';
    const reply = await postContentful(contentfulHeaders(body), body);
    expect(reply.status).toBe(400);
    expect(events).toEqual([]);
  });

  test('a save (draft) is acknowledged and ignored', async () => {
    const headers = contentfulHeaders(ENTRY_BODY, { topic: 'ContentManagement.Entry.save' });
    const reply = await postContentful(headers);
    expect(reply.status).toBe(202);
    expect(JSON.parse(reply.text)).toEqual({ status: 'ignored', topic: 'Entry.save' });
    expect(events).toEqual([]);
  });

  test('GET is 405 with Allow: POST', async () => {
    const reply = await send(server.url, { method: 'GET', path: '/webhooks/contentful' });
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('POST');
  });

  test('a forged flood is logged a few lines a minute, not once per request', async () => {
    const headers = contentfulHeaders();
    headers['x-contentful-signature'] = '0'.repeat(64);
    for (let i = 0; i < 40; i++) await postContentful(headers);
    expect(logs.length).toBeLessThanOrEqual(20);
    clock += 61_000;
    await postContentful(headers);
    expect(logs.some((line) => /\d+ more refusals not logged/.test(line))).toBe(true);
    expect(events).toEqual([]);
  });
});

const productUpdate = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    scope: 'store/product/updated',
    store_id: '1001',
    data: { type: 'product', id: 77 },
    hash: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
    created_at: Math.floor(clock / 1000),
    producer: `stores/${STORE_HASH}`,
    ...overrides,
  });

const postBigCommerce = (body: string, secret: string | null = BIGCOMMERCE_SECRET) =>
  send(server.url, {
    path: '/webhooks/bigcommerce',
    headers: {
      'content-type': 'application/json',
      ...(secret === null ? {} : { 'X-Webhook-Secret': secret }),
    },
    body,
  });

describe('POST /webhooks/bigcommerce', () => {
  test('a product update with the secret is accepted: one event', async () => {
    const reply = await postBigCommerce(productUpdate());
    expect(reply.status).toBe(202);
    expect(events).toEqual([
      { source: 'bigcommerce', topic: 'store/product/updated', id: '77', receivedAt: clock },
    ]);
  });

  test.each([
    ['store/category/created', 'category'],
    ['store/brand/deleted', 'brand'],
  ])('%s is accepted', async (scope, type) => {
    const reply = await postBigCommerce(productUpdate({ scope, data: { type, id: 5 } }));
    expect(reply.status).toBe(202);
    expect(events).toHaveLength(1);
  });

  test('without the secret header, or with another one, refused (401), no event', async () => {
    expect((await postBigCommerce(productUpdate(), null)).status).toBe(401);
    expect((await postBigCommerce(productUpdate(), `${BIGCOMMERCE_SECRET}x`)).status).toBe(401);
    expect(events).toEqual([]);
    expect(logs).toHaveLength(2);
    expect(logs.join('\n')).not.toContain(BIGCOMMERCE_SECRET);
  });

  test('a replay is refused (409)', async () => {
    const body = productUpdate({ hash: 'replayed' });
    expect((await postBigCommerce(body)).status).toBe(202);
    expect((await postBigCommerce(body)).status).toBe(409);
    expect(events).toHaveLength(1);
  });

  test('a stale notification (6 min) is refused', async () => {
    const reply = await postBigCommerce(
      productUpdate({ created_at: Math.floor(clock / 1000) - 360 }),
    );
    expect(reply.status).toBe(401);
    expect(events).toEqual([]);
  });

  test("another store's notification is refused", async () => {
    const reply = await postBigCommerce(productUpdate({ producer: 'stores/elsewhere' }));
    expect(reply.status).toBe(401);
    expect(events).toEqual([]);
  });

  test('a malformed payload is refused (400)', async () => {
    expect((await postBigCommerce('{"scope":1}')).status).toBe(400);
    expect((await postBigCommerce('not json')).status).toBe(400);
    expect(events).toEqual([]);
  });

  test('an order notification is acknowledged and ignored', async () => {
    const reply = await postBigCommerce(
      productUpdate({ scope: 'store/order/created', data: { type: 'order', id: 9 } }),
    );
    expect(reply.status).toBe(202);
    expect(JSON.parse(reply.text)).toMatchObject({ status: 'ignored' });
    expect(events).toEqual([]);
  });
});

describe('without secrets', () => {
  test('both endpoints are 404, logged once each', async () => {
    for (let i = 0; i < 3; i++) {
      const reply = await send(disabledServer.url, {
        path: '/webhooks/contentful',
        headers: contentfulHeaders(),
        body: ENTRY_BODY,
      });
      expect(reply.status).toBe(404);
    }
    const bigcommerce = await send(disabledServer.url, {
      path: '/webhooks/bigcommerce',
      headers: { 'X-Webhook-Secret': BIGCOMMERCE_SECRET },
      body: productUpdate(),
    });
    expect(bigcommerce.status).toBe(404);
    expect(logs).toHaveLength(2);
    expect(logs[0]).toContain('CONTENTFUL_WEBHOOK_SECRET is not set');
    expect(events).toEqual([]);
  });

  test('the status is 404 with no status file', async () => {
    const reply = await send(disabledServer.url, { method: 'GET', path: '/webhooks/status' });
    expect(reply.status).toBe(404);
  });
});

describe('GET /webhooks/status', () => {
  test('answers a loopback caller', async () => {
    const reply = await send(server.url, { method: 'GET', path: '/webhooks/status' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(JSON.parse(reply.text)).toEqual({ state: 'idle' });
  });

  test('a forwarded request (a local proxy) needs the token', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.9' };
    const without = await send(server.url, {
      method: 'GET',
      path: '/webhooks/status',
      headers: forwarded,
    });
    expect(without.status).toBe(404);
    const wrong = await send(server.url, {
      method: 'GET',
      path: '/webhooks/status',
      headers: { ...forwarded, authorization: `Bearer ${STATUS_TOKEN}x` },
    });
    expect(wrong.status).toBe(404);
    const right = await send(server.url, {
      method: 'GET',
      path: '/webhooks/status',
      headers: { ...forwarded, authorization: `Bearer ${STATUS_TOKEN}` },
    });
    expect(right.status).toBe(200);
  });

  test('POST is 405', async () => {
    const reply = await send(server.url, { path: '/webhooks/status', body: '' });
    expect(reply.status).toBe(405);
  });
});

test('other /webhooks/ paths are 404; pages are unaffected', async () => {
  expect((await send(server.url, { path: '/webhooks/other', body: '' })).status).toBe(404);
  const home = await send(server.url, { method: 'GET', path: '/' });
  expect(home.status).toBe(200);
  expect(home.text).toContain('Accueil');
});

describe('a copy whose clock is off', () => {
  /** Another server on the same tiny dist whose webhooks read `now` and keep in `store`. */
  async function copyWithClock(now: () => number, store: SharedStore = createMemoryStore()) {
    const seen: RebuildEvent[] = [];
    const lines: string[] = [];
    const copy = await startServer({
      distDir: dir,
      port: 0,
      renderCache: false,
      webhooks: createWebhookRoutes({
        contentfulSecret: CONTENTFUL_SECRET,
        bigcommerceSecret: BIGCOMMERCE_SECRET,
        bigcommerceStoreHash: STORE_HASH,
        store,
        onEvent: (event) => seen.push(event),
        now,
        log: (line) => lines.push(line),
      }),
    });
    const post = (p: string, headers: Record<string, string>, body: string) =>
      send(copy.url, { path: p, headers, body });
    return {
      seen,
      lines,
      contentful: (headers: Record<string, string>, body = ENTRY_BODY) =>
        post('/webhooks/contentful', headers, body),
      bigcommerce: (body: string) =>
        post(
          '/webhooks/bigcommerce',
          { 'content-type': 'application/json', 'X-Webhook-Secret': BIGCOMMERCE_SECRET },
          body,
        ),
      close: () => copy.close(),
    };
  }

  test('300 s behind: genuine webhooks get 503 with Retry-After (retried), a line names the skew', async () => {
    const behind = await copyWithClock(() => clock - 300_000);
    try {
      const contentful = await behind.contentful(contentfulHeaders());
      expect(contentful.status).toBe(503);
      expect(Number(contentful.headers['retry-after'])).toBeGreaterThan(0);
      const bigcommerce = await behind.bigcommerce(productUpdate({ hash: 'skewed' }));
      expect(bigcommerce.status).toBe(503);
      expect(Number(bigcommerce.headers['retry-after'])).toBeGreaterThanOrEqual(240);
      expect(behind.seen).toEqual([]);
      expect(behind.lines).toHaveLength(2);
      expect(behind.lines[0]).toMatch(/contentful: this copy's clock is 300 s behind/);
      // BigCommerce's created_at is in whole seconds: 299 s when the clock is past a second's
      // half, as the sender would see it.
      expect(behind.lines[1]).toMatch(/bigcommerce: this copy's clock is (299|300) s behind/);
    } finally {
      await behind.close();
    }
  });

  test('on that copy a forged signature with the same timestamp is still 401, no skew line for it', async () => {
    const behind = await copyWithClock(() => clock - 300_000);
    try {
      const forged = { ...contentfulHeaders(), 'x-contentful-signature': 'ab'.repeat(32) };
      expect((await behind.contentful(forged)).status).toBe(401);
      expect((await behind.bigcommerce(productUpdate())).status).toBe(503);
      expect(behind.lines.filter((line) => line.includes('clock'))).toHaveLength(1);
      expect(behind.lines[0]).toContain('refused (401 bad-signature)');
      expect(behind.seen).toEqual([]);
    } finally {
      await behind.close();
    }
  });

  test('an old signed body replayed is refused (401) every time, never 503, never accepted', async () => {
    const fine = await copyWithClock(() => clock);
    try {
      const old = contentfulHeaders(ENTRY_BODY, { timestamp: clock - 600_000 });
      for (let i = 0; i < 5; i += 1) expect((await fine.contentful(old)).status).toBe(401);
      const oldNotification = productUpdate({ created_at: Math.floor(clock / 1000) - 3600 });
      for (let i = 0; i < 5; i += 1)
        expect((await fine.bigcommerce(oldNotification)).status).toBe(401);
      expect(fine.seen).toEqual([]);
    } finally {
      await fine.close();
    }
  });

  test('300 s ahead: three different genuine webhooks stale alike say so (503); none accepted', async () => {
    const ahead = await copyWithClock(() => clock + 300_000);
    try {
      const statuses = [];
      for (const id of ['a', 'b', 'c', 'd']) {
        const body = JSON.stringify({ sys: { id: `entree-${id}`, type: 'Entry' } });
        statuses.push((await ahead.contentful(contentfulHeaders(body), body)).status);
      }
      expect(statuses).toEqual([401, 401, 503, 503]);
      expect(
        ahead.lines.some((line) => line.includes("clock is 300 s ahead of the sender's")),
      ).toBe(true);
      expect(ahead.seen).toEqual([]);
    } finally {
      await ahead.close();
    }
  });

  test('an unreachable replay store: 503 with Retry-After, nothing accepted', async () => {
    const down = new Error('ECONNREFUSED 127.0.0.1:6379');
    const broken: SharedStore = {
      ...createMemoryStore(),
      setIfAbsent: () => Promise.reject(down),
    };
    const copy = await copyWithClock(() => clock, broken);
    try {
      const reply = await copy.contentful(contentfulHeaders());
      expect(reply.status).toBe(503);
      expect(reply.headers['retry-after']).toBe('5');
      expect((await copy.bigcommerce(productUpdate())).status).toBe(503);
      expect(copy.seen).toEqual([]);
    } finally {
      await copy.close();
    }
  });
});
