/**
 * The guaranteed-reviews provider emulated by the sandbox (upstream README shape) and the
 * shop's connector against it: replies, errors, and one provider call for repeated reads.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PRODUCTS } from '../../scripts/sandbox/fixtures.ts';
import { createReviewsClient, REVIEW_SITES } from '../../src/lib/server/reviews/index.ts';
import { startTestSandbox, type TestSandbox } from './helpers/sandbox.ts';

let sandbox: TestSandbox;
let base: string;
const siteId = REVIEW_SITES[0]?.siteId ?? '';

beforeAll(async () => {
  sandbox = await startTestSandbox();
  base = `${sandbox.url}/guaranteed-reviews/public/v3/reviews`;
});

afterAll(async () => {
  await sandbox.close();
});

interface ProviderReply {
  ratings: { total: number; average: number; distribution: Record<string, number> };
  reviews: { id: string; c: string; r: number; txt: string; date: string; lang: string }[];
}

describe('sandbox: the provider’s public API', () => {
  test('site: ratings add up, reviews newest first, at most 1,000, in the documented fields', async () => {
    const response = await fetch(`${base}/${siteId}/site`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as ProviderReply;
    const { total, average, distribution } = body.ratings;
    expect(Object.keys(distribution)).toEqual(['1', '2', '3', '4', '5']);
    expect(Object.values(distribution).reduce((a, b) => a + b, 0)).toBe(total);
    expect(average).toBeGreaterThan(0);
    expect(average).toBeLessThanOrEqual(5);
    expect(body.reviews.length).toBeLessThanOrEqual(1000);
    const dates = body.reviews.map((r) => r.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(body.reviews[0]).toEqual({
      id: expect.any(String) as unknown,
      c: expect.stringMatching(/^\S+ [A-Z]\.$/) as unknown,
      r: expect.any(Number) as unknown,
      txt: expect.any(String) as unknown,
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) as unknown,
      odate: expect.any(String) as unknown,
      reply: null,
      rdate: null,
      lang: 'fr',
    });
  });

  test('a product: the same count as its BigCommerce reviews; unknown product or key 404', async () => {
    const product = (await (
      await fetch(
        `${sandbox.url}/stores/${sandbox.storeHash}/v3/catalog/products/${String(PRODUCTS.trackingVariant)}`,
        { headers: { 'X-Auth-Token': sandbox.token } },
      )
    ).json()) as { data: { reviews_count: number } };
    const reply = (await (
      await fetch(`${base}/${siteId}/${String(PRODUCTS.trackingVariant)}`)
    ).json()) as ProviderReply;
    expect(reply.ratings.total).toBe(product.data.reviews_count);
    expect((await fetch(`${base}/${siteId}/99999999`)).status).toBe(404);
    expect((await fetch(`${base}/bad%20key/site`)).status).toBe(404);
    expect((await fetch(`${base}/${siteId}/site/extra`)).status).toBe(404);
  });
});

describe('connector against the sandbox', () => {
  test('repeated reads of one id make one provider call (counted at the sandbox)', async () => {
    const seen: string[] = [];
    const counting = (input: Request | URL | string, init?: RequestInit) => {
      seen.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    };
    const client = createReviewsClient({ apiUrl: base, fetch: counting });
    const first = await client.site(siteId);
    await Promise.all([client.site(siteId), client.site(siteId)]);
    await client.product(siteId, PRODUCTS.trackingVariant);
    await client.product(siteId, PRODUCTS.trackingVariant);
    expect(first?.rating.total).toBeGreaterThan(0);
    expect(seen).toEqual([
      `${base}/${siteId}/site`,
      `${base}/${siteId}/${String(PRODUCTS.trackingVariant)}`,
    ]);
  });
});
