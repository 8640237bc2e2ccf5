/**
 * The consent banner (CNIL rules): vanilla-cookieconsent v3, loaded by `tag-manager-loader.ts`
 * only to ask (no valid choice kept) or when "Gérer les cookies" is clicked, so a page with a
 * kept choice loads none of it, and crawlers and the pages' HTML never hold it.
 *
 * "Tout accepter" and "Tout refuser" are buttons of the same size and style
 * (`equalWeightButtons`), "Personnaliser" opens the choice by purpose: strictly necessary
 * (always on, explained), mesure d'audience (analytics), publicité (ads). Dialog roles, focus
 * moved into the dialog and kept there, Escape closes the preferences: the library's. Its CSS is
 * a file of the bundle (a `<link>` of `'self'`, no inline `<style>`), themed by
 * `consent-banner.css`. The choice is the library's cookie `CONSENT_COOKIE`, six months, read
 * back with the shop's own parser (`readStoredConsent`) whatever the library says, so the page
 * and the banner never disagree. Texts: the page's messages (`CONSENT_MESSAGES`).
 */
import * as CookieConsent from 'vanilla-cookieconsent';
import 'vanilla-cookieconsent/dist/cookieconsent.css';
import './consent-banner.css';
import {
  COOKIES_PAGE_PATH,
  CONSENT_COOKIE,
  CONSENT_MAX_AGE_DAYS,
  CONSENT_REVISION,
} from '../../lib/analytics/consent.ts';
import { createTranslator, PAGE_MESSAGES_ID, pageMessages } from '../../lib/i18n/translate.ts';
import { $consent, chooseConsent, readStoredConsent } from '../../lib/stores/consent.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The choice the cookie now holds becomes the page's (a `consent update`), once per change. */
function record(): void {
  const choice = readStoredConsent();
  if (choice === null) return;
  const current = $consent.get();
  if (
    current !== null &&
    current.analytics === choice.analytics &&
    current.ads === choice.ads &&
    current.decidedAt === choice.decidedAt
  ) {
    return;
  }
  chooseConsent(choice);
}

function config(): CookieConsent.CookieConsentConfig {
  const t = createTranslator(pageMessages(PAGE_MESSAGES_ID));
  // Titles and buttons are text (the library also writes them as labels); descriptions are
  // HTML: the shop's own texts, escaped all the same.
  const text = (key: string) => t(key);
  const html = (key: string) => escapeHtml(t(key));
  const more = `${html('consent.moreDescription')} <a href="${COOKIES_PAGE_PATH}">${html('legal.cookies')}</a>.`;
  return {
    // Shown by the loader when the shop's parser finds no valid choice, never by itself.
    autoShow: false,
    // Playwright and Lighthouse are bots too: they must see what a shopper sees.
    hideFromBots: false,
    disablePageInteraction: false,
    revision: CONSENT_REVISION,
    cookie: {
      name: CONSENT_COOKIE,
      expiresAfterDays: CONSENT_MAX_AGE_DAYS,
      sameSite: 'Lax',
      path: '/',
    },
    guiOptions: {
      consentModal: {
        layout: 'box wide',
        position: 'bottom left',
        equalWeightButtons: true,
        flipButtons: false,
      },
      preferencesModal: { layout: 'box', equalWeightButtons: true, flipButtons: false },
    },
    categories: {
      necessary: { enabled: true, readOnly: true },
      analytics: { autoClear: { cookies: [{ name: /^_ga/ }, { name: '_gid' }] } },
      ads: { autoClear: { cookies: [{ name: /^_gcl_/ }] } },
    },
    onConsent: record,
    onChange: record,
    language: {
      default: 'fr',
      translations: {
        fr: {
          consentModal: {
            title: text('consent.title'),
            description: html('consent.description'),
            acceptAllBtn: text('consent.acceptAll'),
            acceptNecessaryBtn: text('consent.rejectAll'),
            showPreferencesBtn: text('consent.customise'),
          },
          preferencesModal: {
            title: text('consent.preferencesTitle'),
            acceptAllBtn: text('consent.acceptAll'),
            acceptNecessaryBtn: text('consent.rejectAll'),
            savePreferencesBtn: text('consent.save'),
            closeIconLabel: text('consent.close'),
            sections: [
              { description: html('consent.preferencesIntro') },
              {
                title: text('consent.necessaryTitle'),
                description: html('consent.necessaryDescription'),
                linkedCategory: 'necessary',
              },
              {
                title: text('consent.analyticsTitle'),
                description: html('consent.analyticsDescription'),
                linkedCategory: 'analytics',
              },
              {
                title: text('consent.adsTitle'),
                description: html('consent.adsDescription'),
                linkedCategory: 'ads',
              },
              { title: text('consent.moreTitle'), description: more },
            ],
          },
        },
      },
    },
  };
}

/**
 * The main thread's next idle moment: the library's start and its first drawing are separate
 * tasks, so neither is a long one on a slow phone (total blocking time).
 */
const idle = () =>
  new Promise<void>((resolve) => {
    if ('requestIdleCallback' in window) {
      requestIdleCallback(
        () => {
          resolve();
        },
        { timeout: 1_000 },
      );
    } else {
      setTimeout(resolve, 0);
    }
  });

let started: Promise<void> | null = null;

/**
 * Shows the banner (`preferences` false: the first question) or the choice by purpose
 * (`preferences` true: "Gérer les cookies").
 */
export async function showConsent(preferences: boolean): Promise<void> {
  started ??= idle().then(() => CookieConsent.run(config()));
  await started;
  if (preferences) {
    CookieConsent.showPreferences();
    return;
  }
  await idle();
  CookieConsent.show(true);
}
