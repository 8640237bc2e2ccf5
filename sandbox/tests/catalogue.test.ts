/**
 * The BigCommerce sandbox over real HTTP: every endpoint's reply validated against the contract
 * extracted from BigCommerce's OpenAPI files (tests/contracts/bigcommerce.json), filters, sort,
 * paging, errors, and the seed's invariants and fixtures.
 *
 * This file: products (filters, sort, paging, include), categories, brands and metafields.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  BRANDS,
  CATEGORIES,
  HIDE_CATEGORY_METAFIELD,
  PRODUCTS,
  SEED_PRODUCT_COUNT,
} from '../src/fixtures.ts';
import { startTestSandbox, type TestSandbox } from '../src/testing.ts';
import { storeApi, type Paginated, type ProductJson } from './helpers.ts';

let sandbox: TestSandbox;

const { call, products } = storeApi(() => sandbox);

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox.close();
});

describe('products: filters, sort, paging, include', () => {
  test('default page: 50 per page, id ascending, pagination meta and links', async () => {
    const reply = await products('');
    const { pagination } = reply.meta;
    expect(pagination).toMatchObject({ per_page: 50, current_page: 1, count: 50 });
    expect(pagination.total).toBeGreaterThanOrEqual(SEED_PRODUCT_COUNT);
    expect(pagination.total_pages).toBe(Math.ceil(pagination.total / 50));
    expect(pagination.links.previous).toBeUndefined();
    expect(pagination.links.current).toBe('?page=1&limit=50');
    expect(pagination.links.next).toBe('?page=2&limit=50');
    const ids = reply.data.map((p) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // No include: no sub-resources.
    expect(reply.data[0]?.variants).toBeUndefined();
  });

  test('page 2 links keep the other parameters; last page has no next', async () => {
    const second = await products('?limit=20&page=2&is_visible=true');
    expect(second.meta.pagination.links).toEqual({
      previous: '?page=1&limit=20&is_visible=true',
      current: '?page=2&limit=20&is_visible=true',
      next: '?page=3&limit=20&is_visible=true',
    });
    const last = await products(
      `?limit=20&is_visible=true&page=${second.meta.pagination.total_pages}`,
    );
    expect(last.meta.pagination.links.next).toBeUndefined();
    expect(last.data.length).toBe(last.meta.pagination.count);
    const beyond = await products('?limit=20&page=999');
    expect(beyond.data).toEqual([]);
    expect(beyond.meta.pagination.count).toBe(0);
  });

  test('include=variants,images,custom_fields,options adds exactly those', async () => {
    const [product] = (
      await products(`?id:in=${PRODUCTS.manyColours}&include=variants,images,custom_fields,options`)
    ).data;
    expect(product?.variants?.length).toBeGreaterThan(0);
    expect(product?.images?.length).toBeGreaterThanOrEqual(2);
    expect(product?.custom_fields?.length).toBeGreaterThan(0);
    expect(product?.options?.length).toBe(2);
    const onlyImages = (await products(`?id:in=${PRODUCTS.manyColours}&include=images`)).data[0];
    expect(onlyImages?.images).toBeDefined();
    expect(onlyImages?.variants).toBeUndefined();
  });

  test('include=options limits the page to 10 (catalog.v3.yml)', async () => {
    const reply = await products('?include=options&limit=50');
    expect(reply.data).toHaveLength(10);
    expect(reply.meta.pagination.per_page).toBe(10);
  });

  test('include_fields and exclude_fields keep the id', async () => {
    const picked = (await products('?limit=1&include_fields=name,price&include=variants')).data[0];
    expect(Object.keys(picked ?? {}).sort()).toEqual(['id', 'name', 'price', 'variants']);
    const dropped = (await products('?limit=1&exclude_fields=description,id')).data[0];
    expect(dropped).toHaveProperty('id');
    expect(dropped).not.toHaveProperty('description');
  });

  test('id:in', async () => {
    const reply = await products(
      `?id:in=${PRODUCTS.priceHidden},${PRODUCTS.trackingVariant},999999`,
    );
    expect(reply.data.map((p) => p.id)).toEqual([PRODUCTS.trackingVariant, PRODUCTS.priceHidden]);
  });

  test('keyword: case- and accent-insensitive, on name, sku and description', async () => {
    const byName = await products('?keyword=ELYSEE');
    expect(byName.data.map((p) => p.name)).toContain('Matelas Élysée');
    const bySku = await products('?keyword=mat-101');
    expect(bySku.data.map((p) => p.id)).toContain(101);
    const byDescription = await products('?keyword=retournement');
    expect(byDescription.data.length).toBeGreaterThan(0);
    const none = await products('?keyword=zzzzzz');
    expect(none.meta.pagination.total).toBe(0);
    expect(none.meta.pagination.total_pages).toBe(0);
  });

  test('sku:in matches product and variant skus', async () => {
    const [product] = (await products(`?id:in=${PRODUCTS.manyColours}&include=variants`)).data;
    const variantSku = product?.variants?.[3]?.sku ?? '';
    const reply = await products(`?sku:in=${variantSku},MAT-101`);
    expect(reply.data.map((p) => p.id)).toEqual([101, PRODUCTS.manyColours]);
  });

  test('categories:in includes products of the listed categories', async () => {
    const reply = await products(`?categories:in=${CATEGORIES.ressortsEnsaches}&limit=250`);
    expect(reply.data.length).toBeGreaterThan(0);
    for (const p of reply.data) expect(p.categories).toContain(CATEGORIES.ressortsEnsaches);
    const root = await products(`?categories:in=${CATEGORIES.matelas}&limit=250`);
    expect(root.meta.pagination.total).toBeGreaterThan(reply.meta.pagination.total);
  });

  test('brand_id, price:min / price:max, is_visible', async () => {
    const brand = await products(`?brand_id=${BRANDS.dormelune}&limit=250`);
    expect(brand.data.length).toBeGreaterThan(0);
    for (const p of brand.data) expect(p.brand_id).toBe(BRANDS.dormelune);
    const priced = await products('?price:min=100&price:max=300&limit=250');
    expect(priced.data.length).toBeGreaterThan(0);
    for (const p of priced.data) expect(p.price >= 100 && p.price <= 300).toBe(true);
    const hidden = await products('?is_visible=false');
    expect(hidden.data.map((p) => p.id)).toContain(PRODUCTS.retired);
    for (const p of hidden.data) expect(p.is_visible).toBe(false);
  });

  test.each([
    ['name', 'asc'],
    ['name', 'desc'],
    ['price', 'asc'],
    ['price', 'desc'],
    ['total_sold', 'desc'],
  ] as const)('sort=%s direction=%s', async (sort, direction) => {
    const reply = await products(`?sort=${sort}&direction=${direction}&limit=250`);
    const values = reply.data.map((p) => p[sort]);
    const sorted = [...values].sort((a, b) =>
      typeof a === 'string' && typeof b === 'string'
        ? a < b
          ? -1
          : a > b
            ? 1
            : 0
        : Number(a) - Number(b),
    );
    expect(values).toEqual(direction === 'asc' ? sorted : sorted.reverse());
  });

  test.each([
    ['id:in=1,abc', 'id:in'],
    ['limit=251', 'limit'],
    ['limit=0', 'limit'],
    ['page=0', 'page'],
    ['brand_id=x', 'brand_id'],
    ['direction=up', 'direction'],
    ['is_visible=maybe', 'is_visible'],
  ])('bad query %s: 422 naming the parameter', async (query, param) => {
    const reply = await call(`/v3/catalog/products?${query}`);
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({
      status: 422,
      errors: { [param]: expect.any(String) as unknown },
    });
  });

  test('product images are served as JPEG with long cache headers', async () => {
    const product = (await call(`/v3/catalog/products/${PRODUCTS.trackingVariant}?include=images`))
      .body as {
      data: ProductJson;
    };
    const image = product.data.images?.[0];
    expect(image?.url_standard.startsWith(`${sandbox.url}/images/800x800/`)).toBe(true);
    expect(image?.url_thumbnail).toContain('/340x340/');
    expect(image?.url_zoom).toContain('/1280x1280/');
    const response = await fetch(image?.url_thumbnail ?? '');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('cache-control')).toContain('max-age=31536000');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    expect((await fetch(`${sandbox.url}/images/340x340/nope.jpg`)).status).toBe(404);
  });
});

describe('categories, brands, metafields', () => {
  interface TreeNode {
    id: number;
    parent_id: number;
    depth: number;
    path: number[];
    name: string;
    is_visible: boolean;
    url: string;
    children: TreeNode[];
  }
  const flatten = (nodes: TreeNode[]): TreeNode[] =>
    nodes.flatMap((n) => [n, ...flatten(n.children)]);

  test('tree: nested, three levels, urls built from slugs, hidden ones included', async () => {
    const tree = (await call('/v3/catalog/categories/tree')).body as { data: TreeNode[] };
    const all = flatten(tree.data);
    expect(all.length).toBeGreaterThanOrEqual(25);
    expect(Math.max(...all.map((n) => n.depth))).toBe(2);
    const leaf = all.find((n) => n.id === CATEGORIES.ressortsEnsaches);
    expect(leaf).toMatchObject({
      depth: 2,
      path: [CATEGORIES.matelas, expect.any(Number) as unknown, CATEGORIES.ressortsEnsaches],
      url: '/matelas/matelas-ressorts/ressorts-ensaches',
    });
    expect(all.find((n) => n.id === CATEGORIES.notVisible)?.is_visible).toBe(false);
    expect(all.find((n) => n.id === CATEGORIES.hiddenByMetafield)?.is_visible).toBe(true);
    for (const node of all)
      for (const child of node.children) expect(child.parent_id).toBe(node.id);
  });

  test('categories list: filters id:in, parent_id, is_visible and paging', async () => {
    const byIds = (
      await call(`/v3/catalog/categories?id:in=${CATEGORIES.matelas},${CATEGORIES.notVisible}`)
    ).body as Paginated<{ id: number; is_visible: boolean; parent_id: number }>;
    expect(byIds.data.map((c) => c.id)).toEqual([CATEGORIES.matelas, CATEGORIES.notVisible]);
    const roots = (await call('/v3/catalog/categories?parent_id=0')).body as Paginated<{
      parent_id: number;
    }>;
    expect(roots.data.every((c) => c.parent_id === 0)).toBe(true);
    const hidden = (await call('/v3/catalog/categories?is_visible=false')).body as Paginated<{
      id: number;
    }>;
    expect(hidden.data.map((c) => c.id)).toEqual([CATEGORIES.notVisible]);
    const paged = (await call('/v3/catalog/categories?limit=5&page=2')).body as Paginated<unknown>;
    expect(paged.meta.pagination).toMatchObject({ count: 5, per_page: 5, current_page: 2 });
  });

  test('hide-category metafield on one category, per category and in the batch', async () => {
    const own = (await call(`/v3/catalog/categories/${CATEGORIES.hiddenByMetafield}/metafields`))
      .body as Paginated<{
      key: string;
      value: string;
      namespace: string;
      resource_type: string;
      resource_id: number;
    }>;
    expect(own.data).toContainEqual(
      expect.objectContaining({
        ...HIDE_CATEGORY_METAFIELD,
        resource_type: 'category',
        resource_id: CATEGORIES.hiddenByMetafield,
      }),
    );
    const batch = (await call('/v3/catalog/categories/metafields?key=hide-category&namespace=shop'))
      .body as Paginated<{
      value: string;
      resource_id: number;
    }>;
    expect(batch.data.filter((m) => m.value === 'true').map((m) => m.resource_id)).toEqual([
      CATEGORIES.hiddenByMetafield,
    ]);
    const filtered = (
      await call(`/v3/catalog/categories/metafields?resource_id:in=${CATEGORIES.matelas}`)
    ).body as Paginated<{ resource_id: number }>;
    expect(filtered.data.length).toBeGreaterThan(0);
    expect(filtered.data.every((m) => m.resource_id === CATEGORIES.matelas)).toBe(true);
  });

  test('brands: at least 8, urls under /marque/', async () => {
    const brands = (await call('/v3/catalog/brands')).body as Paginated<{
      id: number;
      custom_url: { url: string };
    }>;
    expect(brands.data.length).toBeGreaterThanOrEqual(8);
    for (const b of brands.data) expect(b.custom_url.url).toMatch(/^\/marque\/[a-z0-9-]+$/);
    const one = (await call(`/v3/catalog/brands/${BRANDS.dormelune}`)).body as {
      data: { name: string };
    };
    expect(one.data.name).toBe('Dormelune');
  });
});
