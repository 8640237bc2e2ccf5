/**
 * The shop's feature flags (spec §1, §6), the one home of their names, variables, defaults and
 * rules: `FEATURE_TRANSACTIONAL`, `FEATURE_REVIEWS` and `FEATURE_RESELLER_AREA`, fixed at build.
 * Read in one place per side: `src/lib/env-client.ts` `features` (pages, components, islands;
 * the server view `features` of `src/shop/config/config.ts` is the same object) and, for
 * `astro.config.mjs`, which runs before `astro:env` exists, `featuresFromEnv` of the one table
 * of the environment (`src/shop/config/environment.ts`, which takes its defaults from here).
 *
 * The route and method rules: which paths and API methods exist with a flag off. With the
 * transactional flag off the cart, checkout, login, registration, logout, password and account
 * pages do not exist (404), nor the cart, customer, order and wishlist methods; with the
 * reviews flag off the review methods; with the reseller-area flag off every route of the area.
 * Pure: the middleware and the API apply them.
 */
import {
  ACCOUNT_PATH,
  CART_PATH,
  CHECKOUT_PATH,
  LEGACY_LOGIN_PATH,
  LOGIN_PATH,
  LOGOUT_PATH,
  PASSWORD_PATH,
  REGISTER_PATH,
  RESELLER_PATH,
} from './commerce/routes.ts';

export interface Features {
  /** Account, cart and payment (spec §1 "transactional flag"). */
  readonly transactional: boolean;
  /** The reviews widget, ratings and review methods. */
  readonly reviews: boolean;
  /** The reseller area (spec §2, §6). */
  readonly resellerArea: boolean;
}

export type Feature = keyof Features;

/** The variable of each flag (astro.config.mjs `env.schema`, context client). */
export const FEATURE_VARIABLES = Object.freeze({
  transactional: 'FEATURE_TRANSACTIONAL',
  reviews: 'FEATURE_REVIEWS',
  resellerArea: 'FEATURE_RESELLER_AREA',
} as const satisfies Record<Feature, string>);

/** Each flag when its variable is unset (the schema's defaults). */
export const FEATURE_DEFAULTS: Features = Object.freeze({
  transactional: true,
  reviews: true,
  resellerArea: false,
});

/** Pages of the transactional feature (spec §6: account, cart and payment). */
const TRANSACTIONAL_PAGES: ReadonlySet<string> = new Set([
  CART_PATH,
  CHECKOUT_PATH,
  LOGIN_PATH,
  REGISTER_PATH,
  LOGOUT_PATH,
  PASSWORD_PATH,
  LEGACY_LOGIN_PATH,
]);

const under = (pathname: string, prefix: string) =>
  pathname === prefix || pathname.startsWith(`${prefix}/`);

/** True for a path of the reseller area (`/espace-revendeur` and below). */
export function isResellerPath(pathname: string): boolean {
  return under(pathname, RESELLER_PATH);
}

/** The feature a page path belongs to, or null for the pages every shop has. */
export function pageFeature(pathname: string): Feature | null {
  if (isResellerPath(pathname)) return 'resellerArea';
  if (TRANSACTIONAL_PAGES.has(pathname) || under(pathname, ACCOUNT_PATH)) return 'transactional';
  return null;
}

/**
 * Whether a page path exists with these flags (otherwise: 404). The reseller area fills and
 * sends carts: it needs the transactional feature too.
 */
export function pageEnabled(pathname: string, features: Features): boolean {
  const feature = pageFeature(pathname);
  if (feature === 'resellerArea') return features.resellerArea && features.transactional;
  return feature === null || features[feature];
}
