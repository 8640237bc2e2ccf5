export {
  createReviewsClient,
  ReviewsError,
  type ReviewsClient,
  type ReviewsClientOptions,
} from './client.ts';
export {
  REVIEW_SITES,
  reviewSite,
  reviewsPageUrl,
  reviewsWidgetUrl,
  ReviewsConfigError,
  type ReviewSite,
} from './sites.ts';
