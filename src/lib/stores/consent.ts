/**
 * The shopper's consent on this page (`src/lib/analytics/consent.ts` has the rules): read from
 * its cookie once, and Google Consent Mode v2 told first. `ensureConsentDefault()` pushes the
 * `consent default` (all denied) once per page, then the stored choice as a `consent update`;
 * whatever pushes to the data layer calls it first (the tag-manager loader at the page's start,
 * the analytics store before its first push), so the default always leads the data layer.
 * `chooseConsent` records a new choice from the banner: a `consent update` at once. The
 * cookie itself is written by the banner. No-ops on the server.
 */
import { atom } from 'nanostores';
import {
  CONSENT_COOKIE,
  consentModeState,
  parseStoredConsent,
  type ConsentChoice,
} from '../analytics/consent.ts';
import { pushConsentCommand } from '../analytics/tag-manager.ts';
import { cookieJar } from './cookie-jar.ts';

export type { ConsentChoice } from '../analytics/consent.ts';

/** The choice in force on this page; null until the shopper made one (or while unread). */
export const $consent = atom<ConsentChoice | null>(null);

let defaultSent = false;

interface Host {
  dataLayer?: unknown[];
}
const host = (): Host | null => (typeof window === 'undefined' ? null : (window as Host));

/** The choice kept in the cookie, or null when the shopper must be asked. */
export function readStoredConsent(now: number = Date.now()): ConsentChoice | null {
  return parseStoredConsent(cookieJar().get(CONSENT_COOKIE), now);
}

/**
 * Once per page: `consent default` all denied, then the stored choice as `consent update`, and
 * `$consent` set to it.
 */
export function ensureConsentDefault(): void {
  const layer = host();
  if (layer === null || defaultSent) return;
  defaultSent = true;
  pushConsentCommand(layer, 'default', consentModeState(null));
  const stored = readStoredConsent();
  if (stored !== null) pushConsentCommand(layer, 'update', consentModeState(stored));
  $consent.set(stored);
}

/** The shopper's new choice (the banner wrote its cookie): `consent update` at once. */
export function chooseConsent(choice: ConsentChoice): void {
  const layer = host();
  if (layer === null) return;
  ensureConsentDefault();
  pushConsentCommand(layer, 'update', consentModeState(choice));
  $consent.set(choice);
}
