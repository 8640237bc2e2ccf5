/**
 * The tag-manager container (spec §7, `GTM_CONTAINER_ID`), consent first. Rendered only when
 * the setting is set (TagManager.astro puts the id on the page).
 *
 * 1. At once: Google Consent Mode v2's `consent default`, all denied, then the kept choice as a
 *    `consent update` (`ensureConsentDefault`): the first entries of the data layer.
 * 2. No valid choice kept: once the page has loaded and the main thread is idle, the banner
 *    (`consent-banner.ts`, loaded only then). Any `[data-consent-open]` link (the footer's
 *    "Gérer les cookies") opens the choice by purpose; without this script it goes to /cookies.
 * 3. Analytics or ads granted (kept, or chosen on the page): after load and idle, the page's
 *    `user_data` first (`userDataReady`: pushed, or none to push), at most `USER_DATA_WAIT_MS`,
 *    then the container (Basic consent mode: no request to Google before consent).
 *
 * Events pushed before wait in `window.dataLayer`, where the container reads them; without
 * analytics consent they carry no personal data (`src/lib/stores/analytics.ts`).
 */
import { allowsContainer } from '../../lib/analytics/consent.ts';
import { loadContainer } from '../../lib/analytics/tag-manager.ts';
import { analyticsStore } from '../../lib/stores/track.ts';
import { $consent, ensureConsentDefault } from '../../lib/stores/consent.ts';
import { afterLoadAndIdle } from './after-load.ts';

/**
 * How long the container waits for the customer (`getCustomers`) to push `user_data`: a slow
 * customer service never keeps analytics away for longer.
 */
export const USER_DATA_WAIT_MS = 3_000;

const id = document.querySelector<HTMLElement>('[data-tag-manager-id]')?.dataset.tagManagerId;
if (id !== undefined) {
  ensureConsentDefault();

  let containerStarted = false;
  const startContainer = () => {
    if (containerStarted || !allowsContainer($consent.get())) return;
    containerStarted = true;
    afterLoadAndIdle(() => {
      let bound: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<void>((resolve) => {
        bound = setTimeout(resolve, USER_DATA_WAIT_MS);
      });
      // The analytics store is fetched only now (track.ts): not in the page's first download.
      const ready = analyticsStore().then(
        (store) => store.userDataReady(),
        () => undefined,
      );
      void Promise.race([ready, waited]).then(() => {
        clearTimeout(bound);
        loadContainer(id, document, window as { dataLayer?: unknown[] });
      });
    });
  };
  startContainer();
  $consent.listen(startContainer);

  const ask = (preferences: boolean) =>
    import('./consent-banner.ts')
      .then((banner) => banner.showConsent(preferences))
      .catch((error: unknown) => {
        console.error('consent banner not shown:', error);
      });
  if ($consent.get() === null) afterLoadAndIdle(() => void ask(false));
  document.addEventListener('click', (event) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    const link = target.closest('[data-consent-open]');
    if (link === null) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    void ask(true);
  });
}
