import { describe, expect, test } from 'vitest';
import {
  discountBadge,
  discountPercent,
  displayPrice,
  effectivePrice,
} from '../../src/lib/commerce/price.ts';
import { product, variant } from './fixtures.ts';

describe('displayPrice (spec §5 price display)', () => {
  test.each([
    [
      'hidden prices: regular and special are 0',
      product({ isPriceHidden: true, price: 49900, salePrice: 39900 }),
      undefined,
      { regular: 0, special: 0, hidden: true },
    ],
    [
      'product price without sale',
      product({ price: 49900 }),
      undefined,
      { regular: 49900, special: null, hidden: false },
    ],
    [
      'sale price with no variant falls back to the product sale price',
      product({ price: 49900, salePrice: 39900 }),
      undefined,
      { regular: 49900, special: 39900, hidden: false },
    ],
    [
      'variant price overrides product price',
      product({ price: 49900 }),
      variant({ price: 59900 }),
      { regular: 59900, special: null, hidden: false },
    ],
    [
      'variant sale price overrides product sale price',
      product({ price: 49900, salePrice: 39900 }),
      variant({ price: 59900, salePrice: 44900 }),
      { regular: 59900, special: 44900, hidden: false },
    ],
    [
      'variant without sale price falls back to the product sale price',
      product({ price: 49900, salePrice: 39900 }),
      variant({ price: null, salePrice: null }),
      { regular: 49900, special: 39900, hidden: false },
    ],
    [
      'variant inheriting the price keeps product price',
      product({ price: 49900 }),
      variant({ price: null }),
      { regular: 49900, special: null, hidden: false },
    ],
    [
      'sale price not below regular is no sale',
      product({ price: 49900, salePrice: 49900 }),
      undefined,
      { regular: 49900, special: null, hidden: false },
    ],
    [
      'hidden wins over a variant price',
      product({ isPriceHidden: true }),
      variant({ price: 59900 }),
      { regular: 0, special: 0, hidden: true },
    ],
  ])('%s', (_case, p, v, expected) => {
    expect(displayPrice(p, v)).toEqual(expected);
  });

  test('effective price is the special price when there is one', () => {
    expect(effectivePrice({ regular: 1000, special: 800, hidden: false })).toBe(800);
    expect(effectivePrice({ regular: 1000, special: null, hidden: false })).toBe(1000);
  });
});

describe('discount badge (spec §5: -N% with N = floor((price - sale)/price*100), shown when non-zero)', () => {
  test.each([
    ['round percent', 10000, 7000, 30, '-30%'],
    ['floor, not round', 49900, 39900, 20, '-20%'],
    ['floor of 33.33', 30000, 20000, 33, '-33%'],
    ['float trap stays exact (4990 → 3493 is 30%)', 4990, 3493, 30, '-30%'],
    ['below 1% gives no badge', 100000, 99500, 0, null],
    ['no sale price', 49900, null, 0, null],
    ['sale price 0 is no sale', 49900, 0, 0, null],
    ['sale above price', 49900, 59900, 0, null],
    ['free regular price', 0, 0, 0, null],
  ])('%s', (_case, regular, special, percent, badge) => {
    expect(discountPercent(regular, special)).toBe(percent);
    expect(discountBadge(regular, special)).toBe(badge);
  });

  test.each([
    ['from a displayed price', { regular: 10000, special: 7500, hidden: false }, '-25%'],
    ['hidden price never shows a badge', { regular: 0, special: 0, hidden: true }, null],
  ])('%s', (_case, price, badge) => {
    expect(discountBadge(price)).toBe(badge);
  });
});
