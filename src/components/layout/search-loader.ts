/**
 * Loads the search panel (`src/islands/search/`) when the header's search input is first
 * focused: pages where nobody searches never fetch it, and the form works without it.
 */
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-search-form]')) {
  const input = form.querySelector<HTMLInputElement>('input[type="search"]');
  if (input === null) continue;
  const load = () => {
    void import('../../islands/search/mount.tsx').then((m) => {
      m.mountSearchPanel(form);
    });
  };
  input.addEventListener('focus', load, { once: true });
  if (document.activeElement === input) load();
}
