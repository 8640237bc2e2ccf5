/**
 * The one reader of `astro:env/client`: the public settings a build bakes in (`astro.config.mjs`
 * `env.schema`, context client), for pages, components, islands and the server config alike
 * (the server's one reader, `src/shop/config/config.ts`, takes its public values from here).
 * Runs anywhere; no I/O. `tests/unit/module-boundaries.test.ts` and ESLint
 * (`no-restricted-imports`) hold it to being the only importer.
 */
import {
  CART_COOKIE_MAX_AGE,
  COMPANY_ADDRESS,
  COMPANY_EMAIL,
  COMPANY_PHONE,
  FEATURE_RESELLER_AREA,
  FEATURE_REVIEWS,
  FEATURE_TRANSACTIONAL,
  GTM_CONTAINER_ID,
  REASSURANCE,
  REVIEWS_PROVIDER_URL,
  SOCIAL_FACEBOOK_URL,
  SOCIAL_INSTAGRAM_URL,
  SOCIAL_LINKEDIN_URL,
  SUPPORT_FAQ_URL,
  SUPPORT_REQUEST_URL,
  SUPPORT_URL,
} from 'astro:env/client';
import type { Features } from './features.ts';
import type { SupportSettings } from './support-links.ts';

/** The shop's feature flags (spec §1, §6; rules in `src/lib/features.ts`), fixed at build. */
export const features: Features = {
  transactional: FEATURE_TRANSACTIONAL,
  reviews: FEATURE_REVIEWS,
  resellerArea: FEATURE_RESELLER_AREA,
};

/** spec §9: lifetime of the cart id cookie, in seconds (`CART_COOKIE_MAX_AGE`). */
export const cartCookieMaxAge: number = CART_COOKIE_MAX_AGE;

/** The company's address, phone and e-mail shown in the footer and the home's JSON-LD. */
export const company: Readonly<Record<'address' | 'phone' | 'email', string>> = {
  address: COMPANY_ADDRESS,
  phone: COMPANY_PHONE,
  email: COMPANY_EMAIL,
};

/** spec §1: the footer's social links (an empty value hides one). */
export const socialLinks: Readonly<Record<'linkedin' | 'instagram' | 'facebook', string>> = {
  linkedin: SOCIAL_LINKEDIN_URL,
  instagram: SOCIAL_INSTAGRAM_URL,
  facebook: SOCIAL_FACEBOOK_URL,
};

/** The reassurance columns as configured (`REASSURANCE`, JSON), unset for the spec's. */
export const reassuranceJson: string | undefined = REASSURANCE;

/** spec §2 / §9: the support site settings (`SUPPORT_URL`, `SUPPORT_FAQ_URL`, `SUPPORT_REQUEST_URL`). */
export const supportSettings: Readonly<SupportSettings> = {
  base: SUPPORT_URL,
  faq: SUPPORT_FAQ_URL,
  request: SUPPORT_REQUEST_URL,
};

/** The reviews provider page of the header's rating (`REVIEWS_PROVIDER_URL`), when set. */
export const reviewsProviderUrl: string | undefined = REVIEWS_PROVIDER_URL;

/** The tag-manager container id as set (`GTM_CONTAINER_ID`); config.ts checks its form. */
export const tagManagerSetting: string | undefined = GTM_CONTAINER_ID;
