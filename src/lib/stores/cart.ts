/**
 * The shopper's cart (spec §3, §4 cart lifecycle), shared by the cart button, the sidebar, the
 * cart page and the add-to-cart buttons. Every upstream call goes through the shop API; every
 * action runs in one queue, so writes to the cart never interleave; a failed action keeps the
 * cart as it was (nothing the shopper put in is lost) and fills its own error slot (spec §8).
 * Initial value: the empty cart (id null), also on the server; `initCart()` loads it in the
 * browser. The core (atoms, queue, cookie, loading) is `cart-core.ts`, the login merge
 * `cart-login.ts`; both are exported from here.
 */
import { api } from '../api/bigcommerce.ts';
import { ApiCallError, logCallFailure } from '../api/client.ts';
import {
  CART_COOKIE_NAME,
  cartItems,
  clampQuantity,
  lineItemAgain,
  parseCartId,
  type LineItemInput,
} from '../commerce/cart.ts';
import type { Cart } from '../commerce/types.ts';
import type { SendCartInput } from '../commerce/validation.ts';
import {
  $cart,
  $cartErrors,
  CartActionError,
  cartFault,
  currentCartId,
  enqueue,
  fail,
  forget,
  keep,
  load,
  loadCart,
} from './cart-core.ts';
import { cookieJar } from './cookie-jar.ts';

export {
  $cart,
  $cartErrors,
  $cartItemCount,
  $cartItems,
  $cartLoading,
  $cartTotals,
  $cartUnavailable,
  CART_ERROR_MESSAGES,
  CartActionError,
  cartErrorText,
  cartFault,
  configureCartCookie,
  lineErrorText,
  loadCart,
  type ActionError,
  type CartAction,
  type CartFault,
  type LoadCartOptions,
} from './cart-core.ts';
export {
  $cartMergePending,
  configureResellerArea,
  mergeCartOnLogin,
  resetCartOnLogout,
  retryCart,
} from './cart-login.ts';

// -- actions ----------------------------------------------------------------------------------

/**
 * spec §4 reseller area: the cart cookie is reused (or the empty cart until the first add
 * creates one, assigned by the server), and a guest cart is assigned to the logged-in reseller
 * (the area's guard lets resellers only in).
 */
export function loadResellerCart(): Promise<boolean> {
  return enqueue(async () => {
    $cartErrors.setKey('load', null);
    try {
      const cart = await load(false);
      if (cart.id !== null && cart.customerId === 0) keep(await api.updateCart({ id: cart.id }));
      return true;
    } catch (error) {
      return fail('load', error);
    }
  });
}

let started: Promise<boolean> | null = null;

/**
 * Loads the cart once per page (spec §4 "cart and wishlist are loaded on the client"): call it
 * from every island that shows or changes the cart; later calls return the first one's promise.
 * The reseller layout loads the reseller cart instead (spec §2 Layouts).
 */
export function initCart(options: { reseller?: boolean } = {}): Promise<boolean> {
  started ??= options.reseller === true ? loadResellerCart() : loadCart();
  return started;
}

/** Adds lines to the cart (BigCommerce merges a repeated product and variant into one line). */
export function addCartItem(input: LineItemInput | readonly LineItemInput[]): Promise<boolean> {
  const lineItems = (Array.isArray(input) ? input : [input]).map((item: LineItemInput) => ({
    ...item,
    quantity: clampQuantity(item.quantity),
  }));
  return enqueue(async () => {
    $cartErrors.setKey('add', null);
    try {
      let cartId = $cart.get().id;
      if (cartId === null && parseCartId(cookieJar().get(CART_COOKIE_NAME)) !== null) {
        // The cookie names a cart this page could not load (a fault): read it first,
        // or this add would start a second cart and leave the shopper's items in the first.
        cartId = (await load(false)).id;
        $cartErrors.setKey('load', null);
      }
      if (cartId === null) {
        // The first add creates the upstream cart; for a logged-in customer the server assigns
        // it and saves it as their 'Cart ID'.
        const created = await api.createCart({ lineItems });
        if (created === null) throw new CartActionError('cart-missing');
        keep(created);
      } else {
        let cart: Cart | null;
        try {
          cart = await api.addCartItems({ cartId, lineItems });
        } catch (error) {
          if (cartFault(error) !== 'gone') throw error;
          cart = null;
        }
        if (cart === null) {
          // The cart is gone (ordered, expired): the lines start a new one.
          forget();
          cart = await api.createCart({ lineItems });
          if (cart === null) throw new CartActionError('cart-missing');
        }
        keep(cart);
      }
      return true;
    } catch (error) {
      return fail('add', error);
    }
  });
}

/**
 * Removes a line; when it was the last one the cart is gone: a new cart is loaded (spec §4).
 * Only that definite reply (no data), or the API's 'Cart not found', forgets the cart; a failed
 * call keeps it.
 */
export function removeCartItem(itemId: string): Promise<boolean> {
  return enqueue(async () => {
    $cartErrors.setKey('remove', null);
    try {
      const cart = await api.removeCartItem({ cartId: currentCartId(), itemId });
      if (cart) {
        keep(cart);
        return true;
      }
      // spec §4: "Removing an item where the reply has no data clears the cookie and loads a
      // new cart": the empty cart (see `load`).
      forget();
      return true;
    } catch (error) {
      if (cartFault(error) === 'gone') {
        forget();
        return true;
      }
      return fail('remove', error);
    }
  });
}

/** A write refused for stock (spec §8: the API's 422 'INSUFFICIENT_STOCK'). */
function isStockRefusal(error: unknown): boolean {
  return error instanceof ApiCallError && error.statusCode === 422;
}

/**
 * After a write refused for stock, the cart is read again so its lines carry the stock as it
 * is now (the line is flagged with what is left, spec §4 Stock). A read that fails changes
 * nothing: the cart stays as it was.
 */
async function refreshStock(): Promise<void> {
  const id = $cart.get().id;
  if (id === null) return;
  try {
    const cart = await api.getCart({ id });
    if (cart) keep(cart);
  } catch (error) {
    logCallFailure('cart read after a stock refusal failed:', error);
  }
}

/**
 * Sets the quantity of a line (clamped to 1..99; the island debounces the selector, spec §9
 * 500 ms). Removing is `removeCartItem`. A quantity refused for stock keeps the cart's own
 * quantity and reads the line's stock again.
 */
export function updateCartItemQuantity(itemId: string, quantity: number): Promise<boolean> {
  return enqueue(async () => {
    $cartErrors.setKey('update', null);
    try {
      const cartId = currentCartId();
      const line = cartItems($cart.get()).find((item) => item.id === itemId);
      if (!line) throw new CartActionError('line-missing');
      const cart = await api.updateCartItem({
        cartId,
        itemId,
        lineItem: lineItemAgain(line, clampQuantity(quantity)),
      });
      keep(cart);
      return true;
    } catch (error) {
      if (!isStockRefusal(error)) return fail('update', error);
      await refreshStock();
      return fail('update', error, itemId);
    }
  });
}

/** spec §4: clearing deletes the cart and starts a new one (the empty cart, see `load`). */
export function clearCart(): Promise<boolean> {
  return enqueue(async () => {
    $cartErrors.setKey('clear', null);
    try {
      await api.deleteCart({ id: currentCartId() });
    } catch (error) {
      // Already gone is cleared; any other failure keeps the cart as it was.
      if (cartFault(error) !== 'gone') return fail('clear', error);
    }
    forget();
    return true;
  });
}

/**
 * Reseller area (spec §1, §2): sends the cart to a client, whose e-mail link opens it; the
 * reseller starts a new cart. Resolves with the address it was sent to, or null (error slot
 * `send`).
 */
export function sendCartToClient(input: SendCartInput): Promise<string | null> {
  return enqueue(async () => {
    $cartErrors.setKey('send', null);
    try {
      const { email } = await api.sendCartToClient({ cartId: currentCartId() }, input);
      forget();
      return email;
    } catch (error) {
      fail('send', error);
      return null;
    }
  });
}
