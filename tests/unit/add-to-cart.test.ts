import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { stockRefusal } from '../../src/shop/connectors/bigcommerce/index.ts';
import { BigCommerceError } from '../../src/shop/connectors/bigcommerce/errors.ts';
import {
  ApiReplyError,
  CART_A,
  cart,
  line,
  memoryCookieJar,
  stubShopApi,
} from './helpers/shop-api.ts';

describe('stockRefusal: the stock message of a refused cart write (spec §8)', () => {
  const refused = (title: string, status = 422) =>
    new BigCommerceError(title, {
      code: 'REQUEST_FAILED',
      status,
      title,
      endpoint: 'POST v3/carts',
    });

  test('BigCommerce titles map to the three stock messages', () => {
    expect(
      stockRefusal(
        refused('Not enough stock: Drap (DRP-1) is out of stock and cannot be added to the cart.'),
      ),
    ).toBe('Out of stock');
    expect(
      stockRefusal(refused('Not enough stock: only 2 of Drap (DRP-1) can be added to the cart.')),
    ).toBe('The selected quantity exceeds available stock.');
    expect(stockRefusal(refused('Purchasing is disabled for this product.'))).toBe(
      'Currently unavailable',
    );
  });

  test('anything else is no stock refusal: other statuses, other titles, other errors', () => {
    expect(stockRefusal(refused('Not enough stock: only 2 left', 500))).toBeNull();
    expect(stockRefusal(new Error('out of stock'))).toBeNull();
    fc.assert(
      fc.property(
        fc.string(),
        fc.integer({ min: 400, max: 599 }).filter((s) => s !== 422 && s !== 409),
        (title, status) => stockRefusal(refused(title, status)) === null,
      ),
    );
    // Whatever surrounds it, "out of stock" in a refusal is the out-of-stock message.
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.constantFrom(422, 409), (before, after, status) => {
        const title = `${before} Out Of Stock ${after}`;
        return stockRefusal(refused(title, status)) === 'Out of stock';
      }),
    );
  });
});

describe('addToCartAndNotify shows the add slot’s stock message (spec §8)', () => {
  type Flow = typeof import('../../src/lib/stores/add-to-cart.ts');
  type Notifications = typeof import('../../src/lib/stores/notifications.ts');
  let flow: Flow;
  let notifications: Notifications;

  beforeEach(async () => {
    vi.resetModules();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const jar = await import('../../src/lib/stores/cookie-jar.ts');
    jar.setCookieJar(memoryCookieJar({ 'cart-id': CART_A }));
    flow = await import('../../src/lib/stores/add-to-cart.ts');
    notifications = await import('../../src/lib/stores/notifications.ts');
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const texts = {
    added: 'Ajouté au panier',
    viewCart: 'Voir le panier',
    error: "Impossible d'ajouter l'article au panier.",
    errors: {
      'Out of stock': 'Rupture de stock',
      'The selected quantity exceeds available stock.': 'La quantité dépasse le stock disponible.',
    },
    left: 'Plus que {{count}} en stock.',
  };
  const item = { item_id: '1', item_name: 'Drap', price: 49, quantity: 1 };

  // A stock refusal names the item around the spec §8 message (it used to be the
  // bare message, "Rupture de stock", which does not say which item).
  test('a stock refusal notifies its own text, naming the item; another failure the generic one', async () => {
    let reason = 'Out of stock';
    stubShopApi({
      getCart: () => cart(CART_A, [line()]),
      addCartItems: () => {
        throw new ApiReplyError(reason, 422);
      },
    });
    expect(
      await flow.addToCartAndNotify({ productId: 1, variantId: 2, quantity: 1 }, item, texts),
    ).toBe(false);
    expect(notifications.$notifications.get().at(-1)).toMatchObject({
      message: 'Drap : Rupture de stock',
      type: 'danger',
    });
    reason = 'Cart not found';
    await flow.addToCartAndNotify({ productId: 1, variantId: 2, quantity: 1 }, item, texts);
    expect(notifications.$notifications.get().at(-1)).toMatchObject({ message: texts.error });
  });

  // Adding offline said "Impossible d'ajouter…" without naming the connection.
  test('an add that gets no reply offline says the shopper is offline, with the texts every button is handed', async () => {
    const { t } = await import('../../src/lib/i18n/index.ts');
    const { CARD_BUTTON_MESSAGES } = await import('../../src/lib/commerce/card-button.ts');
    vi.stubGlobal('navigator', { onLine: false });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const errors = Object.fromEntries(flow.ADD_ERROR_MESSAGES.map((key) => [key, t(key)]));
    expect(
      await flow.addToCartAndNotify({ productId: 1, variantId: 2, quantity: 1 }, item, {
        ...texts,
        errors,
      }),
    ).toBe(false);
    expect(notifications.$notifications.get().at(-1)).toMatchObject({
      message: 'Vous êtes hors ligne. Vérifiez votre connexion puis réessayez.',
      type: 'danger',
    });
    // The cards' buttons are handed the same text (the page's messages).
    expect(CARD_BUTTON_MESSAGES).toContain('offline.action');
  });
});

describe('a refused add says which item and how many are left', () => {
  type Flow = typeof import('../../src/lib/stores/add-to-cart.ts');
  type Notifications = typeof import('../../src/lib/stores/notifications.ts');
  let flow: Flow;
  let notifications: Notifications;

  beforeEach(async () => {
    vi.resetModules();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const jar = await import('../../src/lib/stores/cookie-jar.ts');
    jar.setCookieJar(memoryCookieJar({ 'cart-id': CART_A }));
    flow = await import('../../src/lib/stores/add-to-cart.ts');
    notifications = await import('../../src/lib/stores/notifications.ts');
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const texts = {
    added: 'Ajouté au panier',
    viewCart: 'Voir le panier',
    error: "Impossible d'ajouter l'article au panier.",
    errors: {
      'The selected quantity exceeds available stock.':
        'La quantité sélectionnée dépasse le stock disponible.',
    },
    left: 'Plus que {{count}} en stock.',
  };

  test('the API’s details.lines give the units left of the refused line', async () => {
    stubShopApi({
      getCart: () => cart(CART_A, [line()]),
      addCartItems: () => {
        throw new ApiReplyError('The selected quantity exceeds available stock.', 422, {
          lines: [
            { productId: 9, variantId: 9, left: 7 },
            { productId: 1, variantId: 2, left: 2 },
          ],
        });
      },
    });
    await flow.addToCartAndNotify(
      { productId: 1, variantId: 2, quantity: 3 },
      { item_id: '1', item_name: 'Oreiller Papillon', price: 59, quantity: 3 },
      texts,
    );
    expect(notifications.$notifications.get().at(-1)).toMatchObject({
      message:
        'Oreiller Papillon : La quantité sélectionnée dépasse le stock disponible. Plus que 2 en stock.',
      type: 'danger',
    });
  });

  test('refusedLineLeft: hostile details never throw, and give a whole count or null', () => {
    fc.assert(
      fc.property(fc.anything(), fc.integer({ min: 1, max: 5 }), (details, productId) => {
        const left = flow.refusedLineLeft(
          { lines: details },
          {
            productId,
            variantId: 2,
          },
        );
        expect(left === null || (Number.isSafeInteger(left) && left >= 0)).toBe(true);
      }),
    );
    expect(flow.refusedLineLeft(undefined, { productId: 1 })).toBeNull();
    expect(
      flow.refusedLineLeft({ lines: [{ productId: 1, variantId: 3, left: -4 }] }, { productId: 1 }),
    ).toBeNull();
  });

  test('refusedAddText: name, message, then what is left (nothing left: not said again)', () => {
    expect(flow.refusedAddText('Drap', 'Rupture de stock', 0, texts.left)).toBe(
      'Drap : Rupture de stock',
    );
    expect(flow.refusedAddText(' ', 'Rupture de stock', 3, undefined)).toBe('Rupture de stock');
    expect(flow.refusedAddText('Drap', 'Trop.', 1, texts.left)).toBe(
      'Drap : Trop. Plus que 1 en stock.',
    );
  });
});

describe('cartErrorText: the line actions’ slots reach the shopper (spec §8)', () => {
  test('a stock refusal as it is, an unreadable message as the action’s text, none when all clear', async () => {
    const { cartErrorText } = await import('../../src/lib/stores/cart.ts');
    const none = { load: null, add: null, remove: null, update: null, clear: null, send: null };
    const error = (message: string) => ({ message, statusCode: 422, code: 'api' });
    expect(cartErrorText(none)).toBeNull();
    expect(
      cartErrorText({ ...none, update: error('The selected quantity exceeds available stock.') }),
    ).toBe('The selected quantity exceeds available stock.');
    expect(cartErrorText({ ...none, remove: error('Internal server error') })).toBe(
      'cart.error.remove',
    );
    // Add errors are notified by the button, not repeated on the lines.
    expect(cartErrorText({ ...none, add: error('Out of stock') })).toBeNull();
  });
});
