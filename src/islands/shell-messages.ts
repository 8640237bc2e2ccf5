/**
 * Message keys of the shell's islands (header buttons, shop shell with its lazy parts), so a
 * layout hands each the texts it shows with `pickMessages`.
 */
import { LOGIN_MODAL_MESSAGES } from './auth/LoginModal.tsx';
import { CART_SIDEBAR_MESSAGES } from './cart/CartSidebar.tsx';
import { NOTIFICATIONS_MESSAGES } from './Notifications.tsx';

export const SHOP_SHELL_MESSAGES = [
  ...NOTIFICATIONS_MESSAGES,
  ...CART_SIDEBAR_MESSAGES,
  ...LOGIN_MODAL_MESSAGES,
] as const;

export const CART_BUTTON_MESSAGES = [
  'header.cart',
  'header.cartCount_one',
  'header.cartCount_other',
] as const;

export const ACCOUNT_BUTTON_MESSAGES = ['header.login', 'header.connected'] as const;
