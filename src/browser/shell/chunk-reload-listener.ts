/**
 * Reloads the page once when one of its chunks fails to load (`chunk-reload.ts`, spec §4):
 * Vite reports every lazy `import()` of the build (the search panel, the newsletter form, the
 * reviews, the shell's sidebars and modal) with a `vite:preloadError` event, and an island
 * whose component cannot be fetched (after Astro's own retry) with `astro:hydration-error`.
 * The error still reaches its caller; the reload replaces the page anyway.
 */
import { reloadAfterChunkError } from './chunk-reload.ts';

window.addEventListener('vite:preloadError', (event) => {
  reloadAfterChunkError((event as Event & { payload?: unknown }).payload);
});
document.addEventListener('astro:hydration-error', (event) => {
  reloadAfterChunkError((event as CustomEvent<{ error?: unknown }>).detail.error);
});
