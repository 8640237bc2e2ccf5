/**
 * Fixed destinations of the shell's links (spec §2): legal pages, sleep content, account,
 * cart, the affiliate page, and the support site's FAQ and new-request pages.
 */
import { supportSettings } from '../../../lib/env-client.ts';
import { supportLinks, type SupportLinks } from '../../../lib/support-links.ts';
import { AFFILIATE_PATH } from './menu.ts';

export const PATHS = {
  home: '/',
  login: '/connexion',
  cart: '/panier',
  sleepContent: '/les-yeux-fermes',
  search: '/resultats-de-recherche',
  /** Content page (catch-all route) presenting the affiliate programme. */
  affiliate: AFFILIATE_PATH,
} as const;

/** spec §2: legal pages linked from the footer, in display order. */
export const LEGAL_LINKS = [
  { path: '/protection-des-donnees-personnelles', key: 'legal.privacy' },
  { path: '/mentions-legales', key: 'legal.notice' },
  { path: '/cgv', key: 'legal.terms' },
  { path: '/cookies', key: 'legal.cookies' },
  { path: '/conditions-des-offres', key: 'legal.offers' },
  { path: '/cgu-photographies', key: 'legal.photos' },
] as const;

/** The legal pages' paths (the footer's legal bar; the footer columns leave them out). */
export const LEGAL_PATHS: readonly string[] = LEGAL_LINKS.map((link) => link.path);

/** spec §2 / §9 support site: help, FAQ and new-request links as configured (`supportLinks`). */
export const SUPPORT_LINKS: SupportLinks = supportLinks(supportSettings);

/** A support link's attributes: another site opens in a new tab. */
export const supportLinkAttributes = (external: boolean) =>
  external ? { target: '_blank', rel: 'noopener' } : {};
