/**
 * Message keys of the shop shell island and its lazy parts, so a layout hands it the texts it
 * shows with `pickMessages` (the header's links have theirs in `header-button-views.ts`).
 */
import { CARD_BUTTON_MESSAGES } from '../lib/commerce/card-button.ts';
import { AUTH_FORMS_MESSAGES } from './auth/AuthForms.tsx';
import { CART_LINES_MESSAGES } from './cart/CartLines.tsx';
import { CART_UNAVAILABLE_MESSAGES } from './cart/CartUnavailable.tsx';
import { NOTIFICATIONS_MESSAGES } from './Notifications.tsx';
import { WISHLIST_ITEMS_MESSAGES } from './wishlist/wishlist-messages.ts';

// The sidebar's and the modal's keys live here, not in their modules: those modules are
// fetched on first opening, and a static import of them here would undo that split.

/** Message keys the modal reads. */
const LOGIN_MODAL_MESSAGES = [...AUTH_FORMS_MESSAGES, 'account.title', 'login.close'] as const;

/** Message keys the sidebar reads. */
const CART_SIDEBAR_MESSAGES = [
  ...CART_LINES_MESSAGES,
  ...CART_UNAVAILABLE_MESSAGES,
  'cart.title',
  'cart.close',
  'cart.empty',
  // CartSummary.tsx (CART_SUMMARY_MESSAGES).
  'cart.subtotal',
  'cart.discount',
  'cart.due',
  // ClearCartButton.tsx (CLEAR_CART_MESSAGES).
  'cart.clear',
  'cart.clearConfirm',
  'cart.clearConfirmYes',
  'cart.clearCancel',
  'cart.checkout',
  'cart.continueShopping',
  'cart.viewCart',
  'reseller.sendCart',
  'header.cartCount_one',
  'header.cartCount_other',
] as const;

/** Message keys the wishlist sidebar reads. */
const WISHLIST_SIDEBAR_MESSAGES = [
  ...WISHLIST_ITEMS_MESSAGES,
  'wishlist.title',
  'wishlist.close',
  'wishlist.clear',
  'wishlist.viewAll',
  'wishlist.count_one',
  'wishlist.count_other',
  'wishlist.loginHint',
] as const;

/**
 * The page's texts (BaseLayout writes them once, PAGE_MESSAGES_ID): the shell's, and
 * those of the product cards' buttons (card-add-to-cart.ts), which a listing used to repeat on
 * each of its 20 buttons.
 */
export const SHOP_SHELL_MESSAGES = [
  ...NOTIFICATIONS_MESSAGES,
  ...CART_SIDEBAR_MESSAGES,
  ...LOGIN_MODAL_MESSAGES,
  ...WISHLIST_SIDEBAR_MESSAGES,
  ...CARD_BUTTON_MESSAGES,
] as const;
