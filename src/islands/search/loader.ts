/**
 * Loads the search panel (`src/islands/search/`) when the header's search input is first
 * focused: pages where nobody searches never fetch it, and the form works without it.
 */
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-search-form]')) {
  const input = form.querySelector<HTMLInputElement>('input[type="search"]');
  if (input === null) continue;
  const load = async () => {
    // `await` alone around the import: Vite wraps just the import() in its preload helper,
    // which reports a failure (`vite:preloadError`, the reload of chunk-reload-listener.ts)
    // before this catch sees it. (A catch chained on the import ran inside the helper and hid
    // the failure from it.)
    try {
      const m = await import('./mount.tsx');
      m.mountSearchPanel(form);
    } catch (error) {
      // A chunk gone with a new release: the page reloads once; until then, or when it fails
      // again, the form works without the panel. Handled: no uncaught rejection on the page.
      console.warn('search panel not loaded:', error);
    }
  };
  input.addEventListener('focus', () => void load(), { once: true });
  if (document.activeElement === input) void load();
}
