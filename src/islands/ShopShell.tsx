/**
 * The page shell's browser part (spec §4 "layout load": cart and customer are loaded on the
 * client): loads the cart, the customer and then the wishlist once per page, pushes user_data
 * to the tag manager when logged in, and holds the cart and wishlist sidebars, the login modal
 * and the notifications. The sidebars and the modal are fetched on their first opening, so a
 * page that never opens them does not load their code.
 */
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { createTranslator, pageMessages, type Messages } from '../lib/i18n/translate.ts';
import { trackUserData } from '../lib/stores/analytics.ts';
import { cartCookieMaxAge, features } from '../lib/env-client.ts';
import { configureCartCookie, configureResellerArea, initCart } from '../lib/stores/cart.ts';
import { initCustomer } from '../lib/stores/customer.ts';
import { $cartSidebarOpen, $loginModal, $wishlistSidebarOpen } from '../lib/stores/ui.ts';
import { initWishlist } from '../lib/stores/wishlist.ts';
import { Notifications } from './Notifications.tsx';

const CartSidebar = lazy(() =>
  import('./cart/CartSidebar.tsx').then((m) => ({ default: m.CartSidebar })),
);
const LoginModal = lazy(() =>
  import('./auth/LoginModal.tsx').then((m) => ({ default: m.LoginModal })),
);
const WishlistSidebar = lazy(() =>
  import('./wishlist/WishlistSidebar.tsx').then((m) => ({ default: m.WishlistSidebar })),
);

/** Id of the JSON script holding the shell's texts (BaseLayout.astro). */
export const SHOP_SHELL_MESSAGES_ID = 'shop-shell-messages';

export interface ShopShellProps {
  /**
   * `pickMessages(SHOP_SHELL_MESSAGES)` (see shell-messages.ts); by default read from the
   * page's JSON script: as island props, Astro would serialise the shell's 50 texts into an
   * attribute on every page at build. The server render shows no text (an empty live region).
   */
  messages?: Messages;
  /** The reseller layout: the reseller cart is loaded instead of the normal cart (spec §2). */
  reseller?: boolean;
}

export function ShopShell({ messages, reseller = false }: ShopShellProps) {
  const t = useMemo(
    () => createTranslator(messages ?? pageMessages(SHOP_SHELL_MESSAGES_ID)),
    [messages],
  );
  const sidebarOpen = useStore($cartSidebarOpen);
  const modal = useStore($loginModal);
  const wantSidebar = useSticky(sidebarOpen);
  const wantModal = useSticky(modal.open);
  const wantWishlist = useSticky(useStore($wishlistSidebarOpen));

  useEffect(() => {
    configureCartCookie(cartCookieMaxAge);
    configureResellerArea(features.resellerArea);
    // A reseller's page of the whole shop (spec §6): the server flagged the document (shop-mode.ts).
    void initCart({ reseller: reseller || document.documentElement.hasAttribute('data-reseller') });
    // The wishlist is the customer's once they are known (spec §4: loaded on the client).
    void initCustomer().then(initWishlist);
    // spec §4: on route change while authenticated, user data goes to the tag manager. Each
    // page load is a route change here (multi-page site); it waits for the customer.
    trackUserData();
  }, [reseller]);

  return (
    <>
      <Notifications t={t} />
      <Suspense fallback={null}>
        {wantSidebar && <CartSidebar t={t} />}
        {wantModal && <LoginModal t={t} />}
        {wantWishlist && <WishlistSidebar t={t} />}
      </Suspense>
    </>
  );
}

/** True from the first time `value` is true: keeps a lazy part mounted once it was opened. */
function useSticky(value: boolean): boolean {
  const [seen, setSeen] = useState(value);
  if (value && !seen) setSeen(true);
  return seen || value;
}
