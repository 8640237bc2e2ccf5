/**
 * The BigCommerce sandbox over real HTTP: every endpoint's reply validated against the contract
 * extracted from BigCommerce's OpenAPI files (tests/contracts/bigcommerce.json), filters, sort,
 * paging, errors, and the seed's invariants and fixtures.
 */
import { readFileSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  BRANDS,
  CATEGORIES,
  CHANNEL_ID,
  HIDE_CATEGORY_METAFIELD,
  P_RULE_REDIRECT,
  PRODUCTS,
  SEED_PRODUCT_COUNT,
  SITE_ID,
} from '../src/fixtures.ts';
import { isSandboxListening } from '../src/server.ts';
import { startTestSandbox, type TestSandbox } from '../src/testing.ts';

interface Contract {
  source: { commit: string; files: string[] };
  endpoints: Record<string, { response: object; error: object }>;
  definitions: Record<string, object>;
}

const contract = JSON.parse(
  readFileSync(new URL('../../tests/contracts/bigcommerce.json', import.meta.url), 'utf8'),
) as Contract;

const ajv = new Ajv({
  strict: false,
  allErrors: true,
  formats: {
    'date-time': (s: string) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(s) && !Number.isNaN(Date.parse(s)),
    date: /^\d{4}-\d{2}-\d{2}$/,
    uri: (s: string) => URL.canParse(s),
    email: /@/,
    float: { type: 'number', validate: () => true },
    double: { type: 'number', validate: () => true },
    int32: { type: 'number', validate: () => true },
    int64: { type: 'number', validate: () => true },
  },
});
const validators = new Map<string, ValidateFunction>();

/** Validates `body` against the contract of `endpoint` ('response' or 'error'). */
function expectContract(
  endpoint: string,
  body: unknown,
  which: 'response' | 'error' = 'response',
): void {
  const key = `${endpoint} ${which}`;
  let validate = validators.get(key);
  if (!validate) {
    const schema = contract.endpoints[endpoint]?.[which];
    if (!schema) throw new Error(`no contract for ${endpoint}`);
    validate = ajv.compile({ ...schema, definitions: contract.definitions });
    validators.set(key, validate);
  }
  const valid = validate(body);
  expect(
    valid ? [] : ajv.errorsText(validate.errors, { separator: '\n' }).split('\n').slice(0, 10),
  ).toEqual([]);
}

let sandbox: TestSandbox;

async function call(
  path: string,
  init: { token?: string | null } = {},
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = init.token === undefined ? sandbox.token : init.token;
  if (token !== null) headers['X-Auth-Token'] = token;
  const response = await fetch(`${sandbox.url}/stores/${sandbox.storeHash}${path}`, { headers });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

interface Paginated<T> {
  data: T[];
  meta: {
    pagination: {
      total: number;
      count: number;
      per_page: number;
      current_page: number;
      total_pages: number;
      links: { previous?: string; current: string; next?: string };
    };
  };
}

interface ProductJson {
  id: number;
  name: string;
  sku: string;
  price: number;
  sale_price: number;
  brand_id: number;
  categories: number[];
  is_visible: boolean;
  is_price_hidden: boolean;
  price_hidden_label: string;
  inventory_tracking: string;
  inventory_level: number;
  custom_url: { url: string };
  total_sold: number;
  variants?: {
    sku: string;
    inventory_level: number;
    purchasing_disabled: boolean;
    purchasing_disabled_message: string;
    image_url: string;
  }[];
  images?: {
    url_standard: string;
    url_thumbnail: string;
    url_zoom: string;
    is_thumbnail: boolean;
  }[];
  custom_fields?: { name: string; value: string }[];
  options?: { type: string; option_values: { value_data: { colors: string[] } | null }[] }[];
}

async function products(query: string): Promise<Paginated<ProductJson>> {
  const reply = await call(`/v3/catalog/products${query}`);
  expect(reply.status).toBe(200);
  return reply.body as Paginated<ProductJson>;
}

/** Every product, page by page. */
async function allProducts(query = ''): Promise<ProductJson[]> {
  const out: ProductJson[] = [];
  for (let page = 1; ; page++) {
    const reply = await products(`?limit=250&page=${page}${query}`);
    out.push(...reply.data);
    if (page >= reply.meta.pagination.total_pages) return out;
  }
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox.close();
});

describe('contract of every endpoint (tests/contracts/bigcommerce.json)', () => {
  test('the contract records its source', () => {
    expect(contract.source.commit).toBe('1072ce7');
    expect(contract.source.files).toContain('catalog.v3.yml');
  });

  test.each([
    [
      'GET /v3/catalog/products',
      '/v3/catalog/products?include=variants,images,custom_fields,options&limit=10',
    ],
    [
      'GET /v3/catalog/products',
      '/v3/catalog/products?include=primary_image,modifiers,videos,bulk_pricing_rules',
    ],
    [
      'GET /v3/catalog/products',
      `/v3/catalog/products?id:in=${PRODUCTS.manyColours},${PRODUCTS.priceHidden}&include=options,variants`,
    ],
    [
      'GET /v3/catalog/products/{product_id}',
      `/v3/catalog/products/${PRODUCTS.trackingVariant}?include=variants,images,custom_fields,options`,
    ],
    ['GET /v3/catalog/products/{product_id}', `/v3/catalog/products/${PRODUCTS.retired}`],
    [
      'GET /v3/catalog/products/{product_id}/reviews',
      `/v3/catalog/products/${PRODUCTS.trackingVariant}/reviews?limit=250`,
    ],
    ['GET /v3/catalog/categories', '/v3/catalog/categories?limit=250'],
    ['GET /v3/catalog/categories/tree', '/v3/catalog/categories/tree'],
    [
      'GET /v3/catalog/categories/{category_id}',
      `/v3/catalog/categories/${CATEGORIES.ressortsEnsaches}`,
    ],
    [
      'GET /v3/catalog/categories/{category_id}/metafields',
      `/v3/catalog/categories/${CATEGORIES.hiddenByMetafield}/metafields`,
    ],
    ['GET /v3/catalog/categories/metafields', '/v3/catalog/categories/metafields'],
    ['GET /v3/catalog/brands', '/v3/catalog/brands'],
    ['GET /v3/catalog/brands/{brand_id}', `/v3/catalog/brands/${BRANDS.dormelune}`],
    ['GET /v3/channels/{channel_id}', `/v3/channels/${CHANNEL_ID}?include=currencies`],
    ['GET /v3/storefront/redirects', '/v3/storefront/redirects?include=to_url'],
    ['GET /v3/storefront/redirects', `/v3/storefront/redirects?site_id=${SITE_ID}`],
    ['GET /v2/store', '/v2/store'],
    ['GET /v2/banners', '/v2/banners'],
  ])('%s  (%s)', async (endpoint, path) => {
    const reply = await call(path);
    expect(reply.status).toBe(200);
    expectContract(endpoint, reply.body);
  });

  test.each([
    ['GET /v3/catalog/products/{product_id}', '/v3/catalog/products/999999', 404],
    ['GET /v3/catalog/products', '/v3/catalog/products?id:in=1,abc', 422],
    ['GET /v3/catalog/products', '/v3/catalog/products?limit=251', 422],
    ['GET /v3/catalog/products', '/v3/catalog/products?sort=colour', 422],
    ['GET /v3/catalog/products/{product_id}/reviews', '/v3/catalog/products/999999/reviews', 404],
    ['GET /v3/catalog/categories/{category_id}', '/v3/catalog/categories/999999', 404],
    [
      'GET /v3/catalog/categories/{category_id}/metafields',
      '/v3/catalog/categories/999999/metafields',
      404,
    ],
    ['GET /v3/catalog/brands/{brand_id}', '/v3/catalog/brands/999999', 404],
    ['GET /v3/channels/{channel_id}', '/v3/channels/999', 404],
    ['GET /v3/storefront/redirects', '/v3/storefront/redirects?id:in=x', 422],
  ])('error of %s  (%s)', async (endpoint, path, status) => {
    const reply = await call(path);
    expect(reply.status).toBe(status);
    expect(reply.body).toMatchObject({
      status,
      type: expect.any(String) as unknown,
      title: expect.any(String) as unknown,
    });
    expectContract(endpoint, reply.body, 'error');
  });

  test('the contract is not vacuous: a broken product reply fails it', async () => {
    const reply = (await call('/v3/catalog/products?limit=1&include=variants')).body as Paginated<
      Record<string, unknown>
    >;
    const broken = structuredClone(reply);
    const product = broken.data[0] ?? {};
    product.price = '499.00';
    delete product.name;
    (product.variants as Record<string, unknown>[])[0] = { id: 'x', option_values: {} };
    const validate = ajv.compile({
      ...contract.endpoints['GET /v3/catalog/products']?.response,
      definitions: contract.definitions,
    });
    expect(validate(reply)).toBe(true);
    expect(validate(broken)).toBe(false);
    const messages = ajv.errorsText(validate.errors);
    for (const part of [
      'price must be number',
      "must have required property 'name'",
      'id must be integer',
    ]) {
      expect(messages).toContain(part);
    }
  });

  test('v2 errors are bare arrays of { status, message }', async () => {
    const reply = await call('/v2/store', { token: 'wrong' });
    expect(reply.status).toBe(401);
    expectContract('GET /v2/store', reply.body, 'error');
    const missing = await call('/v2/nothing-here');
    expect(missing.status).toBe(404);
    expectContract('GET /v2/banners', missing.body, 'error');
  });
});

describe('authentication and unknown paths', () => {
  test.each([
    ['missing token', null],
    ['wrong token', 'not-the-token'],
  ])('%s: 401 with the v3 error shape', async (_case, token) => {
    const reply = await call('/v3/catalog/products', { token });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({
      status: 401,
      title: expect.any(String) as unknown,
      type: expect.any(String) as unknown,
    });
  });

  test('unknown v3 path: 404 v3 error', async () => {
    const reply = await call('/v3/catalog/unknown');
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ status: 404 });
  });

  test('another store hash: 404', async () => {
    const response = await fetch(`${sandbox.url}/stores/other/v3/catalog/products`, {
      headers: { 'X-Auth-Token': sandbox.token },
    });
    expect(response.status).toBe(404);
  });

  test('isSandboxListening tells a running sandbox from a closed port', async () => {
    expect(await isSandboxListening(sandbox.url)).toBe(true);
    expect(await isSandboxListening('http://127.0.0.1:9', 'sandbox', 300)).toBe(false);
  });
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

describe('store, channel, banners, redirects', () => {
  test('channel 1 in EUR', async () => {
    const reply = (await call(`/v3/channels/${CHANNEL_ID}?include=currencies`)).body as {
      data: { id: number; currencies: { default_currency: string; enabled_currencies: string[] } };
    };
    expect(reply.data.id).toBe(CHANNEL_ID);
    expect(reply.data.currencies).toEqual({
      channel_id: CHANNEL_ID,
      default_currency: 'EUR',
      enabled_currencies: ['EUR'],
    });
    const without = (await call(`/v3/channels/${CHANNEL_ID}`)).body as { data: object };
    expect(without.data).not.toHaveProperty('currencies');
  });

  test('store information is French', async () => {
    const store = (await call('/v2/store')).body as Record<string, unknown>;
    expect(store).toMatchObject({ language: 'fr', currency: 'EUR', country: 'France' });
    expect(typeof store.name).toBe('string');
  });

  test("banners: some visible '1', some '0', HTML content", async () => {
    const banners = (await call('/v2/banners')).body as { visible: string; content: string }[];
    expect(new Set(banners.map((b) => b.visible))).toEqual(new Set(['0', '1']));
    for (const b of banners) expect(b.content).toMatch(/^<[a-z]/);
  });

  test('redirects: to_url only with include=to_url; product, category, brand and url targets', async () => {
    const plain = (await call('/v3/storefront/redirects')).body as Paginated<
      Record<string, unknown>
    >;
    expect(plain.data[0]).not.toHaveProperty('to_url');
    const full = (await call('/v3/storefront/redirects?include=to_url')).body as Paginated<{
      id: number;
      from_path: string;
      site_id: number;
      to: { type: string; entity_id?: number; url?: string };
      to_url: string;
    }>;
    expect(new Set(full.data.map((r) => r.to.type))).toEqual(
      new Set(['product', 'category', 'brand', 'url']),
    );
    const rule = full.data.find((r) => r.from_path === P_RULE_REDIRECT.fromPath);
    expect(rule).toMatchObject({
      id: P_RULE_REDIRECT.id,
      site_id: SITE_ID,
      to: { type: P_RULE_REDIRECT.toType, entity_id: P_RULE_REDIRECT.toEntityId },
    });
    const target = (await call(`/v3/catalog/products/${P_RULE_REDIRECT.toEntityId}`)).body as {
      data: ProductJson;
    };
    expect(rule?.to_url.endsWith(target.data.custom_url.url)).toBe(true);
    const keyword = (await call('/v3/storefront/redirects?keyword=ancien-modele'))
      .body as Paginated<{ id: number }>;
    expect(keyword.data.map((r) => r.id)).toEqual([P_RULE_REDIRECT.id]);
    const byId = (await call('/v3/storefront/redirects?id:in=1,2')).body as Paginated<{
      id: number;
    }>;
    expect(byId.data.map((r) => r.id)).toEqual([1, 2]);
  });
});

describe('seed invariants and fixtures', () => {
  let catalogue: ProductJson[];
  beforeAll(async () => {
    catalogue = await allProducts('&include=variants,images,custom_fields,options');
  });
  const byId = (id: number): ProductJson => {
    const found = catalogue.find((p) => p.id === id);
    if (!found) throw new Error(`product ${id} missing`);
    return found;
  };

  test('at least 150 products with unique names, skus and urls', () => {
    expect(catalogue.length).toBe(SEED_PRODUCT_COUNT);
    expect(catalogue.length).toBeGreaterThanOrEqual(150);
    for (const key of ['name', 'sku'] as const)
      expect(new Set(catalogue.map((p) => p[key])).size).toBe(catalogue.length);
    expect(new Set(catalogue.map((p) => p.custom_url.url)).size).toBe(catalogue.length);
  });

  test('every product has 2 to 4 images and a variant', () => {
    for (const p of catalogue) {
      expect(p.images?.length).toBeGreaterThanOrEqual(2);
      expect(p.images?.length).toBeLessThanOrEqual(4);
      expect(p.images?.filter((i) => i.is_thumbnail)).toHaveLength(1);
      expect(p.variants?.length).toBeGreaterThan(0);
    }
  });

  test('hidden price fixture', () => {
    expect(byId(PRODUCTS.priceHidden)).toMatchObject({
      is_price_hidden: true,
      price_hidden_label: 'Prix sur demande en magasin',
    });
    expect(catalogue.filter((p) => p.is_price_hidden).map((p) => p.id)).toEqual([
      PRODUCTS.priceHidden,
    ]);
  });

  test('more-than-5-colours fixture: a swatch option with hex colours', () => {
    const swatch = byId(PRODUCTS.manyColours).options?.find((o) => o.type === 'swatch');
    expect(swatch?.option_values.length).toBeGreaterThan(5);
    for (const value of swatch?.option_values ?? [])
      expect(value.value_data?.colors[0]).toMatch(/^#[0-9A-F]{6}$/);
  });

  test('all three inventory modes, out-of-stock and purchasing-disabled variants', () => {
    expect(byId(PRODUCTS.trackingNone).inventory_tracking).toBe('none');
    expect(byId(PRODUCTS.trackingProduct).inventory_tracking).toBe('product');
    expect(byId(PRODUCTS.trackingVariant).inventory_tracking).toBe('variant');
    const variants = catalogue
      .filter((p) => p.inventory_tracking === 'variant')
      .flatMap((p) => p.variants ?? []);
    expect(variants.some((v) => v.inventory_level === 0)).toBe(true);
    const disabled = catalogue
      .flatMap((p) => p.variants ?? [])
      .filter((v) => v.purchasing_disabled);
    expect(disabled.length).toBeGreaterThan(0);
    for (const v of disabled) expect(v.purchasing_disabled_message).not.toBe('');
    for (const p of catalogue.filter((q) => q.inventory_tracking === 'variant')) {
      expect(p.inventory_level).toBe(
        (p.variants ?? []).reduce((sum, v) => sum + v.inventory_level, 0),
      );
    }
  });

  test('sale prices below prices', () => {
    const onSale = catalogue.filter((p) => p.sale_price > 0);
    expect(onSale.length).toBeGreaterThan(10);
    for (const p of onSale) expect(p.sale_price).toBeLessThan(p.price);
  });

  test('custom fields of spec §3 with stable names', () => {
    const names = new Set(catalogue.flatMap((p) => (p.custom_fields ?? []).map((f) => f.name)));
    for (const name of [
      'labels',
      'technology',
      'corner_flag',
      'guaranteed_reviews',
      'standard_certification',
      'product_video',
      'shipping_delay',
      'shipping_delay_out_of_stock',
      'made_in_france',
      'Type_1',
      'Type_2',
      'Type_3',
      'eco_participation',
      'collection',
    ]) {
      expect(names).toContain(name);
    }
    for (const field of catalogue.flatMap((p) => p.custom_fields ?? [])) {
      if (field.name === 'guaranteed_reviews') {
        expect(JSON.parse(field.value)).toEqual({
          average: expect.any(Number) as unknown,
          total: expect.any(Number) as unknown,
        });
      }
      if (field.name === 'eco_participation') expect(field.value).toMatch(/^\d+\.\d{2}$/);
    }
  });

  test('variant pictures follow their colour', () => {
    const product = byId(PRODUCTS.manyColours);
    const urls = new Set(product.variants?.map((v) => v.image_url));
    expect(urls.size).toBe(product.options?.find((o) => o.type === 'swatch')?.option_values.length);
    for (const url of urls) expect(url.startsWith(`${sandbox.url}/images/1280x1280/`)).toBe(true);
  });

  test('products of the hidden categories exist', async () => {
    for (const id of [CATEGORIES.hiddenByMetafield, CATEGORIES.notVisible]) {
      const reply = await products(`?categories:in=${id}`);
      expect(reply.meta.pagination.total).toBeGreaterThan(0);
    }
  });

  test("reviews add up to the product's reviews_count and reviews_rating_sum", async () => {
    for (const product of catalogue.slice(0, 12)) {
      const reply = (await call(`/v3/catalog/products/${product.id}/reviews?limit=250`))
        .body as Paginated<{
        rating: number;
        product_id: number;
        status: string;
      }>;
      const facts = (await call(`/v3/catalog/products/${product.id}`)).body as {
        data: { reviews_count: number; reviews_rating_sum: number };
      };
      expect(reply.meta.pagination.total).toBe(facts.data.reviews_count);
      expect(reply.data.reduce((sum, r) => sum + r.rating, 0)).toBe(facts.data.reviews_rating_sum);
      for (const r of reply.data) {
        expect(r.rating >= 1 && r.rating <= 5).toBe(true);
        expect(r).toMatchObject({ product_id: product.id, status: 'approved' });
      }
    }
  });

  test('retired product: invisible, old url', () => {
    expect(byId(PRODUCTS.retired)).toMatchObject({
      is_visible: false,
      custom_url: { url: P_RULE_REDIRECT.fromPath },
    });
  });
});
