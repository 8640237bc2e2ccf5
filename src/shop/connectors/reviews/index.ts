export {
  createReviewsClient,
  ReviewsError,
  type GuaranteedRating,
  type GuaranteedReview,
  type ProductReviews,
  type ReviewsClient,
  type ReviewsClientOptions,
} from './client.ts';
export {
  DEFAULT_REVIEWS_API_URL,
  DEFAULT_REVIEWS_WIDGET_URL,
  REVIEW_SITES,
  reviewSite,
  reviewsPageUrl,
  reviewsWidgetUrl,
  ReviewsConfigError,
  type ReviewSite,
} from './sites.ts';
