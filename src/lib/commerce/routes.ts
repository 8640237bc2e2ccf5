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
