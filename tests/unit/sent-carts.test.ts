/**
 * The carts a reseller sent (`sent-carts.ts`): a state only moves forward (sent →
 * opened → paid) whatever the events and their order, the first order stays the cart's, a
 * reseller's list is bounded and newest first, the store's records are listed to their reseller
 * only, and why a refused link opens nothing. And where a reseller lands after login, and the
 * consumer cart leading them to the reseller cart.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { resellerLanding } from '../../src/lib/commerce/reseller.ts';
import {
  advanceSentCart,
  cartLinkProblem,
  MAX_SENT_CARTS,
  SENT_CART_STATES,
  withSentCart,
  type SentCart,
  type SentCartEvent,
} from '../../src/lib/commerce/sent-carts.ts';
import { resellerCartRedirect } from '../../src/lib/commerce/shop-mode.ts';
import { createSentCarts, sentCartStaffNote } from '../../src/shop/carts/sent-carts.ts';
import { createMemoryStore } from '../../src/shop/state/memory.ts';

const sent = (overrides: Partial<SentCart> = {}): SentCart => ({
  cartId: 'c1',
  resellerId: 7,
  preparedBy: { seller: 'Hugo', reseller: 'Literie Atlantique', email: 'r@ex.fr', phone: '' },
  clientEmail: 'client@example.fr',
  sentAt: 1_700_000_000_000,
  total: 129_900,
  currency: 'EUR',
  state: 'sent',
  orderId: null,
  ...overrides,
});

const eventArb: fc.Arbitrary<SentCartEvent> = fc.oneof(
  fc.constant({ kind: 'opened' as const }),
  fc.integer({ min: 1, max: 10_000 }).map((orderId) => ({ kind: 'paid' as const, orderId })),
);
const rank = (state: SentCart['state']) => SENT_CART_STATES.indexOf(state);

describe('advanceSentCart', () => {
  test('the state never moves back; it is the furthest event seen; the first order stays', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 12 }), (events) => {
        let record = sent();
        for (const event of events) {
          const next = advanceSentCart(record, event);
          expect(rank(next.state)).toBeGreaterThanOrEqual(rank(record.state));
          record = next;
        }
        const furthest = events.reduce((max, e) => Math.max(max, rank(e.kind)), 0);
        expect(rank(record.state)).toBe(furthest);
        const firstPaid = events.find((e) => e.kind === 'paid');
        expect(record.orderId).toBe(firstPaid?.kind === 'paid' ? firstPaid.orderId : null);
      }),
    );
  });
});

describe('withSentCart', () => {
  test('newest first, each once, at most MAX_SENT_CARTS', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 40 }),
        (ids) => {
          let list: string[] = [];
          for (const id of ids) list = withSentCart(list, id, 4);
          expect(list.length).toBeLessThanOrEqual(4);
          expect(new Set(list).size).toBe(list.length);
          if (ids.length > 0) expect(list[0]).toBe(ids.at(-1));
        },
      ),
    );
    const many = Array.from({ length: 50 }, (_, i) => `cart-${String(i)}`);
    expect(many.reduce<string[]>((list, id) => withSentCart(list, id), [])).toHaveLength(
      MAX_SENT_CARTS,
    );
  });
});

describe('cartLinkProblem', () => {
  test.each([
    [null, null, 'invalid'],
    [null, 0, 'invalid'],
    [{ state: 'sent' as const }, null, 'invalid'],
    [{ state: 'opened' as const }, 0, 'invalid'],
    [{ state: 'paid' as const }, null, 'used'],
    [{ state: 'opened' as const }, 42, 'used'],
    [null, 42, 'used'],
  ])('record %o, cart customer %s: %s', (record, cartCustomerId, problem) => {
    expect(cartLinkProblem({ sent: record, cartCustomerId })).toBe(problem);
  });
});

describe('the store of sent carts', () => {
  test('record, open, pay: the reseller sees their own carts only, newest first', async () => {
    const carts = createSentCarts(createMemoryStore());
    await carts.record(sent({ cartId: 'c1', sentAt: 1 }));
    await carts.record(sent({ cartId: 'c2', sentAt: 2 }));
    await carts.record(sent({ cartId: 'x1', resellerId: 8 }));
    expect((await carts.listFor(7)).map((c) => c.cartId)).toEqual(['c2', 'c1']);
    expect((await carts.listFor(8)).map((c) => c.cartId)).toEqual(['x1']);
    expect(await carts.listFor(9)).toEqual([]);
    expect((await carts.advance('c1', { kind: 'opened' }))?.state).toBe('opened');
    expect((await carts.advance('c1', { kind: 'paid', orderId: 101 }))?.orderId).toBe(101);
    // Opened again after payment: still paid.
    expect((await carts.advance('c1', { kind: 'opened' }))?.state).toBe('paid');
    expect(await carts.advance('unknown', { kind: 'opened' })).toBeNull();
    const [latest, first] = await carts.listFor(7);
    expect([latest?.state, first?.state]).toEqual(['sent', 'paid']);
  });

  test('the order’s staff note names the seller, the reseller and the client', () => {
    const note = sentCartStaffNote(sent());
    for (const part of ['Hugo', 'Literie Atlantique', '7', 'client@example.fr']) {
      expect(note).toContain(part);
    }
  });
});

describe('a reseller’s ways to the cart', () => {
  test('after login: the reseller area, or the kept path, never the consumer cart', () => {
    expect(resellerLanding(null)).toBe('/espace-revendeur');
    expect(resellerLanding('/panier')).toBe('/espace-revendeur/panier');
    expect(resellerLanding('/paiement?x=1')).toBe('/espace-revendeur/panier');
    expect(resellerLanding('/c/matelas?page=2')).toBe('/c/matelas?page=2');
  });

  test('the consumer cart and checkout answer with the reseller cart; a confirmation does not', () => {
    expect(resellerCartRedirect('/panier', '')).toBe('/espace-revendeur/panier');
    expect(resellerCartRedirect('/paiement', '')).toBe('/espace-revendeur/panier');
    expect(resellerCartRedirect('/paiement', '?commande=101')).toBeNull();
    expect(resellerCartRedirect('/c/matelas', '')).toBeNull();
  });
});
