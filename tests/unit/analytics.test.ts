import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  addToCartEvent,
  cartLineItem,
  productItem,
  pushDataLayer,
  toEuros,
  userDataEvent,
  viewCartEvent,
  viewItemEvent,
  viewItemListEvent,
  withCustomer,
} from '../../src/lib/analytics/datalayer.ts';
import { EMPTY_CART } from '../../src/lib/commerce/cart.ts';
import { $customer } from '../../src/lib/stores/customer.ts';
import {
  trackAddToCart,
  trackUserData,
  trackViewCart,
  trackViewItem,
  trackViewItemList,
} from '../../src/lib/stores/analytics.ts';
import { product, variant } from './fixtures.ts';
import { CART_A, cart, customer, line } from './helpers/shop-api.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  $customer.set(null);
});

const matelas = product({
  id: 12,
  name: 'Matelas Confort',
  sku: 'MAT-12',
  price: 59_900,
  salePrice: 0,
});

describe('toEuros', () => {
  test.each([
    [12_990, 129.9],
    [59_900, 599],
    [1, 0.01],
    [0, 0],
  ])('%i cents → %d €', (cents, euros) => {
    expect(toEuros(cents)).toBe(euros);
  });
});

describe('productItem (GA4 item, price shown as paid)', () => {
  test.each([
    [
      'product without variant',
      matelas,
      {},
      {
        item_id: '12',
        item_name: 'Matelas Confort',
        item_variant: 'MAT-12',
        price: 599,
        quantity: 1,
      },
    ],
    [
      'variant on sale, brand, list position',
      matelas,
      {
        variant: variant({ sku: 'MAT-12-140', price: 69_900, salePrice: 55_920 }),
        brand: 'Dunlopillo',
        index: 3,
        listName: 'Matelas',
        quantity: 2,
      },
      {
        item_id: '12',
        item_name: 'Matelas Confort',
        item_brand: 'Dunlopillo',
        item_variant: 'MAT-12-140',
        item_list_name: 'Matelas',
        index: 3,
        price: 559.2,
        quantity: 2,
      },
    ],
    [
      'hidden price: 0',
      { ...matelas, isPriceHidden: true },
      {},
      {
        item_id: '12',
        item_name: 'Matelas Confort',
        item_variant: 'MAT-12',
        price: 0,
        quantity: 1,
      },
    ],
  ] as const)('%s', (_case, input, options, expected) => {
    expect(productItem(input, options)).toEqual(expected);
  });

  test('cart line: unit sale price and quantity', () => {
    expect(
      cartLineItem(
        line({ productId: 1, sku: 'SKU-100', listPrice: 50_000, salePrice: 40_000, quantity: 2 }),
        { index: 0 },
      ),
    ).toEqual({
      item_id: '1',
      item_name: 'Matelas Confort',
      item_variant: 'SKU-100',
      index: 0,
      price: 400,
      quantity: 2,
    });
  });
});

const item = productItem(matelas);
const marie = customer();

describe('events (GA4 ecommerce shape, currency EUR)', () => {
  test('view_item_list: list name on every item, index by position', () => {
    expect(
      viewItemListEvent(
        'Matelas',
        [item, productItem(product({ id: 13, name: 'Oreiller', sku: 'O-13', price: 4_990 }))],
        'c-5',
      ),
    ).toEqual({
      event: 'view_item_list',
      ecommerce: {
        currency: 'EUR',
        item_list_id: 'c-5',
        item_list_name: 'Matelas',
        items: [
          { ...item, item_list_name: 'Matelas', index: 0 },
          {
            item_id: '13',
            item_name: 'Oreiller',
            item_variant: 'O-13',
            price: 49.9,
            quantity: 1,
            item_list_name: 'Matelas',
            index: 1,
          },
        ],
      },
    });
  });

  test('view_item: value = price', () => {
    expect(viewItemEvent(item)).toEqual({
      event: 'view_item',
      ecommerce: { currency: 'EUR', value: 599, items: [item] },
    });
  });

  test('add_to_cart: value = sum of price × quantity, without float error', () => {
    const a = { ...item, price: 0.1, quantity: 3 };
    const b = { ...item, item_id: '2', price: 0.2, quantity: 1 };
    expect(addToCartEvent([a, b])).toEqual({
      event: 'add_to_cart',
      ecommerce: { currency: 'EUR', value: 0.5, items: [a, b] },
    });
  });

  test('view_cart: the lines, value = cart_amount', () => {
    const lines = [
      line({ id: 'a', listPrice: 50_000, salePrice: 40_000 }),
      line({ id: 'b', productId: 2, sku: 'P-2', name: 'Oreiller', listPrice: 5_000, quantity: 2 }),
    ];
    expect(viewCartEvent(cart(CART_A, lines))).toEqual({
      event: 'view_cart',
      ecommerce: {
        currency: 'EUR',
        value: 500,
        items: [
          {
            item_id: '1',
            item_name: 'Matelas Confort',
            item_variant: 'SKU-100',
            index: 0,
            price: 400,
            quantity: 1,
          },
          {
            item_id: '2',
            item_name: 'Oreiller',
            item_variant: 'P-2',
            index: 1,
            price: 50,
            quantity: 2,
          },
        ],
      },
    });
    expect(viewCartEvent(EMPTY_CART).ecommerce).toEqual({ currency: 'EUR', value: 0, items: [] });
  });

  test('user_data: the customer personal data fields', () => {
    expect(userDataEvent(marie)).toEqual({
      event: 'user_data',
      customer_id: 1,
      customer_email: 'marie.martin@example.fr',
      customer_first_name: 'Marie',
      customer_last_name: 'Martin',
    });
  });

  test('withCustomer adds the fields for a customer, nothing for a visitor', () => {
    const event = viewItemEvent(item);
    expect(withCustomer(event, null)).toEqual(event);
    expect(withCustomer(event, marie)).toEqual({
      ...event,
      customer_id: 1,
      customer_email: 'marie.martin@example.fr',
      customer_first_name: 'Marie',
      customer_last_name: 'Martin',
    });
  });
});

describe('pushDataLayer', () => {
  test('creates the dataLayer; ecommerce events are preceded by { ecommerce: null }', () => {
    const host: { dataLayer?: unknown[] } = {};
    pushDataLayer(viewItemEvent(item), host);
    pushDataLayer(userDataEvent(marie), host);
    expect(host.dataLayer).toEqual([
      { ecommerce: null },
      viewItemEvent(item),
      userDataEvent(marie),
    ]);
  });

  test('keeps an existing dataLayer (the tag manager may have replaced push)', () => {
    const existing: unknown[] = [{ 'gtm.start': 1 }];
    pushDataLayer(userDataEvent(marie), { dataLayer: existing });
    expect(existing).toEqual([{ 'gtm.start': 1 }, userDataEvent(marie)]);
  });

  test('no window (server): nothing happens', () => {
    expect(() => {
      pushDataLayer(userDataEvent(marie));
    }).not.toThrow();
  });
});

describe('store glue (window.dataLayer)', () => {
  test('each track function pushes its event; the customer fields when logged in', () => {
    const win: { dataLayer?: unknown[] } = {};
    vi.stubGlobal('window', win);
    trackUserData(null);
    expect(win.dataLayer).toBeUndefined();
    $customer.set(marie);
    trackUserData();
    trackViewItem(item);
    trackAddToCart(item);
    trackViewItemList('Matelas', []);
    trackViewItemList('Matelas', [item]);
    $customer.set(null);
    trackViewCart(EMPTY_CART);
    const events = (win.dataLayer ?? []).map(
      (entry) => entry as { event?: string; customer_id?: number },
    );
    expect(events.map((e) => [e.event ?? 'reset', e.customer_id ?? null])).toEqual([
      ['user_data', 1],
      ['reset', null],
      ['view_item', 1],
      ['reset', null],
      ['add_to_cart', 1],
      ['reset', null],
      ['view_item_list', 1],
      ['reset', null],
      ['view_cart', null],
    ]);
  });
});
