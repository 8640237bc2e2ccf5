export { createReviewsClient, type ReviewsClient } from './client.ts';
export { reviewSite, reviewsPageUrl, reviewsWidgetUrl, type ReviewSite } from './sites.ts';
