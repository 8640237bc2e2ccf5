/**
 * Loads the tag-manager container (spec §7, `GTM_CONTAINER_ID`) once the page has loaded and
 * the main thread is idle: the container and what it loads never weigh on the page's own
 * loading. Rendered only when the setting is set (TagManager.astro), which also puts the id
 * in `data-tag-manager` of the script's container element. The pushes of spec §9 made before
 * wait in `window.dataLayer`, where the container reads them.
 */
import { loadContainer } from '../../lib/analytics/tag-manager.ts';
import { afterLoadAndIdle } from './after-load.ts';

const id = document.querySelector<HTMLElement>('[data-tag-manager-id]')?.dataset.tagManagerId;
if (id !== undefined) {
  afterLoadAndIdle(() => {
    loadContainer(id, document, window as { dataLayer?: unknown[] });
  });
}
