/**
 * The texts of the consent banner (`consent-banner.ts`), written with the page's messages
 * (`page-messages.ts`) on every page that has the tag manager: the banner is loaded only to
 * ask, and reads them from the page.
 */
import type { MessageKey } from './index.ts';

export const CONSENT_MESSAGES = [
  'consent.title',
  'consent.description',
  'consent.acceptAll',
  'consent.rejectAll',
  'consent.customise',
  'consent.save',
  'consent.close',
  'consent.preferencesTitle',
  'consent.preferencesIntro',
  'consent.necessaryTitle',
  'consent.necessaryDescription',
  'consent.analyticsTitle',
  'consent.analyticsDescription',
  'consent.adsTitle',
  'consent.adsDescription',
  'consent.moreTitle',
  'consent.moreDescription',
  'legal.cookies',
] as const satisfies readonly MessageKey[];
