/**
 * Carts survive faults: which failures of the shop API replace the shopper's cart.
 * Only a definite "this cart does not exist" (a null `getCart`, or the API's 404 'Cart not
 * found') forgets it; every other failure (5xx, 429, timeouts, no reply, a reply that is not
 * the API's JSON, any other 4xx) keeps the cookie and the last known cart, fills the load slot
 * and lets the shopper retry. Property tests over generated replies.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ApiCallError, type ApiCallErrorCode } from '../../src/lib/api/client.ts';
import { CART_A, cart, line, memoryCookieJar } from './helpers/shop-api.ts';

type CartStore = typeof import('../../src/lib/stores/cart.ts');

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const MESSAGES = [
  'Cart not found',
  'Cart item not found',
  'Not found',
  'error.upstreamUnavailable',
  'error.upstreamTimeout',
  'error.generic',
  'Too many requests',
  'Internal server error',
  'Out of stock',
];
const message = fc.oneof(fc.constantFrom(...MESSAGES), fc.string({ maxLength: 30 }));
const status = fc.oneof(
  fc.constantFrom(404, 408, 429, 500, 502, 503, 504),
  fc.integer({ min: 400, max: 599 }),
);
const code = fc.constantFrom<ApiCallErrorCode>('api', 'invalid-response', 'network');

const isGone = (error: { code: string; statusCode: number; message: string }) =>
  error.code === 'api' && error.statusCode === 404 && error.message === 'Cart not found';

describe('cartFault', () => {
  test('only the API\'s 404 "Cart not found" says the cart is gone', async () => {
    const { cartFault } = await import('../../src/lib/stores/cart.ts');
    fc.assert(
      fc.property(message, status, code, (text, statusCode, kind) => {
        const error = new ApiCallError(text, statusCode, kind);
        const fault = cartFault(error);
        expect(fault === 'gone').toBe(isGone(error));
        // 5xx, 429, 408 and every failure without the API's own answer are transient.
        if (kind !== 'api' || statusCode >= 500 || statusCode === 429 || statusCode === 408) {
          expect(fault).toBe('transient');
        }
      }),
      { numRuns: 500 },
    );
  });

  test('anything that is not an error of the call (a TypeError...) is transient', async () => {
    const { cartFault } = await import('../../src/lib/stores/cart.ts');
    fc.assert(
      fc.property(fc.anything(), (thrown) => {
        expect(cartFault(thrown)).toBe('transient');
      }),
    );
  });
});

/** What the API answers to getCart in a generated run. */
type Reply =
  | { kind: 'cart' }
  | { kind: 'null' }
  | { kind: 'api'; status: number; message: string }
  | { kind: 'html'; status: number }
  | { kind: 'network' };

const reply: fc.Arbitrary<Reply> = fc.oneof(
  fc.constant<Reply>({ kind: 'cart' }),
  fc.constant<Reply>({ kind: 'null' }),
  fc.record({ kind: fc.constant('api' as const), status, message }),
  fc.record({ kind: fc.constant('html' as const), status }),
  fc.constant<Reply>({ kind: 'network' }),
);

const held = cart(CART_A, [line({ id: 'line-1', productId: 1, variantId: 100, quantity: 2 })]);

function answer(next: Reply): Promise<Response> {
  const json = (body: unknown, code = 200) =>
    Promise.resolve(
      new Response(JSON.stringify(body), {
        status: code,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
  switch (next.kind) {
    case 'cart':
      return json({ data: held });
    case 'null':
      return json({ data: null });
    case 'api':
      return json({ message: next.message, statusCode: next.status }, next.status);
    case 'html':
      return Promise.resolve(new Response('<h1>Bad gateway</h1>', { status: next.status }));
    case 'network':
      return Promise.reject(new TypeError('fetch failed'));
  }
}

const gone = (next: Reply) =>
  next.kind === 'null' ||
  (next.kind === 'api' && next.status === 404 && next.message === 'Cart not found');

describe('loadCart over generated replies', () => {
  test('a sequence of loads forgets the cart only after a definite "gone"', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(reply, { minLength: 1, maxLength: 6 }), async (replies) => {
        vi.resetModules();
        const jarModule = await import('../../src/lib/stores/cookie-jar.ts');
        const jar = memoryCookieJar({ 'cart-id': CART_A });
        jarModule.setCookieJar(jar);
        const store: CartStore = await import('../../src/lib/stores/cart.ts');
        const queue = [...replies];
        vi.stubGlobal(
          'fetch',
          vi.fn(() => answer(queue.shift() ?? { kind: 'cart' })),
        );
        let known = false;
        for (const next of replies) {
          const ok = await store.loadCart();
          if (gone(next)) {
            // Gone: the empty cart, no cookie; the next loads have no cart to read.
            expect(ok).toBe(true);
            expect(jar.values.has('cart-id')).toBe(false);
            expect(store.$cart.get().id).toBeNull();
            return;
          }
          expect(jar.values.get('cart-id')).toBe(CART_A);
          if (next.kind === 'cart') {
            known = true;
            expect(ok).toBe(true);
            expect(store.$cartErrors.get().load).toBeNull();
          } else {
            // Unknown for now: the load slot says so, and the last known cart stays.
            expect(ok).toBe(false);
            expect(store.$cartErrors.get().load).not.toBeNull();
          }
          expect(store.$cart.get().id).toBe(known ? CART_A : null);
          expect(store.$cartItemCount.get()).toBe(known ? 2 : 0);
        }
        expect(jar.writes).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
