/**
 * The API middleware (`handleApiCall`) over real HTTP: a tiny node:http server bridges to it
 * on a free port, with the bigcommerce service bound to a sandbox (fresh database) through
 * the same host → storefront → channel resolution the shop uses.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { bigcommerceService } from '../../src/shop/api/bigcommerce.ts';
import {
  bindService,
  defineMethod,
  handleApiCall,
  MAX_BODY_BYTES,
  type ApiServices,
} from '../../src/shop/api/handle.ts';
import { createBigCommerceClient } from '../../src/shop/connectors/bigcommerce/index.ts';
import {
  buildStorefrontConfig,
  createClientForHost,
  createStorefrontResolver,
  requestHost,
} from '../../src/shop/config/storefronts.ts';
import { parseStorefrontConfig } from '../../src/lib/commerce/storefront.ts';
import { startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';
import { captureLog } from '../unit/helpers/log-lines.ts';

let sandbox: TestSandbox;
let server: Server;
let base = '';
/** Upstream calls the connectors made: URL and channel header. */
let upstream: { url: string; channel: string | null }[] = [];
const warn = vi.fn<(message: string) => void>();

const SHOP_B = 'boutique-b.test';

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  });
}

function services(accessToken: string): ApiServices {
  const client = createBigCommerceClient({
    apiUrl: sandbox.url,
    storeHash: sandbox.storeHash,
    accessToken,
    channelId: 1,
    fetch: (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      upstream.push({ url: request.url, channel: request.headers.get('x-channel-id') });
      return fetch(request);
    },
  });
  const config = buildStorefrontConfig({
    setting: parseStorefrontConfig(
      JSON.stringify({
        hosts: { [SHOP_B]: { name: 'Boutique B', channelId: 2, protocol: 'https' } },
      }),
    ),
    defaultChannelId: 1,
    defaultName: 'Literie Lumière',
  });
  const clientFor = createClientForHost(client, createStorefrontResolver(config, warn));
  return {
    bigcommerce: bigcommerceService((request) => clientFor(requestHost(request))),
    // A test-only service: errors that are not upstream errors.
    broken: bindService({
      context: () => undefined,
      methods: {
        bug: defineMethod(z.tuple([]), () => Promise.reject(new TypeError('secret internals'))),
        teapot: defineMethod(z.tuple([]), () =>
          Promise.reject(Object.assign(new Error('I am a teapot'), { response: { status: 418 } })),
        ),
      },
    }),
  };
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const good = services(sandbox.token);
  const badToken = services('wrong-token-123');
  server = createServer((req, res) => {
    const request = toRequest(req);
    const { pathname } = new URL(request.url);
    const match = /^\/(bad-token\/)?api\/([^/]+)\/([^/]+)$/.exec(pathname);
    const reply = match
      ? handleApiCall(
          request,
          { service: match[2] ?? '', method: match[3] ?? '' },
          match[1] ? badToken : good,
        )
      : Promise.resolve(new Response('not found', { status: 404 }));
    void reply.then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
  await sandbox.close();
});

beforeEach(() => {
  upstream = [];
  warn.mockClear();
});

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  json: Record<string, unknown>;
}

/** POSTs over node:http (fetch cannot set `Host`); a string body is sent as is. */
function call(
  path: string,
  body: unknown,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method: options.method ?? 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(payload)),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            json: JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const data = (reply: Reply): unknown => reply.json.data;

describe('happy path: every bigcommerce method answers { data }', () => {
  test('getProducts: a page of visible products, whatever the caller asks', async () => {
    const reply = await call('/api/bigcommerce/getProducts', [{ limit: 3, include: ['images'] }]);
    expect(reply.status).toBe(200);
    // A catalogue read: cacheable by a CDN or server cache (handle.ts CACHEABLE_REPLY).
    expect(reply.headers['cache-control']).toBe(
      'public, max-age=0, s-maxage=30, stale-while-revalidate=60',
    );
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    const page = data(reply) as {
      items: { id: number; isVisible: boolean }[];
      pagination: { perPage: number };
    };
    expect(page.items).toHaveLength(3);
    expect(page.items.every((p) => p.isVisible)).toBe(true);
    expect(page.pagination.perPage).toBe(3);
    expect(new URL(upstream[0]?.url ?? '').searchParams.get('is_visible')).toBe('true');
  });

  test('getProducts with no argument', async () => {
    const reply = await call('/api/bigcommerce/getProducts', []);
    expect(reply.status).toBe(200);
    expect((data(reply) as { items: unknown[] }).items.length).toBeGreaterThan(0);
  });

  test('getProductById: the product; unknown or hidden → null', async () => {
    const found = await call('/api/bigcommerce/getProductById', [101]);
    expect(data(found) as { id: number; price: number }).toMatchObject({ id: 101 });
    expect(Number.isInteger((data(found) as { price: number }).price)).toBe(true);
    const unknown = await call('/api/bigcommerce/getProductById', [99_999_999]);
    expect(unknown).toMatchObject({ status: 200, json: { data: null } });
    const hidden = await fetch(
      `${sandbox.url}/stores/${sandbox.storeHash}/v3/catalog/products?is_visible=false`,
      { headers: { 'X-Auth-Token': sandbox.token } },
    ).then((r) => r.json() as Promise<{ data: { id: number }[] }>);
    const hiddenId = hidden.data[0]?.id;
    expect(hiddenId).toBeDefined();
    const reply = await call('/api/bigcommerce/getProductById', [hiddenId]);
    expect(reply).toMatchObject({ status: 200, json: { data: null } });
  });

  test('getProductsById and getProductsBySku', async () => {
    const byId = await call('/api/bigcommerce/getProductsById', [{ entityIds: [103, 101] }]);
    expect((data(byId) as { id: number }[]).map((p) => p.id)).toEqual([103, 101]);
    const bySku = await call('/api/bigcommerce/getProductsBySku', [{ skus: ['MAT-101'] }]);
    expect((data(bySku) as { sku: string }[]).map((p) => p.sku)).toEqual(['MAT-101']);
  });

  test('getProductsWithFilter: products and pagination for the trimmed term', async () => {
    const reply = await call('/api/bigcommerce/getProductsWithFilter', [
      { searchTerm: ' matelas ', limit: 4 },
    ]);
    const result = data(reply) as { products: unknown[]; pagination: { total: number } };
    expect(result.products.length).toBeGreaterThan(0);
    expect(result.products.length).toBeLessThanOrEqual(4);
    expect(new URL(upstream[0]?.url ?? '').searchParams.get('keyword')).toBe('matelas');
  });

  test('getProductsWithFilter: the shown categories of the found products (spec §3), tree read once', async () => {
    const search = async (searchTerm: string) =>
      data(await call('/api/bigcommerce/getProductsWithFilter', [{ searchTerm, limit: 6 }])) as {
        products: { categories: number[] }[];
        categories: { label: string; slug: string }[];
      };
    const result = await search('oreiller');
    expect(result.categories.length).toBeGreaterThan(0);
    for (const category of result.categories) {
      expect(category.slug).toMatch(/^\/c\/[a-z0-9-/]+$/);
      expect(category.label).not.toBe('');
    }
    expect(new Set(result.categories.map((c) => c.slug)).size).toBe(result.categories.length);
    const treeReads = () => upstream.filter((r) => r.url.includes('/categories/tree')).length;
    const before = treeReads();
    await search('couette');
    await search('drap');
    expect(treeReads()).toBe(before);
    // No product, no category, and no tree read for it.
    expect((await search('zzzqqqxxx')).categories).toEqual([]);
  });

  // BigCommerce's keyword search (the sandbox, faithfully) matches words as typed; the
  // shop corrects a term that found nothing to the catalogue's closest words and searches that.
  test('getProductsWithFilter: a typo is searched corrected (matelat → matelas), the vocabulary read once', async () => {
    interface Reply {
      products: { name: string }[];
      categories: { label: string }[];
      correctedTerm: string | null;
    }
    const search = async (searchTerm: string) =>
      data(
        await call('/api/bigcommerce/getProductsWithFilter', [{ searchTerm, limit: 6 }]),
      ) as Reply;
    const keywords = () =>
      upstream.flatMap((r) => new URL(r.url).searchParams.get('keyword') ?? []);

    const typo = await search('matelat');
    expect(typo.correctedTerm).toBe('matelas');
    expect(typo.products.length).toBeGreaterThan(0);
    expect(typo.categories.length).toBeGreaterThan(0);
    // The sandbox itself finds nothing for the typo: the tolerance is the shop's.
    expect(keywords()).toEqual(['matelat', 'matelas']);

    for (const [typed, expected] of [
      ['couete', 'couette'],
      ['OREILÉ', 'oreiller'],
    ] as const) {
      upstream = [];
      const reply = await search(typed);
      expect(reply.correctedTerm).toBe(expected);
      expect(reply.products.length).toBeGreaterThan(0);
      // The vocabulary (tree, brands, best sellers' names) was read once, for the first typo.
      expect(upstream.filter((r) => !r.url.includes('keyword=')).map((r) => r.url)).toEqual([]);
    }

    // A word the catalogue has is searched as typed, never corrected.
    expect((await search('matelas')).correctedTerm).toBeNull();
    // Nothing close: nothing found, nothing corrected.
    const nonsense = await search('zzzqqqxxx');
    expect(nonsense).toMatchObject({ products: [], categories: [], correctedTerm: null });
  });

  test('getCategoryTree, getCategory, getCategoriesBatchMetafields', async () => {
    const tree = data(await call('/api/bigcommerce/getCategoryTree', [])) as {
      id: number;
      children: unknown[];
    }[];
    expect(tree.length).toBeGreaterThan(0);
    const category = data(await call('/api/bigcommerce/getCategory', [tree[0]?.id])) as {
      id: number;
      url: string;
    };
    expect(category.id).toBe(tree[0]?.id);
    const metafields = data(
      await call('/api/bigcommerce/getCategoriesBatchMetafields', [{ key: 'hide-category' }]),
    ) as { resourceId: number }[];
    expect(Array.isArray(metafields)).toBe(true);
  });

  test('getChannel, getStoreMeta, getAllBanners, getRedirects', async () => {
    expect(
      data(await call('/api/bigcommerce/getChannel', [{ include: ['currencies'] }])),
    ).toMatchObject({
      id: 1,
      defaultCurrency: 'EUR',
    });
    expect(data(await call('/api/bigcommerce/getStoreMeta', []))).toMatchObject({
      currency: 'EUR',
    });
    const banners = data(await call('/api/bigcommerce/getAllBanners', [])) as {
      visible: boolean;
    }[];
    expect(banners.length).toBeGreaterThan(0);
    expect(typeof banners[0]?.visible).toBe('boolean');
    const redirects = data(await call('/api/bigcommerce/getRedirects', [])) as {
      fromPath: string;
    }[];
    expect(redirects.length).toBeGreaterThan(0);
    expect(redirects[0]?.fromPath).toMatch(/^\//);
  });
});

describe('bad requests are answered before any upstream call', () => {
  test('bad JSON → 400', async () => {
    const reply = await call('/api/bigcommerce/getProducts', '{not json');
    expect(reply).toMatchObject({
      status: 400,
      json: { message: 'Request body is not valid JSON', statusCode: 400 },
    });
    expect(upstream).toEqual([]);
  });

  test('a body that is not an array → 400', async () => {
    const reply = await call('/api/bigcommerce/getProducts', { limit: 3 });
    expect(reply).toMatchObject({
      status: 400,
      json: {
        message: "Request body must be a JSON array of the call's arguments",
        statusCode: 400,
      },
    });
  });

  test('a wrong argument type → 400 naming the argument and the field', async () => {
    const reply = await call('/api/bigcommerce/getProducts', [{ limit: 'ten' }]);
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      message:
        'Invalid argument 1 (query) of bigcommerce.getProducts at limit: Invalid input: expected number, received string',
      statusCode: 400,
    });
    const id = await call('/api/bigcommerce/getProductById', ['101']);
    expect(id.status).toBe(400);
    expect(id.json.message).toMatch(/^Invalid argument 1 \(id\) of bigcommerce\.getProductById: /);
    const unknownKey = await call('/api/bigcommerce/getProductsById', [
      { entityIds: [1], customerId: 4 },
    ]);
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.json.message).toMatch(/\(query\).*customerId/);
    expect(upstream).toEqual([]);
  });

  test('a missing or extra argument → 400', async () => {
    const missing = await call('/api/bigcommerce/getProductById', []);
    expect(missing).toMatchObject({
      status: 400,
      json: { message: 'Missing argument 1 (id) of bigcommerce.getProductById', statusCode: 400 },
    });
    const extra = await call('/api/bigcommerce/getCategoryTree', [1]);
    expect(extra).toMatchObject({
      status: 400,
      json: {
        message: 'Too many arguments for bigcommerce.getCategoryTree: got 1, expected at most 0',
      },
    });
    expect(upstream).toEqual([]);
  });

  test('a body over the limit → 413, declared or streamed', async () => {
    const big = JSON.stringify([{ searchTerm: 'x'.repeat(MAX_BODY_BYTES) }]);
    const declared = await call('/api/bigcommerce/getProductsWithFilter', big);
    expect(declared).toMatchObject({ status: 413, json: { statusCode: 413 } });
    const streamed = await fetch(`${base}/api/bigcommerce/getProductsWithFilter`, {
      method: 'POST',
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(upstream).toEqual([]);
  });

  test('other verbs → 405 with Allow: POST', async () => {
    const response = await fetch(`${base}/api/bigcommerce/getProducts`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toEqual({
      message: 'Method not allowed: use POST',
      statusCode: 405,
    });
  });
});

describe('unknown middleware → 500 (spec §8)', () => {
  test.each([
    ['an unknown service', '/api/nope/getProducts', 'Unknown middleware: nope'],
    ['a service not registered yet', '/api/contentful/getTags', 'Unknown middleware: contentful'],
    [
      'an unknown method',
      '/api/bigcommerce/deleteEverything',
      'Unknown middleware method: bigcommerce.deleteEverything',
    ],
    [
      'an inherited property',
      '/api/bigcommerce/toString',
      'Unknown middleware method: bigcommerce.toString',
    ],
    ['a prototype service', '/api/constructor/getProducts', 'Unknown middleware: constructor'],
  ])('%s', async (_case, path, message) => {
    const reply = await call(path, []);
    expect(reply).toMatchObject({ status: 500, json: { message, statusCode: 500 } });
    expect(upstream).toEqual([]);
  });

  test('is logged on one line, without a stack, whatever the route parameters hold', async () => {
    const { lines, restore } = captureLog();
    try {
      const reply = await handleApiCall(
        new Request('http://shop.test/api/x/y', { method: 'POST', body: '[]' }),
        { service: 'faux\r\n[api] forged line\u001b[31m', method: 'getProducts' },
        {},
      );
      expect(reply.status).toBe(500);
    } finally {
      restore();
    }
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line?.msg).toBe('[api] method not available');
    expect(line?.what).toBe('faux\r\n[api] forged line\u001b[31m.getProducts failed');
    // A stable message, the request's text in a field: JSON escapes it, no stack is written.
    expect(JSON.stringify(line)).not.toMatch(/\bat handleApiCall\b/);
  });
});

describe('errors are normalised to { message, statusCode }', () => {
  test('upstream 401 → 401 with the upstream message, no token', async () => {
    const reply = await call('/bad-token/api/bigcommerce/getProducts', []);
    expect(reply).toMatchObject({
      status: 401,
      json: { message: 'No valid credentials were found in this request.', statusCode: 401 },
    });
    expect(JSON.stringify(reply.json)).not.toContain('wrong-token-123');
  });

  test('upstream 404 → 404 (a channel the store does not have)', async () => {
    const reply = await call('/api/bigcommerce/getChannel', [], { headers: { Host: SHOP_B } });
    expect(reply).toMatchObject({
      status: 404,
      json: { message: 'Channel not found.', statusCode: 404 },
    });
  });

  test('an error with only a response status takes that status', async () => {
    const reply = await call('/api/broken/teapot', []);
    expect(reply).toMatchObject({
      status: 418,
      json: { message: 'I am a teapot', statusCode: 418 },
    });
  });

  test('any other error → 500 without its internals', async () => {
    const { lines, restore } = captureLog();
    const reply = await call('/api/broken/bug', []);
    restore();
    expect(reply).toMatchObject({
      status: 500,
      json: { message: 'Internal server error', statusCode: 500 },
    });
    expect(lines.map((line) => line.msg)).toContain('[bug] unexpected error');
  });
});

describe('the channel id comes from the storefront of the Host (spec §3, §7)', () => {
  test('a configured host calls with its channel', async () => {
    await call('/api/bigcommerce/getStoreMeta', [], { headers: { Host: `${SHOP_B}:4321` } });
    expect(upstream.map((u) => u.channel)).toEqual(['2']);
    expect(warn).not.toHaveBeenCalled();
  });

  test('an unknown host uses the default channel, with one warning per host', async () => {
    // A read not made before on channel 1; the second call is the first one's cached reply.
    await call('/api/bigcommerce/getProductById', [105], { headers: { Host: 'inconnu.test' } });
    await call('/api/bigcommerce/getProductById', [105], { headers: { Host: 'inconnu.test' } });
    expect(upstream.map((u) => u.channel)).toEqual(['1']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain('inconnu.test');
  });

  test('getChannel reads the channel of the host', async () => {
    await call('/api/bigcommerce/getChannel', [], { headers: { Host: SHOP_B } });
    expect(new URL(upstream[0]?.url ?? '').pathname).toMatch(/\/v3\/channels\/2$/);
  });
});
