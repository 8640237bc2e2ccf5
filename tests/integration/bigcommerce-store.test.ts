/**
 * Store connectors against the sandbox over real HTTP: channel, store information, banners
 * and redirects, compared with the raw upstream JSON.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createBigCommerceClient,
  getAllBanners,
  getChannel,
  getRedirects,
  getStoreMeta,
  type BigCommerceClient,
} from '../../src/shop/connectors/bigcommerce/index.ts';
import { BigCommerceError } from '../../src/shop/connectors/bigcommerce/errors.ts';
import { startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';

let sandbox: TestSandbox;
let client: BigCommerceClient;

type Json = Record<string, unknown>;

async function raw<T>(path: string): Promise<T> {
  const response = await fetch(`${sandbox.url}/stores/${sandbox.storeHash}/${path}`, {
    headers: { 'X-Auth-Token': sandbox.token, Accept: 'application/json' },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = createBigCommerceClient({
    apiUrl: sandbox.url,
    storeHash: sandbox.storeHash,
    accessToken: sandbox.token,
    channelId: 1,
  });
});

afterAll(async () => {
  await sandbox.close();
});

describe('getChannel', () => {
  test("reads the client's channel with its currencies", async () => {
    const upstream = await raw<{ data: Json & { currencies: Json } }>(
      'v3/channels/1?include=currencies',
    );
    await expect(getChannel(client, { include: ['currencies'] })).resolves.toEqual({
      id: 1,
      name: upstream.data.name,
      defaultCurrency: upstream.data.currencies.default_currency,
      enabledCurrencies: upstream.data.currencies.enabled_currencies,
    });
  });

  test('an unknown channel → BigCommerceError 404', async () => {
    const error = await getChannel(client.withChannel(999)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BigCommerceError);
    expect(error).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      endpoint: 'GET v3/channels/999',
    });
  });
});

describe('getStoreMeta', () => {
  test('parses /v2/store into camelCase', async () => {
    const upstream = await raw<Json>('v2/store');
    await expect(getStoreMeta(client)).resolves.toEqual({
      name: upstream.name,
      domain: upstream.domain,
      secureUrl: upstream.secure_URL,
      phone: upstream.phone,
      address: upstream.address,
      adminEmail: upstream.admin_email,
      orderEmail: upstream.order_email,
      currency: upstream.currency,
      language: upstream.language,
      country: upstream.country,
    });
  });
});

describe('getAllBanners', () => {
  test("turns visible '1' / '0' into booleans", async () => {
    const upstream = await raw<Json[]>('v2/banners?limit=250');
    const banners = await getAllBanners(client);
    expect(banners.map((b) => b.id)).toEqual(upstream.map((b) => b.id));
    expect(banners.map((b) => b.visible)).toEqual(upstream.map((b) => b.visible === '1'));
    expect(banners.some((b) => !b.visible)).toBe(true);
    expect(banners[0]).toMatchObject({
      name: upstream[0]?.name,
      content: upstream[0]?.content,
      page: upstream[0]?.page,
      location: upstream[0]?.location,
    });
  });
});

describe('getRedirects', () => {
  test('reads every redirect with its resolved to_url and target entity', async () => {
    const upstream = await raw<{ data: (Json & { to: Json })[] }>(
      'v3/storefront/redirects?include=to_url&limit=250',
    );
    const redirects = await getRedirects(client);
    expect(redirects).toHaveLength(upstream.data.length);
    for (const [index, redirect] of redirects.entries()) {
      const source = upstream.data[index];
      expect(redirect.fromPath).toBe(source?.from_path);
      expect(redirect.toUrl).toBe(source?.to_url);
      expect(redirect.toType).toBe(source?.to.type);
      expect(redirect.toEntityId).toBe(source?.to.type === 'url' ? null : source?.to.entity_id);
    }
    expect(redirects.some((r) => r.toType === 'product' && r.toEntityId !== null)).toBe(true);
    expect(redirects.some((r) => r.toType === 'url')).toBe(true);
  });
});
