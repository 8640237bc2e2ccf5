import { describe, expect, test } from 'vitest';
import {
  createReviewsClient,
  REVIEW_SITES,
  reviewSite,
  reviewsWidgetUrl,
  ReviewsConfigError,
  ReviewsError,
} from '../../src/lib/server/reviews/index.ts';

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
  test('site: average, total and distribution; reviews mapped', async () => {
    const provider = fakeProvider();
    const client = createReviewsClient({ apiUrl: BASE, fetch: provider.fetch });
    const site = await client.site('8f3c2a91d4b7e605');
    expect(provider.calls).toEqual([`${BASE}/8f3c2a91d4b7e605/site`]);
    expect(site?.rating).toEqual({
      average: 4.6,
      total: 12,
      distribution: { 1: 0, 2: 1, 3: 0, 4: 2, 5: 9 },
    });
    expect(site?.reviews[0]).toMatchObject({ id: '7', author: 'Léa M.', rating: 5 });
  });

  test('numbers sent as strings are read; garbage is refused (502 INVALID_RESPONSE)', async () => {
    const strings = fakeProvider({ ratings: { total: '3', average: '4.33' } });
    const site = await createReviewsClient({ apiUrl: BASE, fetch: strings.fetch }).site('abc');
    expect(site?.rating).toMatchObject({ total: 3, average: 4.33 });
    for (const body of [
      { ratings: { total: 'beaucoup', average: 4 } },
      { ratings: { total: 3, average: 7 } },
      { ratings: { total: -1, average: 4 } },
      '<html>',
      null,
    ]) {
      const bad = fakeProvider(body);
      await expect(
        createReviewsClient({ apiUrl: BASE, fetch: bad.fetch }).site('abc'),
      ).rejects.toMatchObject({ code: 'INVALID_RESPONSE', status: 502 });
    }
  });

  test('a brand without a site id makes no call; a malformed key or product id none either', async () => {
    const provider = fakeProvider();
    const client = createReviewsClient({ apiUrl: BASE, fetch: provider.fetch });
    expect(await client.site(null)).toBeNull();
    expect(await client.product(null, 101)).toBeNull();
    await expect(client.site('../../admin')).rejects.toBeInstanceOf(ReviewsError);
    await expect(client.product('abc', -1)).rejects.toBeInstanceOf(ReviewsError);
    expect(provider.calls).toEqual([]);
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
    await Promise.all([client.site('abc'), client.site('abc'), client.product('abc', 101)]);
    await client.site('abc');
    expect(provider.calls).toHaveLength(2);
    now = 1001;
    await client.site('abc');
    expect(provider.calls).toHaveLength(3);
  });

  test('bounded: the least recently used id goes first', async () => {
    const provider = fakeProvider();
    const client = createReviewsClient({ apiUrl: BASE, fetch: provider.fetch, maxEntries: 2 });
    await client.product('abc', 1);
    await client.product('abc', 2);
    await client.product('abc', 3);
    await client.product('abc', 3);
    await client.product('abc', 1);
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
    await client.site('abc');
    provider.fail(503);
    now = 2000;
    expect((await client.site('abc'))?.rating.total).toBe(12);
    await expect(client.site('other')).rejects.toMatchObject({ status: 503, code: 'HTTP_503' });
    provider.fail(200);
    expect((await client.site('other'))?.rating.total).toBe(12);
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
