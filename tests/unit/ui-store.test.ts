import { afterEach, describe, expect, test } from 'vitest';
import { $customerErrors } from '../../src/lib/stores/customer.ts';
import {
  $cartSidebarOpen,
  $loginModal,
  $detailsMenuOpen,
  $wishlistSidebarOpen,
  closeCartSidebar,
  closeLoginModal,
  closeWishlistSidebar,
  openCartSidebar,
  openLoginModal,
  openDetailsMenu,
  openWishlistSidebar,
  showLoginScreen,
} from '../../src/lib/stores/ui.ts';
import { record } from './helpers/shop-api.ts';

afterEach(() => {
  $cartSidebarOpen.set(false);
  $wishlistSidebarOpen.set(false);
  $detailsMenuOpen.set(false);
  $loginModal.set({ open: false, screen: 'register', resetKey: 0 });
  $customerErrors.set({
    load: null,
    login: null,
    register: null,
    update: null,
    logout: null,
    reset: null,
  });
});

const anError = { message: 'Invalid credentials', statusCode: 401, code: 'api' };

describe('sidebars (spec §4: each toggles; opening closes the (mobile) menu)', () => {
  test.each([
    ['cart', $cartSidebarOpen, openCartSidebar, closeCartSidebar],
    ['wishlist', $wishlistSidebarOpen, openWishlistSidebar, closeWishlistSidebar],
  ] as const)('%s sidebar', (_name, $open, open, close) => {
    openDetailsMenu();
    const menu = record($detailsMenuOpen);
    const states = record($open);
    open();
    close();
    expect(states).toEqual([true, false]);
    expect(menu).toEqual([false]);
  });

  test('opening the login modal closes the (mobile) menu', () => {
    openDetailsMenu();
    openLoginModal();
    expect($detailsMenuOpen.get()).toBe(false);
  });
});

describe('login modal (spec §4 UI state)', () => {
  test('closed on the register screen by default', () => {
    expect($loginModal.get()).toEqual({ open: false, screen: 'register', resetKey: 0 });
  });

  test('open → register, switch to login and back, close → login screen, reopen → login', () => {
    const states = record($loginModal);
    openLoginModal();
    showLoginScreen('login');
    showLoginScreen('register');
    closeLoginModal();
    openLoginModal();
    expect(states).toEqual([
      { open: true, screen: 'register', resetKey: 1 },
      { open: true, screen: 'login', resetKey: 1 },
      { open: true, screen: 'register', resetKey: 1 },
      { open: false, screen: 'login', resetKey: 1 },
      { open: true, screen: 'login', resetKey: 2 },
    ]);
  });

  test('opening on a given screen', () => {
    openLoginModal('login');
    expect($loginModal.get()).toEqual({ open: true, screen: 'login', resetKey: 1 });
  });

  test('opening resets the form (new key) and the login and register errors', () => {
    $customerErrors.setKey('login', anError);
    $customerErrors.setKey('register', anError);
    $customerErrors.setKey('update', anError);
    openLoginModal();
    expect($customerErrors.get()).toMatchObject({ login: null, register: null, update: anError });
  });

  test('closing clears the errors', () => {
    openLoginModal();
    $customerErrors.setKey('login', anError);
    closeLoginModal();
    expect($customerErrors.get().login).toBeNull();
  });

  test('switching screens clears the errors of the other screen', () => {
    openLoginModal('login');
    $customerErrors.setKey('login', anError);
    showLoginScreen('register');
    expect($customerErrors.get().login).toBeNull();
  });
});
