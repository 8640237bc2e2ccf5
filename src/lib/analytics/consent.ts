/**
 * The shopper's cookie consent (CNIL rules, Google Consent Mode v2), pure: the purposes the
 * banner asks for, the stored choice read back from its first-party cookie (hostile, old or
 * expired values mean "ask again"), the Consent Mode states it maps to, and the gate that keeps
 * personal data out of the data layer without analytics consent.
 *
 * The banner (`src/browser/layout/consent-banner.ts`, vanilla-cookieconsent) writes the
 * cookie `CONSENT_COOKIE` in its own format: URI-encoded JSON
 * `{ categories, revision, consentTimestamp, lastConsentTimestamp, expirationTime, ... }`.
 * Every page reads it here without loading the banner: the library is loaded only to ask.
 * Browser-safe, no zod (this runs on every page: a hand-written strict reader keeps the page's
 * script small), no i18n.
 */
import { readJsonRecord } from '../script-json.ts';

/** The shop's cookies page (a legal page): where the banner and "Gérer les cookies" point. */
export const COOKIES_PAGE_PATH = '/cookies';

/** The first-party cookie the choice is kept in. */
export const CONSENT_COOKIE = 'choix-cookies';

/** The choice is kept six months (CNIL: at most 6 months), then asked again. */
export const CONSENT_MAX_AGE_DAYS = 182;
const DAY_MS = 86_400_000;
export const CONSENT_MAX_AGE_MS = CONSENT_MAX_AGE_DAYS * DAY_MS;

/**
 * The version of what the banner asks. Raise it when a purpose is added or its meaning
 * changes: every stored choice of another revision is asked again.
 */
export const CONSENT_REVISION = 1;

/** The purposes asked, as the banner's categories. `necessary` is always on. */
export const CONSENT_PURPOSES = ['necessary', 'analytics', 'ads'] as const;
/** A choice the shopper made. */
export interface ConsentChoice {
  /** Mesure d'audience (GA4 through the tag manager): analytics_storage, personal fields. */
  analytics: boolean;
  /** Publicité: ad_storage, ad_user_data, ad_personalization. */
  ads: boolean;
  /** When the choice was last made (ms since epoch). */
  decidedAt: number;
}

// A stored value longer than this is no value the banner wrote (its own is about 300 bytes).
const MAX_STORED_LENGTH = 4_096;
// A choice dated this far in the future is from a wrong clock or forged: ask again.
const MAX_CLOCK_SKEW_MS = DAY_MS;

function timestamp(value: unknown): number | null {
  if (typeof value !== 'string' || value.length > 40) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? time : null;
}

/**
 * The choice kept in the cookie's (decoded) value, or null when the shopper must be asked:
 * absent, not JSON, not the banner's shape, another revision, without the necessary purpose,
 * dated in the future, older than six months or past its expiry.
 */
export function parseStoredConsent(
  raw: string | null | undefined,
  now: number,
): ConsentChoice | null {
  const value = readJsonRecord(raw, MAX_STORED_LENGTH);
  if (value === null) return null;
  const { categories, revision, expirationTime } = value;
  if (revision !== CONSENT_REVISION) return null;
  if (!Array.isArray(categories) || categories.length > CONSENT_PURPOSES.length * 4) return null;
  if (!categories.every((category) => typeof category === 'string')) return null;
  if (!categories.includes('necessary')) return null;
  const decidedAt = timestamp(value.lastConsentTimestamp) ?? timestamp(value.consentTimestamp);
  if (decidedAt === null) return null;
  if (decidedAt > now + MAX_CLOCK_SKEW_MS) return null;
  if (now - decidedAt >= CONSENT_MAX_AGE_MS) return null;
  if (typeof expirationTime !== 'number' || !Number.isFinite(expirationTime)) return null;
  if (expirationTime <= now) return null;
  return {
    analytics: categories.includes('analytics'),
    ads: categories.includes('ads'),
    decidedAt,
  };
}

/**
 * The cookie value the banner writes for `choice` (vanilla-cookieconsent v3's format, not yet
 * URI-encoded): what the browser tests preset (`grantConsent`) and what the unit tests read back.
 * @internal For the tests: in the shop, the library itself writes this cookie.
 */
export function storedConsentValue(choice: Omit<ConsentChoice, 'decidedAt'>, now: number): string {
  const at = new Date(now).toISOString();
  const categories = CONSENT_PURPOSES.filter(
    (purpose) => purpose === 'necessary' || choice[purpose],
  );
  return JSON.stringify({
    categories,
    revision: CONSENT_REVISION,
    data: null,
    consentTimestamp: at,
    consentId: '00000000-0000-4000-8000-000000000000',
    services: Object.fromEntries(CONSENT_PURPOSES.map((purpose) => [purpose, []])),
    languageCode: 'fr',
    lastConsentTimestamp: at,
    expirationTime: now + CONSENT_MAX_AGE_MS,
  });
}

/** Google Consent Mode v2's four states. */
export interface ConsentModeState {
  ad_storage: 'granted' | 'denied';
  ad_user_data: 'granted' | 'denied';
  ad_personalization: 'granted' | 'denied';
  analytics_storage: 'granted' | 'denied';
}

const state = (granted: boolean) => (granted ? 'granted' : 'denied');

/** The Consent Mode states of a choice; all denied without one (the `default`). */
export function consentModeState(choice: ConsentChoice | null): ConsentModeState {
  return {
    ad_storage: state(choice?.ads === true),
    ad_user_data: state(choice?.ads === true),
    ad_personalization: state(choice?.ads === true),
    analytics_storage: state(choice?.analytics === true),
  };
}

/**
 * Whether the container may load (Basic consent mode: no Google request at all before the
 * shopper granted analytics or ads).
 */
export function allowsContainer(choice: ConsentChoice | null): boolean {
  return choice !== null && (choice.analytics || choice.ads);
}

/** Whether the customer's personal fields may reach the data layer: analytics granted. */
export function allowsPersonalData(choice: ConsentChoice | null): boolean {
  return choice?.analytics === true;
}

/**
 * The fields of a data-layer event that are personal data: the customer's (spec §9) and the
 * shipping push's town and postcode.
 */
export const PERSONAL_FIELDS = [
  'customer_id',
  'customer_email',
  'customer_first_name',
  'customer_last_name',
  'shipping_address',
  'user_data',
] as const;

/**
 * `event` as it may reach the data layer under `choice`: unchanged with analytics consent,
 * else without its personal fields; null for an event made only of personal data (`user_data`),
 * which is not pushed at all without consent.
 */
export function consentedEvent<E extends { event: string }>(
  event: E,
  choice: ConsentChoice | null,
): E | null {
  if (allowsPersonalData(choice)) return event;
  if (event.event === 'user_data') return null;
  const personal = new Set<string>(PERSONAL_FIELDS);
  return Object.fromEntries(Object.entries(event).filter(([key]) => !personal.has(key))) as E;
}
