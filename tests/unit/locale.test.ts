import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  chooseLocale,
  COUNTRY_COOKIE,
  CURRENCY_COOKIE,
  currencyCode,
  DEFAULT_LOCALE,
  LOCALE_COOKIE,
  LOCALE_COOKIE_MAX_AGE,
  localeCookieUpdates,
  SUPPORTED_COUNTRIES,
  supportedLocale,
} from '../../src/lib/i18n/locale.ts';

describe('chooseLocale (spec §4: route, cookie, browser languages, default)', () => {
  const supported = ['fr', 'en'];
  test.each([
    ['the route first', { route: 'en', cookie: 'fr', languages: ['fr'] }, 'en'],
    ['then the cookie', { route: null, cookie: 'en', languages: ['fr'] }, 'en'],
    ['then the browser', { cookie: 'xx', languages: ['de-DE', 'en-GB', 'fr'] }, 'en'],
    ['then the default', { languages: ['de', 'es'] }, 'fr'],
    ['an unsupported route is skipped', { route: 'it', cookie: 'en' }, 'en'],
    ['regions and case do not matter', { cookie: 'EN_us' }, 'en'],
  ])('%s', (_name, input, expected) => {
    expect(chooseLocale({ ...input, supported, fallback: 'fr' })).toBe(expected);
  });

  test('the shop has one locale: whatever comes, French', () => {
    fc.assert(
      fc.property(
        fc.option(fc.string()),
        fc.option(fc.string()),
        fc.array(fc.string(), { maxLength: 5 }),
        (route, cookie, languages) => {
          expect(chooseLocale({ route, cookie, languages })).toBe(DEFAULT_LOCALE);
        },
      ),
    );
  });

  test('the choice is always a supported locale', () => {
    fc.assert(
      fc.property(
        fc.option(fc.string()),
        fc.option(fc.constantFrom('fr', 'en', 'EN', 'en-US', 'de', '', ' ')),
        fc.array(fc.oneof(fc.string(), fc.constantFrom('en-GB', 'fr-CA', 'nl')), { maxLength: 5 }),
        (route, cookie, languages) => {
          expect(supported).toContain(
            chooseLocale({ route, cookie, languages, supported, fallback: 'fr' }),
          );
        },
      ),
    );
  });
});

describe('locale cookies (spec §9: one year, path /, SameSite lax)', () => {
  const choice = { locale: 'fr', currency: 'EUR', country: 'FR' };

  test('all three written when missing, with the spec attributes', () => {
    const cookies = localeCookieUpdates(choice, {}, { secure: false });
    expect(cookies).toEqual([
      `${LOCALE_COOKIE}=fr; Max-Age=${LOCALE_COOKIE_MAX_AGE}; Path=/; SameSite=Lax`,
      `${CURRENCY_COOKIE}=EUR; Max-Age=31536000; Path=/; SameSite=Lax`,
      `${COUNTRY_COOKIE}=FR; Max-Age=31536000; Path=/; SameSite=Lax`,
    ]);
    expect(LOCALE_COOKIE_MAX_AGE).toBe(365 * 24 * 3600);
  });

  test('only the differing ones; Secure over https', () => {
    const current = { [LOCALE_COOKIE]: 'fr', [CURRENCY_COOKIE]: 'USD', [COUNTRY_COOKIE]: 'FR' };
    expect(localeCookieUpdates(choice, current, { secure: true })).toEqual([
      `${CURRENCY_COOKIE}=EUR; Max-Age=31536000; Path=/; SameSite=Lax; Secure`,
    ]);
    const same = { [LOCALE_COOKIE]: 'fr', [CURRENCY_COOKIE]: 'EUR', [COUNTRY_COOKIE]: 'FR' };
    expect(localeCookieUpdates(choice, same, { secure: true })).toEqual([]);
  });

  test('a hostile stored value never leaks into the cookie string', () => {
    fc.assert(
      fc.property(fc.string(), (stored) => {
        for (const cookie of localeCookieUpdates(
          { ...choice, locale: chooseLocale({ cookie: stored }) },
          { [LOCALE_COOKIE]: stored },
          { secure: false },
        )) {
          expect(cookie).not.toMatch(/[\r\n]/);
          expect(cookie.split(';')[0]).toMatch(/^[a-z]+=[A-Za-z%0-9]+$/);
        }
      }),
    );
  });
});

describe('config values', () => {
  test('supported countries of spec §3, US with its two states', () => {
    expect(SUPPORTED_COUNTRIES.map((c) => c.code)).toEqual(['US', 'AT', 'DE', 'NL']);
    expect(SUPPORTED_COUNTRIES[0]?.states).toEqual(['California', 'Nevada']);
  });

  test('currencyCode and supportedLocale', () => {
    expect(currencyCode(' eur ')).toBe('EUR');
    expect(currencyCode('EURO')).toBeNull();
    expect(currencyCode(undefined)).toBeNull();
    expect(supportedLocale('fr-FR')).toBe('fr');
    expect(supportedLocale('en')).toBeNull();
  });
});
