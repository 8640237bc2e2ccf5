/**
 * /panier (spec §2): the cart's lines with quantities and stock flags, the amounts
 * (`CartSummary`, spec §3: subtotal = base amount, the discount, then the amount due = cart
 * amount), clear, go to checkout (with `t`, spec §4; stopped while a line is over stock) and
 * back to shopping. Pushes view_cart (spec §9) once the cart is loaded.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState } from 'react';
import { createTranslator, type Messages } from '../../lib/i18n/translate.ts';
import { trackViewCart } from '../../lib/stores/analytics.ts';
import {
  $cart,
  $cartItems,
  $cartLoading,
  $cartUnavailable,
  initCart,
} from '../../lib/stores/cart.ts';
import { buttonClass } from '../../lib/ui/classes.ts';
import { CART_LINES_MESSAGES, CartLines } from './CartLines.tsx';
import { CART_UNAVAILABLE_MESSAGES, CartUnavailable } from './CartUnavailable.tsx';
import { CART_SUMMARY_MESSAGES, CartSummary } from './CartSummary.tsx';
import { CheckoutLink } from './CheckoutLink.tsx';
import { CLEAR_CART_MESSAGES, ClearCartButton } from './ClearCartButton.tsx';
import { SEND_CART_MESSAGES, SendCartForm } from '../reseller/SendCartForm.tsx';

export const CART_PAGE_MESSAGES = [
  ...CART_LINES_MESSAGES,
  ...CART_UNAVAILABLE_MESSAGES,
  ...CART_SUMMARY_MESSAGES,
  ...CLEAR_CART_MESSAGES,
  'cart.empty',
  'cart.checkout',
  'cart.continueShopping',
  'cart.summary',
  'common.loading',
] as const;

export const RESELLER_CART_PAGE_MESSAGES = [
  ...CART_PAGE_MESSAGES,
  ...SEND_CART_MESSAGES,
  'reseller.cartSentTo',
  'reseller.emptyCart',
] as const;

export function CartPage({
  messages,
  reseller,
}: {
  messages: Messages;
  /**
   * The reseller area's cart (spec §2): the reseller cart, sent to a client (by one of these
   * sellers) instead of going to checkout.
   */
  reseller?: { sellers: readonly string[] };
}) {
  const t = useMemo(() => createTranslator(messages), [messages]);
  const cart = useStore($cart);
  const items = useStore($cartItems);
  const loading = useStore($cartLoading);
  // Carts survive faults: a cart that could not be loaded is unknown, never shown as empty.
  const unavailable = useStore($cartUnavailable);
  // The cart is known once the page's first load is done (an empty cart has no id).
  const [loaded, setLoaded] = useState(false);
  // The address the reseller's last cart went to (the cart is then a new, empty one).
  const [sentTo, setSentTo] = useState<string | null>(null);
  const isReseller = reseller !== undefined;

  useEffect(() => {
    void initCart({ reseller: isReseller }).then(() => {
      setLoaded(true);
    });
  }, [isReseller]);
  useEffect(() => {
    if (loaded && cart.id !== null) trackViewCart($cart.get());
  }, [loaded, cart.id]);

  if (!loaded) {
    return (
      <p className="py-10 text-neutral-700" aria-busy={loading}>
        {t('common.loading')}
      </p>
    );
  }
  if (items.length === 0 && unavailable) {
    return (
      <div className="py-10">
        <CartUnavailable t={t} />
      </div>
    );
  }
  if (items.length === 0) {
    return (
      <div className="flex flex-col items-start gap-4 py-10">
        {sentTo !== null && (
          <p role="status" className="rounded-control bg-success/10 px-3 py-2 font-semibold">
            {t('reseller.cartSentTo', { email: sentTo })}
          </p>
        )}
        <p className="text-lg text-neutral-700">
          {isReseller ? t('reseller.emptyCart') : t('cart.empty')}
        </p>
        <a href="/" className={buttonClass('primary')}>
          {t('cart.continueShopping')}
        </a>
      </div>
    );
  }
  return (
    <div className="grid gap-8 lg:grid-cols-[2fr_1fr]">
      <div className="flex flex-col gap-4">
        <CartUnavailable t={t} />
        <CartLines t={t} size="lg" />
        <ClearCartButton t={t} className="self-start" />
      </div>
      <section
        aria-labelledby="cart-summary"
        className="flex h-fit flex-col gap-4 rounded-card bg-neutral-50 p-5"
      >
        <h2 id="cart-summary" className="text-xl font-semibold">
          {t('cart.summary')}
        </h2>
        <CartSummary t={t} size="lg" />
        {reseller === undefined ? (
          <CheckoutLink label={t('cart.checkout')} t={t} />
        ) : (
          <SendCartForm sellers={reseller.sellers} t={t} onSent={setSentTo} />
        )}
        <a href="/" className={buttonClass('ghost', 'md', { fullWidth: true })}>
          {t('cart.continueShopping')}
        </a>
      </section>
    </div>
  );
}
