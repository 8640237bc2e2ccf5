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

/** The room the reviews section keeps before its island mounts, in rem, by screen width. */
export interface ReviewsRoom {
  /** Phones (one column, narrow form). */
  base: number;
  /** From the `sm` breakpoint (one column). */
  sm: number;
  /** From the `lg` breakpoint (form and chart beside the list). */
  lg: number;
}

/**
 * The height the reviews island will take, never more (measured on the sandbox's product pages:
 * the chart 9.5 rem and its gap, the form 38 to 44 rem, each review 8.5 to 11 rem), for the
 * number of approved reviews the page was built with: the section keeps it from the start, so
 * that the island mounting and its reviews arriving move nothing below it (layout shift).
 */
export function reviewsRoom(expected: number): ReviewsRoom {
  const shown =
    Number.isSafeInteger(expected) && expected > 0 ? Math.min(expected, REVIEWS_PER_PAGE) : 0;
  const chart = shown > 0 ? 11 : 0;
  const gap = 2.5;
  const none = 1.5;
  return {
    base: chart + 43.5 + gap + (shown > 0 ? shown * 10 : none),
    sm: chart + 38 + gap + (shown > 0 ? shown * 8.5 : none),
    lg: Math.max(chart + 38, shown > 0 ? shown * 8.5 : none),
  };
}
