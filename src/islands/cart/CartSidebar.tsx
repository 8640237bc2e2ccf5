/**
 * Cart sidebar (spec §2): the lines, the amounts (`CartSummary`: subtotal, discount, amount
 * due), clear cart, go to checkout (with the `t` time-stamp, spec §4; stopped while a line is
 * over stock) and back to shopping. Opened by the header's cart button and by the
 * "added to cart" notification; a drawer on the native `<dialog>`.
 */
import { useStore } from '@nanostores/react';
import { features } from '../../lib/env-client.ts';
import { CART_PATH, RESELLER_CART_PATH } from '../../lib/commerce/routes.ts';
import { inResellerMode } from '../../lib/commerce/shop-mode.ts';
import { $customer } from '../../lib/stores/customer.ts';
import { useEffect } from 'react';
import type { Translate } from '../../lib/i18n/translate.ts';
import { trackViewCart } from '../../lib/stores/analytics.ts';
import { $cart, $cartItemCount, $cartItems, $cartUnavailable } from '../../lib/stores/cart.ts';
import { $cartSidebarOpen, closeCartSidebar } from '../../lib/stores/ui.ts';
import { buttonClass } from '../../lib/ui/classes.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { CartLines } from './CartLines.tsx';
import { CartUnavailable } from './CartUnavailable.tsx';
import { ClearCartButton } from './ClearCartButton.tsx';
import { CartSummary } from './CartSummary.tsx';
import { CheckoutLink } from './CheckoutLink.tsx';

export function CartSidebar({ t }: { t: Translate }) {
  const open = useStore($cartSidebarOpen);
  const items = useStore($cartItems);
  const count = useStore($cartItemCount);
  const empty = items.length === 0;
  // Carts survive faults: a cart that could not be loaded is unknown, never shown as empty.
  const unavailable = useStore($cartUnavailable);
  const reseller = inResellerMode(useStore($customer), features.resellerArea);

  // spec §9 analytics: view_cart each time the sidebar opens.
  useEffect(() => {
    if (open) trackViewCart($cart.get());
  }, [open]);

  return (
    <Dialog
      open={open}
      onClose={closeCartSidebar}
      title={t('cart.title')}
      closeLabel={t('cart.close')}
      variant="drawer-right"
      footer={
        empty ? undefined : (
          <div className="flex flex-col gap-3">
            <CartSummary t={t} />
            {reseller ? (
              // spec §6: a reseller sends the cart to a client from the reseller cart page.
              <a
                href={RESELLER_CART_PATH}
                className={buttonClass('primary', 'lg', { fullWidth: true })}
              >
                {t('reseller.sendCart')}
              </a>
            ) : (
              <CheckoutLink label={t('cart.checkout')} t={t} />
            )}
            <div className="flex flex-wrap items-center justify-between gap-2">
              <a
                href={reseller ? RESELLER_CART_PATH : CART_PATH}
                className={buttonClass('link', 'sm')}
              >
                {t('cart.viewCart')}
              </a>
              <ClearCartButton t={t} />
            </div>
          </div>
        )
      }
    >
      <p className="sr-only" aria-live="polite">
        {empty && unavailable ? '' : t('header.cartCount', { count })}
      </p>
      <CartUnavailable t={t} />
      {empty && unavailable ? null : empty ? (
        <div className="flex flex-col items-start gap-4 py-6">
          <p className="text-neutral-700">{t('cart.empty')}</p>
          <button type="button" className={buttonClass('outline')} onClick={closeCartSidebar}>
            {t('cart.continueShopping')}
          </button>
        </div>
      ) : (
        <>
          <CartLines t={t} />
          <button
            type="button"
            className={buttonClass('ghost', 'sm', { className: 'mt-2' })}
            onClick={closeCartSidebar}
          >
            {t('cart.continueShopping')}
          </button>
        </>
      )}
    </Dialog>
  );
}
