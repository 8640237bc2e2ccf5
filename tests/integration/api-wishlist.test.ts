/**
 * The wishlist methods over HTTP (spec §7), against the sandbox's wishlists API: every
 * method's success and errors, and no customer reads or changes another's wishlist (examples,
 * then generated sequences of calls by several customers and a visitor).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Wishlist } from '../../src/lib/commerce/types.ts';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { MAX_WISHLISTS_PER_CUSTOMER } from '../../src/lib/commerce/wishlist.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { createMemoryStore } from '../../src/shop/state/memory.ts';
import { createAccountThrottle, THROTTLE_RULES } from '../../src/shop/throttle/throttle.ts';
import {
  SESSION_SECRET,
  someVariant,
  startShopApi,
  type ShopApi,
  type Shopper,
} from './helpers/shop-api.ts';

let api: ShopApi;
let line: { productId: number; variantId: number };
let other: { productId: number; variantId: number };

beforeAll(async () => {
  api = await startShopApi();
  line = await someVariant(api, 0);
  other = await someVariant(api, 1);
});

afterAll(async () => {
  await api.close();
});

const item = (l: { productId: number; variantId: number }) => ({
  product_id: l.productId,
  variant_id: l.variantId,
});
const NOT_FOUND = { status: 404, json: { message: 'Wishlist not found', statusCode: 404 } };
const LOGIN_REQUIRED = { status: 401, json: { message: 'Login required', statusCode: 401 } };

async function customer(who: 'marie' | 'reseller'): Promise<Shopper> {
  const shopper = api.shopper();
  await shopper.login(CUSTOMERS[who].email, CUSTOMERS[who].password);
  return shopper;
}

describe('wishlist methods (spec §7)', () => {
  test('create, list, add (a pair once), remove, delete', async () => {
    const marie = await customer('marie');
    const created = await marie.data<Wishlist>('createWishlist', [
      { name: ' Mes favoris ', is_public: false, items: [item(line)] },
    ]);
    expect(created).toMatchObject({ name: 'Mes favoris', isPublic: false, items: [{ ...line }] });
    const all = await marie.data<Wishlist[]>('getAllWishlists', []);
    expect(all.map((w) => w.id)).toContain(created.id);
    expect(all.every((w) => w.customerId === created.customerId)).toBe(true);

    const added = await marie.data<Wishlist>('addWishlistItems', [
      { wishlistId: created.id, items: [item(other), item(line)] },
    ]);
    expect(added.items.map((i) => [i.productId, i.variantId])).toEqual([
      [line.productId, line.variantId],
      [other.productId, other.variantId],
    ]);
    const removed = await marie.data<Wishlist>('removeWishlistItem', [
      { wishlistId: created.id, itemId: added.items[0]?.id },
    ]);
    expect(removed.items.map((i) => i.productId)).toEqual([other.productId]);
    expect(
      await marie.call('removeWishlistItem', [{ wishlistId: created.id, itemId: 99_999_999 }]),
    ).toMatchObject({ status: 404, json: { message: 'Wishlist item not found' } });

    expect(await marie.data('deleteWishlist', [created.id])).toBeNull();
    expect(await marie.call('deleteWishlist', [created.id])).toMatchObject(NOT_FOUND);
    const after = await marie.data<Wishlist[]>('getAllWishlists', []);
    expect(after.map((w) => w.id)).not.toContain(created.id);
  });

  test('a visitor has no wishlist upstream: 401 for every method', async () => {
    const visitor = api.shopper();
    for (const [method, args] of [
      ['getAllWishlists', []],
      ['createWishlist', [{ name: 'x', is_public: false, items: [] }]],
      ['addWishlistItems', [{ wishlistId: 1, items: [item(line)] }]],
      ['removeWishlistItem', [{ wishlistId: 1, itemId: 1 }]],
      ['deleteWishlist', [1]],
    ] as const) {
      expect(await visitor.call(method, [...args]), method).toMatchObject(LOGIN_REQUIRED);
    }
  });

  test('another customer can neither read, add to, remove from nor delete the wishlist: 404 as if missing', async () => {
    const marie = await customer('marie');
    const owned = await marie.data<Wishlist>('createWishlist', [
      { name: 'Chambre', is_public: true, items: [item(line)] },
    ]);
    const intruder = await customer('reseller');
    expect((await intruder.data<Wishlist[]>('getAllWishlists', [])).map((w) => w.id)).not.toContain(
      owned.id,
    );
    expect(
      await intruder.call('addWishlistItems', [{ wishlistId: owned.id, items: [item(other)] }]),
    ).toMatchObject(NOT_FOUND);
    expect(
      await intruder.call('removeWishlistItem', [
        { wishlistId: owned.id, itemId: owned.items[0]?.id },
      ]),
    ).toMatchObject(NOT_FOUND);
    expect(await intruder.call('deleteWishlist', [owned.id])).toMatchObject(NOT_FOUND);
    // A customer id in the arguments is refused, never used.
    expect(
      (
        await intruder.call('createWishlist', [
          { name: 'x', is_public: false, items: [], customer_id: 1 },
        ])
      ).status,
    ).toBe(400);
    // Untouched.
    const mine = await marie.data<Wishlist[]>('getAllWishlists', []);
    expect(mine.find((w) => w.id === owned.id)?.items).toHaveLength(1);
  });

  test('bad input is a 400 before any upstream call; unknown product 422 from upstream', async () => {
    const marie = await customer('marie');
    for (const [method, args] of [
      ['createWishlist', [{ name: '', is_public: false, items: [] }]],
      ['createWishlist', [{ name: 'a\u0000b', is_public: false }]],
      ['createWishlist', [{ name: 'x'.repeat(101) }]],
      ['addWishlistItems', [{ wishlistId: 1, items: [] }]],
      ['addWishlistItems', [{ wishlistId: -1, items: [item(line)] }]],
      ['addWishlistItems', [{ wishlistId: 1, items: [{ product_id: '1', variant_id: 2 }] }]],
      ['removeWishlistItem', [{ wishlistId: 1 }]],
      ['deleteWishlist', ['1']],
      ['deleteWishlist', [{ id: 1 }]],
    ] as const) {
      expect((await marie.call(method, [...args])).status, JSON.stringify(args)).toBe(400);
    }
    const unknown = await marie.call('createWishlist', [
      { name: 'x', items: [{ product_id: 99_999_999, variant_id: 1 }] },
    ]);
    expect(unknown.status).toBe(422);
  });

  test('a cross-site call is refused (403)', async () => {
    const marie = await customer('marie');
    const reply = await marie.call('createWishlist', [{ name: 'x' }], {
      headers: { 'Content-Type': 'text/plain', Origin: 'https://evil.example' },
    });
    expect(reply.status).toBe(403);
  });
});

describe('wishlists per customer: capped, creations throttled', () => {
  const LIMIT = { status: 409, json: { message: 'Wishlist limit reached', statusCode: 409 } };

  test('the French message names the cap', () => {
    expect(t('Wishlist limit reached')).toContain(`(${String(MAX_WISHLISTS_PER_CUSTOMER)})`);
  });

  test('at most MAX_WISHLISTS_PER_CUSTOMER, also under concurrent calls; a deleted one frees a place', async () => {
    // The creation throttle out of the way: this test is about the cap.
    const store = createMemoryStore();
    const generous = await startShopApi({
      sandbox: api.sandbox,
      account: {
        throttle: createAccountThrottle({
          store,
          secret: SESSION_SECRET,
          rules: {
            ...THROTTLE_RULES,
            wishlistCustomer: { ...THROTTLE_RULES.wishlistCustomer, free: 1000 },
          },
        }),
      },
    });
    try {
      const claire = generous.shopper();
      await claire.login(
        CUSTOMERS.resellerWithSellers.email,
        CUSTOMERS.resellerWithSellers.password,
      );
      const start = (await claire.data<Wishlist[]>('getAllWishlists')).length;
      for (let n = start; n < MAX_WISHLISTS_PER_CUSTOMER - 2; n += 1) {
        await claire.data('createWishlist', [{ name: `Liste ${String(n)}` }]);
      }
      const race = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          claire.call('createWishlist', [{ name: `Course ${String(i)}` }]),
        ),
      );
      expect(race.filter((r) => r.status === 200)).toHaveLength(2);
      for (const refused of race.filter((r) => r.status !== 200))
        expect(refused).toMatchObject(LIMIT);
      const all = await claire.data<Wishlist[]>('getAllWishlists');
      expect(all).toHaveLength(MAX_WISHLISTS_PER_CUSTOMER);
      expect(await claire.call('createWishlist', [{ name: 'De trop' }])).toMatchObject(LIMIT);
      await claire.data('deleteWishlist', [all[all.length - 1]?.id ?? 0]);
      expect((await claire.call('createWishlist', [{ name: 'Remplaçante' }])).status).toBe(200);
    } finally {
      await generous.close();
      await store.close();
    }
  });

  test('past 10 creations an hour, the next one waits (429 with Retry-After)', async () => {
    const paul = await customer('reseller');
    const free = THROTTLE_RULES.wishlistCustomer.free;
    for (let n = 0; n < free; n += 1) {
      expect((await paul.call('createWishlist', [{ name: `Liste ${String(n)}` }])).status).toBe(
        200,
      );
    }
    // The first past the free ones claims the wait; the one right after it is refused.
    await paul.call('createWishlist', [{ name: 'Une de plus' }]);
    const refused = await paul.call('createWishlist', [{ name: 'Encore une' }]);
    expect(refused).toMatchObject({ status: 429, json: { message: 'Too many attempts' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('ownership from the outside (property): a customer only ever reads and changes her own wishlists', () => {
  // Three customers of this test's own and a visitor make random wishlist calls. What each must
  // get follows from the replies alone: who created which list, and what it holds since.
  const CUSTOMER_COUNT = 3;
  const VISITOR = CUSTOMER_COUNT;
  const store = createMemoryStore();
  let shop: ShopApi;
  let customers: Shopper[] = [];
  let visitor: Shopper;

  beforeAll(async () => {
    // The creation throttle out of the way (the runs create many lists); the same sandbox.
    shop = await startShopApi({
      sandbox: api.sandbox,
      account: {
        throttle: createAccountThrottle({
          store,
          secret: SESSION_SECRET,
          rules: {
            ...THROTTLE_RULES,
            wishlistCustomer: { ...THROTTLE_RULES.wishlistCustomer, free: 1_000_000 },
          },
        }),
      },
    });
    const password = 'Oreiller2024';
    const run = `${String(Date.now())}.${String(Math.floor(Math.random() * 1e6))}`;
    customers = [];
    for (let n = 0; n < CUSTOMER_COUNT; n += 1) {
      const email = `listes.${run}.${String(n)}@example.fr`;
      const created = await shop.admin('POST', 'v3/customers', [
        {
          email,
          first_name: 'Client',
          last_name: `Listes ${String(n)}`,
          authentication: { new_password: password },
        },
      ]);
      expect(created.status).toBe(200);
      const shopper = shop.shopper();
      await shopper.login(email, password);
      customers.push(shopper);
    }
    visitor = shop.shopper();
  });

  afterAll(async () => {
    await shop.close();
    await store.close();
  });

  /** A list as its creator's replies showed it. */
  interface Known {
    id: number;
    owner: number;
    /** `productId:variantId` → item id. */
    items: Map<string, number>;
  }
  const pair = (i: { productId: number; variantId: number }) =>
    `${String(i.productId)}:${String(i.variantId)}`;
  const itemsOf = (wishlist: Wishlist) =>
    new Map(wishlist.items.map((i) => [pair(i), i.id] as const));
  const pairs = (items: Map<string, number>) => [...items.keys()].sort();

  interface OnList {
    who: number;
    list: number;
    variant: number;
  }
  type Command =
    | { op: 'create'; who: number }
    | { op: 'list'; who: number }
    | ({ op: 'add' } & OnList)
    | ({ op: 'remove' } & OnList)
    | ({ op: 'delete' } & OnList);
  const who = fc.integer({ min: 0, max: VISITOR });
  const command: fc.Arbitrary<Command> = fc.oneof(
    fc.record({ op: fc.constantFrom('create' as const, 'list' as const), who }),
    fc.record({
      op: fc.constantFrom('add' as const, 'remove' as const, 'delete' as const),
      who,
      list: fc.nat({ max: 20 }),
      variant: fc.nat({ max: 1 }),
    }),
  );

  test('generated calls: the creator gets through, anyone else 404 (401 for a visitor), and lists only her own', async () => {
    const variants = [line, other];
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 12 }), async (commands) => {
        const known: Known[] = [];
        const caller = (n: number): Shopper => {
          const shopper = n === VISITOR ? visitor : customers[n];
          if (shopper === undefined) throw new Error(`no caller ${String(n)}`);
          return shopper;
        };
        const ownedBy = (n: number) =>
          known.filter((k) => k.owner === n).sort((a, b) => a.id - b.id);
        try {
          for (const c of commands) {
            const me = caller(c.who);
            if (c.op === 'create') {
              const reply = await me.call('createWishlist', [
                { name: `Liste ${String(known.length)}`, items: [item(line)] },
              ]);
              if (c.who === VISITOR) {
                expect(reply).toMatchObject(LOGIN_REQUIRED);
                continue;
              }
              expect(reply.status).toBe(200);
              const created = reply.json.data as Wishlist;
              expect(pairs(itemsOf(created))).toEqual([pair(line)]);
              known.push({ id: created.id, owner: c.who, items: itemsOf(created) });
              continue;
            }
            if (c.op === 'list') {
              const reply = await me.call('getAllWishlists', []);
              if (c.who === VISITOR) {
                expect(reply).toMatchObject(LOGIN_REQUIRED);
                continue;
              }
              const lists = (reply.json.data as Wishlist[]).sort((a, b) => a.id - b.id);
              const mine = ownedBy(c.who);
              expect(lists.map((w) => w.id)).toEqual(mine.map((k) => k.id));
              expect(lists.map((w) => pairs(itemsOf(w)))).toEqual(mine.map((k) => pairs(k.items)));
              continue;
            }
            // A call on one of the lists created so far (any caller, any owner).
            const target = known[c.list % Math.max(1, known.length)];
            const wishlistId = target?.id ?? 1;
            const owner = target?.owner;
            const variant = variants[c.variant] ?? line;
            const reply =
              c.op === 'add'
                ? await me.call('addWishlistItems', [{ wishlistId, items: [item(variant)] }])
                : c.op === 'remove'
                  ? await me.call('removeWishlistItem', [
                      {
                        wishlistId,
                        itemId: [...(target?.items.values() ?? [])][0] ?? 99_999_999,
                      },
                    ])
                  : await me.call('deleteWishlist', [wishlistId]);
            if (c.who === VISITOR) {
              expect(reply).toMatchObject(LOGIN_REQUIRED);
              continue;
            }
            if (target === undefined || owner !== c.who) {
              // Someone else's list (or none): as if it did not exist.
              expect(reply).toMatchObject(NOT_FOUND);
              continue;
            }
            if (c.op === 'delete') {
              expect(reply).toMatchObject({ status: 200, json: { data: null } });
              known.splice(known.indexOf(target), 1);
              continue;
            }
            if (c.op === 'remove' && target.items.size === 0) {
              expect(reply).toMatchObject({
                status: 404,
                json: { message: 'Wishlist item not found' },
              });
              continue;
            }
            expect(reply.status).toBe(200);
            const changed = itemsOf(reply.json.data as Wishlist);
            const expected = new Set(target.items.keys());
            if (c.op === 'add') expected.add(pair(variant));
            else expected.delete([...target.items.keys()][0] ?? '');
            expect(pairs(changed)).toEqual([...expected].sort());
            target.items = changed;
          }
          // In the end each customer sees exactly the lists she made, as she left them.
          for (let n = 0; n < CUSTOMER_COUNT; n += 1) {
            const lists = await caller(n).data<Wishlist[]>('getAllWishlists', []);
            expect(lists.map((w) => w.id).sort((a, b) => a - b)).toEqual(
              ownedBy(n).map((k) => k.id),
            );
          }
        } finally {
          // A clean slate for the next run (and the cap): each list deleted by its creator.
          for (const k of known) await caller(k.owner).call('deleteWishlist', [k.id]);
        }
      }),
      { numRuns: 12 },
    );
  }, 180_000);
});
