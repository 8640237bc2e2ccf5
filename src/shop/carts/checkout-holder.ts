/**
 * Which browser a guest cart's checkout belongs to (against cart fixation): a guest order's
 * details (name, address, phone, e-mail) go only to the browser that placed it, not to anyone
 * who merely holds the cart id. Each browser gets a random id in a signed HttpOnly cookie
 * (`checkout`); the shared store keeps, per cart, the id of the browser that holds its checkout
 * (`checkout:cart:{id}`, every server copy sees it):
 * - a browser starting the checkout of a cart (`/paiement` hand-over, `getCheckoutUrl`) claims
 *   it when nobody holds it (`setIfAbsent`); a browser that does not hold it may not start it;
 * - the browser that opens a shop-minted cart link takes the cart over (the client a reseller
 *   sent it to is its payer);
 * - a reseller sending the cart puts it out of everyone's hands until its link is opened.
 * The rule reading it is `mayReadOrderOfCart` (`ownership.ts`).
 */
import { randomBytes } from 'node:crypto';
import { readCookie, type ReplyCookies } from '../auth/cookies.ts';
import { deriveKey, signPayload, verifyPayload } from '../auth/keys.ts';
import type { SharedStore } from '../state/types.ts';

export const CHECKOUT_COOKIE = 'checkout';
/** 30 days, in seconds: a guest's order confirmation comes back well within it. */
export const CHECKOUT_MAX_AGE = 30 * 24 * 60 * 60;
const HOLD_MS = CHECKOUT_MAX_AGE * 1000;

const BROWSER_ID = /^[\w-]{22,64}$/;
const holdKey = (cartId: string) => `checkout:cart:${cartId}`;

export interface CheckoutHolders {
  /** The request's browser id (its valid signed cookie), or null. */
  browserOf(request: Request): string | null;
  /**
   * A browser starting the cart's checkout: it claims the cart when nobody holds it. True when
   * this browser holds it (the cookie is set on `cookies` for a browser without one).
   */
  claim(request: Request, cookies: ReplyCookies, cartId: string): Promise<boolean>;
  /** Whether nobody but this browser holds the cart's checkout (nothing is claimed). */
  free(request: Request, cartId: string): Promise<boolean>;
  /** The browser opening the cart's shop-minted link takes its checkout over. */
  handOver(request: Request, cookies: ReplyCookies, cartId: string): Promise<void>;
  /** The cart changes hands (a reseller sends it): no browser holds it until its link opens. */
  release(cartId: string): Promise<void>;
  /** The id of the browser holding the cart's checkout, or null. */
  holderOf(cartId: string): Promise<string | null>;
}

export function createCheckoutHolders(options: {
  secret: string;
  store: SharedStore;
}): CheckoutHolders {
  const { store } = options;
  const key = deriveKey(options.secret, 'checkout');

  const browserOf = (request: Request): string | null => {
    const value = readCookie(request, CHECKOUT_COOKIE);
    if (value === undefined || value.length > 256) return null;
    const payload = verifyPayload(key, value);
    if (typeof payload !== 'object' || payload === null) return null;
    const id = (payload as { b?: unknown }).b;
    return typeof id === 'string' && BROWSER_ID.test(id) ? id : null;
  };

  /** The browser's id, a new one (with its cookie) for a browser without. */
  const ensureBrowser = (request: Request, cookies: ReplyCookies): string => {
    const known = browserOf(request);
    if (known !== null) return known;
    const id = randomBytes(24).toString('base64url');
    cookies.set(CHECKOUT_COOKIE, signPayload(key, { b: id }), {
      maxAge: CHECKOUT_MAX_AGE,
      path: '/',
      httpOnly: true,
    });
    return id;
  };

  return {
    browserOf,
    async claim(request, cookies, cartId) {
      const holder = await store.get(holdKey(cartId));
      const own = browserOf(request);
      if (holder !== null) return own !== null && own === holder;
      const id = ensureBrowser(request, cookies);
      if (await store.setIfAbsent(holdKey(cartId), id, HOLD_MS)) return true;
      // Another browser claimed it a moment ago.
      return (await store.get(holdKey(cartId))) === id;
    },
    async free(request, cartId) {
      const holder = await store.get(holdKey(cartId));
      return holder === null || holder === browserOf(request);
    },
    async handOver(request, cookies, cartId) {
      await store.set(holdKey(cartId), ensureBrowser(request, cookies), HOLD_MS);
    },
    async release(cartId) {
      // An id no browser has: `claim` refuses everyone until the link's opener takes it.
      await store.set(holdKey(cartId), `sent:${randomBytes(16).toString('base64url')}`, HOLD_MS);
    },
    holderOf: (cartId) => store.get(holdKey(cartId)),
  };
}
