/**
 * Keeps the header's account link and the cart links' item-count badges up to date from the
 * stores (spec §2, §6; views in `header-button-views.ts`), with the wishlist link's count, and
 * turns a plain click on them into the login modal, the cart sidebar or the wishlist sidebar
 * (a click with a modifier key, or before this script runs, follows the link to /connexion,
 * /panier or the account's wishlist). One script for the page, loaded
 * by the layout; the links themselves are static markup rendered once per build.
 */
import { features } from '../../lib/env-client.ts';
import { createTranslator, pageMessages, PAGE_MESSAGES_ID } from '../../lib/i18n/translate.ts';
import { $cartItemCount } from '../../lib/stores/cart.ts';
import { $customer, $isAuthenticated } from '../../lib/stores/customer.ts';
import { openCartSidebar, openLoginModal, openWishlistSidebar } from '../../lib/stores/ui.ts';
import { $wishlistCount } from '../../lib/stores/wishlist.ts';
import { accountLinkView, cartBadgeView, wishlistBadgeView } from './header-button-views.ts';

const BADGE_CLASS =
  'flex min-w-5 items-center justify-center rounded-full bg-sale px-1 text-xs leading-5 font-semibold text-white tabular-nums';

// The page's texts (page-messages.ts), for every link and badge.
const t = createTranslator(pageMessages(PAGE_MESSAGES_ID));

const plainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-account-link]')) {
  const label = link.querySelector<HTMLElement>('[data-account-label]');
  const update = () => {
    const view = accountLinkView($isAuthenticated.get(), $customer.get(), t, features.resellerArea);
    link.href = view.href;
    if (label) label.textContent = view.label;
    link.dataset.opensLogin = String(view.opensLoginModal);
  };
  update();
  $isAuthenticated.listen(update);
  $customer.listen(update);
}

/** Fills a badge slot with a count (nothing at 0): shown digits, spoken label. */
function renderBadge(
  slot: HTMLElement,
  view: { text: string | null; label: string },
  count: number,
  kind: 'cartCount' | 'wishlistCount',
): void {
  if (view.text === null) {
    slot.replaceChildren();
    return;
  }
  const badge = document.createElement('span');
  badge.className = BADGE_CLASS;
  badge.dataset[kind] = String(count);
  const shown = document.createElement('span');
  shown.setAttribute('aria-hidden', 'true');
  shown.textContent = view.text;
  const spoken = document.createElement('span');
  spoken.className = 'sr-only';
  spoken.textContent = view.label;
  badge.append(shown, spoken);
  slot.replaceChildren(badge);
}

for (const slot of document.querySelectorAll<HTMLElement>('[data-cart-badge]')) {
  $cartItemCount.subscribe((count) => {
    renderBadge(slot, cartBadgeView(count, t), count, 'cartCount');
  });
}

for (const slot of document.querySelectorAll<HTMLElement>('[data-wishlist-badge]')) {
  $wishlistCount.subscribe((count) => {
    renderBadge(slot, wishlistBadgeView(count, t), count, 'wishlistCount');
  });
}

document.addEventListener('click', (event) => {
  if (!plainClick(event) || !(event.target instanceof Element)) return;
  const account = event.target.closest<HTMLAnchorElement>('a[data-account-link]');
  if (account?.dataset.opensLogin === 'true') {
    event.preventDefault();
    openLoginModal();
    return;
  }
  // The reseller layout's cart link goes to its cart page (sending the cart to a client).
  if (event.target.closest('a[data-cart-link]:not([data-cart-page])')) {
    event.preventDefault();
    openCartSidebar();
    return;
  }
  if (event.target.closest('a[data-wishlist-link]')) {
    event.preventDefault();
    openWishlistSidebar();
  }
});
