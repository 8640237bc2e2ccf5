/**
 * The GA4 funnel beyond spec §9's six events (docs/analytics.md): the builders of select_item,
 * remove_from_cart, add_to_wishlist, begin_checkout, search, login, sign_up and purchase, the
 * items' fields (item_variant the variant's label, never its SKU; brand and category), the
 * price of add_to_cart (the chosen variant's), the lists read back from the page, the
 * once-per-order record of the confirmation's pushes, and the cart's quantity changes pushed
 * once the cart took them.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  addToCartEvent,
  beginCheckoutEvent,
  cartLineItem,
  cartQuantityEvent,
  loginEvent,
  productItem,
  purchaseEvent,
  removeFromCartEvent,
  searchEvent,
  selectItemEvent,
  shippingInfoEvent,
  signUpEvent,
  toEuros,
  viewCartEvent,
  wishlistLineItem,
  type AnalyticsItem,
} from '../../src/lib/analytics/datalayer.ts';
import {
  chosenVariantItem,
  listedItem,
  pageListItem,
  parsePageItem,
  parsePageList,
} from '../../src/lib/analytics/page-json.ts';
import {
  orderPushesOnce,
  parseBeginCheckout,
  type PushRecord,
} from '../../src/lib/analytics/checkout-pushes.ts';
import { lineVariantLabel, variantLabel } from '../../src/lib/commerce/item-options.ts';
import { displayPrice, effectivePrice } from '../../src/lib/commerce/price.ts';
import type { OptionValue } from '../../src/lib/commerce/types.ts';
import { listingItemNames } from '../../src/shop/view-models/catalogue/listing-markup.ts';
import { product, variant } from './fixtures.ts';
import { CART_A, cart, line, memoryCookieJar, stubShopApi } from './helpers/shop-api.ts';

const size = (label: string, id = 1): OptionValue => ({
  id,
  label,
  optionDisplayName: 'Taille',
  optionId: 7,
});

/** Matelas Harmonie: 869 € in 140x190 (its default), 1 009 € in 160x200. */
const harmonie = product({
  id: 122,
  name: 'Matelas Harmonie',
  sku: 'HARMONIE',
  price: 86_900,
  salePrice: 0,
});
const harmonie140 = variant({
  id: 1,
  sku: 'HARM-140',
  price: 86_900,
  optionValues: [size('140x190')],
});
const harmonie160 = variant({
  id: 2,
  sku: 'HARM-160',
  price: 100_900,
  optionValues: [size('160x200', 2)],
});

describe('add_to_cart is priced as the chosen variant (1 009 € was reported as 869)', () => {
  test('Matelas Harmonie 160x200 × 2: price 1009, value 2018, item_variant "160x200"', () => {
    const page = productItem(harmonie, {
      variant: harmonie140,
      brand: 'Somnéa',
      category: 'Matelas',
    });
    const chosen = chosenVariantItem(page, harmonie160, displayPrice(harmonie, harmonie160));
    const event = addToCartEvent([{ ...chosen, quantity: 2 }]);
    expect(event.ecommerce.value).toBe(2018);
    expect(event.ecommerce.items).toEqual([
      {
        item_id: '122',
        item_name: 'Matelas Harmonie',
        item_brand: 'Somnéa',
        item_category: 'Matelas',
        item_variant: '160x200',
        price: 1009,
        quantity: 2,
      },
    ]);
  });

  test('Couette Douceur 220x240 on sale: the sale price of that size (96.9, not 60.9)', () => {
    const couette = product({ id: 7, name: 'Couette Douceur', price: 6_090, salePrice: 0 });
    const large = variant({
      price: 12_900,
      salePrice: 9_690,
      optionValues: [size('220x240')],
    });
    const chosen = chosenVariantItem(productItem(couette), large, displayPrice(couette, large));
    expect(chosen).toMatchObject({ price: 96.9, item_variant: '220x240' });
  });

  const cents = fc.integer({ min: 0, max: 1_000_000 });
  const variantArb = fc.record({
    sku: fc.string({ maxLength: 12 }).map((sku) => `SKU-${sku}`),
    price: fc.option(cents, { nil: null }),
    salePrice: fc.option(cents, { nil: null }),
    labels: fc.array(fc.stringMatching(/^[0-9x]{1,7}$|^[A-Za-zé ]{1,12}$/), { maxLength: 3 }),
  });

  test('property: the price is the one the page shows for that variant, item_variant its label, never the SKU', () => {
    fc.assert(
      fc.property(
        cents,
        cents,
        fc.boolean(),
        variantArb,
        variantArb,
        (price, sale, hidden, a, b) => {
          const shop = product({ price, salePrice: sale, isPriceHidden: hidden, sku: 'SKU-P' });
          const [first, second] = [a, b].map((v, index) =>
            variant({
              id: index + 1,
              sku: v.sku,
              price: v.price,
              salePrice: v.salePrice,
              optionValues: v.labels.map((label, at) => size(label, at + 1)),
            }),
          );
          if (first === undefined || second === undefined) return;
          const shown = displayPrice(shop, second);
          const chosen = chosenVariantItem(productItem(shop, { variant: first }), second, shown);
          expect(chosen.price).toBe(toEuros(effectivePrice(shown)));
          expect(chosen.item_variant).toBe(variantLabel(second));
          expect(chosen.item_variant).not.toBe(second.sku);
          expect(productItem(shop, { variant: second }).item_variant).not.toBe(second.sku);
        },
      ),
    );
  });
});

describe('values: Σ price × quantity, exact in euros', () => {
  const item = fc.record({
    cents: fc.integer({ min: 0, max: 5_000_000 }),
    quantity: fc.integer({ min: 1, max: 99 }),
  });

  test('property: toEuros is exact for whole cents (back to the same cents)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (amount) => {
        expect(Math.round(toEuros(amount) * 100)).toBe(amount);
        expect(toEuros(amount)).toBe(amount / 100);
      }),
    );
  });

  test('property: add_to_cart, remove_from_cart and add_to_wishlist values are Σ price × quantity', () => {
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 8 }), (entries) => {
        const items: AnalyticsItem[] = entries.map(({ cents, quantity }, index) => ({
          item_id: String(index + 1),
          item_name: `Produit ${index}`,
          price: toEuros(cents),
          quantity,
        }));
        const total = entries.reduce((sum, { cents, quantity }) => sum + cents * quantity, 0);
        expect(addToCartEvent(items).ecommerce.value).toBe(total / 100);
        expect(removeFromCartEvent(items).ecommerce.value).toBe(total / 100);
      }),
    );
  });
});

describe('cart changes: the units that changed', () => {
  const pillow = line({
    id: 'l-2',
    productId: 2,
    name: 'Oreiller Papillon',
    salePrice: 11_900,
    listPrice: 11_900,
    quantity: 3,
    options: [{ name: 'Taille', nameId: 7, value: '60x60', valueId: 1 }],
  });

  test.each([
    [5, 'add_to_cart', 2],
    [1, 'remove_from_cart', 2],
    [0, 'remove_from_cart', 3],
  ] as const)('3 → %i: %s of %i', (quantity, event, units) => {
    expect(cartQuantityEvent(pillow, quantity)).toEqual({
      event,
      ecommerce: {
        currency: 'EUR',
        value: 119 * units,
        items: [
          {
            item_id: '2',
            item_name: 'Oreiller Papillon',
            item_variant: '60x60',
            price: 119,
            quantity: units,
          },
        ],
      },
    });
  });

  test('property: no change, or a quantity that is not whole units, pushes nothing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99 }),
        fc.oneof(fc.double(), fc.integer({ max: -1 }), fc.constant(Number.NaN)),
        (quantity, wrong) => {
          const held = { ...pillow, quantity };
          expect(cartQuantityEvent(held, quantity)).toBeNull();
          if (!Number.isSafeInteger(wrong) || wrong < 0) {
            expect(cartQuantityEvent(held, wrong)).toBeNull();
          }
        },
      ),
    );
  });

  test('property: quantity before → after pushes |after − before| units, on the right side', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 0, max: 99 }), (from, to) => {
        const event = cartQuantityEvent({ ...pillow, quantity: from }, to);
        if (from === to) {
          expect(event).toBeNull();
          return;
        }
        expect(event?.event).toBe(to > from ? 'add_to_cart' : 'remove_from_cart');
        expect(event?.ecommerce.items[0]?.quantity).toBe(Math.abs(to - from));
        expect(event?.ecommerce.value).toBe((11_900 * Math.abs(to - from)) / 100);
      }),
    );
  });
});

describe('the other funnel events', () => {
  const item = productItem(harmonie, { variant: harmonie140, listName: 'Matelas', index: 4 });

  test('select_item: the item with its list name and place', () => {
    expect(selectItemEvent(item)).toEqual({
      event: 'select_item',
      ecommerce: { currency: 'EUR', item_list_name: 'Matelas', items: [item] },
    });
  });

  test('begin_checkout: the cart as view_cart has it (value = cart_amount)', () => {
    const state = cart(CART_A, [line({ salePrice: 40_000, listPrice: 50_000, quantity: 2 })], {
      cartAmount: 70_000,
    });
    expect(beginCheckoutEvent(state)).toEqual({ ...viewCartEvent(state), event: 'begin_checkout' });
    expect(beginCheckoutEvent(state).ecommerce.value).toBe(700);
    // As the checkout page writes it and its script reads it back.
    const written = JSON.stringify(beginCheckoutEvent(state));
    expect(parseBeginCheckout(written)).toEqual(beginCheckoutEvent(state));
    expect(parseBeginCheckout(written.replace('"begin_checkout"', '"purchase"'))).toBeNull();
    expect(parseBeginCheckout(JSON.stringify(beginCheckoutEvent(cart(CART_A, []))))).toBeNull();
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (raw) => {
        expect(parseBeginCheckout(raw)).toBeNull();
      }),
    );
  });

  test('search: the term trimmed, spaces folded, at most 100 characters; none when blank', () => {
    expect(searchEvent('  matelas   mousse ')).toEqual({
      event: 'search',
      search_term: 'matelas mousse',
    });
    expect(searchEvent(' \n ')).toBeNull();
    expect(searchEvent('a'.repeat(300))?.search_term).toHaveLength(100);
  });

  test('login and sign_up: the method', () => {
    expect(loginEvent()).toEqual({ event: 'login', method: 'email' });
    expect(signUpEvent()).toEqual({ event: 'sign_up', method: 'email' });
  });

  test('the wishlist move: its variant label and shown price', () => {
    expect(
      wishlistLineItem({
        line: { id: 3, productId: 122, variantId: 2 },
        name: 'Matelas Harmonie',
        price: { regular: 100_900, special: 89_900 },
        variantLabel: '160x200',
      }),
    ).toEqual({
      item_id: '122',
      item_name: 'Matelas Harmonie',
      item_variant: '160x200',
      price: 899,
      quantity: 1,
    });
  });

  test('a cart line: item_variant its options but the checkbox modifiers', () => {
    expect(lineVariantLabel(['160x200', 'Yes', 'Gris'])).toBe('160x200 / Gris');
    expect(lineVariantLabel(['No'])).toBeUndefined();
    expect(cartLineItem(line({ sku: 'SKU-9', options: [] })).item_variant).toBeUndefined();
  });
});

describe('purchase (the order confirmation), from the order the platform recorded', () => {
  const order = {
    id: 4012,
    subtotalIncTax: 129_800,
    shippingCostIncTax: 1_990,
    totalIncTax: 131_790,
    totalTax: 21_965,
  };
  const lines = [
    {
      productId: 12,
      name: 'Matelas Confort',
      quantity: 2,
      totalIncTax: 119_800,
      options: [{ displayName: 'Taille', displayValue: '140x190' }],
    },
    { productId: 13, name: 'Oreiller', quantity: 1, totalIncTax: 10_000, options: [] },
  ];

  test('transaction_id, value (goods paid), tax, shipping, currency and the same items as add_shipping_info', () => {
    const purchase = purchaseEvent(order, lines);
    expect(purchase).toEqual({
      event: 'purchase',
      ecommerce: {
        currency: 'EUR',
        transaction_id: '4012',
        value: 1298,
        tax: 219.65,
        shipping: 19.9,
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
    });
    expect(shippingInfoEvent(order, lines, []).ecommerce.items).toEqual(purchase.ecommerce.items);
  });

  const pushes = JSON.stringify({
    shipping: shippingInfoEvent(order, lines, []),
    purchase: purchaseEvent(order, lines),
  });
  const storage = (): PushRecord & { keys: Map<string, string> } => {
    const keys = new Map<string, string>();
    return {
      keys,
      getItem: (key) => keys.get(key) ?? null,
      setItem: (key, value) => void keys.set(key, value),
    };
  };

  test('once per order in a browser: the first view sends both, a reload neither', () => {
    const record = storage();
    const first = orderPushesOnce(pushes, record);
    expect(first?.purchase?.ecommerce.transaction_id).toBe('4012');
    expect(first?.shipping?.order_id).toBe('4012');
    expect(orderPushesOnce(pushes, record)).toEqual({ shipping: null, purchase: null });
    expect([...record.keys.keys()]).toEqual([
      'analytics:add_shipping_info:4012',
      'analytics:purchase:4012',
    ]);
    // Another order is its own.
    const other = pushes.replaceAll('4012', '4013');
    expect(orderPushesOnce(other, record)?.purchase?.ecommerce.transaction_id).toBe('4013');
  });

  test('no storage, or storage refusing: sent on each view rather than never', () => {
    expect(orderPushesOnce(pushes, null)?.purchase).not.toBeNull();
    const refusing: PushRecord = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => undefined,
    };
    expect(orderPushesOnce(pushes, refusing)?.purchase).not.toBeNull();
  });

  test('property: anything but the pushes the page writes is refused, never thrown', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (raw) => {
        expect(orderPushesOnce(raw, storage())).toBeNull();
      }),
    );
    // A purchase of another order than the shipping push's.
    const mixed = JSON.parse(pushes) as { purchase: { ecommerce: { transaction_id: string } } };
    mixed.purchase.ecommerce.transaction_id = '1';
    expect(orderPushesOnce(JSON.stringify(mixed), storage())).toBeNull();
  });
});

describe('lists read back from the page (select_item, a card add_to_cart)', () => {
  const products = [harmonie, product({ id: 13, name: 'Oreiller', price: 4_990 })];
  const written = JSON.stringify({
    name: 'Matelas',
    offset: 20,
    items: products.map((p) =>
      listedItem(productItem(p, { brand: 'Somnéa', category: 'Matelas' })),
    ),
  });

  test('the item of a product: its list name and its place from the offset', () => {
    const list = parsePageList(written);
    expect(list).not.toBeNull();
    if (list === null) return;
    expect(pageListItem(list, 13)).toEqual({
      item_id: '13',
      item_name: 'Oreiller',
      item_brand: 'Somnéa',
      item_category: 'Matelas',
      price: 49.9,
      quantity: 1,
      item_list_name: 'Matelas',
      index: 21,
    });
    expect(pageListItem(list, 99)).toBeNull();
  });

  test('property: any other text is refused, never thrown', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (raw) => {
        const list = parsePageList(raw);
        if (list !== null) {
          // Only a well-formed list passes (fc.json() may make one).
          expect(typeof list.name).toBe('string');
          expect(Number.isSafeInteger(list.offset)).toBe(true);
        }
        expect(() => parsePageItem(raw)).not.toThrow();
      }),
    );
    expect(parsePageList(written.replace('"price":869', '"price":-1'))).toBeNull();
    expect(parsePageItem(JSON.stringify({ ...productItem(harmonie), quantity: 0 }))).toBeNull();
    expect(parsePageItem(JSON.stringify(productItem(harmonie)))).toEqual(productItem(harmonie));
  });

  test("a listing's items: the brand, and the most specific category of the listing's tree", () => {
    const names = listingItemNames({
      brands: [{ id: 5, name: 'Somnéa' }],
      category: {
        id: 10,
        name: 'Matelas',
        description: '',
        pageTitle: '',
        metaDescription: '',
        path: '/c/matelas',
      },
      children: [{ id: 11, name: 'Matelas mousse', path: '/c/matelas/mousse' }],
      trail: [{ id: 10, name: 'Matelas', path: '/c/matelas' }],
    });
    expect(names(product({ brandId: 5, categories: [10, 11] }))).toEqual({
      brand: 'Somnéa',
      category: 'Matelas mousse',
    });
    expect(names(product({ brandId: 6, categories: [10] }))).toEqual({
      brand: undefined,
      category: 'Matelas',
    });
  });
});

describe('the cart islands push a change once the cart took it (cart-tracking.ts)', () => {
  const mattress = line({
    id: 'line-1',
    productId: 1,
    quantity: 3,
    salePrice: 40_000,
    listPrice: 40_000,
  });

  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  async function page() {
    vi.resetModules();
    const jarModule = await import('../../src/lib/stores/cookie-jar.ts');
    jarModule.setCookieJar(memoryCookieJar({ 'cart-id': CART_A }));
    const win: { dataLayer?: { event?: string; ecommerce?: { items: AnalyticsItem[] } }[] } = {};
    vi.stubGlobal('window', win);
    const cartStore = await import('../../src/lib/stores/cart.ts');
    const tracking = await import('../../src/lib/stores/cart-tracking.ts');
    const events = () =>
      (win.dataLayer ?? [])
        .filter((entry) => entry.event !== undefined)
        .map((entry) => `${entry.event ?? ''}×${entry.ecommerce?.items[0]?.quantity ?? 0}`);
    return { cartStore, tracking, events };
  }

  test('a lowered quantity: remove_from_cart of the units removed; a removal: of all of them', async () => {
    const { cartStore, tracking, events } = await page();
    stubShopApi({
      getCart: () => cart(CART_A, [mattress]),
      updateCartItem: () => cart(CART_A, [{ ...mattress, quantity: 1 }]),
      removeCartItem: () => cart(CART_A, []),
    });
    await cartStore.loadCart();
    await expect(tracking.changeCartLineQuantity('line-1', 1)).resolves.toBe(true);
    await expect(tracking.removeCartLine('line-1')).resolves.toBe(true);
    expect(events()).toEqual(['remove_from_cart×2', 'remove_from_cart×1']);
  });

  test('a change the cart refused pushes nothing', async () => {
    const { cartStore, tracking, events } = await page();
    stubShopApi({ getCart: () => cart(CART_A, [mattress]) });
    await cartStore.loadCart();
    await expect(tracking.changeCartLineQuantity('line-1', 5)).resolves.toBe(false);
    await expect(tracking.removeCartLine('line-1')).resolves.toBe(false);
    expect(events()).toEqual([]);
  });
});
