/**
 * Catalogue connectors against the sandbox over real HTTP (fresh database, free port): each
 * reply is compared with the raw upstream JSON the sandbox serves, so parsing (camelCase,
 * cents, defaults), filters and pagination following are checked end to end.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  collectPages,
  createBigCommerceClient,
  getAllProducts,
  getBrands,
  getCategories,
  getCategoriesBatchMetafields,
  getCategory,
  getCategoryTree,
  getProductById,
  getProducts,
  getProductsById,
  getProductsBySku,
  getProductsWithFilter,
  type BigCommerceClient,
} from '../../src/shop/connectors/bigcommerce/index.ts';
import { BigCommerceError } from '../../src/shop/connectors/bigcommerce/errors.ts';
import type { CategoryNode, Product } from '../../src/lib/commerce/types.ts';
import { PRODUCTS } from '@literie/sandbox/fixtures';
import { startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';

let sandbox: TestSandbox;
let client: BigCommerceClient;
/** Upstream URLs the connector requested, in order. */
let requested: string[] = [];

type Json = Record<string, unknown>;
interface RawList {
  data: Json[];
  meta: {
    pagination: { total: number; per_page: number; current_page: number; total_pages: number };
  };
}

/** Reads the sandbox directly, bypassing the connector. */
async function raw<T = RawList>(path: string): Promise<T> {
  const response = await fetch(`${sandbox.url}/stores/${sandbox.storeHash}/${path}`, {
    headers: { 'X-Auth-Token': sandbox.token, Accept: 'application/json' },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

const cents = (euros: unknown) => Math.round(Number(euros) * 100);
const hasSnakeCaseKey = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  Object.entries(value).some(([k, v]) => k.includes('_') || hasSnakeCaseKey(v));

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = createBigCommerceClient({
    apiUrl: sandbox.url,
    storeHash: sandbox.storeHash,
    accessToken: sandbox.token,
    channelId: 1,
    fetch: (input, init) => {
      requested.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    },
  });
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(() => {
  requested = [];
});

describe('getProducts', () => {
  test('parses a page into camelCase products, prices in cents', async () => {
    const upstream = await raw(
      'v3/catalog/products?limit=5&include=variants,images,custom_fields,options,modifiers',
    );
    const page = await getProducts(client, { limit: 5 });

    expect(page.items.map((p) => p.id)).toEqual(upstream.data.map((p) => p.id));
    expect(hasSnakeCaseKey(page)).toBe(false);
    expect(page.pagination).toEqual({
      total: upstream.meta.pagination.total,
      count: upstream.data.length,
      perPage: upstream.meta.pagination.per_page,
      currentPage: 1,
      totalPages: upstream.meta.pagination.total_pages,
    });
    for (const [index, product] of page.items.entries()) {
      const source = upstream.data[index] as Json & {
        variants: Json[];
        images: Json[];
        custom_fields: Json[];
        options: Json[];
        custom_url: { url: string };
      };
      expect(product.name).toBe(source.name);
      expect(product.sku).toBe(source.sku);
      expect(product.price).toBe(cents(source.price));
      expect(product.salePrice).toBe(cents(source.sale_price));
      expect(Number.isInteger(product.price)).toBe(true);
      expect(product.isVisible).toBe(source.is_visible);
      expect(product.inventoryTracking).toBe(source.inventory_tracking);
      expect(product.customUrl).toBe(source.custom_url.url);
      expect(product.reviewsCount).toBe(source.reviews_count);
      expect(product.variants).toHaveLength(source.variants.length);
      expect(product.images.map((i) => i.urlStandard).sort()).toEqual(
        source.images.map((i) => i.url_standard).sort(),
      );
      expect(product.customFields.map((f) => f.name)).toEqual(
        source.custom_fields.map((f) => f.name),
      );
      expect(product.options.map((o) => o.displayName)).toEqual(
        source.options.map((o) => o.display_name),
      );
      for (const [v, variant] of product.variants.entries()) {
        const sourceVariant: Json = source.variants[v] ?? {};
        expect(variant.productId).toBe(product.id);
        expect(variant.price).toBe(sourceVariant.price == null ? null : cents(sourceVariant.price));
        expect(variant.inventoryLevel).toBe(sourceVariant.inventory_level);
      }
    }
  });

  test('asks for the default sub-resources and maps every filter to the upstream names', async () => {
    await getProducts(client, {
      ids: [101, 102],
      categoryIds: [20],
      brandId: 44,
      keyword: '  matelas ',
      priceMin: 10_000,
      priceMax: 80_000,
      isVisible: true,
      sort: 'price',
      direction: 'desc',
      page: 1,
      limit: 20,
    });
    const query = new URL(requested[0] ?? '').searchParams;
    expect(Object.fromEntries(query)).toEqual({
      'id:in': '101,102',
      'categories:in': '20',
      brand_id: '44',
      keyword: 'matelas',
      'price:min': '100',
      'price:max': '800',
      is_visible: 'true',
      sort: 'price',
      direction: 'desc',
      include: 'variants,images,custom_fields,options,modifiers',
      page: '1',
      limit: '20',
    });
  });

  test('filters by price range (cents) and sorts', async () => {
    const page = await getProducts(client, {
      priceMin: 50_000,
      priceMax: 100_000,
      sort: 'price',
      direction: 'desc',
      limit: 50,
      include: ['images'],
    });
    expect(page.items.length).toBeGreaterThan(1);
    const prices = page.items.map((p) => p.price);
    expect(prices.every((p) => p >= 50_000 && p <= 100_000)).toBe(true);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });

  test('filters by category and visibility', async () => {
    const page = await getProducts(client, {
      categoryIds: [20],
      isVisible: true,
      include: ['images'],
    });
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((p) => p.categories.includes(20) && p.isVisible)).toBe(true);
  });
});

describe('getAllProducts', () => {
  test('loads every product in pages of 250, then their options and modifiers 10 at a time by id', async () => {
    const upstream = await raw('v3/catalog/products?limit=1');
    const total = upstream.meta.pagination.total;
    const all = await getAllProducts(client);
    expect(all).toHaveLength(total);
    expect(new Set(all.map((p) => p.id)).size).toBe(all.length);
    // include=options caps pages at 10 (catalog.v3.yml): bulk pages go without options...
    const params = requested.map((url) => new URL(url).searchParams);
    const bulk = params.filter((q) => q.get('limit') === '250');
    expect(bulk).toHaveLength(Math.ceil(total / 250));
    expect(bulk.every((q) => !/options|modifiers/.test(q.get('include') ?? ''))).toBe(true);
    // ...and the options and modifiers come by id, 10 products a request, no offset walked.
    const byId = params.filter((q) => q.get('include') === 'options,modifiers');
    expect(byId).toHaveLength(Math.ceil(total / 10));
    expect(byId.every((q) => q.get('id:in') !== null && q.get('page') === null)).toBe(true);
    expect(requested).toHaveLength(bulk.length + byId.length);
    // The options are the product's own, as a single-product read gives them.
    const many = all.find((p) => p.id === PRODUCTS.manyColours);
    const alone = await getProductById(client, PRODUCTS.manyColours);
    expect(many?.options).toEqual(alone?.options);
    expect(many?.options.length).toBeGreaterThan(0);
    // A mattress's take-back checkbox, as the single read gives it.
    const mattress = all.find((p) => p.id === PRODUCTS.trackingVariant);
    const single = await getProductById(client, PRODUCTS.trackingVariant);
    expect(mattress?.modifiers).toEqual(single?.modifiers);
    expect(mattress?.modifiers).toEqual([
      {
        id: 10_000_101,
        displayName: 'Reprise de l’ancien matelas',
        label: 'Je souhaite la reprise gratuite de mon ancien matelas à la livraison',
        required: false,
        checkedByDefault: false,
        checkedValueId: 20_000_202,
        uncheckedValueId: 20_000_203,
      },
    ]);
  });

  test.each([
    ['one page after the other', 1],
    ['a few pages at a time', 3],
  ])('collectPages follows total_pages: %s', async (_case, concurrency) => {
    const pages = [[1, 2], [3, 4], [5]];
    const asked: number[] = [];
    const items = await collectPages((page) => {
      asked.push(page);
      return Promise.resolve({
        items: pages[page - 1] ?? [],
        pagination: { total: 5, count: 2, perPage: 2, currentPage: page, totalPages: 3 },
      });
    }, concurrency);
    expect(items).toEqual([1, 2, 3, 4, 5]);
    expect(asked.sort()).toEqual([1, 2, 3]);
  });

  test('keeps the filters on every page', async () => {
    const hidden = await getAllProducts(client, { isVisible: false });
    const upstream = await raw('v3/catalog/products?is_visible=false');
    expect(hidden.map((p) => p.id)).toEqual(upstream.data.map((p) => p.id));
    expect(hidden.every((p) => !p.isVisible)).toBe(true);
  });
});

describe('getProductById', () => {
  test('returns the product with its sub-resources', async () => {
    const product = await getProductById(client, 101);
    const upstream = await raw<{ data: Json }>('v3/catalog/products/101');
    expect(product?.id).toBe(101);
    expect(product?.name).toBe(upstream.data.name);
    expect(product?.variants.length).toBeGreaterThan(0);
    expect(product?.images.length).toBeGreaterThan(0);
  });

  test('404 → null', async () => {
    await expect(getProductById(client, 99_999_999)).resolves.toBeNull();
  });
});

describe('getProductsById and getProductsBySku', () => {
  test('return the products in the order asked, unknown ones left out', async () => {
    const products = await getProductsById(client, { entityIds: [103, 99_999_999, 101] });
    expect(products.map((p) => p.id)).toEqual([103, 101]);
    await expect(getProductsById(client, { entityIds: [] })).resolves.toEqual([]);
  });

  test('by SKU', async () => {
    const products = await getProductsBySku(client, { skus: ['MAT-103', 'NOPE-1', ' MAT-101 '] });
    expect(products.map((p) => p.sku)).toEqual(['MAT-103', 'MAT-101']);
  });
});

describe('getProductsWithFilter', () => {
  test('searches visible products with the trimmed term', async () => {
    const result = await getProductsWithFilter(client, { searchTerm: '  matelas  ', limit: 5 });
    const query = new URL(requested[0] ?? '').searchParams;
    expect(query.get('keyword')).toBe('matelas');
    expect(query.get('is_visible')).toBe('true');
    expect(result.products.length).toBeGreaterThan(0);
    expect(result.products.length).toBeLessThanOrEqual(5);
    expect(result.products.every((p: Product) => p.isVisible)).toBe(true);
    expect(result.pagination.total).toBeGreaterThanOrEqual(result.products.length);
  });

  test('a blank term finds nothing without calling BigCommerce', async () => {
    const result = await getProductsWithFilter(client, { searchTerm: '   ' });
    expect(result.products).toEqual([]);
    expect(result.pagination.total).toBe(0);
    expect(requested).toEqual([]);
  });
});

describe('categories and brands', () => {
  test('getCategoryTree nests children, camelCase', async () => {
    const upstream = await raw<{ data: Json[] }>('v3/catalog/categories/tree');
    const tree = await getCategoryTree(client);
    expect(tree.map((n) => n.id)).toEqual(upstream.data.map((n) => n.id));
    expect(hasSnakeCaseKey(tree)).toBe(false);
    const count = (nodes: CategoryNode[]): number =>
      nodes.reduce((n, node) => n + 1 + count(node.children), 0);
    const rawCount = (nodes: Json[]): number =>
      nodes.reduce((n, node) => n + 1 + rawCount(node.children as Json[]), 0);
    expect(count(tree)).toBe(rawCount(upstream.data));
    const child = tree.find((n) => n.children.length > 0)?.children[0];
    expect(child?.parentId).toBe(tree.find((n) => n.children.length > 0)?.id);
    expect(child?.url).toMatch(/^\//);
  });

  test('getCategory reads custom_url.url; 404 → null', async () => {
    const upstream = await raw<{ data: Json & { custom_url: { url: string } } }>(
      'v3/catalog/categories/20',
    );
    const category = await getCategory(client, 20);
    expect(category).toMatchObject({
      id: 20,
      name: upstream.data.name,
      url: upstream.data.custom_url.url,
      parentId: upstream.data.parent_id,
    });
    await expect(getCategory(client, 99_999)).resolves.toBeNull();
  });

  test('getCategories returns a page filtered by parent', async () => {
    const page = await getCategories(client, { parentId: 0, limit: 3 });
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((c) => c.parentId === 0)).toBe(true);
    expect(page.pagination.perPage).toBe(3);
  });

  test('getBrands reads every page; url is custom_url.url', async () => {
    const upstream = await raw('v3/catalog/brands?limit=250');
    const brands = await getBrands(client);
    expect(brands).toHaveLength(upstream.meta.pagination.total);
    for (const [index, brand] of brands.entries()) {
      const source = upstream.data[index] as Json & { custom_url: { url: string } };
      expect(brand.id).toBe(source.id);
      expect(brand.url).toBe(source.custom_url.url);
      expect(brand.pageTitle).toBe(source.page_title);
    }
  });

  test('getCategoriesBatchMetafields reads the batch endpoint, filtered', async () => {
    const upstream = await raw('v3/catalog/categories/metafields?limit=250');
    const all = await getCategoriesBatchMetafields(client);
    expect(all.map((m) => m.id)).toEqual(upstream.data.map((m) => m.id));
    const first = all[0];
    expect(first).toBeDefined();
    if (first === undefined) return;
    expect(Object.keys(first).sort()).toEqual(['id', 'key', 'namespace', 'resourceId', 'value']);
    const one = await getCategoriesBatchMetafields(client, {
      categoryIds: [first.resourceId],
      key: first.key,
    });
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((m) => m.resourceId === first.resourceId && m.key === first.key)).toBe(true);
  });
});

describe('errors', () => {
  test('a wrong token → BigCommerceError 401, without the token in the message', async () => {
    const wrong = createBigCommerceClient({
      apiUrl: sandbox.url,
      storeHash: sandbox.storeHash,
      accessToken: 'not-the-token',
    });
    const error = await getProducts(wrong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BigCommerceError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect((error as Error).message).not.toContain('not-the-token');
    // 401 is not "not found": getProductById must not turn it into null.
    await expect(getProductById(wrong, 101)).rejects.toMatchObject({ status: 401 });
  });

  test('an invalid filter → BigCommerceError 422 with the upstream title', async () => {
    await expect(getProducts(client, { limit: 999 })).rejects.toMatchObject({
      name: 'BigCommerceError',
      status: 422,
      code: 'UNPROCESSABLE_ENTITY',
    });
  });
});
