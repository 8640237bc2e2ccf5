/**
 * Locale, currency and country of the shopper (spec §3 locale config, §4 "Locale: chosen from
 * route, then stored locale cookie, then browser accepted languages, else default", §9 cookies
 * of one year, path '/', SameSite lax). Pure: the browser module `locale-cookies.ts` applies it
 * on every page; tests cover the rules.
 */
import { serializeCookie } from '../commerce/cookie.ts';

/** Cookie names (spec §7: the commerce calls carry the locale and currency cookies). */
export const LOCALE_COOKIE = 'locale';
export const CURRENCY_COOKIE = 'currency';
export const COUNTRY_COOKIE = 'country';
/** spec §9: 365 days, in seconds. */
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** spec §3: the only locale is French, the default too; no prefix in URLs. */
export const SUPPORTED_LOCALES = ['fr'] as const;
export const DEFAULT_LOCALE = 'fr';

/** spec §3: the supported countries (with their states where the platform needs one). */
export const SUPPORTED_COUNTRIES: readonly { code: string; states?: readonly string[] }[] = [
  { code: 'US', states: ['California', 'Nevada'] },
  { code: 'AT' },
  { code: 'DE' },
  { code: 'NL' },
];

/** Supported locale of a tag (`fr`, `fr-FR`, `FR_ca`), or null. */
export function supportedLocale(
  tag: string | null | undefined,
  supported: readonly string[] = SUPPORTED_LOCALES,
): string | null {
  if (tag === null || tag === undefined) return null;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return supported.find((locale) => locale === primary) ?? null;
}

/**
 * spec §4: the route's locale, else the stored cookie's, else the first supported of the
 * browser's languages, else the default. Each candidate counts only when supported.
 */
export function chooseLocale(input: {
  route?: string | null | undefined;
  cookie?: string | null | undefined;
  languages?: readonly string[] | undefined;
  supported?: readonly string[];
  fallback?: string;
}): string {
  const supported = input.supported ?? SUPPORTED_LOCALES;
  return (
    supportedLocale(input.route, supported) ??
    supportedLocale(input.cookie, supported) ??
    (input.languages ?? []).map((tag) => supportedLocale(tag, supported)).find(Boolean) ??
    input.fallback ??
    DEFAULT_LOCALE
  );
}

export interface LocaleChoice {
  locale: string;
  currency: string;
  country: string;
}

/** A cookie string of the three cookies' kind (spec §9: a year, path '/', SameSite lax). */
export function localeCookie(name: string, value: string, options: { secure: boolean }): string {
  return serializeCookie(name, value, { maxAge: LOCALE_COOKIE_MAX_AGE, secure: options.secure });
}

/**
 * The cookies to write so the browser holds `choice`: only those missing or different
 * (`current` holds the values the browser sent).
 */
export function localeCookieUpdates(
  choice: LocaleChoice,
  current: Readonly<Record<string, string | undefined>>,
  options: { secure: boolean },
): string[] {
  const wanted: [string, string][] = [
    [LOCALE_COOKIE, choice.locale],
    [CURRENCY_COOKIE, choice.currency],
    [COUNTRY_COOKIE, choice.country],
  ];
  return wanted
    .filter(([name, value]) => current[name] !== value)
    .map(([name, value]) => localeCookie(name, value, options));
}

/** A currency code (ISO 4217 form) or null. */
export function currencyCode(value: string | null | undefined): string | null {
  const code = value?.trim().toUpperCase() ?? '';
  return /^[A-Z]{3}$/.test(code) ? code : null;
}
