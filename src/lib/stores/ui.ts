/**
 * Open/closed state of the shell's menus and search (spec §4 UI state), shared by islands.
 * Without JavaScript the header's menu is a native popover; islands that take over read and
 * write these. Initial values (all closed) are right on the server too.
 */
import { atom } from 'nanostores';

export const $mobileMenuOpen = atom(false);
export const $detailsMenuOpen = atom(false);
export const $searchOpen = atom(false);

export function openMobileMenu(): void {
  $mobileMenuOpen.set(true);
}

export function closeMobileMenu(): void {
  $mobileMenuOpen.set(false);
}

export function toggleMobileMenu(): void {
  $mobileMenuOpen.set(!$mobileMenuOpen.get());
}

/** spec §4: opening the details menu closes the search. */
export function openDetailsMenu(): void {
  $searchOpen.set(false);
  $detailsMenuOpen.set(true);
}

export function closeDetailsMenu(): void {
  $detailsMenuOpen.set(false);
}

export function toggleDetailsMenu(): void {
  if ($detailsMenuOpen.get()) closeDetailsMenu();
  else openDetailsMenu();
}

export function openSearch(): void {
  $searchOpen.set(true);
}

export function closeSearch(): void {
  $searchOpen.set(false);
}

/** spec §4: clicking an internal link (or a route change) closes the open menus and search. */
export function closeMenus(): void {
  $mobileMenuOpen.set(false);
  $detailsMenuOpen.set(false);
  $searchOpen.set(false);
}
