/**
 * Loading many products with everything the catalogue pages read, through the connectors.
 * Server and build only.
 */
import type { Product } from '../../lib/commerce/types.ts';
import { getProducts, type BigCommerceClient } from '../../lib/server/bigcommerce/index.ts';

/** Page size of BigCommerce list calls (its maximum). */
const PAGE_SIZE = 250;
/** Products per request when options are included (BigCommerce's cap). */
const OPTIONS_PAGE_SIZE = 10;
/** Sub-resources of the bulk product pages; options come separately. */
const BULK_INCLUDE = ['variants', 'images', 'custom_fields'] as const;
/** Requests in flight at once: enough to hide latency, gentle on the API's rate limit. */
const CONCURRENT_REQUESTS = 8;

/** Runs `task` over `items` with at most `limit` in flight; results in input order. */
async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  async function worker(): Promise<void> {
    for (let index = next++; index < items.length; index = next++) {
      results[index] = await task(items[index] as T);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Every visible product (of the given categories) with its variants, images, custom fields
 * and options: for the content loader at build time and the on-demand listing view.
 *
 * BigCommerce serves at most 10 products per page when `include` has `options`
 * (catalog.v3.yml): 1,000 offset pages for 10,000 products. So products come in pages of 250
 * without options, and the options by id, 10 products a request (`id:in`, no offset to walk).
 */
export async function loadProducts(
  client: BigCommerceClient,
  filter: { categoryIds?: number[] } = {},
): Promise<Product[]> {
  const query = { ...filter, isVisible: true, limit: PAGE_SIZE, include: [...BULK_INCLUDE] };
  const first = await getProducts(client, { ...query, page: 1 });
  const pageNumbers = Array.from(
    { length: Math.max(0, first.pagination.totalPages - 1) },
    (_, index) => index + 2,
  );
  const rest = await mapConcurrent(
    pageNumbers,
    CONCURRENT_REQUESTS,
    async (page) => (await getProducts(client, { ...query, page })).items,
  );
  const products = [...first.items, ...rest.flat()];

  const ids = products.map((product) => product.id);
  const chunks: number[][] = [];
  for (let i = 0; i < ids.length; i += OPTIONS_PAGE_SIZE) {
    chunks.push(ids.slice(i, i + OPTIONS_PAGE_SIZE));
  }
  const withOptions = await mapConcurrent(
    chunks,
    CONCURRENT_REQUESTS,
    async (chunk) =>
      (await getProducts(client, { ids: chunk, include: ['options'], limit: OPTIONS_PAGE_SIZE }))
        .items,
  );
  const optionsById = new Map(withOptions.flat().map((product) => [product.id, product.options]));
  return products.map((product) => ({ ...product, options: optionsById.get(product.id) ?? [] }));
}
