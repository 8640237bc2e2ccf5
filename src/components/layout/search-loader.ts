/**
 * Loads the search panel (`src/islands/search/`) when the header's search input is first
 * focused: pages where nobody searches never fetch it, and the form works without it.
 */
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-search-form]')) {
  const input = form.querySelector<HTMLInputElement>('input[type="search"]');
  if (input === null) continue;
  const load = () => {
    import('../../islands/search/mount.tsx').then(
      (m) => {
        m.mountSearchPanel(form);
      },
      (error: unknown) => {
        // A chunk gone with a new release: the page reloads once (chunk-reload-listener.ts);
        // until then, or when it fails again, the form works without the panel. Handled, so
        // no uncaught rejection is left on the page.
        console.warn('search panel not loaded:', error);
      },
    );
  };
  input.addEventListener('focus', load, { once: true });
  if (document.activeElement === input) load();
}
