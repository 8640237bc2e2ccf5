/**
 * The BigCommerce sandbox over real HTTP: every endpoint's reply validated against the contract
 * extracted from BigCommerce's OpenAPI files (tests/contracts/bigcommerce.json), filters, sort,
 * paging, errors, and the seed's invariants and fixtures.
 *
 * This file: the store, channel, banners and redirects, and the seed's invariants and fixtures.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  CATEGORIES,
  CHANNEL_ID,
  P_RULE_REDIRECT,
  PRODUCTS,
  SEED_PRODUCT_COUNT,
  SITE_ID,
} from '../src/fixtures.ts';
import { startTestSandbox, type TestSandbox } from '../src/testing.ts';
import { storeApi, type Paginated, type ProductJson } from './helpers.ts';

let sandbox: TestSandbox;

const { call, products, allProducts } = storeApi(() => sandbox);

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox.close();
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
