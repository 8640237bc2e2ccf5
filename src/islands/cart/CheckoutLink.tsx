/**
 * "Passer commande" (spec §4): the link to checkout with the `t` time-stamp, taken at the click
 * rather than when the link rendered. With a line out of stock or over what is left (spec §4
 * Stock, `stockBlockers`), going on is stopped: the click stays here and the message says why;
 * each flagged line carries its one-click fix (`CartLineStock`). `/paiement` checks again.
 */
import { useStore } from '@nanostores/react';
import { useId, useState } from 'react';
import { buttonClass } from '../../lib/ui/classes.ts';
import { checkoutLink } from '../../lib/commerce/cart.ts';
import { stockBlockers } from '../../lib/commerce/line-stock.ts';
import type { Translate } from '../../lib/i18n/translate.ts';
import { $cartItems } from '../../lib/stores/cart.ts';

export function CheckoutLink({ label, t }: { label: string; t: Translate }) {
  const blocked = stockBlockers(useStore($cartItems)).length > 0;
  const [stopped, setStopped] = useState(false);
  const noticeId = useId();
  return (
    <div className="flex flex-col gap-2">
      {blocked && (
        <p
          id={noticeId}
          role={stopped ? 'alert' : undefined}
          className="text-sm font-semibold text-danger"
          data-checkout-stock-blocked
        >
          {t('cart.stock.checkoutBlocked')}
        </p>
      )}
      <a
        href={checkoutLink()}
        className={buttonClass('primary', 'lg', { fullWidth: true })}
        aria-disabled={blocked ? true : undefined}
        aria-describedby={blocked ? noticeId : undefined}
        onClick={(event) => {
          if (blocked) {
            event.preventDefault();
            setStopped(true);
            return;
          }
          event.currentTarget.href = checkoutLink();
        }}
      >
        {label}
      </a>
    </div>
  );
}
