import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ratingChartData, REVIEWS_PER_PAGE, reviewsRoom } from '../../src/lib/commerce/reviews.ts';
import { ratingDistribution } from '../../src/shop/connectors/bigcommerce/review.ts';
import { ApiReplyError, stubShopApi } from './helpers/shop-api.ts';

describe('rating chart data (spec §2: ticks a number and a star, no y-axis)', () => {
  test('bars 1 to 5, heights against the tallest, percents of all', () => {
    expect(ratingChartData({ 1: 1, 2: 0, 3: 1, 4: 2, 5: 4 })).toEqual([
      { rating: 1, tick: '1 ★', count: 1, height: 25, percent: 13 },
      { rating: 2, tick: '2 ★', count: 0, height: 0, percent: 0 },
      { rating: 3, tick: '3 ★', count: 1, height: 25, percent: 13 },
      { rating: 4, tick: '4 ★', count: 2, height: 50, percent: 25 },
      { rating: 5, tick: '5 ★', count: 4, height: 100, percent: 50 },
    ]);
    expect(ratingChartData({ 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 }).every((b) => b.height === 0)).toBe(
      true,
    );
  });

  test('any distribution: heights within 0..100, the tallest at 100, bad counts as 0 (property)', () => {
    const count = fc.oneof(fc.nat({ max: 10_000 }), fc.constant(-3), fc.constant(Number.NaN));
    fc.assert(
      fc.property(fc.tuple(count, count, count, count, count), ([a, b, c, d, e]) => {
        const bars = ratingChartData({ 1: a, 2: b, 3: c, 4: d, 5: e });
        const counts = bars.map((bar) => bar.count);
        return (
          bars.every((bar) => bar.height >= 0 && bar.height <= 100 && bar.count >= 0) &&
          (Math.max(...counts) === 0 || bars.some((bar) => bar.height === 100))
        );
      }),
    );
  });

  test('the distribution of reviews counts whole ratings 1 to 5 only', () => {
    expect(
      ratingDistribution([
        { rating: 5 },
        { rating: 5 },
        { rating: 1 },
        { rating: 0 },
        { rating: 4.5 },
      ]),
    ).toEqual({ 1: 1, 2: 0, 3: 0, 4: 0, 5: 2 });
  });
});

describe('reviews store', () => {
  type Store = typeof import('../../src/lib/stores/reviews.ts');
  let store: Store;
  beforeEach(async () => {
    vi.resetModules();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    store = await import('../../src/lib/stores/reviews.ts');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const page = (currentPage: number) => ({
    items: [],
    distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 },
    pagination: { total: 12, count: 5, perPage: 5, currentPage, totalPages: 3 },
  });

  test('pages of 5; a slow reply for an older page never replaces the newer one', async () => {
    const pending: ((value: unknown) => void)[] = [];
    const calls = stubShopApi({
      getProductReviewCollection: () => new Promise((resolve) => pending.push(resolve)),
    });
    const first = store.loadReviews(101, 2);
    const second = store.loadReviews(101, 3);
    await vi.waitFor(() => {
      expect(pending).toHaveLength(2);
    });
    pending[1]?.(page(3));
    await second;
    pending[0]?.(page(2));
    await first;
    expect(store.$reviewsPage.get()?.pagination.currentPage).toBe(3);
    expect(store.$reviewsLoading.get()).toBe(false);
    expect(calls[0]?.args).toEqual([{ productId: 101, query: { page: 2, limit: 5 } }]);
  });

  test('createReview: true on success; the API message in the create slot on failure', async () => {
    let fail = false;
    stubShopApi({
      createProductReview: () => {
        if (fail) throw new ApiReplyError('Too many attempts', 429);
        return { id: 1, status: 'pending' };
      },
    });
    const input = {
      productId: 101,
      title: 'Bien',
      text: 'Très bien',
      rating: 4,
      name: 'Léa',
      email: 'lea@example.fr',
    };
    expect(await store.createReview(input)).toBe(true);
    expect(store.$reviewErrors.get().create).toBeNull();
    fail = true;
    expect(await store.createReview(input)).toBe(false);
    expect(store.$reviewErrors.get().create).toBe('Too many attempts');
  });
});

describe('reviewsRoom: the height the reviews section keeps before its island mounts', () => {
  test('more room with reviews than without, at every width; none wider than five reviews', () => {
    const none = reviewsRoom(0);
    const one = reviewsRoom(1);
    for (const width of ['base', 'sm', 'lg'] as const) {
      expect(one[width]).toBeGreaterThan(none[width]);
      expect(reviewsRoom(500)[width]).toBe(reviewsRoom(REVIEWS_PER_PAGE)[width]);
    }
  });

  test('property: positive, never shrinking with more reviews, bad counts read as none', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (count) => {
        const room = reviewsRoom(count);
        const more = reviewsRoom(count + 1);
        for (const width of ['base', 'sm', 'lg'] as const) {
          expect(room[width]).toBeGreaterThan(0);
          expect(more[width]).toBeGreaterThanOrEqual(room[width]);
        }
      }),
    );
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(reviewsRoom(bad)).toEqual(reviewsRoom(0));
    }
  });
});
