/**
 * What the header's account and cart links show (spec §2, §6), as pure functions of the
 * stores: the links are static markup (`Header.astro`, `BottomBar.astro`) that one script
 * per page keeps up to date (`header-buttons.ts`), where each used to hydrate a React island
 * and be rendered by React on every page at build.
 */
import { inResellerMode } from '../../lib/commerce/shop-mode.ts';
import { RESELLER_PATH } from '../../lib/commerce/routes.ts';
import { ACCOUNT_HOME, LOGIN_PATH } from '../../lib/commerce/guards.ts';
import type { CurrentCustomer } from '../../lib/commerce/types.ts';
import type { Translate } from '../../lib/i18n/translate.ts';

/** Message keys of the account link. */
export const ACCOUNT_LINK_MESSAGES = ['header.login', 'header.connected'] as const;
/** Message keys of the cart link and of the bottom bar's badge. */
export const CART_LINK_MESSAGES = ['header.cartCount_one', 'header.cartCount_other'] as const;

export interface AccountLinkView {
  href: string;
  label: string;
  /** A visitor's click opens the login modal (the link still leads to /connexion). */
  opensLoginModal: boolean;
}

/**
 * spec §2, §6: "Connecté" and the first name (the shop name for a reseller) for a customer;
 * "Me connecter" for a visitor. The marker cookie is a hint: it says "Connecté" at once, the
 * name comes with the customer.
 */
export function accountLinkView(
  markerSaysAuthenticated: boolean,
  customer: Pick<CurrentCustomer, 'firstName' | 'isReseller' | 'shopName'> | null,
  t: Translate,
  resellerArea = false,
): AccountLinkView {
  if (markerSaysAuthenticated || customer !== null) {
    const name =
      customer === null ? '' : customer.isReseller ? customer.shopName : customer.firstName;
    const connected = t('header.connected');
    return {
      // spec §6: a reseller's account button opens the reseller area.
      href: inResellerMode(customer, resellerArea) ? RESELLER_PATH : ACCOUNT_HOME,
      label: name.trim() === '' ? connected : `${connected} ${name.trim()}`,
      opensLoginModal: false,
    };
  }
  return { href: LOGIN_PATH, label: t('header.login'), opensLoginModal: true };
}

export interface CartBadgeView {
  /** What the badge shows (99+ above 99), null when the cart is empty (no badge). */
  text: string | null;
  /** The spoken count ("3 articles dans le panier"). */
  label: string;
}

/** spec §2, §3: the item-count badge of the cart link and of the bottom bar. */
export function cartBadgeView(count: number, t: Translate): CartBadgeView {
  return countBadgeView(count, 'header.cartCount', t);
}

/** Message keys of the wishlist link's badge. */
export const WISHLIST_LINK_MESSAGES = ['wishlist.count_one', 'wishlist.count_other'] as const;

/** The wishlist link's badge: the number of lines, as the cart's. */
export function wishlistBadgeView(count: number, t: Translate): CartBadgeView {
  return countBadgeView(count, 'wishlist.count', t);
}

function countBadgeView(count: number, key: string, t: Translate): CartBadgeView {
  const safe = Number.isSafeInteger(count) && count > 0 ? count : 0;
  return {
    text: safe === 0 ? null : safe > 99 ? '99+' : String(safe),
    label: t(key, { count: safe }),
  };
}
