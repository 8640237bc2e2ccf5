/**
 * Paths of the spec §2 route table that rules refer to (guards, redirect targets, account and
 * cart links). `guards.ts` re-exports them for the pages and islands.
 */

export const LOGIN_PATH = '/connexion';
export const LOGOUT_PATH = '/deconnexion';
export const REGISTER_PATH = '/inscription';
export const PASSWORD_PATH = '/mot-de-passe';
export const ACCOUNT_PATH = '/mon-compte';
export const CART_PATH = '/panier';
export const CHECKOUT_PATH = '/paiement';
/** spec §2: the account area's default page. */
export const ACCOUNT_HOME = `${ACCOUNT_PATH}/mes-informations`;
/** spec §2: a request to /login.php is redirected to the logout page. */
export const LEGACY_LOGIN_PATH = '/login.php';

/**
 * The login, registration, logout and password pages: never a way back after login (spec §2),
 * which would loop or undo the login.
 */
export const AUTH_PATHS: ReadonlySet<string> = new Set([
  LOGIN_PATH,
  LOGOUT_PATH,
  REGISTER_PATH,
  PASSWORD_PATH,
  LEGACY_LOGIN_PATH,
]);

/** The reseller area (spec §2, §6; flag FEATURE_RESELLER_AREA): every route under one prefix. */
export const RESELLER_PATH = '/espace-revendeur';
/** Its login page (reseller-login layout: header with the logo only). */
export const RESELLER_LOGIN_PATH = `${RESELLER_PATH}/connexion`;
/** Its cart: the reseller cart, and sending it to a client. */
export const RESELLER_CART_PATH = `${RESELLER_PATH}/panier`;

/**
 * Paths that are never in the sitemap: the shopper's own pages (login, registration, logout,
 * password, cart, checkout, account), the reseller area, the on-demand views (`/vue/...`: a
 * listing's query views carry their own canonical) and the pages kept out of the index (design
 * samples, offline page). The sitemap integration lists every route without parameters,
 * pre-rendered or not: without this, crawlers were sent to `/panier` or `/connexion`.
 */
const NOT_IN_SITEMAP = [
  ...AUTH_PATHS,
  CART_PATH,
  CHECKOUT_PATH,
  ACCOUNT_PATH,
  RESELLER_PATH,
  '/vue',
  '/Design',
  '/Tailwind',
  '/hors-ligne',
];

/** Whether a page URL (absolute, as the sitemap integration gives it) belongs in the sitemap. */
export function isSitemapPage(url: string): boolean {
  const { pathname } = new URL(url);
  if (pathname.endsWith('.xml')) return false;
  return !NOT_IN_SITEMAP.some((path) => pathname === path || pathname.startsWith(`${path}/`));
}
