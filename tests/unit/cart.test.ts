import { describe, expect, test } from 'vitest';
import { isAuthenticatedMarker } from '../../src/lib/commerce/account.ts';
import {
  cartCookie,
  cartItemCount,
  cartItems,
  cartItemView,
  cartTotals,
  cartTotalsView,
  checkoutLink,
  clampQuantity,
  EMPTY_CART,
  guestLineItems,
  loginMergePlan,
  maxQuantity,
  parseCartId,
} from '../../src/lib/commerce/cart.ts';
import { readCookie, serializeCookie } from '../../src/lib/commerce/cookie.ts';
import { CART_A, CART_B, cart, line } from './helpers/shop-api.ts';

const two = line({ id: 'l1', quantity: 2, listPrice: 50_000, salePrice: 40_000 });
const digital = line({ id: 'd1', productId: 9, variantId: 900, quantity: 3, listPrice: 1_000 });

describe('empty initial cart (spec §3)', () => {
  test('null id and empty item lists, amounts 0', () => {
    expect(EMPTY_CART.id).toBeNull();
    expect(EMPTY_CART.lineItems).toEqual({
      physicalItems: [],
      digitalItems: [],
      giftCertificates: [],
      customItems: [],
    });
    expect(cartTotals(EMPTY_CART)).toEqual({ total: 0, subtotal: 0, special: 0 });
  });
});

describe('cartTotals (spec §3: total = subtotal = base_amount, special = cart_amount)', () => {
  test.each([
    ['no cart', null, { total: 0, subtotal: 0, special: 0 }],
    ['undefined cart', undefined, { total: 0, subtotal: 0, special: 0 }],
    ['empty cart', EMPTY_CART, { total: 0, subtotal: 0, special: 0 }],
    ['a line on sale', cart(CART_A, [two]), { total: 100_000, subtotal: 100_000, special: 80_000 }],
    [
      'physical and digital',
      cart(CART_A, [two], { digital: [digital] }),
      { total: 103_000, subtotal: 103_000, special: 83_000 },
    ],
  ] as const)('%s', (_case, input, expected) => {
    expect(cartTotals(input)).toEqual(expected);
  });
});

describe('cartTotalsView (what the cart shows: Sous-total and Total are base_amount)', () => {
  test.each([
    [
      'no cart: everything 0',
      { total: 0, subtotal: 0, special: 0 },
      { subtotal: 0, total: { regular: 0, special: null }, discount: 0, due: 0 },
    ],
    [
      'no discount: the total alone',
      { total: 50_000, subtotal: 50_000, special: 50_000 },
      { subtotal: 50_000, total: { regular: 50_000, special: null }, discount: 0, due: 50_000 },
    ],
    [
      'cart_amount lower: base_amount struck, cart_amount as special, the difference as discount',
      { total: 100_000, subtotal: 100_000, special: 80_000 },
      {
        subtotal: 100_000,
        total: { regular: 100_000, special: 80_000 },
        discount: 20_000,
        due: 80_000,
      },
    ],
    [
      'a free cart (special 0 below a total): special 0',
      { total: 1_000, subtotal: 1_000, special: 0 },
      { subtotal: 1_000, total: { regular: 1_000, special: 0 }, discount: 1_000, due: 0 },
    ],
    [
      'cart_amount higher (taxes added): no special, no discount',
      { total: 10_000, subtotal: 10_000, special: 12_000 },
      { subtotal: 10_000, total: { regular: 10_000, special: null }, discount: 0, due: 12_000 },
    ],
  ] as const)('%s', (_case, totals, expected) => {
    expect(cartTotalsView(totals)).toEqual(expected);
  });

  test('a cart with a line on sale shows base_amount as subtotal, never cart_amount', () => {
    const view = cartTotalsView(cartTotals(cart(CART_A, [two])));
    expect(view.subtotal).toBe(100_000);
    expect(view.total.regular).toBe(100_000);
    expect(view.total.special).toBe(80_000);
    // The amount due is cart_amount, after the discount.
    expect(view.due).toBe(80_000);
  });
});

describe('cartItemCount and cartItems (spec §3: physical plus digital only)', () => {
  const withExtras = {
    ...cart(CART_A, [two], { digital: [digital] }),
  };
  withExtras.lineItems = {
    ...withExtras.lineItems,
    giftCertificates: [{ id: 'g', name: 'Carte', amount: 5000, recipientEmail: 'a@b.fr' }],
    customItems: [
      { id: 'c', sku: 'X', name: 'Livraison', quantity: 7, listPrice: 100, extendedListPrice: 700 },
    ],
  };
  test.each([
    ['no cart', null, 0, []],
    ['empty cart', EMPTY_CART, 0, []],
    ['one line of 2', cart(CART_A, [two]), 2, ['l1']],
    ['gift certificates and custom items are not counted', withExtras, 5, ['l1', 'd1']],
  ] as const)('%s', (_case, input, count, ids) => {
    expect(cartItemCount(input)).toBe(count);
    expect(cartItems(input).map((item) => item.id)).toEqual(ids);
  });
});

describe('cartItemView (spec §3 cart item as displayed)', () => {
  test.each([
    [
      'on sale, with options',
      line({
        listPrice: 50_000,
        salePrice: 40_000,
        quantity: 2,
        options: [{ name: 'Taille', nameId: 1, value: '140x190 cm', valueId: 10 }],
      }),
      { regular: 50_000, special: 40_000, hidden: false },
      [{ name: 'Taille', value: '140x190 cm' }],
    ],
    ['no sale', line({ listPrice: 30_000 }), { regular: 30_000, special: null, hidden: false }, []],
    [
      'sale price 0 is no sale',
      line({ listPrice: 30_000, salePrice: 0 }),
      { regular: 30_000, special: null, hidden: false },
      [],
    ],
  ] as const)('%s', (_case, item, price, attributes) => {
    expect(cartItemView(item)).toEqual({
      id: item.id,
      productId: item.productId,
      variantId: item.variantId,
      sku: item.sku,
      image: item.imageUrl,
      name: item.name,
      price,
      attributes,
      quantity: item.quantity,
    });
  });
});

describe('cart-id cookie', () => {
  test.each([
    ['a UUID', CART_A, CART_A],
    ['upper case is normalised', CART_A.toUpperCase(), CART_A],
    ['surrounding spaces', ` ${CART_A} `, CART_A],
    ['absent', undefined, null],
    ['empty', '', null],
    ['not a UUID', 'abc', null],
    ['injection attempt', `${CART_A}; Path=/admin`, null],
  ] as const)('parseCartId: %s', (_case, value, expected) => {
    expect(parseCartId(value)).toBe(expected);
  });

  test.each([
    [
      'store with the default max age',
      CART_A,
      {},
      `cart-id=${CART_A}; Max-Age=2592000; Path=/; SameSite=Lax`,
    ],
    [
      'configured max age, https',
      CART_A,
      { maxAge: 3600, secure: true },
      `cart-id=${CART_A}; Max-Age=3600; Path=/; SameSite=Lax; Secure`,
    ],
    ['delete', null, { maxAge: 3600 }, 'cart-id=; Max-Age=0; Path=/; SameSite=Lax'],
  ] as const)('cartCookie: %s', (_case, id, options, expected) => {
    expect(cartCookie(id, options)).toBe(expected);
  });

  test.each([
    ['among others', `a=1; cart-id=${CART_A}; b=2`, 'cart-id', CART_A],
    ['encoded value', 'x=a%20b', 'x', 'a b'],
    ['prefix of another name', 'xcart-id=1', 'cart-id', undefined],
    ['malformed escape', 'x=%E0%A4%A', 'x', undefined],
    ['no header', undefined, 'x', undefined],
  ] as const)('readCookie: %s', (_case, header, name, expected) => {
    expect(readCookie(header, name)).toBe(expected);
  });

  test('serializeCookie encodes the value', () => {
    expect(serializeCookie('n', 'a;b', { maxAge: 10 })).toBe(
      'n=a%3Bb; Max-Age=10; Path=/; SameSite=Lax',
    );
  });
});

describe('authenticated marker (spec §4)', () => {
  test.each([
    ['1', '1', true],
    ['0', '0', false],
    ['absent', undefined, false],
    ['other', 'true', false],
  ] as const)('%s', (_case, value, expected) => {
    expect(isAuthenticatedMarker(value)).toBe(expected);
  });
});

describe('checkoutLink (spec §4: checkout with a time-stamp parameter t)', () => {
  test.each([
    ['now', 1_700_000_000_123, undefined, '/paiement?t=1700000000123'],
    ['another path', 42.7, '/checkout', '/checkout?t=42'],
  ] as const)('%s', (_case, now, path, expected) => {
    expect(checkoutLink(now, path)).toBe(expected);
  });
});

describe('quantity rules', () => {
  test.each([
    ['1 stays 1', 1, undefined, 1],
    ['0 becomes 1', 0, undefined, 1],
    ['negative becomes 1', -4, undefined, 1],
    ['fraction is floored', 2.9, undefined, 2],
    ['NaN becomes 1', Number.NaN, undefined, 1],
    ['above 99 becomes 99', 250, undefined, 99],
    ['above stock becomes stock', 8, 5, 5],
    ['untracked stock (null)', 50, null, 50],
    ['no stock left still allows 1 (the API says no)', 3, 0, 1],
  ] as const)('clampQuantity: %s', (_case, quantity, stock, expected) => {
    expect(clampQuantity(quantity, stock)).toBe(expected);
  });

  test.each([
    [undefined, 99],
    [null, 99],
    [12, 12],
    [500, 99],
  ] as const)('maxQuantity(%s) = %s', (stock, expected) => {
    expect(maxQuantity(stock)).toBe(expected);
  });
});

describe('loginMergePlan (spec §4 login merge)', () => {
  const guest = cart(CART_A, [two]);
  const emptyGuest = cart(CART_A);
  test.each([
    ['no saved cart: assign the current cart', null, guest, { action: 'assign', cartId: CART_A }],
    [
      'no saved cart, empty guest cart: assign it',
      null,
      emptyGuest,
      { action: 'assign', cartId: CART_A },
    ],
    ['saved cart id not a UUID: as none', 'garbage', guest, { action: 'assign', cartId: CART_A }],
    ['no saved cart and no cart loaded: create', null, EMPTY_CART, { action: 'create' }],
    ['saved cart is the current one: assign', CART_A, guest, { action: 'assign', cartId: CART_A }],
    [
      'saved cart and non-empty guest: merge into the saved cart',
      CART_B,
      guest,
      {
        action: 'merge',
        savedCartId: CART_B,
        lineItems: [{ productId: 1, variantId: 100, quantity: 2 }],
      },
    ],
    [
      'saved cart and empty guest: load the saved cart',
      CART_B,
      emptyGuest,
      { action: 'load-saved', savedCartId: CART_B },
    ],
    [
      'saved cart and no cart loaded: load the saved cart',
      CART_B,
      EMPTY_CART,
      { action: 'load-saved', savedCartId: CART_B },
    ],
  ] as const)('%s', (_case, saved, current, expected) => {
    expect(loginMergePlan(saved, current)).toEqual(expected);
  });

  test('guestLineItems: top-level physical and digital lines, children of bundles left out', () => {
    const child = line({ id: 'child', parentId: 'l1', productId: 5, variantId: 500 });
    expect(guestLineItems(cart(CART_A, [two, child], { digital: [digital] }))).toEqual([
      { productId: 1, variantId: 100, quantity: 2 },
      { productId: 9, variantId: 900, quantity: 3 },
    ]);
  });
});
