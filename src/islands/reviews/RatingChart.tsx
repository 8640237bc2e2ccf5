/**
 * The ratings bar chart (spec §2 reusable widget): one bar per rating, x-axis ticks a number
 * followed by a star, no y-axis labels, no legend. The bars are hidden from screen readers,
 * which read the same figures as a table. Without a distribution yet (`null`, the reviews still
 * loading) it keeps its place: the same box, ticks and empty bars, so nothing moves when the
 * figures come. Bars are drawn by a transform of a full-height box: growing moves no layout.
 */
import { ratingChartData } from '../../lib/commerce/reviews.ts';
import type { RatingDistribution } from '../../lib/commerce/types.ts';
import type { Translate } from '../../lib/i18n/translate.ts';

const EMPTY: RatingDistribution = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };

export function RatingChart({
  distribution,
  t,
}: {
  distribution: RatingDistribution | null;
  t: Translate;
}) {
  const bars = ratingChartData(distribution ?? EMPTY);
  return (
    <figure
      className="flex flex-col gap-2"
      data-rating-chart={distribution === null ? 'pending' : ''}
      aria-hidden={distribution === null ? true : undefined}
    >
      <div
        aria-hidden="true"
        className="flex h-32 items-end gap-3 border-b border-neutral-300 px-1"
      >
        {bars.map((bar) => (
          <div key={bar.rating} className="flex h-full flex-1 flex-col justify-end">
            <div
              className="h-full origin-bottom rounded-t bg-star motion-safe:transition-transform motion-safe:duration-300"
              style={{ transform: `scaleY(${String(Math.max(bar.height, 1) / 100)})` }}
              data-rating-bar={bar.rating}
            />
          </div>
        ))}
      </div>
      <div aria-hidden="true" className="flex gap-3 px-1 text-center text-xs text-neutral-700">
        {bars.map((bar) => (
          <span key={bar.rating} className="flex-1" data-rating-tick>
            {bar.tick}
          </span>
        ))}
      </div>
      {distribution !== null && (
        <table className="sr-only">
          <caption>{t('reviews.chartCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('reviews.chartRating')}</th>
              <th scope="col">{t('reviews.chartCount')}</th>
            </tr>
          </thead>
          <tbody>
            {[...bars].reverse().map((bar) => (
              <tr key={bar.rating}>
                <th scope="row">{t('reviews.stars', { count: bar.rating })}</th>
                <td>{t('reviews.chartValue', { count: bar.count, percent: bar.percent })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}
