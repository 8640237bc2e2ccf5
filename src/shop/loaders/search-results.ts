/**
 * The data of the search results page (spec §2 `/resultats-de-recherche/{term}`): one page of
 * products for the term (typo-tolerant unless `exact`), and when nothing is found, what to try
 * instead. Upstream down: `readForPage` gives the failure, and the page answers the error page
 * with its status (spec §8).
 */
import { bigcommerceForHost } from '../config/config.ts';
import { readForPage } from '../faults/failures.ts';
import { withLayoutData } from './layout-data.ts';
import {
  searchCorrector,
  searchHelp,
  searchProducts,
  type SearchHelp,
} from './search-vocabulary.ts';

/** Products asked per results page (BigCommerce serves at most 10 with options included). */
const RESULTS_LIMIT = 20;

export async function loadSearchResults(
  request: Request,
  query: { term: string; page: number; exact: boolean },
) {
  const { term, page, exact } = query;
  const client = bigcommerceForHost(request.headers.get('host'));
  const read =
    term === ''
      ? { value: null, failure: undefined }
      : await readForPage('search', 'search results', () =>
          withLayoutData(() =>
            searchProducts(client, { searchTerm: term, limit: RESULTS_LIMIT, page }, !exact),
          ),
        );
  const result = read.failure ? null : read.value;
  // Nothing found, even corrected: what to do instead (each part empty when it cannot be read).
  const empty = result !== null && result.products.length === 0;
  const help: SearchHelp = empty ? await searchHelp(client) : { categories: [], bestSellers: [] };
  const tryInstead = empty ? ((await searchCorrector(client))?.suggest(term) ?? []) : [];
  return { read, result, empty, help, tryInstead };
}
