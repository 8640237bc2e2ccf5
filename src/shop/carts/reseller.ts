/**
 * Who is a reseller (spec §3, §6): a customer whose reseller form field equals 'oui'. Read
 * from BigCommerce by customer id for the reseller area's guard, kept a minute per customer
 * (a revoked reseller leaves the area within a minute), one read at a time per customer.
 */
import type { ResellerVisitor } from '../../lib/commerce/reseller.ts';
import { getCustomerById, type BigCommerceClient } from '../connectors/bigcommerce/index.ts';
import { currentCustomer } from '../api/customer-view.ts';
import { createCache } from '../connectors/http/cache.ts';

const resellers = createCache<boolean>({ ttlMs: 60_000, maxEntries: 5_000 });

/** Whether this customer is a reseller; a missing customer is not. */
export function isReseller(client: BigCommerceClient, customerId: number): Promise<boolean> {
  return resellers.get(`${String(client.channelId ?? '')}:${String(customerId)}`, async () => {
    const customer = await getCustomerById(client, customerId);
    return customer !== null && currentCustomer(customer).isReseller;
  });
}

/** Who asks, for the reseller guard: the session's customer, a reseller or not. */
export async function resellerVisitor(
  client: BigCommerceClient,
  customerId: number | null,
): Promise<ResellerVisitor> {
  if (customerId === null) return 'visitor';
  return (await isReseller(client, customerId)) ? 'reseller' : 'customer';
}
