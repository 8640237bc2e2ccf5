/**
 * Test doubles for the browser stores: a fake shop API behind a stubbed `fetch` (replies shaped
 * like the shop API contract: `{ data }` or `{ message, statusCode }`), an in-memory cookie jar,
 * cart and customer factories, and a recorder of a store's successive values.
 */
import { vi } from 'vitest';
import type { Cart, CartLineItem, CurrentCustomer } from '../../../src/lib/commerce/types.ts';
import type { CookieJar } from '../../../src/lib/stores/cookie-jar.ts';

/** Thrown by a handler: the API answers `{ message, statusCode }` with that status. */
export class ApiReplyError extends Error {
  readonly statusCode: number;
  /** The reply's `details` (a refused add's stock left per line), when given. */
  readonly details: Record<string, unknown> | undefined;
  constructor(message: string, statusCode: number, details?: Record<string, unknown>) {
    super(message);
    this.statusCode = statusCode;
    this.details = details;
  }
}

/** Thrown by a handler: `fetch` itself rejects (offline). */
export class NetworkFailure extends Error {}

/**
 * Thrown by a handler: the reply's headers arrive (200), then its body is cut (the browser
 * leaving the page aborts the stream).
 */
export class CutReply extends Error {}

/** A 200 JSON reply whose body stream fails after its first bytes. */
export function cutReply(): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"data":{"id":'));
      controller.error(new DOMException('The user aborted a request.', 'AbortError'));
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
}

export interface ApiCall {
  method: string;
  args: unknown[];
}

type Handler = (...args: never[]) => unknown;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/**
 * Stubs `fetch` with the API's `bigcommerce` methods in `handlers` (a missing method answers
 * 500 'Unknown middleware'); returns the list of calls made, in order.
 */
export function stubShopApi(handlers: Record<string, Handler>): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = url.split('/').pop() ?? '';
      const args = JSON.parse(init.body as string) as unknown[];
      calls.push({ method, args });
      const handler = handlers[method];
      if (!handler) return json({ message: 'Unknown middleware', statusCode: 500 }, 500);
      try {
        const data = await (handler as (...a: unknown[]) => unknown)(...args);
        return json({ data: data ?? null });
      } catch (error) {
        if (error instanceof CutReply) return cutReply();
        if (error instanceof ApiReplyError) {
          return json(
            {
              message: error.message,
              statusCode: error.statusCode,
              ...(error.details === undefined ? {} : { details: error.details }),
            },
            error.statusCode,
          );
        }
        throw new TypeError('fetch failed', { cause: error });
      }
    }),
  );
  return calls;
}

/** The methods called, in order (what most store tests assert). */
export const methods = (calls: readonly ApiCall[]): string[] => calls.map((call) => call.method);

/** A cookie jar over a plain map, applying Max-Age=0 as a deletion; `writes` records each set. */
export function memoryCookieJar(initial: Record<string, string> = {}): CookieJar & {
  values: Map<string, string>;
  writes: string[];
} {
  const values = new Map(Object.entries(initial));
  const writes: string[] = [];
  return {
    values,
    writes,
    secure: false,
    get: (name) => values.get(name),
    set(cookie) {
      writes.push(cookie);
      const [pair = '', ...attributes] = cookie.split(';').map((part) => part.trim());
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = decodeURIComponent(pair.slice(index + 1));
      if (attributes.includes('Max-Age=0')) values.delete(name);
      else values.set(name, value);
    },
  };
}

export const CART_A = '11111111-1111-4111-8111-111111111111';
export const CART_B = '22222222-2222-4222-8222-222222222222';
export const CART_C = '33333333-3333-4333-8333-333333333333';

export function line(overrides: Partial<CartLineItem> = {}): CartLineItem {
  const quantity = overrides.quantity ?? 1;
  const listPrice = overrides.listPrice ?? 10_000;
  const salePrice = overrides.salePrice ?? listPrice;
  return {
    id: 'aaaaaaaa-0000-4000-8000-000000000001',
    parentId: null,
    productId: 1,
    variantId: 100,
    sku: 'SKU-100',
    name: 'Matelas Confort',
    url: '/matelas-confort/',
    imageUrl: 'https://cdn.example/matelas.jpg',
    quantity,
    listPrice,
    salePrice,
    extendedListPrice: listPrice * quantity,
    extendedSalePrice: salePrice * quantity,
    options: [],
    ...overrides,
  };
}

/** A stored cart whose amounts are the sums of its lines (as BigCommerce computes them). */
export function cart(
  id: string,
  lines: CartLineItem[] = [],
  overrides: Partial<Omit<Cart, 'id' | 'lineItems'>> & { digital?: CartLineItem[] } = {},
): Cart {
  const { digital = [], ...rest } = overrides;
  const all = [...lines, ...digital];
  return {
    id,
    customerId: 0,
    channelId: 1,
    currency: 'EUR',
    baseAmount: all.reduce((sum, l) => sum + l.listPrice * l.quantity, 0),
    cartAmount: all.reduce((sum, l) => sum + l.salePrice * l.quantity, 0),
    discountAmount: 0,
    lineItems: {
      physicalItems: lines,
      digitalItems: digital,
      giftCertificates: [],
      customItems: [],
    },
    redirectUrls: null,
    createdTime: '2025-01-01T00:00:00Z',
    updatedTime: '2025-01-01T00:00:00Z',
    ...rest,
  };
}

export function customer(overrides: Partial<CurrentCustomer> = {}): CurrentCustomer {
  return {
    id: 1,
    email: 'marie.martin@example.fr',
    firstName: 'Marie',
    lastName: 'Martin',
    company: '',
    phone: '',
    acceptsMarketing: false,
    customerGroupId: 0,
    dateCreated: '2024-01-01T00:00:00Z',
    dateModified: '2024-01-01T00:00:00Z',
    formFields: [],
    isReseller: false,
    shopName: '',
    sellers: [],
    accountingCode: '',
    savedCartId: null,
    ...overrides,
  };
}

/** Every value `store` takes from now on (not its current one), in order. */
export function record<T>(store: { listen(cb: (value: T) => void): () => void }): T[] {
  const values: T[] = [];
  store.listen((value) => values.push(value));
  return values;
}
