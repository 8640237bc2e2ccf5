import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  addToCartEvent,
  cartLineItem,
  productItem,
  pushDataLayer,
  shippingInfoEvent,
  toEuros,
  userDataEvent,
  viewCartEvent,
  viewItemEvent,
  viewItemListEvent,
  withCustomer,
} from '../../src/lib/analytics/datalayer.ts';
import { listedItem, listItems, type ListedItem } from '../../src/lib/analytics/page-json.ts';
import { CONSENT_COOKIE, storedConsentValue } from '../../src/lib/analytics/consent.ts';
import { EMPTY_CART } from '../../src/lib/commerce/cart.ts';
import { product, variant } from './fixtures.ts';
import {
  ApiReplyError,
  CART_A,
  cart,
  customer,
  line,
  memoryCookieJar,
  methods,
  record,
  stubShopApi,
} from './helpers/shop-api.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
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
      { item_id: '12', item_name: 'Matelas Confort', price: 599, quantity: 1 },
    ],
    [
      'variant on sale, brand, list position',
      matelas,
      {
        variant: variant({
          sku: 'MAT-12-140',
          price: 69_900,
          salePrice: 55_920,
          optionValues: [{ id: 1, label: '140x190', optionDisplayName: 'Taille', optionId: 7 }],
        }),
        brand: 'Dunlopillo',
        category: 'Matelas mousse',
        index: 3,
        listName: 'Matelas',
        quantity: 2,
      },
      {
        item_id: '12',
        item_name: 'Matelas Confort',
        item_brand: 'Dunlopillo',
        item_category: 'Matelas mousse',
        item_variant: '140x190',
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
      { item_id: '12', item_name: 'Matelas Confort', price: 0, quantity: 1 },
    ],
  ] as const)('%s', (_case, input, options, expected) => {
    expect(productItem(input, options)).toEqual(expected);
  });

  test('cart line: unit sale price and quantity', () => {
    expect(
      cartLineItem(
        line({
          productId: 1,
          sku: 'SKU-100',
          listPrice: 50_000,
          salePrice: 40_000,
          quantity: 2,
          options: [
            { name: 'Taille', nameId: 7, value: '160x200', valueId: 3 },
            // A checkbox modifier makes no variant.
            { name: 'Housse', nameId: 8, value: 'Yes', valueId: 4 },
          ],
        }),
        { index: 0 },
      ),
    ).toEqual({
      item_id: '1',
      item_name: 'Matelas Confort',
      item_variant: '160x200',
      index: 0,
      price: 400,
      quantity: 2,
    });
  });
});

const item = productItem(matelas);
const marie = customer();

describe('a list of cards as the page writes it (AnalyticsList.astro)', () => {
  test('read back, its view_item_list is the one of the products placed from the offset', () => {
    const products = [
      matelas,
      product({ id: 13, name: 'Oreiller', sku: 'O-13', price: 4_990 }),
      product({ id: 14, name: 'Couette', sku: '', price: 12_900 }),
    ];
    const written = JSON.parse(
      JSON.stringify(products.map((p) => listedItem(productItem(p, { brand: 'Somnéa' })))),
    ) as ListedItem[];
    expect(viewItemListEvent('Matelas', listItems(written, 20))).toEqual(
      viewItemListEvent(
        'Matelas',
        products.map((p, index) =>
          productItem(p, { brand: 'Somnéa', index: 20 + index, listName: 'Matelas' }),
        ),
      ),
    );
    // The page holds none of what the list gives.
    for (const key of ['quantity', 'item_list_name', 'index']) {
      expect(written[0]).not.toHaveProperty(key);
    }
  });
});

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
      line({
        id: 'b',
        productId: 2,
        sku: 'P-2',
        name: 'Oreiller',
        listPrice: 5_000,
        quantity: 2,
        options: [{ name: 'Taille', nameId: 7, value: '60x60', valueId: 9 }],
      }),
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
            index: 0,
            price: 400,
            quantity: 1,
          },
          {
            item_id: '2',
            item_name: 'Oreiller',
            item_variant: '60x60',
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

interface Pushed {
  event?: string;
  customer_id?: number;
  ecommerce?: unknown;
}
/** Consent Mode's gtag commands (an Arguments object), which lead the data layer. */
const isConsentCommand = (entry: unknown) =>
  Object.prototype.toString.call(entry) === '[object Arguments]';

type AnalyticsStore = typeof import('../../src/lib/stores/analytics.ts');
type CustomerStore = typeof import('../../src/lib/stores/customer.ts');

/**
 * Fresh stores (one page load) with the given cookies and a recorded window.dataLayer. The
 * shopper granted analytics (the kept choice of `CONSENT_COOKIE`): without it no personal field
 * is pushed (tests/unit/consent.test.ts).
 */
async function page(cookies: Record<string, string>) {
  vi.resetModules();
  const jarModule = await import('../../src/lib/stores/cookie-jar.ts');
  jarModule.setCookieJar(
    memoryCookieJar({
      [CONSENT_COOKIE]: storedConsentValue({ analytics: true, ads: false }, Date.now()),
      ...cookies,
    }),
  );
  const win: { dataLayer?: Pushed[] } = {};
  vi.stubGlobal('window', win);
  const analytics: AnalyticsStore = await import('../../src/lib/stores/analytics.ts');
  const customers: CustomerStore = await import('../../src/lib/stores/customer.ts');
  /** The pushes so far as `event:customer_id` (`reset` for `{ ecommerce: null }`). */
  const pushed = () =>
    (win.dataLayer ?? [])
      .filter((e) => !isConsentCommand(e))
      .map((e) => `${e.event ?? 'reset'}:${e.customer_id ?? '-'}`);
  return { analytics, customers, pushed };
}

/** Resolves once the page knows who the shopper is (the event the waiting pushes follow). */
function customerSettled(customers: CustomerStore): Promise<void> {
  return new Promise((resolve) => {
    if (customers.$customerSettled.get()) resolve();
    const stop = customers.$customerSettled.listen((settled) => {
      if (!settled) return;
      stop();
      resolve();
    });
  });
}

describe('events wait for the customer (spec §9: logged-in events carry the customer fields)', () => {
  test('visitor (no marker): each event goes out at once, without fields, no request', async () => {
    const { analytics, customers, pushed } = await page({});
    const calls = stubShopApi({});
    const settled = record(customers.$customerSettled);
    analytics.trackViewItemList('Matelas', [item]);
    expect(pushed()).toEqual(['reset:-', 'view_item_list:-']);
    analytics.trackUserData();
    analytics.trackViewItem(item);
    expect(pushed()).toEqual(['reset:-', 'view_item_list:-', 'reset:-', 'view_item:-']);
    expect(settled).toEqual([true]);
    expect(methods(calls)).toEqual([]);
  });

  test('logged in: events before getCustomers answers wait, then user_data first and each event once with the fields', async () => {
    const { analytics, customers, pushed } = await page({ authenticated: '1' });
    let answer: (value: unknown) => void = () => undefined;
    let asked: () => void = () => undefined;
    const askedForCustomer = new Promise<void>((resolve) => (asked = resolve));
    const calls = stubShopApi({
      getCustomers: () =>
        new Promise((resolve) => {
          answer = resolve;
          asked();
        }),
    });
    const settled = record(customers.$customerSettled);
    analytics.trackViewItemList('Matelas', [item]);
    analytics.trackViewItem(item);
    analytics.trackUserData();
    expect(pushed()).toEqual([]);
    await askedForCustomer;
    expect(methods(calls)).toEqual(['getCustomers']);
    expect(pushed()).toEqual([]);
    answer(marie);
    await customerSettled(customers);
    expect(settled).toEqual([true]);
    expect(pushed()).toEqual([
      'user_data:1',
      'reset:-',
      'view_item_list:1',
      'reset:-',
      'view_item:1',
    ]);
    // Later events go out at once; user_data never twice on one page.
    analytics.trackUserData();
    analytics.trackAddToCart(item);
    analytics.trackViewCart(EMPTY_CART);
    expect(pushed().slice(5)).toEqual(['reset:-', 'add_to_cart:1', 'reset:-', 'view_cart:1']);
    // The shell's own initCustomer shares the load: one getCustomers for the page.
    await customers.initCustomer();
    expect(methods(calls)).toEqual(['getCustomers']);
  });

  test('logged in but getCustomers fails: the events go out once, as a visitor', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { analytics, customers, pushed } = await page({ authenticated: '1' });
    stubShopApi({
      getCustomers: () => {
        throw new ApiReplyError('error.upstreamUnavailable', 503);
      },
    });
    const settled = record(customers.$customerSettled);
    analytics.trackViewItem(item);
    analytics.trackPodcastPlay({ id: 'e1', title: 'Respirer', episode: 3, format: 'podcast' });
    expect(pushed()).toEqual([]);
    await customerSettled(customers);
    expect(settled).toEqual([true]);
    expect(pushed()).toEqual(['reset:-', 'view_item:-', 'podcast_play:-']);
  });

  test('marker says logged in but the session ended (getCustomers null): visitor events', async () => {
    const { analytics, customers, pushed } = await page({ authenticated: '1' });
    stubShopApi({ getCustomers: () => null });
    analytics.trackUserData();
    analytics.trackViewItemList('Matelas', [item]);
    await customerSettled(customers);
    expect(pushed()).toEqual(['reset:-', 'view_item_list:-']);
  });

  test('the shipping push carries the fields of the logged-in customer', async () => {
    const { analytics, customers, pushed } = await page({ authenticated: '1' });
    stubShopApi({ getCustomers: () => marie });
    analytics.trackShippingInfo(
      shippingInfoEvent({ id: 7, subtotalIncTax: 1_000, shippingCostIncTax: 0 }, [], []),
    );
    await customerSettled(customers);
    expect(pushed()).toEqual(['user_data:1', 'reset:-', 'add_shipping_info:1']);
  });

  test('an empty list pushes nothing; the server (no window) pushes nothing', async () => {
    const { analytics, pushed } = await page({});
    analytics.trackViewItemList('Matelas', []);
    expect(pushed()).toEqual([]);
    vi.unstubAllGlobals();
    expect(() => {
      analytics.trackViewItem(item);
    }).not.toThrow();
  });
});

describe('shippingInfoEvent (spec §7 shipping push, GA4 add_shipping_info)', () => {
  const order = { id: 4012, subtotalIncTax: 129_800, shippingCostIncTax: 1_990 };
  const lines = [
    {
      productId: 12,
      name: 'Matelas Confort',
      sku: 'MAT-12-140',
      quantity: 2,
      totalIncTax: 119_800,
      options: [{ displayName: 'Taille', displayValue: '140x190' }],
    },
    { productId: 13, name: 'Oreiller', sku: '', quantity: 1, totalIncTax: 10_000, options: [] },
  ];
  const address = {
    city: 'Lyon',
    zip: '69003',
    countryIso2: 'FR',
    shippingMethod: 'Colissimo',
  };

  const lyon = { shipping_address: { city: 'Lyon', postal_code: '69003', country_code: 'FR' } };
  test.each([
    ['with its shipping address: tier, town, postcode, country', [address], 'Colissimo', lyon],
    ['no shipping address: no tier, no address', [], undefined, {}],
    ['a blank method: no tier', [{ ...address, shippingMethod: ' ' }], undefined, lyon],
  ] as const)('%s', (_case, addresses, tier, where) => {
    expect(shippingInfoEvent(order, lines, addresses)).toEqual({
      event: 'add_shipping_info',
      order_id: '4012',
      ecommerce: {
        currency: 'EUR',
        value: 1298,
        shipping: 19.9,
        ...(tier === undefined ? {} : { shipping_tier: tier }),
        items: [
          {
            item_id: '12',
            item_name: 'Matelas Confort',
            item_variant: '140x190',
            index: 0,
            price: 599,
            quantity: 2,
          },
          { item_id: '13', item_name: 'Oreiller', index: 1, price: 100, quantity: 1 },
        ],
      },
      ...where,
    });
  });
});
