/**
 * Product review connectors (spec §7 "Commerce: orders, reviews"): approved reviews of a
 * product by page, and a new review (pending until the shop approves it).
 */
import type {
  ProductReview,
  ProductReviewPage,
  RatingDistribution,
} from '../../../lib/commerce/types.ts';
import type { BigCommerceClient } from './client.ts';
import { MAX_PAGE_SIZE, type ReviewsQuery, type ReviewWrite } from './queries.ts';
import { ProductReviewPageSchema, ProductReviewReplySchema } from './schemas/reviews.ts';

const DEFAULT_REVIEWS_PER_PAGE = 10;
// A product with more reviews than this shows the newest of these.
const MAX_REVIEW_PAGES = 20;

/**
 * A page of the product's approved reviews, newest first. The reviews API has no status
 * filter: every review is read (pages of 250) and the approved ones paged here, so counts
 * and pages are exact and shoppers never see a pending or disapproved review.
 */
export async function getProductReviews(
  client: BigCommerceClient,
  productId: number,
  query: ReviewsQuery = {},
): Promise<ProductReviewPage> {
  const all: ProductReview[] = [];
  for (let page = 1; page <= MAX_REVIEW_PAGES; page += 1) {
    const reply = await client.get(
      `v3/catalog/products/${productId}/reviews`,
      ProductReviewPageSchema,
      { page, limit: MAX_PAGE_SIZE },
    );
    all.push(...reply.items);
    if (page >= reply.pagination.totalPages || reply.items.length < MAX_PAGE_SIZE) break;
  }
  const approved = all
    .filter((r) => r.status === 'approved')
    .sort((a, b) => Date.parse(b.dateReviewed) - Date.parse(a.dateReviewed) || b.id - a.id);
  const perPage = query.limit ?? DEFAULT_REVIEWS_PER_PAGE;
  const currentPage = query.page ?? 1;
  const items = approved.slice((currentPage - 1) * perPage, currentPage * perPage);
  return {
    items,
    distribution: ratingDistribution(approved),
    pagination: {
      total: approved.length,
      count: items.length,
      perPage,
      currentPage,
      totalPages: Math.max(1, Math.ceil(approved.length / perPage)),
    },
  };
}

/** Approved reviews per whole rating 1 to 5 (a rating out of range counts nowhere). */
export function ratingDistribution(
  reviews: readonly Pick<ProductReview, 'rating'>[],
): RatingDistribution {
  const counts = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  for (const { rating } of reviews) {
    if (rating === 1 || rating === 2 || rating === 3 || rating === 4 || rating === 5)
      counts[rating] += 1;
  }
  return counts;
}

/** Creates a review of the product. */
export async function createProductReview(
  client: BigCommerceClient,
  productId: number,
  review: ReviewWrite,
): Promise<ProductReview> {
  return client.send('post', `v3/catalog/products/${productId}/reviews`, ProductReviewReplySchema, {
    json: {
      title: review.title,
      text: review.text,
      rating: review.rating,
      name: review.name,
      email: review.email,
      status: review.status,
      date_reviewed: review.dateReviewed,
    },
  });
}
