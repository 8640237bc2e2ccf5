/**
 * The ratings bar chart (spec §2 reusable widget): one bar per rating, x-axis ticks a number
 * followed by a star, no y-axis labels, no legend. The bars are hidden from screen readers,
 * which read the same figures as a table.
 */
import { ratingChartData } from '../../lib/commerce/reviews.ts';
import type { RatingDistribution } from '../../lib/commerce/types.ts';
import type { Translate } from '../../lib/i18n/translate.ts';

export function RatingChart({
  distribution,
  t,
}: {
  distribution: RatingDistribution;
  t: Translate;
}) {
  const bars = ratingChartData(distribution);
  return (
    <figure className="flex flex-col gap-2" data-rating-chart>
      <div
        aria-hidden="true"
        className="flex h-32 items-end gap-3 border-b border-neutral-300 px-1"
      >
        {bars.map((bar) => (
          <div key={bar.rating} className="flex h-full flex-1 flex-col justify-end">
            <div
              className="min-h-px rounded-t bg-star"
              style={{ height: `${String(bar.height)}%` }}
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
    </figure>
  );
}
