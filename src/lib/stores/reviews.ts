/**
 * The product page's reviews (spec §2 reviews list and review form, §7 getProductReviewCollection
 * and createProductReview): the page of approved reviews shown, and the review form's send.
 * Each action keeps its own error slot and logs its failure (spec §8).
 */
import { atom, map } from 'nanostores';
import { api } from '../api/bigcommerce.ts';
import { errorMessage, logCallFailure } from '../api/client.ts';
import { REVIEWS_PER_PAGE } from '../commerce/reviews.ts';
import type { ProductReviewPage } from '../commerce/types.ts';
import type { ReviewInput } from '../commerce/validation.ts';

export const $reviewsPage = atom<ProductReviewPage | null>(null);
export const $reviewsLoading = atom(false);
export const $reviewErrors = map<{ load: string | null; create: string | null }>({
  load: null,
  create: null,
});

let latest = 0;

/** Loads page `page` of the product's approved reviews; a reply for an older request is ignored. */
export async function loadReviews(productId: number, page = 1): Promise<boolean> {
  const request = (latest += 1);
  $reviewsLoading.set(true);
  $reviewErrors.setKey('load', null);
  try {
    const reply = await api.getProductReviewCollection({
      productId,
      query: { page, limit: REVIEWS_PER_PAGE },
    });
    if (request === latest) $reviewsPage.set(reply);
    return true;
  } catch (error) {
    if (request !== latest) return false;
    logCallFailure('reviews load failed:', error);
    $reviewErrors.setKey('load', errorMessage(error));
    return false;
  } finally {
    if (request === latest) $reviewsLoading.set(false);
  }
}

/** Sends a review; it is pending until the shop approves it (the form says so). */
export async function createReview(input: ReviewInput): Promise<boolean> {
  $reviewErrors.setKey('create', null);
  try {
    await api.createProductReview(input);
    return true;
  } catch (error) {
    logCallFailure('review create failed:', error);
    $reviewErrors.setKey('create', errorMessage(error));
    return false;
  }
}
