/**
 * The request id over real HTTP: the storefront server (`startServer`) on a dist folder made
 * here, whose SSR side (standing where Astro's `dist/server/entry.mjs` stands) calls the four
 * real connectors, BigCommerce, Contentful, Brevo and reviews, pointed at a local upstream that
 * records the headers it receives. The id a reply says is the one every upstream call of that
 * request carried and the one its log lines carry; a trusted proxy's well-formed id is kept,
 * anyone else's is replaced.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { startServer, type RunningServer } from '../../src/server/http-server.ts';
import { createBigCommerceClient } from '../../src/shop/connectors/bigcommerce/client.ts';
import { createBrevoClient } from '../../src/shop/connectors/brevo/client.ts';
import { createContentfulClient } from '../../src/shop/connectors/contentful/client.ts';
import { createReviewsClient } from '../../src/shop/connectors/reviews/client.ts';
import { currentRequestId } from '../../src/shop/config/request-context.ts';
import { logFailure } from '../../src/shop/faults/failures.ts';
import { captureLog } from '../unit/helpers/log-lines.ts';

/** What the upstream saw: the service (first path segment) and the `X-Request-Id` it got. */
interface Seen {
  service: string;
  requestId: string | undefined;
}
const seen: Seen[] = [];
const upstream = http.createServer((req: IncomingMessage, res: ServerResponse) => {
  const service = (req.url ?? '/').split('/')[1] ?? '';
  const header = req.headers['x-request-id'];
  seen.push({ service, requestId: Array.isArray(header) ? header.join(',') : header });
  // BigCommerce refuses (an upstream failure the page logs); the others answer.
  const status = service === 'bigcommerce' ? 503 : 200;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(status === 200 ? '{}' : '{"title":"Service Unavailable"}');
});

/** The SSR side: the real connectors, called while serving `/appel`. */
async function ssrHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.url === '/boom') throw new Error('render failed');
  const base = `http://127.0.0.1:${String((upstream.address() as AddressInfo).port)}`;
  const bigcommerce = createBigCommerceClient({
    apiUrl: `${base}/bigcommerce`,
    storeHash: 'abc123',
    accessToken: 'token-bc',
    retryLimit: 0,
  });
  const contentful = createContentfulClient({
    apiUrl: `${base}/contentful`,
    spaceId: 'space',
    accessToken: 'token-cf',
  });
  const brevo = createBrevoClient({ apiUrl: `${base}/brevo`, apiKey: 'key-brevo' });
  const reviews = createReviewsClient({ apiUrl: `${base}/reviews` });
  const inHandler = currentRequestId();
  const [products] = await Promise.allSettled([
    bigcommerce.get('v3/catalog/products', z.unknown()),
    contentful.get('entries', z.unknown()),
    brevo.request('GET', 'contacts/x', z.unknown()),
    reviews.getSiteRating('site-1'),
  ]);
  if (products.status === 'rejected') logFailure('page', 'appel', products.reason);
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(inHandler ?? '');
}
(globalThis as { __requestIdSsr?: typeof ssrHandler }).__requestIdSsr = ssrHandler;
const HANDLER = `export function handler(req, res) { return globalThis.__requestIdSsr(req, res); }`;

let dir = '';
/** The server behind no trusted proxy, and the one that trusts 127.0.0.1 (the tests' peer). */
let open: RunningServer;
let behindProxy: RunningServer;

beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  dir = await mkdtemp(path.join(os.tmpdir(), 'request-id-test-'));
  await mkdir(path.join(dir, 'client'), { recursive: true });
  await mkdir(path.join(dir, 'server'), { recursive: true });
  await writeFile(path.join(dir, 'client/index.html'), '<h1>Accueil</h1>');
  await writeFile(path.join(dir, 'server/entry.mjs'), HANDLER);
  const saved = process.env.TRUSTED_PROXIES;
  try {
    delete process.env.TRUSTED_PROXIES;
    open = await startServer({ distDir: dir, port: 0, renderCache: false });
    process.env.TRUSTED_PROXIES = '127.0.0.1';
    behindProxy = await startServer({ distDir: dir, port: 0, renderCache: false });
  } finally {
    if (saved === undefined) delete process.env.TRUSTED_PROXIES;
    else process.env.TRUSTED_PROXIES = saved;
  }
});

afterAll(async () => {
  await open.close();
  await behindProxy.close();
  await new Promise<void>((resolve) => {
    upstream.close(() => {
      resolve();
    });
  });
  await rm(dir, { recursive: true, force: true });
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** GET `p` from `server`: status, the reply's id, its body, the upstream calls and log lines. */
async function get(server: RunningServer, p: string, headers: Record<string, string> = {}) {
  seen.length = 0;
  const { lines, restore } = captureLog();
  try {
    const response = await fetch(new URL(p, server.url.replace('localhost', '127.0.0.1')), {
      headers,
      redirect: 'manual',
    });
    const body = await response.text();
    return {
      status: response.status,
      id: response.headers.get('x-request-id'),
      body,
      upstream: [...seen].sort((a, b) => a.service.localeCompare(b.service)),
      lines: [...lines],
    };
  } finally {
    restore();
  }
}

/** Every service called once, each with `id`. */
const allCalledWith = (id: string) =>
  ['bigcommerce', 'brevo', 'contentful', 'reviews'].map((service) => ({
    service,
    requestId: id,
  }));

describe('a request without an id of its own', () => {
  test('gets a new one: on the reply, on each upstream call, on its log line', async () => {
    const reply = await get(open, '/appel');
    expect(reply.status).toBe(200);
    expect(reply.id).toMatch(UUID);
    const id = reply.id ?? '';
    // Astro's handler (here its stand-in) runs inside the request's context.
    expect(reply.body).toBe(id);
    expect(reply.upstream).toEqual(allCalledWith(id));
    expect(reply.lines).toEqual([
      expect.objectContaining({
        level: 'error',
        msg: '[upstream] call failed',
        service: 'bigcommerce',
        reqId: id,
      }),
    ]);
  });

  test('two requests at once each keep their own', async () => {
    seen.length = 0;
    const base = open.url.replace('localhost', '127.0.0.1');
    const replies = await Promise.all(
      [1, 2, 3].map(() => fetch(`${base}/appel`).then((r) => r.headers.get('x-request-id'))),
    );
    expect(new Set(replies).size).toBe(3);
    for (const id of replies) {
      expect(seen.filter((call) => call.requestId === id)).toHaveLength(4);
    }
    expect(seen).toHaveLength(12);
  });
});

describe("a caller's X-Request-Id", () => {
  test('from a trusted proxy, well formed: kept, and sent upstream', async () => {
    const reply = await get(behindProxy, '/appel', { 'x-request-id': 'lb-7f3a.91:02' });
    expect(reply.id).toBe('lb-7f3a.91:02');
    expect(reply.upstream).toEqual(allCalledWith('lb-7f3a.91:02'));
    expect(reply.lines.map((line) => line.reqId)).toEqual(['lb-7f3a.91:02']);
  });

  test.each([
    ['with a space', 'lb 1'],
    ['too long', 'a'.repeat(129)],
    ['with a slash', 'lb/1'],
    ['with an accent', 'requête'],
  ])('from a trusted proxy, %s: replaced', async (_case, given) => {
    const reply = await get(behindProxy, '/appel', { 'x-request-id': given });
    expect(reply.id).toMatch(UUID);
    expect(reply.upstream).toEqual(allCalledWith(reply.id ?? ''));
  });

  test('from anyone else: replaced, never sent upstream nor logged', async () => {
    const reply = await get(open, '/appel', { 'x-request-id': 'forged-by-visitor' });
    expect(reply.id).toMatch(UUID);
    expect(reply.upstream).toEqual(allCalledWith(reply.id ?? ''));
    expect(JSON.stringify(reply.lines)).not.toContain('forged-by-visitor');
    expect(reply.lines.map((line) => line.reqId)).toEqual([reply.id]);
  });
});

describe('every reply says its id', () => {
  test('a static file, a refused method, a redirect', async () => {
    for (const [p, status] of [
      ['/', 200],
      ['/index.html', 301],
    ] as const) {
      const reply = await get(behindProxy, p, { 'x-request-id': `statique-${String(status)}` });
      expect(reply.status, p).toBe(status);
      expect(reply.id, p).toBe(`statique-${String(status)}`);
    }
    const base = open.url.replace('localhost', '127.0.0.1');
    const refused = await fetch(`${base}/`, { method: 'PROPFIND' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('x-request-id')).toMatch(UUID);
  });

  test('a failed render: the error page and its log line carry it', async () => {
    const reply = await get(behindProxy, '/boom', { 'x-request-id': 'panne-1' });
    expect(reply.status).toBe(500);
    expect(reply.id).toBe('panne-1');
    expect(reply.lines).toHaveLength(1);
    expect(reply.lines[0]).toMatchObject({ level: 'error', reqId: 'panne-1' });
    expect(reply.lines[0]?.err).toMatchObject({ message: 'render failed' });
  });
});
