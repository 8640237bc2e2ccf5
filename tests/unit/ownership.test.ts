import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  mayConfirmOrder,
  mayReadOrder,
  mayReadOrderOfCart,
  mayUseCart,
  mayUseWishlist,
} from '../../src/lib/server/ownership.ts';

const CART = '6f3c2b1a-0000-4000-8000-000000000001';
const OTHER_CART = '6f3c2b1a-0000-4000-8000-000000000002';

describe('mayUseCart (spec §6)', () => {
  test.each([
    ['a guest cart, for a visitor', 0, null, true],
    ['a guest cart, for a customer', 0, 7, true],
    ['her own cart', 7, 7, true],
    ["another customer's cart, for a customer", 8, 7, false],
    ["a customer's cart, for a visitor", 7, null, false],
  ])('%s', (_case, owner, customerId, expected) => {
    expect(mayUseCart({ customerId: owner }, customerId)).toBe(expected);
  });
});

describe('mayReadOrder (account pages, order API)', () => {
  test.each([
    ['her own order', 7, 7, true],
    ["another customer's order", 8, 7, false],
    ['a guest order, for a customer', 0, 7, false],
    ['a guest order, for a visitor', 0, null, false],
    ["a customer's order, for a visitor", 7, null, false],
  ])('%s', (_case, owner, customerId, expected) => {
    expect(mayReadOrder({ customerId: owner }, customerId)).toBe(expected);
  });
});

describe('mayReadOrderOfCart (getOrderByCart: the holder of the cart id)', () => {
  test.each([
    ['a guest order, for a visitor', 0, null, true],
    ['her own order', 7, 7, true],
    ["a customer's order, for a visitor", 7, null, false],
    ["another customer's order", 8, 7, false],
  ])('%s', (_case, owner, customerId, expected) => {
    expect(mayReadOrderOfCart({ customerId: owner }, customerId)).toBe(expected);
  });
});

describe('mayConfirmOrder (/paiement?commande=)', () => {
  test.each([
    ['her own order, any cart cookie', { customerId: 7, cartId: OTHER_CART }, 7, true],
    ['the guest order of the cart cookie', { customerId: null, cartId: CART }, 0, true],
    ["the customer's order of this browser's cart", { customerId: null, cartId: CART }, 7, true],
    ['a guest order of another cart', { customerId: null, cartId: OTHER_CART }, 0, false],
    ["another customer's order of another cart", { customerId: 8, cartId: OTHER_CART }, 7, false],
    ['no session, no cart cookie', { customerId: null, cartId: null }, 0, false],
    ['no session, no cart cookie field', { customerId: null }, 0, false],
  ])('%s', (_case, holder, owner, expected) => {
    expect(mayConfirmOrder({ customerId: owner, cartId: CART }, holder)).toBe(expected);
  });

  test('an order not made from a cart is never the browser’s by an empty cart id', () => {
    expect(mayConfirmOrder({ customerId: 0, cartId: '' }, { customerId: null, cartId: '' })).toBe(
      false,
    );
  });
});

describe('mayUseWishlist (a wishlist is its customer’s only)', () => {
  test('only the session customer who owns it; never a visitor (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50 }),
        fc.option(fc.integer({ min: 0, max: 50 }), { nil: null }),
        (owner, session) =>
          mayUseWishlist({ customerId: owner }, session) ===
          (session !== null && session > 0 && session === owner),
      ),
    );
  });
});
