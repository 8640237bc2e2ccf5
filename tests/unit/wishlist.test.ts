import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  addGuestLine,
  hasLine,
  heartView,
  linesToMerge,
  MAX_WISHLIST_ITEMS,
  parseGuestLines,
  productIdPages,
  WISHLIST_PAGE_SIZE,
  type WishlistLine,
} from '../../src/lib/commerce/wishlist.ts';
import { t } from '../../src/lib/i18n/index.ts';
import { ApiReplyError, customer, methods, stubShopApi } from './helpers/shop-api.ts';

const guest = (productId: number, variantId: number): WishlistLine => ({
  id: null,
  productId,
  variantId,
});

describe('wishlist rules (spec §4, §5, §9)', () => {
  test('in the wishlist only when product and variant both match', () => {
    const lines = [guest(1, 10)];
    expect(hasLine(lines, 1, 10)).toBe(true);
    expect(hasLine(lines, 1, 11)).toBe(false);
    expect(hasLine(lines, 2, 10)).toBe(false);
  });

  test('a guest add of a pair already there is ignored (property)', () => {
    const pair = fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }));
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 60 }), (adds) => {
        let lines: WishlistLine[] = [];
        for (const [p, v] of adds) lines = addGuestLine(lines, p, v);
        const keys = lines.map((l) => `${l.productId}:${l.variantId}`);
        const distinct = [...new Set(adds.map(([p, v]) => `${p}:${v}`))];
        return new Set(keys).size === keys.length && keys.length === distinct.length;
      }),
    );
    let many: WishlistLine[] = [];
    for (let i = 1; i <= MAX_WISHLIST_ITEMS + 5; i += 1) many = addGuestLine(many, i, i);
    expect(many).toHaveLength(MAX_WISHLIST_ITEMS);
    expect(many[0]?.productId).toBe(6);
  });

  test('login merge sends the guest pairs the customer lacks, each once', () => {
    const customerLines = [{ id: 7, productId: 1, variantId: 10 }];
    expect(
      linesToMerge([guest(1, 10), guest(2, 20), guest(2, 20), guest(1, 11)], customerLines),
    ).toEqual([
      { product_id: 2, variant_id: 20 },
      { product_id: 1, variant_id: 11 },
    ]);
    expect(linesToMerge([], customerLines)).toEqual([]);
  });

  test('local storage read back: valid lines only, tampering reads as empty', () => {
    expect(
      parseGuestLines('[{"productId":1,"variantId":2},{"productId":1,"variantId":2}]'),
    ).toEqual([guest(1, 2)]);
    for (const raw of [
      undefined,
      '',
      'not json',
      '{}',
      '[null, 1, "x", {"productId": -1, "variantId": 2}, {"productId": 1.5, "variantId": 2}]',
      '[{"productId": "1", "variantId": 2}]',
    ]) {
      expect(parseGuestLines(raw)).toEqual([]);
    }
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const lines = parseGuestLines(raw);
        return lines.every(
          (l) => Number.isSafeInteger(l.productId) && l.productId > 0 && l.id === null,
        );
      }),
    );
  });

  test('products fetched 50 a page, each id once', () => {
    const lines = Array.from({ length: 120 }, (_, i) => guest((i % 110) + 1, 1));
    const pages = productIdPages(lines);
    expect(WISHLIST_PAGE_SIZE).toBe(50);
    expect(pages.map((p) => p.length)).toEqual([50, 50, 10]);
    expect(new Set(pages.flat()).size).toBe(110);
  });
});

describe('wishlist store', () => {
  type Store = typeof import('../../src/lib/stores/wishlist.ts');
  type Customers = typeof import('../../src/lib/stores/customer.ts');
  let store: Store;
  let customers: Customers;

  beforeEach(async () => {
    vi.resetModules();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const persistent = await import('@nanostores/persistent');
    persistent.useTestStorageEngine();
    persistent.cleanTestStorage();
    store = await import('../../src/lib/stores/wishlist.ts');
    customers = await import('../../src/lib/stores/customer.ts');
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const wishlist = (id: number, items: [number, number, number][]) => ({
    id,
    customerId: 1,
    name: 'Mes favoris',
    isPublic: false,
    token: 't',
    items: items.map(([itemId, productId, variantId]) => ({ id: itemId, productId, variantId })),
  });

  test('guest: in local storage, duplicates ignored, no request; toggle removes', async () => {
    const calls = stubShopApi({});
    await store.addToWishlist(1, 10);
    await store.addToWishlist(1, 10);
    await store.addToWishlist(2, 20);
    expect(store.$wishlist.get()).toMatchObject({ owner: 'guest', ready: true });
    expect(store.$wishlist.get().lines.map((l) => [l.productId, l.variantId])).toEqual([
      [1, 10],
      [2, 20],
    ]);
    const { getTestStorage } = await import('@nanostores/persistent');
    expect(JSON.parse(getTestStorage()[store.GUEST_WISHLIST_KEY] ?? '[]')).toEqual([
      { productId: 1, variantId: 10 },
      { productId: 2, variantId: 20 },
    ]);
    await store.toggleWishlist(1, 10);
    expect(store.isInWishlist(1, 10)).toBe(false);
    await store.clearWishlist();
    expect(store.$wishlist.get().lines).toEqual([]);
    expect(calls).toEqual([]);
  });

  test('login: guest lines go to the first wishlist, the local copy is deleted', async () => {
    await store.addToWishlist(1, 10);
    await store.addToWishlist(2, 20);
    const calls = stubShopApi({
      getAllWishlists: () => [wishlist(5, [[50, 1, 10]]), wishlist(6, [])],
      addWishlistItems: () =>
        wishlist(5, [
          [50, 1, 10],
          [51, 2, 20],
        ]),
    });
    store.initWishlist();
    customers.$isAuthenticated.set(true);
    customers.$customer.set(customer());
    await vi.waitFor(() => {
      expect(store.$wishlist.get().owner).toBe('customer');
    });
    await vi.waitFor(() => {
      expect(store.$wishlistLoading.get()).toBe(false);
    });
    expect(calls).toEqual([
      { method: 'getAllWishlists', args: [] },
      {
        method: 'addWishlistItems',
        args: [{ wishlistId: 5, items: [{ product_id: 2, variant_id: 20 }] }],
      },
    ]);
    expect(store.$guestWishlist.get()).toEqual([]);
    expect(store.$wishlist.get()).toMatchObject({ id: 5, ready: true });
    expect(store.$wishlistCount.get()).toBe(2);
  });

  test('login without a wishlist: one is created with the guest lines', async () => {
    await store.addToWishlist(3, 30);
    const calls = stubShopApi({
      getAllWishlists: () => [],
      createWishlist: () => wishlist(9, [[90, 3, 30]]),
    });
    store.initWishlist();
    customers.$isAuthenticated.set(true);
    customers.$customer.set(customer());
    await vi.waitFor(() => {
      expect(store.$wishlist.get().id).toBe(9);
    });
    expect(calls[1]).toEqual({
      method: 'createWishlist',
      args: [{ name: 'Mes favoris', is_public: false, items: [{ product_id: 3, variant_id: 30 }] }],
    });
  });

  test('a failed merge keeps the local copy for the next login and fills the merge slot', async () => {
    await store.addToWishlist(3, 30);
    stubShopApi({
      getAllWishlists: () => {
        throw new TypeError('offline');
      },
    });
    store.initWishlist();
    customers.$customer.set(customer());
    await vi.waitFor(() => {
      expect(store.$wishlistErrors.get().merge).not.toBeNull();
    });
    expect(store.$guestWishlist.get()).toHaveLength(1);
  });

  test('customer: add, remove, clear (delete then create a new empty one); logout → guest', async () => {
    customers.$isAuthenticated.set(true);
    customers.$customer.set(customer());
    const calls = stubShopApi({
      getAllWishlists: () => [wishlist(5, [])],
      addWishlistItems: () => wishlist(5, [[51, 4, 40]]),
      removeWishlistItem: () => wishlist(5, []),
      deleteWishlist: () => null,
      createWishlist: () => wishlist(8, []),
    });
    store.initWishlist();
    await vi.waitFor(() => {
      expect(store.$wishlist.get().id).toBe(5);
    });
    await store.addToWishlist(4, 40);
    await store.addToWishlist(4, 40);
    expect(store.isInWishlist(4, 40)).toBe(true);
    await store.toggleWishlist(4, 40);
    await store.clearWishlist();
    expect(methods(calls)).toEqual([
      'getAllWishlists',
      'addWishlistItems',
      'removeWishlistItem',
      'deleteWishlist',
      'createWishlist',
    ]);
    expect(calls[2]?.args).toEqual([{ wishlistId: 5, itemId: 51 }]);
    expect(calls[3]?.args).toEqual([5]);
    expect(store.$wishlist.get()).toMatchObject({ id: 8, lines: [] });
    customers.$isAuthenticated.set(false);
    customers.$customer.set(null);
    await vi.waitFor(() => {
      expect(store.$wishlist.get().owner).toBe('guest');
    });
  });

  describe('a transient fault never deletes, recreates or drops a wishlist', () => {
    async function customerWith(handlers: Parameters<typeof stubShopApi>[0]) {
      customers.$isAuthenticated.set(true);
      customers.$customer.set(customer());
      const calls = stubShopApi({
        getAllWishlists: () => [wishlist(5, [[51, 4, 40]])],
        ...handlers,
      });
      store.initWishlist();
      await vi.waitFor(() => {
        expect(store.$wishlist.get().id).toBe(5);
      });
      return calls;
    }

    test('clear: only the API\'s 404 "Wishlist not found" goes on to a new one (property)', async () => {
      const failure = fc.record({
        status: fc.oneof(
          fc.constantFrom(404, 429, 500, 502, 503, 504),
          fc.integer({ min: 400, max: 599 }),
        ),
        message: fc.constantFrom('Wishlist not found', 'Not found', 'error.upstreamUnavailable'),
      });
      await fc.assert(
        fc.asyncProperty(failure, async ({ status, message }) => {
          const calls = stubShopApi({
            deleteWishlist: () => {
              throw new ApiReplyError(message, status);
            },
            createWishlist: () => wishlist(8, []),
          });
          store.$customerWishlist.set({
            owner: 'customer',
            id: 5,
            lines: [{ id: 51, productId: 4, variantId: 40 }],
            ready: true,
          });
          const ok = await store.clearWishlist();
          const gone = status === 404 && message === 'Wishlist not found';
          expect(ok).toBe(gone);
          expect(methods(calls)).toEqual(
            gone ? ['deleteWishlist', 'createWishlist'] : ['deleteWishlist'],
          );
          expect(store.$wishlist.get()).toMatchObject(
            gone ? { id: 8, lines: [] } : { id: 5, lines: [{ productId: 4, variantId: 40 }] },
          );
        }),
        { numRuns: 60 },
      );
    });

    test('clear: deleted, then the creation fails: no stale id, the next add makes one wishlist', async () => {
      await customerWith({
        deleteWishlist: () => null,
        createWishlist: () => {
          throw new ApiReplyError('error.upstreamUnavailable', 503);
        },
      });
      await expect(store.clearWishlist()).resolves.toBe(false);
      expect(store.$wishlist.get()).toMatchObject({ id: null, lines: [] });
      const calls = stubShopApi({
        getAllWishlists: () => [],
        createWishlist: () => wishlist(9, [[91, 6, 60]]),
      });
      await expect(store.addToWishlist(6, 60)).resolves.toBe(true);
      expect(methods(calls)).toEqual(['getAllWishlists', 'createWishlist']);
      expect(store.$wishlist.get()).toMatchObject({ id: 9 });
    });

    test('login merge: a 503 while adding the guest lines keeps the local copy', async () => {
      await store.addToWishlist(3, 30);
      stubShopApi({
        getAllWishlists: () => [wishlist(5, [])],
        addWishlistItems: () => {
          throw new ApiReplyError('error.upstreamUnavailable', 503);
        },
      });
      store.initWishlist();
      customers.$customer.set(customer());
      await vi.waitFor(() => {
        expect(store.$wishlistErrors.get().merge).toBe('error.upstreamUnavailable');
      });
      expect(store.$guestWishlist.get()).toHaveLength(1);
    });
  });
});

describe('heartView (the heart’s label follows its state)', () => {
  test('pressed: "Retirer … des favoris"; not pressed: "Mettre … en favori"; aria-pressed alike', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), fc.boolean(), (name, inList) => {
        const labels = {
          add: t('wishlist.heart', { name }),
          remove: t('wishlist.removeItem', { name }),
        };
        const view = heartView(inList, labels, labels.add);
        expect(view.pressed).toBe(inList ? 'true' : 'false');
        expect(view.label).toBe(inList ? labels.remove : labels.add);
      }),
    );
    const view = heartView(
      true,
      { add: 'x', remove: t('wishlist.removeItem', { name: 'Zen' }) },
      'x',
    );
    expect(view.label).toBe('Retirer Zen des favoris');
  });

  test('a heart whose markup lost a label keeps the one it has', () => {
    expect(heartView(true, { add: 'Mettre Zen en favori' }, 'Mettre Zen en favori')).toEqual({
      pressed: 'true',
      label: 'Mettre Zen en favori',
    });
    expect(heartView(false, { add: ' ', remove: 'R' }, 'current').label).toBe('current');
  });
});
