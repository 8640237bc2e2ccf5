/**
 * The consent banner's cookie as Playwright presets it (`context.addCookies`, a storage
 * state): the value vanilla-cookieconsent writes (`storedConsentValue`, URI-encoded), for the
 * test server's host. Used by playwright.config.ts (every suite starts as a shopper who
 * refused, so the banner covers nothing they click) and by `grantConsent` / `refuseConsent` /
 * `forgetConsent` of helpers.ts.
 */
import { CONSENT_COOKIE, storedConsentValue } from '../../src/lib/analytics/consent.ts';
import { TEST_BASE_URL } from '../../scripts/lib/test-env.ts';

export interface ConsentCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Lax';
}

/** The kept choice `analytics` / `ads`, made now, for `baseUrl`'s host. */
export function consentCookie(
  choice: { analytics: boolean; ads: boolean },
  baseUrl: string = TEST_BASE_URL,
): ConsentCookie {
  const now = Date.now();
  return {
    name: CONSENT_COOKIE,
    value: encodeURIComponent(storedConsentValue(choice, now)),
    domain: new URL(baseUrl).hostname,
    path: '/',
    expires: Math.floor(now / 1000) + 182 * 86_400,
    httpOnly: false,
    secure: false,
    sameSite: 'Lax',
  };
}
