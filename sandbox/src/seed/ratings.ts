/**
 * The ratings of a product's seeded reviews, derived from the product (never stored): the
 * BigCommerce reviews list (routes/reviews.ts) draws its reviews around them, and their count
 * per star is written beside each product (`rated_1`..`rated_5` of db.ts), so that the
 * guaranteed-reviews site rating adds up columns instead of drawing every product's reviews
 * (routes/guaranteed-reviews.ts).
 */
import { createRandom } from './random.ts';

/** What a product's seeded reviews are derived from (fields of its JSON). */
export interface ProductFacts {
  id: number;
  reviews_count: number;
  reviews_rating_sum: number;
  date_created: string;
}

/**
 * The ratings of the product's seeded reviews (they sum to reviews_rating_sum), and the random
 * source positioned after them for the rest of each review.
 */
export function spreadRatings(product: Omit<ProductFacts, 'date_created'>): {
  random: ReturnType<typeof createRandom>;
  ratings: number[];
} {
  const count = product.reviews_count;
  const random = createRandom(product.id * 7_919 + 17);
  const base = Math.floor(product.reviews_rating_sum / count);
  const ratings = Array.from(
    { length: count },
    (_, i) => base + (i < product.reviews_rating_sum % count ? 1 : 0),
  );
  // Spread the ratings without changing their sum: move a point from one review to another.
  for (let n = 0; n < count; n++) {
    const a = random.int(0, count - 1);
    const b = random.int(0, count - 1);
    const ra = ratings[a] ?? base;
    const rb = ratings[b] ?? base;
    if (a !== b && ra < 5 && rb > 1 && random.chance(0.3)) {
      ratings[a] = ra + 1;
      ratings[b] = rb - 1;
    }
  }
  return { random, ratings };
}

/**
 * How many of the product's seeded reviews give 1, 2, 3, 4 and 5 stars (index 0 is 1 star);
 * all zero for a product without reviews. Written with the product (`rated_1`..`rated_5`).
 */
export function ratingCounts(
  product: Omit<ProductFacts, 'date_created'>,
): [number, number, number, number, number] {
  const counts: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  if (product.reviews_count <= 0) return counts;
  for (const rating of spreadRatings(product).ratings) {
    const index = Math.min(5, Math.max(1, rating)) - 1;
    counts[index] = (counts[index] ?? 0) + 1;
  }
  return counts;
}
