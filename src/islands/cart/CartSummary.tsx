/**
 * The cart's amounts (spec §3), shared by the cart sidebar and /panier: "Sous-total"
 * (base_amount), "Remise" when cart_amount is lower, then the bold bottom line "Total à payer":
 * cart_amount, what the shopper pays (`cartTotalsView`).
 */
import { useStore } from '@nanostores/react';
import { cartTotalsView } from '../../lib/commerce/cart.ts';
import { formatPrice } from '../../lib/commerce/money.ts';
import type { Translate } from '../../lib/i18n/translate.ts';
import { $cartTotals } from '../../lib/stores/cart.ts';

/** Message keys the summary reads. */
export const CART_SUMMARY_MESSAGES = ['cart.subtotal', 'cart.discount', 'cart.due'] as const;

export function CartSummary({ t, size = 'sm' }: { t: Translate; size?: 'sm' | 'lg' }) {
  const totals = cartTotalsView(useStore($cartTotals));
  return (
    <dl className="flex flex-col gap-2" data-cart-summary>
      <div className="flex items-baseline justify-between">
        <dt>{t('cart.subtotal')}</dt>
        <dd className="tabular-nums" data-cart-subtotal>
          {formatPrice(totals.subtotal)}
        </dd>
      </div>
      {totals.discount > 0 && (
        <div className="flex items-baseline justify-between text-sale" data-cart-discount>
          <dt>{t('cart.discount')}</dt>
          <dd className="tabular-nums">−{formatPrice(totals.discount)}</dd>
        </div>
      )}
      <div
        className={`flex items-baseline justify-between border-t border-neutral-200 pt-2 font-semibold ${size === 'lg' ? 'text-xl' : 'text-lg'}`}
      >
        <dt>{t('cart.due')}</dt>
        <dd className="tabular-nums" data-cart-total data-cart-due>
          {formatPrice(totals.due)}
        </dd>
      </div>
    </dl>
  );
}
