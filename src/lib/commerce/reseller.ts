/**
 * The reseller area's rules (spec §2 guard, §3 form fields, §5 send-to-client, §6): who may
 * enter it, where the others go, and the checks of sending a cart to a client. Pure.
 */
import { returnPath } from './redirect-target.ts';
import {
  CART_PATH,
  CHECKOUT_PATH,
  RESELLER_CART_PATH,
  RESELLER_LOGIN_PATH,
  RESELLER_PATH,
} from './routes.ts';

export { RESELLER_CART_PATH, RESELLER_PATH } from './routes.ts';

/** Who asks: a visitor, a logged-in customer who is no reseller, or a reseller. */
export type ResellerVisitor = 'visitor' | 'customer' | 'reseller';

export type ResellerDecision =
  { kind: 'next' } | { kind: 'redirect'; location: string; returnPath?: string };

/** The main shop's URL, where a non-reseller in the area is sent (spec §2). */
export const MAIN_SHOP_PATH = '/';

/**
 * spec §2 reseller-area guard, for a path of the area (the flag is checked before): a
 * logged-in non-reseller goes to the main shop; a visitor goes to the area's login page unless
 * already there (the requested path kept for after login); a reseller on the login page goes
 * to the area's home.
 */
export function resellerGuard(url: URL, who: ResellerVisitor): ResellerDecision {
  const onLogin = url.pathname === RESELLER_LOGIN_PATH;
  if (who === 'customer') return { kind: 'redirect', location: MAIN_SHOP_PATH };
  if (who === 'reseller') {
    return onLogin ? { kind: 'redirect', location: RESELLER_PATH } : { kind: 'next' };
  }
  if (onLogin) return { kind: 'next' };
  const kept = returnPath(url.pathname + url.search);
  return kept === null
    ? { kind: 'redirect', location: RESELLER_LOGIN_PATH }
    : { kind: 'redirect', location: RESELLER_LOGIN_PATH, returnPath: kept };
}

/**
 * Where a reseller lands after logging in, anywhere (the shop's login page, the modal, the
 * area's login): the path a guard kept, except the consumer cart and checkout, where
 * a reseller would pay themselves (their cart is the reseller cart, sent to a client); with no
 * kept path, the reseller area, not the account's "Mes informations".
 */
export function resellerLanding(kept: string | null): string {
  if (kept === null) return RESELLER_PATH;
  const path = kept.split(/[?#]/, 1)[0] ?? '';
  return path === CART_PATH || path === CHECKOUT_PATH ? RESELLER_CART_PATH : kept;
}
