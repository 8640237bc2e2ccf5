/**
 * The data of the reseller area's pages (spec §2 `/espace-revendeur`, §6: the whole shop in
 * reseller mode), read on the request's storefront. Upstream down: `readForPage` gives the
 * failure, and the page answers the error page with its status (spec §8).
 */
import { currentCustomer } from '../api/customer-view.ts';
import { accountServices, bigcommerceForHost } from '../config/config.ts';
import { getCustomerById, getProductsWithFilter } from '../connectors/bigcommerce/index.ts';
import { readForPage } from '../faults/failures.ts';
import { loadLayoutData } from './layout-data.ts';

/** How many products a search of the reseller home lists. */
const RESULTS_LIMIT = 24;

/**
 * The reseller home: the reseller, the products its search `term` finds (none searched: null),
 * the shop's categories and the carts it sent to clients.
 */
export function loadResellerHome(request: Request, customerId: number | null, term: string) {
  const client = bigcommerceForHost(request.headers.get('host'));
  return readForPage('reseller', 'reseller home', async () => {
    const [record, found, layoutData, sent] = await Promise.all([
      customerId === null ? null : getCustomerById(client, customerId),
      term === ''
        ? null
        : getProductsWithFilter(client, { searchTerm: term, limit: RESULTS_LIMIT }),
      loadLayoutData(),
      customerId === null ? [] : accountServices().sentCarts.listFor(customerId),
    ]);
    return { reseller: record === null ? null : currentCustomer(record), found, layoutData, sent };
  });
}

/** The reseller's cart page: the reseller (with its sellers), or null when not signed in. */
export function loadResellerCart(request: Request, customerId: number | null) {
  return readForPage('reseller', 'reseller cart', async () => {
    if (customerId === null) return null;
    const record = await getCustomerById(
      bigcommerceForHost(request.headers.get('host')),
      customerId,
    );
    return record === null ? null : currentCustomer(record);
  });
}
