/**
 * Keeps the header's account link and the cart links' item-count badges up to date from the
 * stores (spec §2, §6; views in `header-button-views.ts`), and turns a plain click on them
 * into the login modal or the cart sidebar (a click with a modifier key, or before this
 * script runs, follows the link to /connexion or /panier). One script for the page, loaded
 * by the layout; the links themselves are static markup rendered once per build.
 */
import { createTranslator, parseMessages } from '../../lib/i18n/translate.ts';
import { $cartItemCount } from '../../lib/stores/cart.ts';
import { $customer, $isAuthenticated } from '../../lib/stores/customer.ts';
import { openCartSidebar, openLoginModal } from '../../lib/stores/ui.ts';
import { accountLinkView, cartBadgeView } from './header-button-views.ts';

const BADGE_CLASS =
  'flex min-w-5 items-center justify-center rounded-full bg-sale px-1 text-xs leading-5 font-semibold text-white tabular-nums';

const plainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-account-link]')) {
  const t = createTranslator(parseMessages(link.dataset.messages));
  const label = link.querySelector<HTMLElement>('[data-account-label]');
  const update = () => {
    const view = accountLinkView($isAuthenticated.get(), $customer.get(), t);
    link.href = view.href;
    if (label) label.textContent = view.label;
    link.dataset.opensLogin = String(view.opensLoginModal);
  };
  update();
  $isAuthenticated.listen(update);
  $customer.listen(update);
}

for (const slot of document.querySelectorAll<HTMLElement>('[data-cart-badge]')) {
  const t = createTranslator(parseMessages(slot.dataset.messages));
  $cartItemCount.subscribe((count) => {
    const view = cartBadgeView(count, t);
    if (view.text === null) {
      slot.replaceChildren();
      return;
    }
    const badge = document.createElement('span');
    badge.className = BADGE_CLASS;
    badge.dataset.cartCount = String(count);
    const shown = document.createElement('span');
    shown.setAttribute('aria-hidden', 'true');
    shown.textContent = view.text;
    const spoken = document.createElement('span');
    spoken.className = 'sr-only';
    spoken.textContent = view.label;
    badge.append(shown, spoken);
    slot.replaceChildren(badge);
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
  if (event.target.closest('a[data-cart-link]')) {
    event.preventDefault();
    openCartSidebar();
  }
});
