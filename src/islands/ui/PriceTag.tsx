/**
 * A displayed price in an island, like `src/components/ui/Price.astro`: the regular price, or
 * the special price beside the struck-through regular one, after "À partir de" when it is the
 * lowest of differently priced variants (`from`). Screen readers hear which is which.
 */
import { formatPrice } from '../../lib/commerce/money.ts';
import type { DisplayPrice } from '../../lib/commerce/price.ts';
import type { Translate } from '../../lib/i18n/translate.ts';

/** Message keys PriceTag reads. */
export const PRICE_TAG_MESSAGES = ['price.special', 'price.regular', 'price.fromPrefix'] as const;

export function PriceTag({
  price,
  t,
  from = false,
  className = '',
}: {
  price: Pick<DisplayPrice, 'regular' | 'special'>;
  t: Translate;
  /** The price is the lowest of differently priced variants (offer.ts). */
  from?: boolean;
  className?: string;
}) {
  const prefix = from ? (
    <span className="font-normal text-neutral-700">{t('price.fromPrefix')} </span>
  ) : null;
  if (price.special === null) {
    return (
      <span className={`font-semibold text-neutral-900 tabular-nums ${className}`}>
        {prefix}
        {formatPrice(price.regular)}
      </span>
    );
  }
  return (
    <span className={`inline-flex flex-wrap items-baseline gap-x-2 ${className}`}>
      {prefix}
      <span className="font-semibold text-sale tabular-nums">
        <span className="sr-only">{t('price.special')} </span>
        {formatPrice(price.special)}
      </span>
      <s className="text-sm text-neutral-600 tabular-nums">
        <span className="sr-only">{t('price.regular')} </span>
        {formatPrice(price.regular)}
      </s>
    </span>
  );
}
