/**
 * The BigCommerce sandbox over real HTTP: every endpoint's reply validated against the contract
 * extracted from BigCommerce's OpenAPI files (tests/contracts/bigcommerce.json), filters, sort,
 * paging, errors, and the seed's invariants and fixtures.
 *
 * This file: the contract of every endpoint, authentication and unknown paths (catalogue reads:
 * catalogue.test.ts; store and seed: store.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BRANDS, CATEGORIES, CHANNEL_ID, PRODUCTS, SITE_ID } from '../src/fixtures.ts';
import { isSandboxListening } from '../src/server.ts';
import { startTestSandbox, type TestSandbox } from '../src/testing.ts';
import { ajv, contract, expectContract, storeApi, type Paginated } from './helpers.ts';

let sandbox: TestSandbox;

const { call } = storeApi(() => sandbox);

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
