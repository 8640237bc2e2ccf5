/**
 * Carts survive faults: the browser's cart store (`src/lib/stores/cart.ts`, run in
 * Node with a cookie jar) drives the shop's real API (`POST /api/bigcommerce/{method}` over
 * HTTP, `helpers/shop-api.ts`) against its own sandbox, while the sandbox's fault injection
 * (`/__sandbox/faults`) makes `/v3/carts` answer 5xx or 429, reset or hang its connections, or
 * answer slowly. Random sequences of cart operations and page loads run between faults; after
 * each step, with the faults cleared and the cart read again, no item the shopper put in is
 * lost, the cookie still names the same cart, and no second cart was created upstream. A
 * customer's login merge that meets a fault keeps the login, creates no cart and leaves the
 * saved 'Cart ID' alone; "Réessayer" (`retryCart`) merges once the platform answers again.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FaultSpec } from '@literie/sandbox/faults';
import type { Cart } from '../../src/lib/commerce/types.ts';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { memoryCookieJar } from '../unit/helpers/shop-api.ts';
import { someVariant, startShopApi, type ShopApi } from './helpers/shop-api.ts';

type CartStore = typeof import('../../src/lib/stores/cart.ts');
type Jar = ReturnType<typeof memoryCookieJar>;
interface Variant {
  productId: number;
  variantId: number;
}

/** A per-attempt upstream timeout short enough for a hanging `/v3/carts` to end the step. */
const UPSTREAM_TIMEOUT_MS = 3_000;

let shop: ShopApi;
let variants: Variant[];
const realFetch = globalThis.fetch;
/** The cookies the shop's server set in this "browser" (httpOnly: not in the store's jar). */
const serverCookies = new Map<string, string>();

beforeAll(async () => {
  shop = await startShopApi({ upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS });
  variants = [];
  for (let i = 0; i < 4; i += 1) variants.push(await someVariant(shop, i));
  // The store calls `/api/...` of its page: the bridge's, same origin; anything else (the
  // bridge's own upstream calls, the tests' sandbox calls) goes out as it is.
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (typeof input === 'string' && input.startsWith('/api/')) {
      const headers = new Headers(init?.headers);
      headers.set('Origin', shop.base);
      // The browser's cookies the server sets (the session, httpOnly): sent back.
      if (serverCookies.size > 0) {
        headers.set(
          'Cookie',
          [...serverCookies].map(([name, value]) => `${name}=${value}`).join('; '),
        );
      }
      const response = await realFetch(`${shop.base}${input}`, { ...init, headers });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair = '', ...attributes] = cookie.split(';');
        const at = pair.indexOf('=');
        const name = pair.slice(0, at).trim();
        if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))) serverCookies.delete(name);
        else serverCookies.set(name, pair.slice(at + 1).trim());
      }
      return response;
    }
    return realFetch(input, init);
  });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
});

afterAll(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await shop.close();
});

async function faults(method: 'POST' | 'DELETE', body?: FaultSpec): Promise<void> {
  const res = await realFetch(`${shop.sandbox.url}/__sandbox/faults`, {
    method,
    headers: { 'X-Auth-Token': shop.sandbox.token, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.ok, `faults ${method} answered ${String(res.status)}`).toBe(true);
}

/** A new page: fresh store modules over the browser's cookie jar. */
async function page(jar: Jar): Promise<CartStore> {
  vi.resetModules();
  const jarModule = await import('../../src/lib/stores/cookie-jar.ts');
  jarModule.setCookieJar(jar);
  return import('../../src/lib/stores/cart.ts');
}

/** The customer store of the same page (after `page`, before the next reset). */
const customerStore = () => import('../../src/lib/stores/customer.ts');

const lines = (cart: Cart) => [...cart.lineItems.physicalItems, ...cart.lineItems.digitalItems];

/** The cart as the platform holds it (the sandbox's API, faults cleared). */
async function upstreamCart(id: string): Promise<Cart | null> {
  const reply = await shop.admin('GET', `v3/carts/${id}`);
  if (reply.status === 404) return null;
  expect(reply.status).toBe(200);
  const { data } = reply.json as {
    data: { line_items: { physical_items: { product_id: number; variant_id: number }[] } };
  };
  return {
    lineItems: {
      physicalItems: data.line_items.physical_items.map((item) => ({
        productId: item.product_id,
        variantId: item.variant_id,
      })),
      digitalItems: [],
    },
  } as unknown as Cart;
}

/** Carts created upstream since the last `clearUpstream()` (POST /v3/carts itself). */
const cartsCreated = () =>
  shop.upstream.filter(
    (call) => call.method === 'POST' && new URL(call.url).pathname.endsWith('/v3/carts'),
  ).length;

const FAULT: fc.Arbitrary<FaultSpec | null> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  {
    weight: 4,
    arbitrary: fc.record({
      status: fc.constantFrom(429, 500, 502, 503, 504),
      times: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant<FaultSpec>({ down: 'reset' }) },
  { weight: 1, arbitrary: fc.constant<FaultSpec>({ down: 'hang', times: 1 }) },
  {
    weight: 2,
    arbitrary: fc.record({ latencyMs: fc.integer({ min: 50, max: 600 }) }),
  },
);

type Op =
  | { kind: 'add'; variant: number; quantity: number }
  | { kind: 'update'; variant: number; quantity: number }
  | { kind: 'remove'; variant: number }
  | { kind: 'page' };

const OP: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    variant: fc.integer({ min: 0, max: 3 }),
    quantity: fc.integer({ min: 1, max: 2 }),
  }),
  fc.record({
    kind: fc.constant('update' as const),
    variant: fc.integer({ min: 0, max: 3 }),
    quantity: fc.integer({ min: 1, max: 3 }),
  }),
  // Never the first line: the cart keeps a line, so it is never deleted with its last one.
  fc.record({ kind: fc.constant('remove' as const), variant: fc.integer({ min: 1, max: 3 }) }),
  fc.constant<Op>({ kind: 'page' }),
);

const key = (v: Variant) => `${String(v.productId)}/${String(v.variantId)}`;

function variantAt(index: number): Variant {
  const variant = variants[index];
  if (variant === undefined) throw new Error(`no variant ${String(index)}`);
  return variant;
}

describe('carts survive upstream faults', () => {
  test('random cart operations and page loads between 5xx, 429, resets, hangs and slow replies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ fault: FAULT, op: OP }), { minLength: 2, maxLength: 5 }),
        async (steps) => {
          await faults('DELETE');
          const jar = memoryCookieJar();
          let store = await page(jar);
          await store.initCart();
          expect(await store.addCartItem({ ...variantAt(0), quantity: 1 })).toBe(true);
          const cartId = jar.values.get('cart-id') ?? '';
          expect(cartId).not.toBe('');
          shop.clearUpstream();
          // What the shopper knows to be in the cart: in, out, or unknown (a call that failed
          // may or may not have reached the platform).
          const known = new Map<string, 'in' | 'out' | 'unknown'>([[key(variantAt(0)), 'in']]);

          for (const { fault, op } of steps) {
            if (fault !== null) {
              await faults('POST', {
                ...fault,
                match: `/stores/${shop.sandbox.storeHash}/v3/carts`,
              });
            }
            const variant = op.kind === 'page' ? undefined : variantAt(op.variant);
            const line = () =>
              store.$cartItems
                .get()
                .find((item) => variant !== undefined && key(item) === key(variant));
            let ok = true;
            switch (op.kind) {
              case 'add':
                ok = await store.addCartItem({ ...variantAt(op.variant), quantity: op.quantity });
                break;
              case 'update': {
                const item = line();
                if (item !== undefined)
                  ok = await store.updateCartItemQuantity(item.id, op.quantity);
                break;
              }
              case 'remove': {
                const item = line();
                if (item !== undefined) ok = await store.removeCartItem(item.id);
                break;
              }
              case 'page':
                // A new page while the platform fails: the store used to drop the cookie here.
                store = await page(jar);
                await store.initCart();
                break;
            }
            if (variant !== undefined && op.kind !== 'update') {
              const k = key(variant);
              if (!ok) known.set(k, 'unknown');
              else if (op.kind === 'add') known.set(k, 'in');
              else if (line() === undefined && known.get(k) !== undefined) known.set(k, 'out');
            }
            // Whatever the fault did, the cookie still names the same cart.
            expect(jar.values.get('cart-id')).toBe(cartId);

            // The service comes back; the shopper reloads the cart ("Réessayer").
            await faults('DELETE');
            let loaded = false;
            for (let attempt = 0; attempt < 5 && !loaded; attempt += 1) {
              loaded = await store.retryCart();
            }
            expect(loaded).toBe(true);
            expect(store.$cartErrors.get().load).toBeNull();
            expect(jar.values.get('cart-id')).toBe(cartId);
            expect(store.$cart.get().id).toBe(cartId);

            const upstream = await upstreamCart(cartId);
            if (upstream === null) throw new Error(`the cart ${cartId} is gone upstream`);
            const held = new Set(lines(upstream).map(key));
            // No item the shopper put in is lost...
            for (const [k, state] of known) {
              if (state === 'in') expect(held, `lost ${k}`).toContain(k);
              if (state === 'out') expect(held, `removed ${k} came back`).not.toContain(k);
            }
            // ...the store shows what the cart holds...
            expect(new Set(store.$cartItems.get().map(key))).toEqual(held);
            for (const k of held) known.set(k, 'in');
            for (const [k, state] of known) if (state === 'unknown') known.set(k, 'out');
            // ...and no second cart was made.
            expect(cartsCreated()).toBe(0);
          }
        },
      ),
      { numRuns: 8 },
    );
  }, 600_000);

  test("a customer's login merge meets a fault: the login stands, no cart is created, the saved 'Cart ID' is kept, the retry merges", async () => {
    await faults('DELETE');
    serverCookies.clear();
    const jar = memoryCookieJar();
    let store = await page(jar);
    let customers = await customerStore();
    const email = `merge.${String(Date.now())}@example.fr`;
    const credentials = { email, password: 'Literie2026' };
    // A customer whose saved cart holds the first item.
    expect(
      await customers.register({
        ...credentials,
        firstName: 'Camille',
        lastName: 'Durand',
        createAccount: true,
      }),
    ).toBe(true);
    expect(await store.addCartItem({ ...variantAt(0), quantity: 1 })).toBe(true);
    const saved = jar.values.get('cart-id') ?? '';
    expect(saved).not.toBe('');
    expect(await customers.logout()).toBe(true);
    // Then, as a guest, a cart with the second item.
    store = await page(jar);
    customers = await customerStore();
    expect(await store.addCartItem({ ...variantAt(1), quantity: 2 })).toBe(true);
    const guest = jar.values.get('cart-id') ?? '';
    expect(guest).not.toBe(saved);
    shop.clearUpstream();

    // The platform's carts fail while the customer logs in.
    await faults('POST', { status: 503, match: `/stores/${shop.sandbox.storeHash}/v3/carts` });
    expect(await customers.login(credentials)).toBe(true);
    expect(customers.$customer.get()?.email).toBe(email);
    expect(customers.$customer.get()?.savedCartId).toBe(saved);
    expect(store.$cartErrors.get().load).not.toBeNull();
    expect(store.$cartMergePending.get()).toBe(true);
    // Nothing dropped: the guest cart and its cookie stay; no cart was made.
    expect(jar.values.get('cart-id')).toBe(guest);
    expect(store.$cartItems.get().map(key)).toEqual([key(variantAt(1))]);
    expect(cartsCreated()).toBe(0);
    // The saved 'Cart ID' is not touched (read again from the platform).
    expect(await customers.loadCustomer()).toBe(true);
    expect(customers.$customer.get()?.savedCartId).toBe(saved);

    // The service is back: "Réessayer" runs the merge.
    await faults('DELETE');
    expect(await store.retryCart()).toBe(true);
    expect(store.$cartMergePending.get()).toBe(false);
    expect(jar.values.get('cart-id')).toBe(saved);
    const merged = await upstreamCart(saved);
    if (merged === null) throw new Error('the saved cart is gone');
    expect(new Set(lines(merged).map(key))).toEqual(
      new Set([key(variantAt(0)), key(variantAt(1))]),
    );
    expect(cartsCreated()).toBe(0);
    // The customer's 'Cart ID' still names the saved cart.
    expect(await customers.loadCustomer()).toBe(true);
    expect(customers.$customer.get()?.savedCartId).toBe(saved);
  }, 120_000);

  test("createCart for a customer answers the new cart even when saving its 'Cart ID' fails (a retry would make a second cart)", async () => {
    await faults('DELETE');
    const customer = shop.shopper();
    await customer.login(CUSTOMERS.marie.email, CUSTOMERS.marie.password);
    shop.clearUpstream();
    await faults('POST', {
      status: 503,
      method: 'PUT',
      match: `/stores/${shop.sandbox.storeHash}/v3/customers/form-field-values`,
    });
    const reply = await customer.call('createCart', [
      { lineItems: [{ ...variantAt(0), quantity: 1 }] },
    ]);
    expect(reply.status).toBe(200);
    const created = reply.json.data as Cart;
    expect(created.customerId).toBe(CUSTOMERS.marie.id);
    expect(cartsCreated()).toBe(1);
    // The save was tried, and failed: the platform still has the cart.
    expect(shop.upstream.some((call) => call.url.includes('form-field-values'))).toBe(true);
    await faults('DELETE');
    expect(await upstreamCart(created.id)).not.toBeNull();
  });
});
