/**
 * The account area's pages (spec §2 /mon-compte/{pageName}, default mes-informations) and how a
 * requested path maps to one of them. Pure: the page `src/pages/mon-compte/[...page].astro`
 * renders the view this returns.
 */
import { ACCOUNT_PATH } from './guards.ts';

export const ACCOUNT_PAGES = [
  {
    slug: 'mes-informations',
    label: 'account.myInformation',
    path: `${ACCOUNT_PATH}/mes-informations`,
  },
  { slug: 'mes-adresses', label: 'account.addresses', path: `${ACCOUNT_PATH}/mes-adresses` },
  { slug: 'mes-commandes', label: 'account.orders', path: `${ACCOUNT_PATH}/mes-commandes` },
  { slug: 'mes-favoris', label: 'account.wishlist', path: `${ACCOUNT_PATH}/mes-favoris` },
] as const;

/** The account's wishlist page (spec §4: the customer's wishlist). */
export const ACCOUNT_WISHLIST_PATH = `${ACCOUNT_PATH}/mes-favoris`;

export type AccountPageSlug = (typeof ACCOUNT_PAGES)[number]['slug'];

export type AccountView =
  | { kind: 'redirect'; location: string }
  | { kind: 'profile' }
  | { kind: 'addresses' }
  | { kind: 'orders' }
  | { kind: 'wishlist' }
  | { kind: 'order'; orderId: number }
  | { kind: 'not-found' };

/** An order id as the shop's paths and queries carry it: digits, no leading zero, at most 10. */
const ORDER_ID = /^[1-9]\d{0,9}$/;

/**
 * The order id of a path segment or query value (`/mon-compte/mes-commandes/{id}`,
 * `/paiement?commande={id}`), or null when it is none.
 */
export function parseOrderId(value: string | null | undefined): number | null {
  return typeof value === 'string' && ORDER_ID.test(value) ? Number(value) : null;
}

/** The view of `/mon-compte/{page}` (the part after `/mon-compte/`, possibly empty). */
export function accountView(page: string | undefined): AccountView {
  const parts = (page ?? '').split('/').filter((part) => part !== '');
  const [section, id, ...rest] = parts;
  if (section === undefined) return { kind: 'redirect', location: ACCOUNT_PAGES[0].path };
  if (rest.length > 0) return { kind: 'not-found' };
  if (section === 'mes-informations' && id === undefined) return { kind: 'profile' };
  if (section === 'mes-adresses' && id === undefined) return { kind: 'addresses' };
  if (section === 'mes-favoris' && id === undefined) return { kind: 'wishlist' };
  if (section === 'mes-commandes') {
    if (id === undefined) return { kind: 'orders' };
    const orderId = parseOrderId(id);
    if (orderId !== null) return { kind: 'order', orderId };
  }
  return { kind: 'not-found' };
}

/** The account page a view belongs to (the navigation's current entry). */
export function accountSection(view: AccountView): AccountPageSlug {
  if (view.kind === 'orders' || view.kind === 'order') return 'mes-commandes';
  if (view.kind === 'addresses') return 'mes-adresses';
  if (view.kind === 'wishlist') return 'mes-favoris';
  return 'mes-informations';
}

/** Path of an order's detail page. */
export function orderPath(orderId: number): string {
  return `${ACCOUNT_PATH}/mes-commandes/${String(orderId)}`;
}
