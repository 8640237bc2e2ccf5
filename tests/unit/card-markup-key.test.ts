/**
 * The name a card's shared markup is kept under (view.ts `cardMarkupKey`): the same inputs give
 * the same name in any order, different inputs different names; a listing card's name
 * (`listingCardKey`, which the assembled listing views read) is the one ProductCard computes.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import {
  cardMarkupKey,
  LISTING_EAGER_CARDS,
  LISTING_PRIORITY_CARDS,
  listingCardKey,
} from '../../src/shop/view-models/catalogue/view.ts';

const options = fc.record(
  {
    eager: fc.boolean(),
    priority: fc.boolean(),
    headingLevel: fc.constantFrom(2 as const, 3 as const),
    isReseller: fc.boolean(),
    class: fc.string({ maxLength: 6 }),
  },
  { requiredKeys: [] },
);

test('the same options in any order have one name; other options another', () => {
  fc.assert(
    fc.property(options, options, (a, b) => {
      const reversed = Object.fromEntries(Object.entries(a).reverse());
      expect(cardMarkupKey(reversed)).toBe(cardMarkupKey(a));
      const same =
        JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
      expect(cardMarkupKey(a) === cardMarkupKey(b)).toBe(same);
    }),
  );
});

test("a listing card's name is the one ProductCard gives CategoryListing's card", () => {
  for (let index = 0; index < 8; index += 1) {
    // CategoryListing's props, then the reseller flag ProductCard adds for a shopper.
    const given = { eager: index < LISTING_EAGER_CARDS, priority: index < LISTING_PRIORITY_CARDS };
    expect(listingCardKey(index)).toBe(cardMarkupKey({ ...given, isReseller: false }));
  }
});
