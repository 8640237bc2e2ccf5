/**
 * Message keys of the search panel, handed to it in the page's messages
 * (src/layouts/page-messages.ts; kept apart from the panel so the layout does not
 * import the island).
 */
import { PRICE_TAG_MESSAGES } from '../ui/PriceTag.tsx';
import { CALL_ERROR_MESSAGES } from '../../lib/api/client.ts';

/** Message keys the panel reads. */
export const SEARCH_PANEL_MESSAGES = [
  // Any call may fail with these (upstream down or slow...): the island shows them in French.
  ...CALL_ERROR_MESSAGES,
  ...PRICE_TAG_MESSAGES,
  "You haven't searched for items yet",
  'No products found matching your search criteria.',
  'search.suggestions',
  'search.categories',
  'search.products',
  'search.clear',
  'search.close',
  'search.noResultsFor',
  'search.suggestionsFor',
  'search.seeAll',
  'common.loading',
] as const;
