/**
 * Fixed destinations of the shell's links (spec §2): sleep content, account,
 * cart, the affiliate page, and the support site's FAQ and new-request pages (the legal
 * pages: `legal-links.ts`).
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

/** spec §2 / §9 support site: help, FAQ and new-request links as configured (`supportLinks`). */
export const SUPPORT_LINKS: SupportLinks = supportLinks(supportSettings);

/** A support link's attributes: another site opens in a new tab. */
export const supportLinkAttributes = (external: boolean) =>
  external ? { target: '_blank', rel: 'noopener' } : {};
