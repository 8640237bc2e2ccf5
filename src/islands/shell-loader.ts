/**
 * The page shell's browser part (spec §4 "layout load": cart and customer are loaded on the
 * client), a plain script: once the main thread is idle it loads the cart, the customer and
 * then the wishlist (once per page) and pushes user_data to the tag manager when logged in.
 *
 * What the shell shows (the notifications, the cart and wishlist sidebars, the login modal) is
 * React (`ShopShell.tsx`), mounted the first time something is to be shown: a notification, or
 * a sidebar or the modal opened. A page where nothing is shown never runs React for the shell
 * (spec §7 performance: the runtime's start was the page's longest task). The notifications'
 * live region (`[data-notifications]`) is static markup of the layout from the start, so a
 * screen reader hears the first notification too.
 */
import { cartCookieMaxAge, features } from '../lib/env-client.ts';
import { track } from '../lib/stores/track.ts';
import { configureCartCookie, configureResellerArea, initCart } from '../lib/stores/cart.ts';
import { initCustomer } from '../lib/stores/customer.ts';
import { $notifications } from '../lib/stores/notifications.ts';
import { $cartSidebarOpen, $loginModal, $wishlistSidebarOpen } from '../lib/stores/ui.ts';
import { initWishlist } from '../lib/stores/wishlist.ts';

const container = document.querySelector<HTMLElement>('[data-shop-shell]');
const region = document.querySelector<HTMLElement>('[data-notifications]');

if (container !== null && region !== null) {
  configureCartCookie(cartCookieMaxAge);
  configureResellerArea(features.resellerArea);

  const load = () => {
    // The reseller layout, or a reseller's page of the whole shop (spec §6): the document is
    // flagged by the server (shop-mode.ts) or before the first paint (resellerMode script).
    void initCart({ reseller: document.documentElement.hasAttribute('data-reseller') });
    // The wishlist is the customer's once they are known (spec §4: loaded on the client).
    void initCustomer().then(initWishlist);
    // spec §4: on route change while authenticated, user data goes to the tag manager. Each
    // page load is a route change here (multi-page site); it waits for the customer.
    track('trackUserData');
  };
  if ('requestIdleCallback' in window) requestIdleCallback(load);
  else setTimeout(load, 200);

  const wanted = () =>
    $notifications.get().length > 0 ||
    $cartSidebarOpen.get() ||
    $wishlistSidebarOpen.get() ||
    $loginModal.get().open;
  const stops: (() => void)[] = [];
  const mountWhenWanted = () => {
    if (!wanted()) return;
    for (const stop of stops.splice(0)) stop();
    void (async () => {
      // `await` alone around the import, so Vite's preload helper reports a failure (the
      // reload of chunk-reload-listener.ts) before this catch handles it.
      try {
        const shell = await import('./shell-mount.tsx');
        shell.mountShopShell(container, region);
      } catch (error) {
        console.warn('shop shell not loaded:', error);
      }
    })();
  };
  stops.push(
    $notifications.listen(mountWhenWanted),
    $cartSidebarOpen.listen(mountWhenWanted),
    $wishlistSidebarOpen.listen(mountWhenWanted),
    $loginModal.listen(mountWhenWanted),
  );
  mountWhenWanted();
}
