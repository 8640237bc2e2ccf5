/**
 * What the page shell shows (spec §2 sidebars and modals, §4 UI state): the notifications, the
 * cart and wishlist sidebars and the login modal. Mounted by `shop-shell-loader.ts` (which
 * loads the cart, the customer and the wishlist) the first time one of them is to be shown.
 * The sidebars and the modal are fetched on their first opening, so a page that never opens
 * them does not load their code.
 */
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useMemo, useState } from 'react';
import {
  createTranslator,
  pageMessages,
  PAGE_MESSAGES_ID,
  type Messages,
} from '../lib/i18n/translate.ts';
import { $cartSidebarOpen, $loginModal, $wishlistSidebarOpen } from '../lib/stores/ui.ts';
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

export interface ShopShellProps {
  /**
   * `pickMessages(SHOP_SHELL_MESSAGES)` (see shell-messages.ts); by default read from the
   * page's JSON script (BaseLayout.astro).
   */
  messages?: Messages;
  /** The layout's live region (static markup, there from the start) the notifications go in. */
  notificationsRegion: HTMLElement;
}

export function ShopShell({ messages, notificationsRegion }: ShopShellProps) {
  const t = useMemo(() => createTranslator(messages ?? pageMessages(PAGE_MESSAGES_ID)), [messages]);
  const sidebarOpen = useStore($cartSidebarOpen);
  const modal = useStore($loginModal);
  const wantSidebar = useSticky(sidebarOpen);
  const wantModal = useSticky(modal.open);
  const wantWishlist = useSticky(useStore($wishlistSidebarOpen));

  return (
    <>
      <Notifications t={t} region={notificationsRegion} />
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
