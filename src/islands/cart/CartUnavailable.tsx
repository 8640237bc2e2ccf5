/**
 * The cart that could not be loaded (carts survive faults): while the platform fails
 * (5xx, timeout, no reply) the cart is unknown, not empty. The cart sidebar and the cart page
 * show this notice, never "Votre panier est vide", with "Réessayer", which loads the cart again
 * (or runs the login merge a fault deferred, `retryCart`). Nothing shows once a load succeeded.
 */
import { useStore } from '@nanostores/react';
import type { Translate } from '../../lib/i18n/translate.ts';
import { $cartErrors, $cartLoading, retryCart } from '../../lib/stores/cart.ts';
import { buttonClass } from '../../lib/ui/classes.ts';

/** Message keys the notice reads. */
export const CART_UNAVAILABLE_MESSAGES = [
  'cart.unavailable',
  'cart.unavailableKept',
  'cart.retry',
  'common.loading',
] as const;

export function CartUnavailable({ t }: { t: Translate }) {
  const failed = useStore($cartErrors).load !== null;
  const loading = useStore($cartLoading);
  if (!failed) return null;
  return (
    <div
      role="alert"
      className="flex flex-col items-start gap-3 rounded-card border border-neutral-200 bg-neutral-50 p-4"
      data-cart-unavailable
    >
      <p className="font-semibold text-primary-900">{t('cart.unavailable')}</p>
      <p className="text-sm text-neutral-700">{t('cart.unavailableKept')}</p>
      <button
        type="button"
        className={buttonClass('outline', 'sm')}
        disabled={loading}
        onClick={() => {
          void retryCart();
        }}
      >
        {loading ? t('common.loading') : t('cart.retry')}
      </button>
    </div>
  );
}
