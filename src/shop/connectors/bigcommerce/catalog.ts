/**
 * Catalogue connectors (spec §7 "Commerce: catalogue and store"): products, categories,
 * brands and category metafields of `/v3/catalog`. Each returns domain types.
 */
import type {
  Brand,
  Category,
  CategoryNode,
  Metafield,
  Page,
  Pagination,
  Product,
} from '../../../lib/commerce/types.ts';
import type { SearchParams } from '../http/upstream-client.ts';
import type { BigCommerceClient } from './client.ts';
import { BigCommerceError, isBigCommerceError } from './errors.ts';
import {
  MAX_PAGE_SIZE,
  type CategoriesMetafieldsQuery,
  type CategoriesQuery,
  type ProductsByIdQuery,
  type ProductsBySkuQuery,
  type ProductSearchQuery,
  type ProductsQuery,
} from './queries.ts';
import { BrandPageSchema } from './schemas/brands.ts';
import {
  CategoryPageSchema,
  CategoryReplySchema,
  CategoryTreeReplySchema,
  MetafieldPageSchema,
} from './schemas/categories.ts';
import {
  ProductOptionsPageSchema,
  ProductPageSchema,
  ProductReplySchema,
} from './schemas/products.ts';

/** Sub-resources the shop reads on every product (cards, product page, stock rules). */
export const DEFAULT_PRODUCT_INCLUDE = [
  'variants',
  'images',
  'custom_fields',
  'options',
  'modifiers',
] as const;

/** Sub-resources BigCommerce serves 10 products a page with (catalog.v3.yml). */
const PER_PRODUCT_INCLUDE = new Set<string>(['options', 'modifiers']);

// A runaway `total_pages` must not loop forever: 1,000 pages of 250 is 250,000 items, beyond a
// catalogue; a longer list is refused (`collectPages`), never cut.
const MAX_PAGES = 1_000;

// Ids per `id:in` / `sku:in` request, to keep URLs well under proxies' length limits.
const ID_CHUNK = 50;

function chunk<T>(values: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}

const list = (values: readonly (string | number)[] | undefined) =>
  values === undefined || values.length === 0 ? undefined : values.join(',');

/** The trimmed text, or undefined when blank (an empty filter is dropped, spec §5). */
function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === '' ? undefined : trimmed;
}

const euros = (cents: number | undefined) => (cents === undefined ? undefined : cents / 100);

function productSearchParams(query: ProductsQuery): SearchParams {
  return {
    'id:in': list(query.ids),
    'sku:in': list(query.skus),
    'categories:in': list(query.categoryIds),
    brand_id: query.brandId,
    keyword: nonBlank(query.keyword),
    'price:min': euros(query.priceMin),
    'price:max': euros(query.priceMax),
    is_visible: query.isVisible,
    sort: query.sort,
    direction: query.direction,
    include: list(query.include ?? DEFAULT_PRODUCT_INCLUDE),
    page: query.page,
    limit: query.limit,
  };
}

/** One page of `/v3/catalog/products` matching `query`. */
export async function getProducts(
  client: BigCommerceClient,
  query: ProductsQuery = {},
): Promise<Page<Product>> {
  return client.get('v3/catalog/products', ProductPageSchema, productSearchParams(query));
}

/** Products per request when `include` has `options` or `modifiers` (BigCommerce's cap). */
const OPTIONS_PAGE_SIZE = 10;
/** Requests in flight at once when loading a whole catalogue: hides latency, spares the rate limit. */
const CONCURRENT_REQUESTS = 8;

/**
 * Every product matching `query` (build-time loaders, on-demand listings). BigCommerce serves
 * at most 10 products per page when `include` has `options`: 1,000 offset pages for 10,000
 * products. So products come in pages of 250 without options, a few pages at a time, and their
 * options by id, 10 products a request (`id:in`, no offset to walk).
 */
export async function getAllProducts(
  client: BigCommerceClient,
  query: Omit<ProductsQuery, 'page' | 'limit'> = {},
): Promise<Product[]> {
  const include = query.include ?? [...DEFAULT_PRODUCT_INCLUDE];
  const bulkInclude = include.filter((name) => !PER_PRODUCT_INCLUDE.has(name));
  const perProduct = include.filter((name) => PER_PRODUCT_INCLUDE.has(name));
  const products = await collectPages(
    (page) => getProducts(client, { ...query, include: bulkInclude, page, limit: MAX_PAGE_SIZE }),
    CONCURRENT_REQUESTS,
  );
  if (perProduct.length === 0 || products.length === 0) return products;
  const withOptions = await mapConcurrent(
    chunk(
      products.map((product) => product.id),
      OPTIONS_PAGE_SIZE,
    ),
    CONCURRENT_REQUESTS,
    // Only the id beside them (`include_fields`): the rest of each product came with its
    // page, and reading it twice was a third of the bytes and of the parsing.
    async (ids) =>
      (
        await client.get('v3/catalog/products', ProductOptionsPageSchema, {
          'id:in': ids.join(','),
          include: perProduct.join(','),
          include_fields: 'id',
          limit: OPTIONS_PAGE_SIZE,
        })
      ).items,
  );
  // A product missing from its batch was deleted between the two reads: left out, not shown
  // without its options.
  const byId = new Map(withOptions.flat().map((product) => [product.id, product]));
  return products.flatMap((product) => {
    const detail = byId.get(product.id);
    return detail === undefined
      ? []
      : [{ ...product, options: detail.options, modifiers: detail.modifiers }];
  });
}

/** The product with this id, or null when BigCommerce answers 404. */
export async function getProductById(
  client: BigCommerceClient,
  id: number,
  include: ProductsQuery['include'] = [...DEFAULT_PRODUCT_INCLUDE],
): Promise<Product | null> {
  try {
    return await client.get(`v3/catalog/products/${id}`, ProductReplySchema, {
      include: list(include),
    });
  } catch (error) {
    if (isBigCommerceError(error) && error.status === 404) return null;
    throw error;
  }
}

/** Products with these ids, in the order asked; unknown ids are left out. */
export async function getProductsById(
  client: BigCommerceClient,
  { entityIds }: ProductsByIdQuery,
): Promise<Product[]> {
  if (entityIds.length === 0) return [];
  const chunks = chunk([...new Set(entityIds)], ID_CHUNK);
  const products = (await Promise.all(chunks.map((ids) => getAllProducts(client, { ids })))).flat();
  const byId = new Map(products.map((p) => [p.id, p]));
  return entityIds.flatMap((id) => byId.get(id) ?? []);
}

/** Most products one stock read asks for (a cart's distinct products; 5 requests of 50). */
export const MAX_STOCK_PRODUCTS = 250;

/**
 * The stock of these products (cart lines, spec §4 Stock): each with its variants only (levels,
 * purchasing disabled), one `id:in` read per 50 ids, never one read per product. At most
 * `MAX_STOCK_PRODUCTS` distinct ids; unknown ids are left out.
 */
export async function getProductsStock(
  client: BigCommerceClient,
  ids: readonly number[],
): Promise<Product[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  if (unique.length > MAX_STOCK_PRODUCTS) {
    throw new RangeError(`A stock read asks for at most ${String(MAX_STOCK_PRODUCTS)} products`);
  }
  const pages = await Promise.all(
    chunk(unique, ID_CHUNK).map((part) =>
      getProducts(client, { ids: part, include: ['variants'], limit: MAX_PAGE_SIZE }),
    ),
  );
  return pages.flatMap((page) => page.items);
}

/** Products with these SKUs, in the order asked; unknown SKUs are left out. */
export async function getProductsBySku(
  client: BigCommerceClient,
  { skus }: ProductsBySkuQuery,
): Promise<Product[]> {
  const wanted = skus.map((s) => s.trim()).filter((s) => s !== '');
  if (wanted.length === 0) return [];
  const chunks = chunk([...new Set(wanted)], ID_CHUNK);
  const products = (
    await Promise.all(chunks.map((skus) => getAllProducts(client, { skus })))
  ).flat();
  const bySku = new Map(products.map((p) => [p.sku, p]));
  return wanted.flatMap((sku) => bySku.get(sku) ?? []);
}

export interface ProductSearchResult {
  products: Product[];
  pagination: Pagination;
}

const EMPTY_PAGINATION: Pagination = {
  total: 0,
  count: 0,
  perPage: 0,
  currentPage: 1,
  totalPages: 0,
};

/**
 * Keyword search over visible products (spec §7: filters by `searchTerm`, the trimmed typed
 * text). A blank term finds nothing, without calling BigCommerce.
 */
export async function getProductsWithFilter(
  client: BigCommerceClient,
  { searchTerm, ...filters }: ProductSearchQuery,
): Promise<ProductSearchResult> {
  const keyword = searchTerm.trim();
  if (keyword === '') return { products: [], pagination: EMPTY_PAGINATION };
  const page = await getProducts(client, { ...filters, keyword, isVisible: true });
  return { products: page.items, pagination: page.pagination };
}

/** The whole category tree (`/v3/catalog/categories/tree`), children nested. */
export async function getCategoryTree(client: BigCommerceClient): Promise<CategoryNode[]> {
  return client.get('v3/catalog/categories/tree', CategoryTreeReplySchema);
}

/** The category with this id, or null when BigCommerce answers 404. */
export async function getCategory(client: BigCommerceClient, id: number): Promise<Category | null> {
  try {
    return await client.get(`v3/catalog/categories/${id}`, CategoryReplySchema);
  } catch (error) {
    if (isBigCommerceError(error) && error.status === 404) return null;
    throw error;
  }
}

/** One page of `/v3/catalog/categories` matching `query`. */
export async function getCategories(
  client: BigCommerceClient,
  query: CategoriesQuery = {},
): Promise<Page<Category>> {
  return client.get('v3/catalog/categories', CategoryPageSchema, {
    'id:in': list(query.ids),
    parent_id: query.parentId,
    is_visible: query.isVisible,
    keyword: nonBlank(query.keyword),
    page: query.page,
    limit: query.limit,
  });
}

/** Every brand (all pages); `url` is the brand's `custom_url.url`. */
export async function getBrands(client: BigCommerceClient): Promise<Brand[]> {
  return collectPages((page) =>
    client.get('v3/catalog/brands', BrandPageSchema, { page, limit: MAX_PAGE_SIZE }),
  );
}

/**
 * Category metafields in one batch (`/v3/catalog/categories/metafields`, all pages),
 * e.g. the hide-category key of spec §3.
 */
export async function getCategoriesBatchMetafields(
  client: BigCommerceClient,
  query: CategoriesMetafieldsQuery = {},
): Promise<Metafield[]> {
  return collectPages((page) =>
    client.get('v3/catalog/categories/metafields', MetafieldPageSchema, {
      'resource_id:in': list(query.categoryIds),
      key: query.key,
      namespace: query.namespace,
      page,
      limit: MAX_PAGE_SIZE,
    }),
  );
}

/** Walks of a list that changed while it was read, before `collectPages` gives up. */
const MAX_WALKS = 3;

/**
 * Every item of a paginated list: page 1, then the others up to the reply's `total_pages`,
 * `concurrency` at a time (1: one after the other, stopping at an empty page). Complete or
 * failed, never partial (a build publishes no page with a hole): a page that fails
 * (after the client's retries) fails the whole list, and no further page is asked for; a list
 * whose pages disagree on its `total`, or whose items do not add up to it, changed while it
 * was read (offsets shifted: an item read twice, another missed), and is read again, up to
 * three walks; a list of more than 1,000 pages is refused rather than cut.
 */
export async function collectPages<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
  concurrency = 1,
): Promise<T[]> {
  let reason = '';
  for (let walk = 1; walk <= MAX_WALKS; walk++) {
    const { items, total, totals } = await walkPages(fetchPage, concurrency);
    const moved = totals.find((other) => other !== total);
    if (moved === undefined && items.length === total) return items;
    reason =
      moved === undefined
        ? `${items.length} items read for a total of ${total}`
        : `its total went from ${total} to ${moved} during the read`;
  }
  throw new BigCommerceError(
    `BigCommerce list changed while it was read, ${MAX_WALKS} times in a row (${reason})`,
    { code: 'INVALID_RESPONSE', status: 502, endpoint: 'GET (paged list)' },
  );
}

async function walkPages<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
  concurrency: number,
): Promise<{ items: T[]; total: number; totals: number[] }> {
  const first = await fetchPage(1);
  const { total, totalPages } = first.pagination;
  if (totalPages > MAX_PAGES) {
    throw new BigCommerceError(
      `BigCommerce list of ${totalPages} pages: more than the ${MAX_PAGES} read, refused rather than cut`,
      { code: 'INVALID_RESPONSE', status: 502, endpoint: 'GET (paged list)' },
    );
  }
  if (first.items.length === 0 || totalPages <= 1) {
    return { items: first.items, total: first.items.length, totals: [] };
  }
  if (concurrency > 1) {
    const pages = Array.from({ length: totalPages - 1 }, (_, index) => index + 2);
    const rest = await mapConcurrent(pages, concurrency, fetchPage);
    return {
      items: [...first.items, ...rest.flatMap((reply) => reply.items)],
      total,
      totals: rest.map((reply) => reply.pagination.total),
    };
  }
  const items = [...first.items];
  const totals: number[] = [];
  for (let page = 2; page <= totalPages; page += 1) {
    const reply = await fetchPage(page);
    items.push(...reply.items);
    totals.push(reply.pagination.total);
    if (reply.items.length === 0) break;
  }
  return { items, total, totals };
}

/**
 * Runs `task` over `items` with at most `limit` in flight; results in input order. The first
 * failure rejects the whole run at once and no further task is started (those in flight end
 * on their own, unread).
 */
async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  async function worker(): Promise<void> {
    for (let index = next++; index < items.length && !failed; index = next++) {
      try {
        results[index] = await task(items[index] as T);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
