/**
 * Mounts the search panel on the header's search form (`SearchForm.astro`) when its input is
 * first focused (`search-loader.ts`): a React root in a box appended to the form, the texts
 * from the page's messages (src/layouts/page-messages.ts).
 */
import { createRoot } from 'react-dom/client';
import { createTranslator, pageMessages, PAGE_MESSAGES_ID } from '../../lib/i18n/translate.ts';
import { openSearch } from '../../lib/stores/ui.ts';
import { SearchPanel } from './SearchPanel.tsx';

const mounted = new WeakSet<HTMLFormElement>();

export function mountSearchPanel(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>('input[type="search"]');
  if (input === null || mounted.has(form)) return;
  mounted.add(form);
  const box = document.createElement('div');
  box.dataset.searchPanelRoot = '';
  form.append(box);
  const t = createTranslator(pageMessages(PAGE_MESSAGES_ID));
  createRoot(box).render(<SearchPanel form={form} input={input} t={t} />);
  if (document.activeElement === input) openSearch();
}
