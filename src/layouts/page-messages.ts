/**
 * The texts a page's scripts and its shell show, written once per page as one JSON script
 * (`PAGE_MESSAGES_ID`, by BaseLayout through IslandMessages.astro) and read with
 * `pageMessages`: the header's links and badges (`header-buttons.ts`), the search panel
 * (`search/mount.tsx`), the newsletter forms (`newsletter-form.ts`) and, with the transactional
 * flag on, the shop shell and the product cards' buttons (`SHOP_SHELL_MESSAGES`), and with the
 * tag manager the consent banner (`CONSENT_MESSAGES`). Each of
 * these used to carry its texts in a `data-messages` attribute, some twice a page (the two
 * newsletter forms, the two cart badges), every quote escaped.
 */
import { SEARCH_PANEL_MESSAGES } from '../islands/search/search-messages.ts';
import { SHOP_SHELL_MESSAGES } from '../islands/shell-messages.ts';
import type { MessageKey } from '../lib/i18n/index.ts';
import { CONSENT_MESSAGES } from '../lib/i18n/consent-messages.ts';
import { NEWSLETTER_FORM_MESSAGES } from '../browser/newsletter/newsletter-view.ts';
import {
  ACCOUNT_LINK_MESSAGES,
  CART_LINK_MESSAGES,
  WISHLIST_LINK_MESSAGES,
} from '../browser/layout/header-button-views.ts';

/** What every page's scripts read. */
const LAYOUT_MESSAGES: readonly MessageKey[] = [
  ...ACCOUNT_LINK_MESSAGES,
  ...CART_LINK_MESSAGES,
  ...WISHLIST_LINK_MESSAGES,
  ...SEARCH_PANEL_MESSAGES,
  ...NEWSLETTER_FORM_MESSAGES,
];

const WITH_SHELL: readonly MessageKey[] = [...LAYOUT_MESSAGES, ...SHOP_SHELL_MESSAGES];

/**
 * The keys of a page's messages: the layout's, the shell's when it has one, and the consent
 * banner's when the page has the tag manager (`consent`).
 */
export function pageMessageKeys(shell: boolean, consent = false): readonly MessageKey[] {
  const keys = shell ? WITH_SHELL : LAYOUT_MESSAGES;
  return consent ? [...keys, ...CONSENT_MESSAGES] : keys;
}
