/**
 * The product reviews' rules (spec §2 ratings bar chart, §5 review form): pure, shared by the
 * reviews island and the tests.
 */
import type { RatingDistribution } from './types.ts';

/** Reviews shown per page of the product page's list. */
export const REVIEWS_PER_PAGE = 5;

export interface RatingBar {
  rating: 1 | 2 | 3 | 4 | 5;
  /** spec §2: the x-axis tick, a number followed by a star. */
  tick: string;
  count: number;
  /** Share of the tallest bar, 0 to 100 (the chart has no y-axis). */
  height: number;
  /** Share of all reviews, 0 to 100, rounded (the table for screen readers). */
  percent: number;
}

/** The chart's bars, 1 to 5 stars from left to right. */
export function ratingChartData(distribution: RatingDistribution): RatingBar[] {
  const ratings = [1, 2, 3, 4, 5] as const;
  const count = (rating: 1 | 2 | 3 | 4 | 5) => {
    const value = distribution[rating];
    return Number.isSafeInteger(value) && value > 0 ? value : 0;
  };
  const total = ratings.reduce((sum, rating) => sum + count(rating), 0);
  const tallest = Math.max(0, ...ratings.map(count));
  return ratings.map((rating) => ({
    rating,
    tick: `${String(rating)} ★`,
    count: count(rating),
    height: tallest === 0 ? 0 : Math.round((count(rating) / tallest) * 100),
    percent: total === 0 ? 0 : Math.round((count(rating) / total) * 100),
  }));
}
