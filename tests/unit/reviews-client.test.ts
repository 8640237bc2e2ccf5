import { describe, expect, test } from 'vitest';
import { withBudget } from '../../src/shop/connectors/http/budget.ts';
import {
  createReviewsClient,
  reviewSite,
  reviewsWidgetUrl,
} from '../../src/shop/connectors/reviews/index.ts';
import { ReviewsConfigError } from '../../src/shop/connectors/reviews/sites.ts';
import { REVIEW_SITES } from '../../src/shop/connectors/reviews/sites.ts';
import { ReviewsError } from '../../src/shop/connectors/reviews/client.ts';

const BASE = 'https://reviews.test/public/v3/reviews';

function fakeProvider(
  body: unknown = {
    ratings: { total: 12, average: 4.6, distribution: { 1: 0, 2: 1, 3: 0, 4: 2, 5: 9 } },
    reviews: [
      {
        id: 7,
        c: 'Léa M.',
        r: 5,
        txt: 'Parfait',
        date: '2025-06-01 10:00:00',
        reply: '',
        rdate: '',
      },
    ],
  },
) {
  const calls: string[] = [];
  let status = 200;
  const fetch = (input: Request | URL | string) => {
    const url = input instanceof Request ? input.url : String(input);
    calls.push(url);
    return Promise.resolve(
      new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
  };
  return {
    calls,
    fetch,
    fail: (next: number) => {
      status = next;
    },
  };
}

describe('guaranteed-reviews replies (spec §7)', () => {
  test('site: average, total and distribution', async () => {
    const provider = fakeProvider();
    const client = createReviewsClient({ apiUrl: BASE, fetch: provider.fetch });
    const site = await client.getSiteRating('8f3c2a91d4b7e605');
    expect(provider.calls).toEqual([`${BASE}/8f3c2a91d4b7e605/site`]);
    expect(site).toEqual({
      average: 4.6,
      total: 12,
      distribution: { 1: 0, 2: 1, 3: 0, 4: 2, 5: 9 },
    });
  });

  test('numbers sent as strings are read; garbage is refused (502 INVALID_RESPONSE)', async () => {
    const strings = fakeProvider({ ratings: { total: '3', average: '4.33' } });
    const site = await createReviewsClient({ apiUrl: BASE, fetch: strings.fetch }).getSiteRating(
      'abc',
    );
    expect(site).toMatchObject({ total: 3, average: 4.33 });
    for (const body of [
      { ratings: { total: 'beaucoup', average: 4 } },
      { ratings: { total: 3, average: 7 } },
      { ratings: { total: -1, average: 4 } },
      '<html>',
      null,
    ]) {
      const bad = fakeProvider(body);
      await expect(
        createReviewsClient({ apiUrl: BASE, fetch: bad.fetch }).getSiteRating('abc'),
      ).rejects.toMatchObject({ code: 'INVALID_RESPONSE', status: 502 });
    }
  });

  test('a brand without a site id makes no call; a malformed key or product id none either', async () => {
    const provider = fakeProvider();
    const client = createReviewsClient({ apiUrl: BASE, fetch: provider.fetch });
    expect(await client.getSiteRating(null)).toBeNull();
    expect(await client.getProductReviews(null, 101)).toBeNull();
    await expect(client.getSiteRating('../../admin')).rejects.toBeInstanceOf(ReviewsError);
    await expect(client.getProductReviews('abc', -1)).rejects.toBeInstanceOf(ReviewsError);
    expect(provider.calls).toEqual([]);
  });
});

describe('getSiteRating and getProductReviews', () => {
  test('the site rating alone; a product’s ratings and reviews, empty replies mapped to null', async () => {
    const provider = fakeProvider();
    const client = createReviewsClient({ apiUrl: BASE, fetch: provider.fetch });
    expect(await client.getSiteRating('abc')).toEqual({
      average: 4.6,
      total: 12,
      distribution: { 1: 0, 2: 1, 3: 0, 4: 2, 5: 9 },
    });
    expect(await client.getProductReviews('abc', 101)).toEqual({
      ratings: { average: 4.6, total: 12, distribution: { 1: 0, 2: 1, 3: 0, 4: 2, 5: 9 } },
      reviews: [
        {
          id: '7',
          author: 'Léa M.',
          rating: 5,
          text: 'Parfait',
          date: '2025-06-01 10:00:00',
          reply: null,
          replyDate: null,
        },
      ],
    });
    expect(provider.calls).toEqual([`${BASE}/abc/site`, `${BASE}/abc/101`]);
  });

  test('a shop reply, string numbers in a review and the distribution are read', async () => {
    const provider = fakeProvider({
      ratings: {
        total: '2',
        average: '3.5',
        distribution: { 1: '0', 2: '0', 3: '1', 4: '1', 5: '0' },
      },
      reviews: [
        {
          id: 'a1',
          c: 'Jean D.',
          r: '3',
          txt: 'Un peu ferme',
          date: '2025-05-02 08:30:00',
          odate: '2025-04-20 12:00:00',
          reply: 'Merci pour votre retour.',
          rdate: '2025-05-03 09:00:00',
          lang: 'fr',
        },
      ],
    });
    const reviews = await createReviewsClient({
      apiUrl: BASE,
      fetch: provider.fetch,
    }).getProductReviews('abc', 5);
    expect(reviews?.ratings.distribution).toEqual({ 1: 0, 2: 0, 3: 1, 4: 1, 5: 0 });
    expect(reviews?.reviews[0]).toMatchObject({
      rating: 3,
      reply: 'Merci pour votre retour.',
      replyDate: '2025-05-03 09:00:00',
    });
  });

  test('a product without reviews: zero ratings and no reviews', async () => {
    const provider = fakeProvider({
      ratings: { total: 0, average: 0, distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } },
      reviews: [],
    });
    const client = createReviewsClient({ apiUrl: BASE, fetch: provider.fetch });
    expect(await client.getProductReviews('abc', 9)).toEqual({
      ratings: { average: 0, total: 0, distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } },
      reviews: [],
    });
  });

  test('garbage in a review is refused: a score out of range, no date, a 1,001st review', async () => {
    const review = { id: 1, c: 'Léa M.', r: 5, txt: 'Bien', date: '2025-06-01 10:00:00' };
    for (const reviews of [
      [{ ...review, r: 6 }],
      [{ ...review, r: '4.5' }],
      [{ ...review, date: 'hier' }],
      [{ ...review, txt: undefined }],
      Array.from({ length: 1001 }, (_, i) => ({ ...review, id: i })),
    ]) {
      const bad = fakeProvider({ ratings: { total: 1, average: 5 }, reviews });
      await expect(
        createReviewsClient({ apiUrl: BASE, fetch: bad.fetch }).getProductReviews('abc', 1),
      ).rejects.toMatchObject({ name: 'ReviewsError', code: 'INVALID_RESPONSE' });
    }
  });

  test('a brand without a site id: null from both, no call', async () => {
    const provider = fakeProvider();
    const client = createReviewsClient({ apiUrl: BASE, fetch: provider.fetch });
    const withoutId = REVIEW_SITES.find((site) => site.siteId === null);
    expect(withoutId).toBeDefined();
    expect(await client.getSiteRating(withoutId?.siteId ?? null)).toBeNull();
    expect(await client.getProductReviews(null, 101)).toBeNull();
    expect(provider.calls).toEqual([]);
  });

  test('an HTTP error is a ReviewsError with its status; a spent time budget makes no call', async () => {
    const provider = fakeProvider();
    provider.fail(404);
    const client = createReviewsClient({ apiUrl: BASE, fetch: provider.fetch });
    await expect(client.getSiteRating('abc')).rejects.toMatchObject({
      name: 'ReviewsError',
      code: 'HTTP_404',
      status: 404,
    });
    const calls = provider.calls.length;
    await expect(withBudget(0, () => client.getSiteRating('other'))).rejects.toMatchObject({
      code: 'TIMEOUT',
      status: 504,
    });
    expect(provider.calls).toHaveLength(calls);
  });
});

describe('cache per id (spec §7)', () => {
  test('repeated and concurrent reads make one call per id; the lifetime ends it', async () => {
    let now = 0;
    const provider = fakeProvider();
    const client = createReviewsClient({
      apiUrl: BASE,
      fetch: provider.fetch,
      ttlMs: 1000,
      now: () => now,
    });
    await Promise.all([
      client.getSiteRating('abc'),
      client.getSiteRating('abc'),
      client.getProductReviews('abc', 101),
    ]);
    await client.getSiteRating('abc');
    expect(provider.calls).toHaveLength(2);
    now = 1001;
    await client.getSiteRating('abc');
    expect(provider.calls).toHaveLength(3);
  });

  test('concurrent reads of a slow reply share one call', async () => {
    const calls: string[] = [];
    const { promise: gate, resolve: release } = Promise.withResolvers<undefined>();
    const slow = async (input: Request | URL | string) => {
      calls.push(input instanceof Request ? input.url : String(input));
      await gate;
      return Response.json({ ratings: { total: 1, average: 4 }, reviews: [] });
    };
    const client = createReviewsClient({ apiUrl: BASE, fetch: slow });
    const reads = Promise.all([
      client.getSiteRating('abc'),
      client.getSiteRating('abc'),
      client.getSiteRating('abc'),
    ]);
    release(undefined);
    const [first, second, third] = await reads;
    expect(calls).toHaveLength(1);
    expect(first?.total).toBe(1);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
  });

  test('bounded: the least recently used id goes first', async () => {
    const provider = fakeProvider();
    const client = createReviewsClient({ apiUrl: BASE, fetch: provider.fetch, maxEntries: 2 });
    await client.getProductReviews('abc', 1);
    await client.getProductReviews('abc', 2);
    await client.getProductReviews('abc', 3);
    await client.getProductReviews('abc', 3);
    await client.getProductReviews('abc', 1);
    expect(provider.calls.map((url) => url.split('/').pop())).toEqual(['1', '2', '3', '1']);
  });

  test('a failure is not kept; the last good reply is served while the provider fails', async () => {
    let now = 0;
    const provider = fakeProvider();
    const client = createReviewsClient({
      apiUrl: BASE,
      fetch: provider.fetch,
      ttlMs: 1000,
      graceMs: 5000,
      now: () => now,
    });
    await client.getSiteRating('abc');
    provider.fail(503);
    now = 2000;
    expect((await client.getSiteRating('abc'))?.total).toBe(12);
    await expect(client.getSiteRating('other')).rejects.toMatchObject({
      status: 503,
      code: 'HTTP_503',
    });
    provider.fail(200);
    expect((await client.getSiteRating('other'))?.total).toBe(12);
  });
});

describe('brand sites (spec §3)', () => {
  test('eight brands, two without a site id, each with a carousel id', () => {
    expect(REVIEW_SITES).toHaveLength(8);
    expect(REVIEW_SITES.filter((s) => s.siteId === null)).toHaveLength(2);
    expect(new Set(REVIEW_SITES.map((s) => s.carouselIframeId)).size).toBe(8);
  });

  test('REVIEWS_SITE picks one (default the first); an unknown one is a clear startup error', () => {
    expect(reviewSite(undefined)).toBe(REVIEW_SITES[0]);
    expect(reviewSite(' dormelune ').brand).toBe('dormelune');
    expect(() => reviewSite('inconnue')).toThrow(ReviewsConfigError);
    expect(() => reviewSite('inconnue')).toThrow(/REVIEWS_SITE: "inconnue" is not one of literie/);
  });

  test('the widget address carries the carousel id', () => {
    const site = reviewSite('literie');
    expect(reviewsWidgetUrl('https://w.test/widgets/iframe/2/h/', site)).toBe(
      `https://w.test/widgets/iframe/2/h/?id=${site.carouselIframeId}`,
    );
  });
});
