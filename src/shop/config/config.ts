/**
 * The server's one reader of the environment (`astro:env/server`, declared in
 * `astro.config.mjs`; its public values through the one client reader, `src/lib/env-client.ts`):
 * BigCommerce connection, storefronts per host, i18n config and feature flags, plus the
 * shop's configured BigCommerce, Contentful and Brevo clients, the session and the account services. Works at build time (the catalogue read of
 * `src/shop/loaders/catalogue.ts`) and at request time; a missing secret fails at startup.
 */
import {
  BIGCOMMERCE_ACCESS_TOKEN,
  BIGCOMMERCE_API_URL,
  BIGCOMMERCE_CHANNEL_ID,
  BIGCOMMERCE_CLIENT_ID,
  BIGCOMMERCE_CLIENT_SECRET,
  BIGCOMMERCE_STORE_HASH,
  BREVO_API_KEY,
  BREVO_API_URL,
  CONTENTFUL_ACCESS_TOKEN,
  CONTENTFUL_API_URL,
  CONTENTFUL_ENVIRONMENT,
  CONTENTFUL_SPACE_ID,
  LOG_LEVEL,
  MAIL_SENDER_EMAIL,
  MAIL_SENDER_NAME,
  REDIS_URL,
  REVIEWS_API_URL,
  REVIEWS_SITE,
  REVIEWS_WIDGET_URL,
  SESSION_SECRET,
  SHOP_COUNTRY,
  SHOP_CURRENCY,
  SHOP_LOCALE,
  STATE_DIR,
  STOREFRONTS,
} from 'astro:env/server';
import {
  cartCookieMaxAge as clientCartCookieMaxAge,
  company,
  features as clientFeatures,
  reviewsProviderUrl,
  tagManagerSetting,
} from '../../lib/env-client.ts';
import type { Features } from '../../lib/features.ts';
import { createAccountServices, type AccountServices } from '../api/context.ts';
import { cartLinkKey } from '../carts/cart-redirect.ts';
import { createCheckoutHolders } from '../carts/checkout-holder.ts';
import {
  createBrevoClient,
  sendTransactionalEmail,
  type BrevoClient,
} from '../connectors/brevo/index.ts';
import { createContentfulClient, type ContentfulClient } from '../connectors/contentful/index.ts';
import {
  createReviewsClient,
  reviewSite,
  reviewsPageUrl,
  reviewsWidgetUrl,
  type ReviewsClient,
  type ReviewSite,
} from '../connectors/reviews/index.ts';
import { trustedProxiesFromEnv, type TrustedProxies } from '../auth/client.ts';
import { setLogLevel, type LogLevel } from './log.ts';
import { createResetTokens } from '../auth/password-reset.ts';
import { createSessionManager, type SessionManager } from '../auth/session.ts';
import { createAccountThrottle } from '../throttle/throttle.ts';
import {
  createStore,
  DEFAULT_STATE_DIR,
  MEMORY_STATE_DIR,
  type SharedStore,
} from '../state/index.ts';
import { resolveI18nConfig, type I18nConfig } from '../../lib/i18n/config.ts';
import { parseContainerId } from '../../lib/analytics/tag-manager.ts';
import {
  createBigCommerceClient,
  type BigCommerceClient,
  type BigCommerceClientOptions,
} from '../connectors/bigcommerce/index.ts';
import {
  buildStorefrontConfig,
  createClientForHost,
  createStorefrontResolver,
} from './storefronts.ts';
import { parseVariable } from '../../shop/config/environment.ts';

/** spec §9: the server's log verbosity (`LOG_LEVEL`, default error), set once for the process. */
export const logLevel: LogLevel = LOG_LEVEL;
setLogLevel(logLevel);

/** Connection to the BigCommerce REST API (or the sandbox), default channel included. */
export const bigcommerceConnection: Readonly<BigCommerceClientOptions> = Object.freeze({
  apiUrl: BIGCOMMERCE_API_URL,
  storeHash: BIGCOMMERCE_STORE_HASH,
  accessToken: BIGCOMMERCE_ACCESS_TOKEN,
  channelId: BIGCOMMERCE_CHANNEL_ID,
});

/** spec §5: startup fails with the spec's message when locale, currency or country is blank. */
export const i18nConfig: I18nConfig = resolveI18nConfig({
  locale: SHOP_LOCALE,
  currency: SHOP_CURRENCY,
  country: SHOP_COUNTRY,
});

/**
 * The load balancers whose `X-Forwarded-For`/`-Proto`/`-Host` are believed (`TRUSTED_PROXIES`,
 * read at run time by its one reader, `trustedProxiesFromEnv` of `client.ts`, which the
 * storefront server uses too). An entry that is no address or CIDR fails at startup.
 */
export const trustedProxies: TrustedProxies = trustedProxiesFromEnv();

/** Feature flags (spec §1, §6; `src/lib/features.ts`): the server's view, the same values. */
export const features: Features = clientFeatures;

/**
 * The tag-manager container id (spec §7, `GTM_CONTAINER_ID`), null when unset: no container
 * script, no request to the tag manager. An id of another form fails at startup.
 */
export const tagManagerContainerId: string | null = parseContainerId(tagManagerSetting);

// Validated at startup by the one table of the environment (`src/shop/config/environment.ts`):
// a bad value stops the server with the variable's name and the reason. The default
// storefront's name is the store's, read on first use, unless the setting names one.
const PENDING_NAME = 'default';
const storefrontsSetting = parseVariable('STOREFRONTS', STOREFRONTS ?? '');
const routingConfig = buildStorefrontConfig({
  setting: storefrontsSetting,
  defaultChannelId: BIGCOMMERCE_CHANNEL_ID,
  defaultName: PENDING_NAME,
});
const storefrontFor = createStorefrontResolver(routingConfig);

/** Hosts with their own storefront entry in `STOREFRONTS`. */
export const storefrontHosts: readonly string[] = Object.keys(routingConfig).filter(
  (host) => host !== 'default',
);

let defaultClient: BigCommerceClient | undefined;

/** The shop's BigCommerce client, on the default channel (BIGCOMMERCE_CHANNEL_ID). */
export function bigcommerce(): BigCommerceClient {
  defaultClient ??= createBigCommerceClient(bigcommerceConnection);
  return defaultClient;
}

/**
 * The client for a request host: on the channel of the host's storefront, or of the default
 * storefront with a warning once per unknown host (spec §3, §8).
 */
export const bigcommerceForHost: (host: string | null | undefined) => BigCommerceClient =
  createClientForHost(bigcommerce(), storefrontFor);

/** spec §9: lifetime of the cart id cookie, in seconds (the browser store writes it). */
export const cartCookieMaxAge: number = clientCartCookieMaxAge;

let store: SharedStore | undefined;

/**
 * The shared state of this server copy and its peers (`store/README.md`): Redis
 * at `REDIS_URL` when set, else a SQLite file in `STATE_DIR` (default `.data/`), or memory
 * with `STATE_DIR=:memory:`. One instance per process.
 */
export function sharedStore(): SharedStore {
  store ??= createStore({ redisUrl: REDIS_URL, stateDir: STATE_DIR });
  return store;
}

/**
 * Where builds keep the last good copy of the content service's data (navigations, pages):
 * `{STATE_DIR}/last-good`, or `.data/last-good` when the state lives in memory or in Redis
 * only. Read at build and by the server's rebuilds (same working directory).
 */
export function lastGoodDirectory(): string {
  const dir = STATE_DIR?.trim() ?? '';
  return `${dir === '' || dir === MEMORY_STATE_DIR ? DEFAULT_STATE_DIR : dir}/last-good`;
}

/**
 * Where the picture proxy keeps its encoded variants when the storefront server names no
 * folder (`astro dev`): `{STATE_DIR}/picture-cache`, or `.data/picture-cache` when the state
 * lives in memory or in Redis only (`image-endpoint.ts`).
 */
export function pictureCacheDirectory(): string {
  const dir = STATE_DIR?.trim() ?? '';
  return `${dir === '' || dir === MEMORY_STATE_DIR ? DEFAULT_STATE_DIR : dir}/picture-cache`;
}

let sessionManager: SessionManager | undefined;

/** The customer session (signed cookie, valid while its record is in the shared store), for the API, guards and pages. */
export function sessions(): SessionManager {
  sessionManager ??= createSessionManager({
    secret: SESSION_SECRET,
    store: sharedStore(),
    resellerArea: features.resellerArea,
  });
  return sessionManager;
}

let contentfulClient: ContentfulClient | undefined;

/** The shop's Contentful client (Content Delivery API, or the sandbox's in sandbox mode). */
export function contentful(): ContentfulClient {
  contentfulClient ??= createContentfulClient({
    apiUrl: CONTENTFUL_API_URL,
    spaceId: CONTENTFUL_SPACE_ID,
    environment: CONTENTFUL_ENVIRONMENT,
    accessToken: CONTENTFUL_ACCESS_TOKEN,
  });
  return contentfulClient;
}

let brevoClient: BrevoClient | undefined;

/** The shop's Brevo client (transactional e-mail). */
export function brevo(): BrevoClient {
  brevoClient ??= createBrevoClient({ apiUrl: BREVO_API_URL, apiKey: BREVO_API_KEY });
  return brevoClient;
}

const nonEmpty = (value: string | undefined) => {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
};

let reviewsClient: ReviewsClient | undefined;

/** The guaranteed-reviews connector (one in-memory cache per process, spec §7). */
export function reviews(): ReviewsClient {
  reviewsClient ??= createReviewsClient({ apiUrl: REVIEWS_API_URL });
  return reviewsClient;
}

/** The brand site the shop shows (`REVIEWS_SITE`, spec §3); an unknown key fails at startup. */
export const shopReviewSite: ReviewSite = reviewSite(REVIEWS_SITE);

/**
 * Where the shop shows guaranteed reviews (spec §1, §3, §6): with the reviews flag on and a
 * brand site that has a site id (the two without show nothing), the footer's carousel iframe
 * and the reassurance rating's link (`REVIEWS_PROVIDER_URL`, else the brand's provider page).
 */
export const reviewsDisplay: { widget: string; page: string } | null =
  features.reviews && shopReviewSite.siteId !== null
    ? {
        widget: reviewsWidgetUrl(REVIEWS_WIDGET_URL, shopReviewSite),
        page: nonEmpty(reviewsProviderUrl) ?? reviewsPageUrl(shopReviewSite),
      }
    : null;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The origin of links in the shop's e-mails: the request's own origin when its host is a
 * configured storefront, the site (`SITE_URL`) or a loopback address (development, tests);
 * the site otherwise, so a forged `Host` cannot redirect a reset link elsewhere.
 */
export function linkOrigin(request: Request): string {
  const url = new URL(request.url);
  // `site` is always set (astro.config.mjs: SITE_URL or the local default).
  const site = new URL(import.meta.env.SITE);
  const trusted =
    storefrontHosts.includes(url.host) ||
    url.host === site.host ||
    LOOPBACK_HOSTS.has(url.hostname);
  return trusted ? url.origin : site.origin;
}

let account: AccountServices | undefined;

/** Sessions, reset tokens, mail and customer login of the API's account methods. */
export function accountServices(): AccountServices {
  account ??= createAccountServices({
    store: sharedStore(),
    sessions: sessions(),
    resetTokens: createResetTokens({ secret: SESSION_SECRET, store: sharedStore() }),
    sendMail: (email) => sendTransactionalEmail(brevo(), email),
    mailSender: { email: MAIL_SENDER_EMAIL, name: MAIL_SENDER_NAME },
    linkOrigin,
    throttle: createAccountThrottle({ store: sharedStore(), secret: SESSION_SECRET }),
    cartLinkKey: cartLinkKey(SESSION_SECRET),
    checkouts: createCheckoutHolders({ secret: SESSION_SECRET, store: sharedStore() }),
    shopContact: { email: company.email, phone: company.phone },
    customerLogin: {
      clientId: BIGCOMMERCE_CLIENT_ID,
      clientSecret: BIGCOMMERCE_CLIENT_SECRET,
      storeHash: BIGCOMMERCE_STORE_HASH,
    },
  });
  return account;
}
