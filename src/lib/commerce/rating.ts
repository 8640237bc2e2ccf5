import { t } from '../i18n/index.ts';

export const RATING_STEP = 0.5;
export const RATING_MAX = 5;

/** spec §5: reviews_rating_sum / reviews_count, or 0 when either is missing or zero. */
export function rating(sum: number | null | undefined, count: number | null | undefined): number {
  if (!sum || !count || !Number.isFinite(sum) || !Number.isFinite(count) || count <= 0) return 0;
  return sum / count;
}

/** spec §9 star step 0.5: the nearest multiple of `step` (halves round up), e.g. 4.26 → 4.5. */
export function roundToStep(value: number, step: number = RATING_STEP): number {
  if (!Number.isFinite(value) || step <= 0) return 0;
  return Math.round(value / step) * step;
}

/** spec §2 product card: `(n avis)`. */
export function reviewsCountLabel(count: number): string {
  return t('rating.reviewsCount', { count });
}
