/**
 * Open/closed state of the shell's menus, search, sidebars and login modal (spec §4 UI state),
 * shared by the islands and the header's scripts. Initial values (all closed) are right on the
 * server too.
 *
 * The details menu is the menu sidebar (`MenuPanel.astro`, a native popover bound to
 * `$detailsMenuOpen` by `menu-panel.ts`); on a phone the bottom bar's "Menu" opens the same
 * panel, so it is also the spec's mobile menu. The listing filters are a native disclosure of
 * the page (no sidebar state): opening one dismisses the menu popover by itself.
 */
import { atom, type WritableAtom } from 'nanostores';
import { clearCustomerErrors } from './customer.ts';

export const $detailsMenuOpen = atom(false);
export const $searchOpen = atom(false);

/** spec §4: opening the details menu closes the search. */
export function openDetailsMenu(): void {
  $searchOpen.set(false);
  $detailsMenuOpen.set(true);
}

export function closeDetailsMenu(): void {
  $detailsMenuOpen.set(false);
}

export function openSearch(): void {
  $searchOpen.set(true);
}

export function closeSearch(): void {
  $searchOpen.set(false);
}

/** spec §4: clicking an internal link (or a route change) closes the open menus and search. */
export function closeMenus(): void {
  $detailsMenuOpen.set(false);
  $searchOpen.set(false);
}

// -- sidebars and the login modal (spec §2 sidebars and modals, §4 UI state) ------------------

export const $cartSidebarOpen = atom(false);
export const $wishlistSidebarOpen = atom(false);

/** spec §4: opening the cart, wishlist or login sidebar closes the (mobile) menu. */
function openPanel(panel: WritableAtom<boolean>): void {
  $detailsMenuOpen.set(false);
  panel.set(true);
}

export function openCartSidebar(): void {
  openPanel($cartSidebarOpen);
}

export function closeCartSidebar(): void {
  $cartSidebarOpen.set(false);
}

export function openWishlistSidebar(): void {
  openPanel($wishlistSidebarOpen);
}

export function closeWishlistSidebar(): void {
  $wishlistSidebarOpen.set(false);
}

/** spec §4: the login and register screens (and the forgotten-password form of the login screen). */
export type LoginScreen = 'login' | 'register' | 'forgot';

export interface LoginModalState {
  open: boolean;
  screen: LoginScreen;
  /**
   * Grows at each opening: the modal keys its forms on it, so opening starts from empty fields
   * (spec §4 "opening resets the form").
   */
  resetKey: number;
}

/** spec §4: closed, on the register screen by default. */
export const $loginModal = atom<LoginModalState>({ open: false, screen: 'register', resetKey: 0 });

/**
 * spec §4: opening resets the form and the errors and closes the mobile menu; the screen is
 * the one asked for, else the current one (register at first, login after a close).
 */
export function openLoginModal(screen?: LoginScreen): void {
  const current = $loginModal.get();
  clearCustomerErrors(['login', 'register']);
  $detailsMenuOpen.set(false);
  $loginModal.set({
    open: true,
    screen: screen ?? current.screen,
    resetKey: current.resetKey + 1,
  });
}

/** spec §4: closing clears the errors and returns to the login screen. */
export function closeLoginModal(): void {
  clearCustomerErrors(['login', 'register']);
  $loginModal.set({ ...$loginModal.get(), open: false, screen: 'login' });
}

/** The register ↔ login switch inside the modal (errors of the other screen are cleared). */
export function showLoginScreen(screen: LoginScreen): void {
  clearCustomerErrors(['login', 'register']);
  $loginModal.set({ ...$loginModal.get(), screen });
}
