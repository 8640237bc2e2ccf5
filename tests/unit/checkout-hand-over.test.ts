/**
 * `POST /paiement`'s answers (src/shop/checkout/hand-over.ts), over generated carts, stock and
 * upstream checkout URLs: 403 cross-origin, back to the cart without lines, the summary again
 * (409) while a line is over stock, 409 when another browser holds a guest cart's checkout,
 * 502 for a URL that is not http(s), else 303 to the hosted checkout with the holder cookie.
 */
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import type { Cart, CartLineItem } from '../../src/lib/commerce/types.ts';
import { handOver, type HandOver } from '../../src/shop/checkout/hand-over.ts';
import { log } from '../../src/shop/config/log.ts';

const lineArb = fc
  .record({
    quantity: fc.integer({ min: 1, max: 9 }),
    // undefined: stock unknown (never blocks); else the level left and whether it is sold.
    stock: fc.option(
      fc.record({ level: fc.option(fc.integer({ min: 0, max: 12 })), purchasable: fc.boolean() }),
      { nil: undefined },
    ),
  })
  .map(({ quantity, stock }, i = 0): CartLineItem => ({
    id: `line-${String(i)}`,
    parentId: null,
    productId: 1,
    variantId: 1,
    sku: 'SKU',
    name: 'Matelas',
    url: '',
    imageUrl: '',
    quantity,
    listPrice: 10_000,
    salePrice: 10_000,
    extendedListPrice: 10_000 * quantity,
    extendedSalePrice: 10_000 * quantity,
    options: [],
    ...(stock === undefined ? {} : { stock }),
  }));

const cartArb = fc
  .record({ lines: fc.array(lineArb, { maxLength: 4 }), customerId: fc.constantFrom(0, 0, 42) })
  .map(({ lines, customerId }): Cart => ({
    id: '6f0b8c1e-4b1a-4c55-9a57-1f2d3c4b5a69',
    customerId,
    channelId: 1,
    currency: 'EUR',
    baseAmount: 0,
    cartAmount: 0,
    discountAmount: 0,
    lineItems: { physicalItems: lines, digitalItems: [], giftCertificates: [], customItems: [] },
    redirectUrls: null,
    createdTime: '',
    updatedTime: '',
  }));

const overStock = (cart: Cart) =>
  cart.lineItems.physicalItems.some(
    (l) =>
      l.stock !== undefined &&
      (!l.stock.purchasable || (l.stock.level !== null && l.stock.level < l.quantity)),
  );

const urlArb = fc.oneof(
  fc.webUrl(),
  fc.constantFrom('javascript:alert(1)', 'data:text/html,x', '//evil.example', '', 'ftp://x.fr/'),
);

function deps(over: Partial<HandOver> & { cart: Cart | null }): HandOver {
  return {
    sameOrigin: true,
    secure: true,
    ownCart: () => Promise.resolve(over.cart),
    withStock: (cart) => Promise.resolve(cart),
    claim: (cookies) => {
      cookies.set('checkout-holder', 'browser', { path: '/', maxAge: 3600 });
      return Promise.resolve(true);
    },
    checkoutUrl: () => Promise.resolve('https://checkout.example/pay/1'),
    ...over,
  };
}

describe('the checkout hand-over', () => {
  test('a post from another origin: 403, and nothing is read', async () => {
    const ownCart = vi.fn(() => Promise.resolve(null));
    const answer = await handOver(deps({ cart: null, sameOrigin: false, ownCart }));
    expect(answer.kind === 'reply' && answer.response.status).toBe(403);
    expect(ownCart).not.toHaveBeenCalled();
  });

  test('every cart and URL gets the one answer its rules give', async () => {
    vi.spyOn(log, 'error').mockImplementation(() => undefined);
    await fc.assert(
      fc.asyncProperty(
        fc.option(cartArb, { nil: null }),
        fc.boolean(),
        urlArb,
        async (cart, held, url) => {
          const claim = vi.fn((cookies: Parameters<HandOver['claim']>[0]) => {
            cookies.set('checkout-holder', 'browser', { path: '/', maxAge: 3600 });
            return Promise.resolve(!held);
          });
          const answer = await handOver(
            deps({ cart, claim, checkoutUrl: () => Promise.resolve(url) }),
          );
          const lines = cart?.lineItems.physicalItems.length ?? 0;
          if (cart === null || lines === 0) {
            expect(answer).toEqual({ kind: 'redirect', location: '/panier' });
            return;
          }
          if (overStock(cart)) {
            expect(answer).toEqual({ kind: 'refused', cart });
            expect(claim).not.toHaveBeenCalled();
            return;
          }
          expect(answer.kind).toBe('reply');
          if (answer.kind !== 'reply') return;
          const { status, headers } = answer.response;
          // Only a guest cart is claimed by the browser; a customer's cart is the session's.
          expect(claim).toHaveBeenCalledTimes(cart.customerId === 0 ? 1 : 0);
          if (cart.customerId === 0 && held) {
            expect(status).toBe(409);
            return;
          }
          const web = /^https?:\/\/[^/]/.test(url);
          if (!web) {
            expect(status).toBe(502);
            expect(headers.get('Location')).toBeNull();
            return;
          }
          expect(status).toBe(303);
          expect(headers.get('Location')).toBe(new URL(url).href);
          expect(headers.getSetCookie().length).toBe(cart.customerId === 0 ? 1 : 0);
        },
      ),
    );
  });
});
