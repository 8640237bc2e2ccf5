/**
 * The search panel's suggestions (spec §2 search panel, §4 "typed input triggers a debounced
 * search", §7 getProductsWithFilter, §9 debounce 1000 ms). The typed text is trimmed; the
 * search is sent 1000 ms after the last keystroke, the previous one aborted, and a reply for
 * another term than the latest is ignored. The state says which term the suggestions are for,
 * and the corrected term the server searched instead when the typed one found none (a typo
 * still gives suggestions).
 */
import { atom, map } from 'nanostores';
import { api } from '../api/bigcommerce.ts';
import { errorMessage, logCallFailure } from '../api/client.ts';
import {
  SEARCH_DEBOUNCE_MS,
  searchProductView,
  searchTerm,
  SUGGESTED_PRODUCTS,
  type SearchCategory,
  type SearchProductView,
} from '../commerce/search.ts';

export type SearchStatus =
  /** Nothing typed yet (spec §2 "You haven't searched for items yet"). */
  | 'idle'
  /** A term is waiting for its debounce or its reply. */
  | 'loading'
  /** The suggestions of `term` (none: "No products found matching your search criteria."). */
  | 'done'
  /** The search failed (its error slot says why). */
  | 'error';

export interface SearchState {
  /** The trimmed term the state is about. */
  term: string;
  status: SearchStatus;
  products: SearchProductView[];
  categories: SearchCategory[];
  /** The corrected term the suggestions are for when the typed one found none. */
  correctedTerm: string | null;
}

export const IDLE_SEARCH: SearchState = {
  term: '',
  status: 'idle',
  products: [],
  categories: [],
  correctedTerm: null,
};

export const $search = atom<SearchState>(IDLE_SEARCH);
/** spec §8: the search action's own error slot (a message key or a text). */
export const $searchErrors = map<{ search: string | null }>({ search: null });

let timer: ReturnType<typeof setTimeout> | undefined;
let inFlight: AbortController | undefined;

function cancel(): void {
  clearTimeout(timer);
  timer = undefined;
  inFlight?.abort();
  inFlight = undefined;
}

/**
 * The shopper typed `raw`: an empty term resets at once; another term is searched after the
 * debounce (a term equal to the one shown or under way changes nothing).
 */
export function setSearchInput(raw: string, delayMs = SEARCH_DEBOUNCE_MS): void {
  const term = searchTerm(raw);
  const current = $search.get();
  if (term === current.term && (current.status !== 'error' || timer !== undefined)) return;
  cancel();
  if (term === '') {
    $searchErrors.setKey('search', null);
    $search.set(IDLE_SEARCH);
    return;
  }
  $search.set({ ...current, term, status: 'loading' });
  timer = setTimeout(() => {
    timer = undefined;
    void runSearch(term);
  }, delayMs);
}

async function runSearch(term: string): Promise<void> {
  const controller = new AbortController();
  inFlight = controller;
  $searchErrors.setKey('search', null);
  try {
    const reply = await api.getProductsWithFilter(
      { searchTerm: term, limit: SUGGESTED_PRODUCTS },
      { signal: controller.signal },
    );
    if (controller.signal.aborted || $search.get().term !== term) return;
    $search.set({
      term,
      status: 'done',
      products: reply.products.slice(0, SUGGESTED_PRODUCTS).map(searchProductView),
      categories: reply.categories,
      // An older server's reply has none.
      correctedTerm: typeof reply.correctedTerm === 'string' ? reply.correctedTerm : null,
    });
  } catch (error) {
    if (controller.signal.aborted || $search.get().term !== term) return;
    logCallFailure('search failed:', error);
    $searchErrors.setKey('search', errorMessage(error));
    $search.set({ term, status: 'error', products: [], categories: [], correctedTerm: null });
  } finally {
    if (inFlight === controller) inFlight = undefined;
  }
}

/** Clears the term and the suggestions (the panel's cross, spec §4). */
export function clearSearch(): void {
  cancel();
  $searchErrors.setKey('search', null);
  $search.set(IDLE_SEARCH);
}
