/**
 * Message keys of the product page's reviews (list, chart, form), handed to the island by its
 * section's `data-messages`.
 */
import { CALL_ERROR_MESSAGES } from '../api/client.ts';
export const PRODUCT_REVIEWS_MESSAGES = [
  // Any call may fail with these (upstream down or slow...): the island shows them in French.
  ...CALL_ERROR_MESSAGES,
  'reviews.write',
  'reviews.rating',
  'reviews.stars_one',
  'reviews.stars_other',
  'reviews.ratingOf_one',
  'reviews.ratingOf_other',
  'reviews.titleField',
  'reviews.text',
  'reviews.name',
  'reviews.email',
  'reviews.emailHint',
  'reviews.submit',
  'reviews.pending',
  'reviews.none',
  'reviews.by',
  'reviews.loadError',
  'reviews.pagination',
  'reviews.chartCaption',
  'reviews.chartRating',
  'reviews.chartCount',
  'reviews.chartValue_one',
  'reviews.chartValue_other',
  'pagination.previous',
  'pagination.next',
  'pagination.current',
  'common.loading',
  'validation.required',
  'validation.reviewMin',
  'validation.rating',
  'validation.nameMin',
  'validation.tooLong',
  'Invalid email',
  'Too many attempts',
  'Product not found',
] as const;
