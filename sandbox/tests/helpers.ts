/**
 * Helpers of the sandbox's own tests: its replies checked against BigCommerce's contract
 * (tests/contracts/bigcommerce.json), clients of its Contentful Delivery and management
 * emulations, and a local server recording the webhooks it sends.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv, { type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, expect } from 'vitest';
import { PRODUCTS } from '../src/fixtures.ts';
import { startTestSandbox, type sandboxApi, type TestSandbox } from '../src/testing.ts';

interface Contract {
  source: { commit: string; files: string[] };
  endpoints: Record<string, { response: object; error: object }>;
  definitions: Record<string, object>;
}

/** BigCommerce's contract as the sandbox's tests read it. */
export const contract = JSON.parse(
  readFileSync(new URL('../../tests/contracts/bigcommerce.json', import.meta.url), 'utf8'),
) as Contract;

/** The JSON Schema validator of the contract (its formats: what the OpenAPI files use). */
export const ajv = new Ajv({
  strict: false,
  allErrors: true,
  formats: {
    'date-time': (s: string) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(s) && !Number.isNaN(Date.parse(s)),
    date: /^\d{4}-\d{2}-\d{2}$/,
    uri: (s: string) => URL.canParse(s),
    url: (s: string) => URL.canParse(s),
    uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    UUID: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    'ISO-4217': /^[A-Z]{3}$/,
    'ISO-8601': (s: string) => !Number.isNaN(Date.parse(s)),
    email: /@/,
    float: { type: 'number', validate: () => true },
    double: { type: 'number', validate: () => true },
    int32: { type: 'number', validate: () => true },
    int64: { type: 'number', validate: () => true },
  },
});
const validators = new Map<string, ValidateFunction>();

/** The contract's validation errors of `body` for `endpoint` ([] when valid). */
export function contractErrors(
  endpoint: string,
  body: unknown,
  which: 'response' | 'error' = 'response',
): string[] {
  const key = `${endpoint} ${which}`;
  let validate = validators.get(key);
  if (!validate) {
    const schema = contract.endpoints[endpoint]?.[which];
    if (!schema) throw new Error(`no contract for ${endpoint}`);
    validate = ajv.compile({ ...schema, definitions: contract.definitions });
    validators.set(key, validate);
  }
  return validate(body)
    ? []
    : ajv.errorsText(validate.errors, { separator: '\n' }).split('\n').slice(0, 10);
}

/** Asserts `body` follows the contract (tests/contracts/bigcommerce.json) of `endpoint`. */
export function expectContract(
  endpoint: string,
  body: unknown,
  which: 'response' | 'error' = 'response',
): void {
  expect(contractErrors(endpoint, body, which)).toEqual([]);
}

/** A JSON reply of the sandbox's Contentful emulation. */
export interface ContentfulReply<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * GET on the sandbox's Contentful Delivery API: `path` after `/spaces/{space}/environments/{env}`
 * (`/entries?content_type=page`). `token` null sends none.
 */
export function sandboxDelivery(sandbox: Pick<TestSandbox, 'url' | 'contentful'>) {
  return async function cda<T = Record<string, unknown>>(
    path: string,
    token: string | null = sandbox.contentful.deliveryToken,
  ): Promise<ContentfulReply<T>> {
    const { spaceId, environment } = sandbox.contentful;
    const response = await fetch(
      `${sandbox.url}/contentful/spaces/${spaceId}/environments/${environment}${path}`,
      { headers: token === null ? {} : { Authorization: `Bearer ${token}` } },
    );
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : null) as T,
      headers: response.headers,
    };
  };
}

/**
 * A sandbox for the tests of the calling file, started before them (`beforeAll`) and closed after
 * (`afterAll`): `sandbox()` is the one running, `cda` its Delivery API client (`sandboxDelivery`).
 */
export function sandboxForFile() {
  let started: TestSandbox | undefined;
  beforeAll(async () => {
    started = await startTestSandbox();
  });
  afterAll(async () => {
    await started?.close();
  });
  const sandbox = (): TestSandbox => {
    if (started === undefined) throw new Error('the sandbox did not start');
    return started;
  };
  const cda = <T = Record<string, unknown>>(path: string, token?: string | null) =>
    sandboxDelivery(sandbox())<T>(path, token);
  return { sandbox, cda };
}

/**
 * A call to the sandbox's Contentful management emulation: `path` after
 * `/contentful-management/spaces/{space}` (`/environments/master/entries/x`).
 */
export function sandboxManagement(sandbox: Pick<TestSandbox, 'url' | 'contentful'>) {
  return async function cma<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ContentfulReply<T>> {
    const response = await fetch(
      `${sandbox.url}/contentful-management/spaces/${sandbox.contentful.spaceId}${path}`,
      {
        method,
        headers: {
          Authorization: `Bearer ${sandbox.contentful.managementToken}`,
          'Content-Type': 'application/vnd.contentful.management.v1+json',
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      },
    );
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : null) as T,
      headers: response.headers,
    };
  };
}

/** A request a WebhookReceiver got. */
export interface ReceivedRequest {
  method: string;
  /** Path and query, as signed by Contentful. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT` */
  url: string;
  received: ReceivedRequest[];
  /** Statuses of the next replies, in order (then 200). */
  replies: number[];
  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Holds the replies until release() (the requests are recorded meanwhile). */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

/** A local HTTP server on a free port recording the webhooks it receives. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const replies: number[] = [];
  const waiters: { count: number; done: () => void }[] = [];
  let held: (() => void)[] | null = null;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.done();
      const status = replies.shift() ?? 200;
      const answer = (): void => {
        res.writeHead(status, { 'Content-Type': 'text/plain' }).end('ok');
      };
      if (held) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    replies,
    waitFor: (count, timeoutMs = 10_000) =>
      new Promise((ok, fail) => {
        if (received.length >= count) {
          ok(received);
          return;
        }
        const timer = setTimeout(() => {
          fail(
            new Error(
              `webhook receiver: ${received.length} of ${count} requests after ${timeoutMs} ms`,
            ),
          );
        }, timeoutMs);
        waiters.push({
          count,
          done: () => {
            clearTimeout(timer);
            ok(received);
          },
        });
      }),
    hold: () => {
      held = [];
    },
    release: () => {
      const pending = held ?? [];
      held = null;
      for (const answer of pending) answer();
    },
    close: () =>
      new Promise<void>((ok) => {
        for (const answer of held ?? []) answer();
        held = null;
        server.closeAllConnections();
        server.close(() => {
          ok();
        });
      }),
  };
}

/** One page of a BigCommerce v3 list. */
export interface Paginated<T> {
  data: T[];
  meta: {
    pagination: {
      total: number;
      count: number;
      per_page: number;
      current_page: number;
      total_pages: number;
      links: { previous?: string; current: string; next?: string };
    };
  };
}

export interface ProductJson {
  id: number;
  name: string;
  sku: string;
  price: number;
  sale_price: number;
  brand_id: number;
  categories: number[];
  is_visible: boolean;
  is_price_hidden: boolean;
  price_hidden_label: string;
  inventory_tracking: string;
  inventory_level: number;
  custom_url: { url: string };
  total_sold: number;
  variants?: {
    sku: string;
    inventory_level: number;
    purchasing_disabled: boolean;
    purchasing_disabled_message: string;
    image_url: string;
  }[];
  images?: {
    url_standard: string;
    url_thumbnail: string;
    url_zoom: string;
    is_thumbnail: boolean;
  }[];
  custom_fields?: { name: string; value: string }[];
  options?: { type: string; option_values: { value_data: { colors: string[] } | null }[] }[];
}

/**
 * A Store API client of the sandbox (`sandbox` read at call time, once `beforeAll` started it):
 * raw calls with the store's token (or another, or none), a page of products, all of them.
 */
export function storeApi(sandbox: () => TestSandbox) {
  async function call(
    path: string,
    init: { token?: string | null } = {},
  ): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = init.token === undefined ? sandbox().token : init.token;
    if (token !== null) headers['X-Auth-Token'] = token;
    const response = await fetch(`${sandbox().url}/stores/${sandbox().storeHash}${path}`, {
      headers,
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
  }

  async function products(query: string): Promise<Paginated<ProductJson>> {
    const reply = await call(`/v3/catalog/products${query}`);
    expect(reply.status).toBe(200);
    return reply.body as Paginated<ProductJson>;
  }

  /** Every product, page by page. */
  async function allProducts(query = ''): Promise<ProductJson[]> {
    const out: ProductJson[] = [];
    for (let page = 1; ; page++) {
      const reply = await products(`?limit=250&page=${page}${query}`);
      out.push(...reply.data);
      if (page >= reply.meta.pagination.total_pages) return out;
    }
  }

  return { call, products, allProducts };
}

// -- carts: the shapes of the Carts v3 replies the cart tests read, and their product --------

export interface Line {
  id: string;
  parent_id: string | null;
  product_id: number;
  variant_id: number;
  sku: string;
  name: string;
  quantity: number;
  list_price: number;
  sale_price: number;
  extended_list_price: number;
  extended_sale_price: number;
  image_url: string;
  options?: { name: string; nameId: number; value: string; valueId: number }[];
}

export interface Cart {
  id: string;
  customer_id: number;
  email: string;
  base_amount: number;
  cart_amount: number;
  discount_amount: number;
  currency: { code: string };
  line_items: { physical_items: Line[]; digital_items: unknown[] };
  redirect_urls?: { cart_url: string; checkout_url: string; embedded_checkout_url: string };
}

export interface Data<T> {
  data: T;
}

export interface V3Error {
  status: number;
  title: string;
  type: string;
  errors?: Record<string, string>;
}

/** Matelas Élysée (variant tracking, on sale): 90x190 (1001, 23 in stock), 140x190 (1002), 180x200 out of stock (1004). */
export const ELYSEE = {
  id: PRODUCTS.trackingVariant,
  size: 201,
  v90: 1001,
  v140: 1002,
  v140Value: 502,
  outOfStock: 1004,
};

/** Creates a cart of `lines` through `api` (201 expected) and gives its data. */
export async function createCartWith(
  api: ReturnType<typeof sandboxApi>,
  lines: object[],
  query = '',
): Promise<Cart> {
  const reply = await api<Data<Cart>>('POST', `/v3/carts${query}`, { line_items: lines });
  expect(reply.status).toBe(201);
  return reply.body.data;
}

// -- Contentful Delivery replies: the shapes the content tests read ---------------------------

export interface Sys {
  id: string;
  type: string;
  createdAt?: string;
  updatedAt?: string;
  revision?: number;
  locale?: string;
  contentType?: { sys: { id: string; linkType: string; type: string } };
}
export interface Link {
  sys: { type: 'Link'; linkType: string; id: string };
}
export interface Entry {
  sys: Sys;
  metadata: { tags: Link[] };
  fields: Record<string, unknown>;
}
export interface Asset {
  sys: Sys;
  fields: {
    title: string;
    file: {
      url: string;
      contentType: string;
      fileName: string;
      details: { size: number; image?: { width: number; height: number } };
    };
  };
}
export interface List<T = Entry> {
  sys: { type: 'Array' };
  total: number;
  skip: number;
  limit: number;
  items: T[];
  includes?: { Entry?: Entry[]; Asset?: Asset[] };
  errors?: {
    sys: { id: string; type: string };
    details: { type: string; linkType: string; id: string };
  }[];
}

export function isLink(value: unknown): value is Link {
  if (typeof value !== 'object' || value === null || !('sys' in value)) return false;
  const sys = value.sys as Partial<Link['sys']> | null;
  return sys?.type === 'Link' && typeof sys.id === 'string';
}
