/**
 * The product page's reviews (spec §2): the ratings bar chart, the approved reviews (BigCommerce
 * product reviews, newest first, REVIEWS_PER_PAGE a page) and the review form. Mounted when the
 * reviews section comes near the viewport (`reviews-loader.ts`), so the product page loads none
 * of it up front and its build renders none of it.
 */
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { Translate } from '../../lib/i18n/translate.ts';
import {
  $reviewErrors,
  $reviewsLoading,
  $reviewsPage,
  loadReviews,
} from '../../lib/stores/reviews.ts';
import { buttonClass } from '../../lib/ui/classes.ts';
import { RatingChart } from './RatingChart.tsx';
import { ReviewForm } from './ReviewForm.tsx';

const dateFormat = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long' });
const formatDate = (value: string) => {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
};

export function ProductReviews({
  productId,
  expected,
  t,
}: {
  productId: number;
  /**
   * How many approved reviews the page was built with: while they load, the chart keeps its
   * place above the form (the section's box keeps the whole island's room, `reviewsRoom`).
   */
  expected: number;
  t: Translate;
}) {
  const page = useStore($reviewsPage);
  const loading = useStore($reviewsLoading);
  const loadError = useStore($reviewErrors).load;

  useEffect(() => {
    void loadReviews(productId, 1);
  }, [productId]);

  const current = page?.pagination.currentPage ?? 1;
  const totalPages = page?.pagination.totalPages ?? 1;

  return (
    <div className="grid gap-10 lg:grid-cols-[1fr_2fr]" data-product-reviews-island>
      <div className="flex flex-col gap-6">
        {page === null
          ? expected > 0 && <RatingChart distribution={null} t={t} />
          : page.pagination.total > 0 && <RatingChart distribution={page.distribution} t={t} />}
        <ReviewForm productId={productId} t={t} />
      </div>
      <div className="flex flex-col gap-4" aria-busy={loading}>
        {loadError !== null && (
          <p role="alert" className="text-sm font-semibold text-danger">
            {t('reviews.loadError')}
          </p>
        )}
        {page === null ? (
          loading && <p className="text-neutral-700">{t('common.loading')}</p>
        ) : page.items.length === 0 ? (
          <p className="text-neutral-700">{t('reviews.none')}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-neutral-200" data-reviews-list>
            {page.items.map((review) => (
              <li key={review.id} className="flex flex-col gap-1 py-4" data-review={review.id}>
                <p className="text-star" aria-hidden="true">
                  {'★'.repeat(review.rating)}
                  <span className="text-star-empty">{'★'.repeat(5 - review.rating)}</span>
                </p>
                <p className="sr-only">{t('reviews.ratingOf', { count: review.rating })}</p>
                <h3 className="font-semibold">{review.title}</h3>
                <p className="whitespace-pre-line text-neutral-800">{review.text}</p>
                <p className="text-sm text-neutral-600">
                  {t('reviews.by', { name: review.name, date: formatDate(review.dateReviewed) })}
                </p>
              </li>
            ))}
          </ul>
        )}
        {totalPages > 1 && (
          <nav
            aria-label={t('reviews.pagination')}
            className="flex flex-wrap items-center gap-x-4 gap-y-2"
          >
            <button
              type="button"
              className={buttonClass('outline', 'sm')}
              disabled={current <= 1 || loading}
              onClick={() => void loadReviews(productId, current - 1)}
            >
              {t('pagination.previous')}
            </button>
            <span aria-live="polite" className="whitespace-nowrap">
              {t('pagination.current', { current, total: totalPages })}
            </span>
            <button
              type="button"
              className={buttonClass('outline', 'sm')}
              disabled={current >= totalPages || loading}
              onClick={() => void loadReviews(productId, current + 1)}
            >
              {t('pagination.next')}
            </button>
          </nav>
        )}
      </div>
    </div>
  );
}
