import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  mayReadOrder,
  mayReadOrderOfCart,
  mayUseCart,
  mayUseWishlist,
} from '../../src/shop/carts/ownership.ts';

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

const BROWSER = 'b'.repeat(32);
const OTHER_BROWSER = 'c'.repeat(32);

describe('mayReadOrderOfCart (getOrderByCart, /paiement?commande=)', () => {
  test.each([
    ['her own order', 7, { customerId: 7 }, null, true],
    ['her own order, whoever placed the cart', 7, { customerId: 7 }, OTHER_BROWSER, true],
    ["a customer's order, for a visitor", 7, { customerId: null }, null, false],
    [
      "a customer's order, for the browser that placed it but logged out",
      7,
      { customerId: null, browser: BROWSER },
      BROWSER,
      false,
    ],
    ["another customer's order", 8, { customerId: 7 }, null, false],
    [
      'a guest order, for the browser that placed it',
      0,
      { customerId: null, browser: BROWSER },
      BROWSER,
      true,
    ],
    [
      'a guest order, placed by that browser logged in',
      0,
      { customerId: 7, browser: BROWSER },
      BROWSER,
      true,
    ],
    [
      'a guest order, for another browser',
      0,
      { customerId: null, browser: OTHER_BROWSER },
      BROWSER,
      false,
    ],
    [
      'a guest order, for a browser without checkout cookie',
      0,
      { customerId: null },
      BROWSER,
      false,
    ],
    ['a guest order nobody placed here', 0, { customerId: null, browser: BROWSER }, null, false],
    [
      'a guest order, for a customer of another browser',
      0,
      { customerId: 7, browser: OTHER_BROWSER },
      BROWSER,
      false,
    ],
  ])('%s', (_case, owner, holder, placedBy, expected) => {
    expect(mayReadOrderOfCart({ customerId: owner }, holder, placedBy)).toBe(expected);
  });

  const browserId = fc.option(fc.stringMatching(/^[\w-]{22,40}$/), { nil: null });
  const customer = fc.option(fc.integer({ min: 1, max: 20 }), { nil: null });

  test('property: a guest order only to the browser that placed it, never to a cart id holder', () => {
    fc.assert(
      fc.property(customer, browserId, browserId, (customerId, browser, placedBy) => {
        const readable = mayReadOrderOfCart({ customerId: 0 }, { customerId, browser }, placedBy);
        expect(readable).toBe(browser !== null && placedBy !== null && browser === placedBy);
      }),
      { numRuns: 2000 },
    );
  });

  test('property: a customer order only to that customer, whatever the browser', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        customer,
        browserId,
        browserId,
        (owner, customerId, browser, placedBy) => {
          const readable = mayReadOrderOfCart(
            { customerId: owner },
            { customerId, browser },
            placedBy,
          );
          expect(readable).toBe(customerId === owner);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

// The rule over the API, with generated customers and calls: tests/integration/api-wishlist.test.ts.
describe('mayUseWishlist (a wishlist is its customer’s only)', () => {
  test.each([
    ['her own wishlist', 7, 7, true],
    ["another customer's wishlist", 8, 7, false],
    ["a customer's wishlist, for a visitor", 7, null, false],
    ['a wishlist of no customer (0), for a visitor', 0, null, false],
    ['a wishlist of no customer (0), for a session of customer 0', 0, 0, false],
  ])('%s', (_case, owner, customerId, expected) => {
    expect(mayUseWishlist({ customerId: owner }, customerId)).toBe(expected);
  });
});
