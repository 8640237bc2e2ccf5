/**
 * spec §4, §9 locale cookies on every page (pre-rendered ones too, so in the browser): the
 * locale chosen from the route (no prefix: none), the stored cookie, the browser's languages,
 * else the default; the currency (the channel's default, `<html data-currency>`) and the country
 * (`<html data-country>`). Written only when missing or different: a year, path '/', SameSite lax.
 */
import { readCookie } from '../../lib/commerce/cookie.ts';
import {
  chooseLocale,
  COUNTRY_COOKIE,
  CURRENCY_COOKIE,
  currencyCode,
  LOCALE_COOKIE,
  localeCookieUpdates,
} from '../../lib/i18n/locale.ts';

const root = document.documentElement;
const cookies = document.cookie;
const current = {
  [LOCALE_COOKIE]: readCookie(cookies, LOCALE_COOKIE),
  [CURRENCY_COOKIE]: readCookie(cookies, CURRENCY_COOKIE),
  [COUNTRY_COOKIE]: readCookie(cookies, COUNTRY_COOKIE),
};
const currency = currencyCode(root.dataset.currency);
const country = root.dataset.country?.trim().toUpperCase() ?? '';
if (currency !== null && /^[A-Z]{2}$/.test(country)) {
  const choice = {
    locale: chooseLocale({
      route: null,
      cookie: current[LOCALE_COOKIE],
      languages: navigator.languages,
      fallback: root.lang,
    }),
    currency,
    country,
  };
  const secure = location.protocol === 'https:';
  for (const cookie of localeCookieUpdates(choice, current, { secure })) document.cookie = cookie;
}
