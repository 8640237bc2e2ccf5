/**
 * The shop's guaranteed-reviews connector (`src/shop/connectors/reviews/`) against the sandbox's
 * emulation of the provider: what it reads, one provider call for repeated reads (counted at
 * the fetch the connector uses), no call for a brand without a site id, and the provider's
 * failures (injected by the sandbox) as ReviewsError or the last good reply.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { PRODUCTS } from '@literie/sandbox/fixtures';
import { createReviewsClient } from '../../src/shop/connectors/reviews/index.ts';
import { type ReviewsClientOptions } from '../../src/shop/connectors/reviews/client.ts';
import { REVIEW_SITES } from '../../src/shop/connectors/reviews/sites.ts';
import { ReviewsError } from '../../src/shop/connectors/reviews/client.ts';
import { startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';

let sandbox: TestSandbox;
let base: string;
const siteId = REVIEW_SITES[0]?.siteId ?? '';
const product = PRODUCTS.trackingVariant;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  base = `${sandbox.url}/guaranteed-reviews/public/v3/reviews`;
});

afterAll(async () => {
  await sandbox.close();
});

afterEach(async () => {
  await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'DELETE',
    headers: { 'X-Auth-Token': sandbox.token },
  });
});

/** A connector on the sandbox whose provider calls are recorded. */
function countingClient(options: Partial<ReviewsClientOptions> = {}) {
  const calls: string[] = [];
  const client = createReviewsClient({
    apiUrl: base,
    fetch: (input, init) => {
      calls.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    },
    ...options,
  });
  return { client, calls };
}

async function injectFault(fault: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'X-Auth-Token': sandbox.token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ match: '/guaranteed-reviews/', ...fault }),
  });
  expect(response.status).toBe(201);
}

const raw = async (path: string) =>
  (await (await fetch(`${base}/${path}`)).json()) as {
    ratings: { total: number; average: number; distribution: Record<string, number> };
    reviews: { id: string; c: string; r: number; txt: string; date: string }[];
  };

describe('reads', () => {
  test('getSiteRating: the provider’s average, total and distribution', async () => {
    const { client } = countingClient();
    const expected = (await raw(`${siteId}/site`)).ratings;
    expect(await client.getSiteRating(siteId)).toEqual({
      average: expected.average,
      total: expected.total,
      distribution: {
        1: expected.distribution['1'],
        2: expected.distribution['2'],
        3: expected.distribution['3'],
        4: expected.distribution['4'],
        5: expected.distribution['5'],
      },
    });
  });

  test('getProductReviews: ratings and every review, newest first, in the shop’s fields', async () => {
    const { client } = countingClient();
    const expected = await raw(`${siteId}/${String(product)}`);
    const reviews = await client.getProductReviews(siteId, product);
    expect(reviews?.ratings.total).toBe(expected.ratings.total);
    expect(reviews?.reviews).toEqual(
      expected.reviews.map((review) => ({
        id: review.id,
        author: review.c,
        rating: review.r,
        text: review.txt,
        date: review.date,
        reply: null,
        replyDate: null,
      })),
    );
  });

  test('every brand with a site id: the sandbox serves its rating', async () => {
    const { client } = countingClient();
    for (const site of REVIEW_SITES) {
      if (site.siteId === null) continue;
      expect((await client.getSiteRating(site.siteId))?.total).toBeGreaterThan(0);
    }
  });

  test('a brand without a site id: null, and no call at all', async () => {
    const { client, calls } = countingClient();
    const brands = REVIEW_SITES.filter((site) => site.siteId === null);
    expect(brands).toHaveLength(2);
    for (const brand of brands) {
      expect(await client.getSiteRating(brand.siteId)).toBeNull();
      expect(await client.getProductReviews(brand.siteId, product)).toBeNull();
    }
    expect(calls).toEqual([]);
  });
});

describe('cache', () => {
  test('repeated and concurrent reads of an id make one provider call each', async () => {
    const { client, calls } = countingClient();
    await Promise.all([
      client.getSiteRating(siteId),
      client.getSiteRating(siteId),
      client.getSiteRating(siteId),
    ]);
    await client.getSiteRating(siteId);
    await Promise.all([
      client.getProductReviews(siteId, product),
      client.getProductReviews(siteId, product),
    ]);
    await client.getProductReviews(siteId, product);
    expect(calls).toEqual([`${base}/${siteId}/site`, `${base}/${siteId}/${String(product)}`]);
  });

  test('past its lifetime an id is read again; while the provider fails the last good reply is served', async () => {
    let now = 0;
    const { client, calls } = countingClient({ ttlMs: 1_000, graceMs: 10_000, now: () => now });
    const good = await client.getSiteRating(siteId);
    now = 1_500;
    await injectFault({ status: 503 });
    expect(await client.getSiteRating(siteId)).toEqual(good);
    // The 503 is retried once before the last good reply is served.
    expect(calls).toHaveLength(3);
    // Not cached: every read of a failing id asks again (and retries once).
    for (let i = 0; i < 2; i++) {
      await expect(client.getProductReviews(siteId, product)).rejects.toMatchObject({
        name: 'ReviewsError',
        code: 'HTTP_503',
        status: 503,
      });
    }
    expect(calls).toHaveLength(7);
    now = 20_000;
    await expect(client.getSiteRating(siteId)).rejects.toBeInstanceOf(ReviewsError);
  });
});

describe('failures', () => {
  test('a passing 503 is retried once: the retry answers', async () => {
    await injectFault({ status: 503, times: 1 });
    const { client, calls } = countingClient();
    const rating = await client.getSiteRating(siteId);
    expect(rating?.total).toBeGreaterThan(0);
    expect(calls).toHaveLength(2);
  });

  test('a dead provider: NETWORK_ERROR; a slow one: TIMEOUT at the call timeout', async () => {
    await injectFault({ down: 'reset' });
    await expect(countingClient().client.getSiteRating(siteId)).rejects.toMatchObject({
      name: 'ReviewsError',
      code: 'NETWORK_ERROR',
    });
    // A reply after 1.5 s would do under the default timeout (3 s): the call's 200 ms ends it.
    await injectFault({ latencyMs: 1_500 });
    const slow = countingClient({ timeout: 200 });
    await expect(slow.client.getSiteRating(siteId)).rejects.toMatchObject({
      code: 'TIMEOUT',
      status: 504,
    });
    expect(slow.calls).toHaveLength(1);
  });

  test('an unknown product is the provider’s 404', async () => {
    await expect(
      countingClient().client.getProductReviews(siteId, 99_999_999),
    ).rejects.toMatchObject({ code: 'HTTP_404', status: 404 });
  });
});
