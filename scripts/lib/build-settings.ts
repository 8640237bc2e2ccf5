/**
 * The settings a build bakes in: the public variables of `astro.config.mjs`'s `env.schema`
 * (Astro inlines them at build: the feature flags, the shop's address, the reviews site...) and
 * the ones the config itself reads (`SITE_URL`, `IMAGE_DOMAINS`, `CHECKOUT_ORIGINS`). `npm start`
 * rebuilds when one of them differs from the build's, so `FEATURE_RESELLER_AREA=true npm start`
 * after a build without it serves the reseller area rather than the earlier build.
 * `tests/unit/build-settings.test.ts` holds this list to the schema.
 */
import { createHash } from 'node:crypto';

export const BUILD_SETTINGS = [
  'BIGCOMMERCE_API_URL',
  'BIGCOMMERCE_CHANNEL_ID',
  'STOREFRONTS',
  'CONTENTFUL_API_URL',
  'CONTENTFUL_SPACE_ID',
  'CONTENTFUL_ENVIRONMENT',
  'BREVO_API_URL',
  'MAIL_SENDER_EMAIL',
  'MAIL_SENDER_NAME',
  'CART_COOKIE_MAX_AGE',
  'SHOP_LOCALE',
  'SHOP_CURRENCY',
  'SHOP_COUNTRY',
  'FEATURE_TRANSACTIONAL',
  'FEATURE_REVIEWS',
  'FEATURE_RESELLER_AREA',
  'COMPANY_ADDRESS',
  'COMPANY_PHONE',
  'COMPANY_EMAIL',
  'SOCIAL_LINKEDIN_URL',
  'SOCIAL_INSTAGRAM_URL',
  'SOCIAL_FACEBOOK_URL',
  'REASSURANCE',
  'REVIEWS_SITE',
  'REVIEWS_API_URL',
  'REVIEWS_WIDGET_URL',
  'REVIEWS_PROVIDER_URL',
  'SUPPORT_URL',
  'GTM_CONTAINER_ID',
  'SUPPORT_FAQ_URL',
  'SUPPORT_REQUEST_URL',
  'SITE_URL',
  'IMAGE_DOMAINS',
  'CHECKOUT_ORIGINS',
] as const;

/**
 * A short fingerprint of the build settings in `env` (an unset variable differs from an empty
 * one): equal for two environments that build the same shop.
 */
export function buildSettingsKey(env: Readonly<Record<string, string | undefined>>): string {
  const values = BUILD_SETTINGS.map((name) => [name, env[name] ?? null]);
  return createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 16);
}
