/**
 * The checkout page's rules (src/lib/commerce/checkout-page.ts, `src/pages/paiement.astro`):
 * what a request asks, the hand-over's first step, the confirmation's reply, the return path.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  checkoutRequest,
  confirmationReply,
  handOverStart,
  returnsHereAfterLogin,
  type CheckoutRequest,
} from '../../src/lib/commerce/checkout-page.ts';

const query = (text: string) => new URLSearchParams(text);

describe('checkoutRequest', () => {
  test.each([
    ['POST', '', { kind: 'hand-over' }],
    ['POST', '?commande=12', { kind: 'hand-over' }],
    ['post', '', { kind: 'hand-over' }],
    ['GET', '', { kind: 'summary' }],
    ['HEAD', '', { kind: 'summary' }],
    ['GET', '?autre=1', { kind: 'summary' }],
    ['GET', '?commande=12', { kind: 'confirmation', orderId: 12 }],
    ['GET', '?commande=', { kind: 'confirmation', orderId: null }],
    ['GET', '?commande=012', { kind: 'confirmation', orderId: null }],
    ['GET', '?commande=12abc', { kind: 'confirmation', orderId: null }],
    ['GET', '?commande=99999999999', { kind: 'confirmation', orderId: null }],
  ] as const)('%s %s → %j', (method, search, expected) => {
    expect(checkoutRequest(method, query(search))).toEqual(expected);
  });
});

describe('handOverStart', () => {
  test('no cart, or no line: back to the cart page', () => {
    expect(handOverStart(null)).toEqual({ kind: 'back-to-cart' });
    expect(handOverStart({ customerId: 0, lineCount: 0 })).toEqual({ kind: 'back-to-cart' });
    expect(handOverStart({ customerId: 7, lineCount: 0 })).toEqual({ kind: 'back-to-cart' });
  });

  test("a guest cart is claimed by this browser first; a customer's is theirs by the session", () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 100 }), (customerId, lineCount) => {
        expect(handOverStart({ customerId, lineCount })).toEqual({
          kind: 'hand-over',
          claim: customerId === 0,
        });
      }),
    );
  });
});

describe('confirmationReply', () => {
  test('an order the requester may see: 200, the cart cookie forgotten; else 404', () => {
    expect(confirmationReply(true)).toEqual({ status: 200, forgetCart: true });
    expect(confirmationReply(false)).toEqual({ status: 404, forgetCart: false });
  });
});

describe('returnsHereAfterLogin', () => {
  const summary: CheckoutRequest = { kind: 'summary' };
  test('only a guest looking at a cart with lines', () => {
    expect(returnsHereAfterLogin(summary, null, 2)).toBe(true);
    expect(returnsHereAfterLogin(summary, null, 0)).toBe(false);
    expect(returnsHereAfterLogin(summary, 5, 2)).toBe(false);
    expect(returnsHereAfterLogin({ kind: 'confirmation', orderId: 3 }, null, 2)).toBe(false);
    expect(returnsHereAfterLogin({ kind: 'hand-over' }, null, 2)).toBe(false);
  });
});
