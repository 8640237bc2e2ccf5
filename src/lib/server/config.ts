/**
 * The one module that reads the environment (`astro:env`, declared in `astro.config.mjs`):
 * BigCommerce connection, storefronts per host, i18n config and feature flags, plus the
 * shop's configured BigCommerce clients. Works at build time (content loaders in
 * `src/content.config.ts`) and at request time; a missing secret fails at startup.
 */
import { FEATURE_RESELLER_AREA, FEATURE_REVIEWS, FEATURE_TRANSACTIONAL } from 'astro:env/client';
import {
  BIGCOMMERCE_ACCESS_TOKEN,
  BIGCOMMERCE_API_URL,
  BIGCOMMERCE_CHANNEL_ID,
  BIGCOMMERCE_STORE_HASH,
  SHOP_COUNTRY,
  SHOP_CURRENCY,
  SHOP_LOCALE,
  STOREFRONTS,
} from 'astro:env/server';
import type { StorefrontConfig } from '../commerce/storefront.ts';
import { resolveI18nConfig, type I18nConfig } from '../i18n/config.ts';
import {
  createBigCommerceClient,
  getStoreMeta,
  type BigCommerceClient,
  type BigCommerceClientOptions,
} from './bigcommerce/index.ts';
import {
  buildStorefrontConfig,
  createClientForHost,
  createStorefrontResolver,
  hasDefaultStorefront,
} from './storefronts.ts';

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

/** Feature flags (spec §1, §6). */
export const features = Object.freeze({
  transactional: FEATURE_TRANSACTIONAL,
  reviews: FEATURE_REVIEWS,
  resellerArea: FEATURE_RESELLER_AREA,
});

// Validated at startup; the default storefront's name is the store's, read on first use.
const PENDING_NAME = 'default';
const routingConfig = buildStorefrontConfig({
  json: STOREFRONTS,
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

let storefrontConfig: Promise<StorefrontConfig> | undefined;

/**
 * The full storefront config (spec §3): the `STOREFRONTS` entries, and a default storefront
 * on BIGCOMMERCE_CHANNEL_ID named after the store, over https. If the store cannot be read,
 * the default is named 'default' and the next call tries again.
 */
export function getStorefrontConfig(): Promise<StorefrontConfig> {
  if (hasDefaultStorefront(STOREFRONTS)) return Promise.resolve(routingConfig);
  storefrontConfig ??= getStoreMeta(bigcommerce()).then(
    (store) =>
      buildStorefrontConfig({
        json: STOREFRONTS,
        defaultChannelId: BIGCOMMERCE_CHANNEL_ID,
        defaultName: store.name.trim() === '' ? PENDING_NAME : store.name,
      }),
    (error: unknown) => {
      storefrontConfig = undefined;
      console.error('[config] Could not read the store name for the default storefront:', error);
      return routingConfig;
    },
  );
  return storefrontConfig;
}
