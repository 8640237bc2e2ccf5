/**
 * The shopper's cart (spec §3, §4 cart lifecycle), shared by the cart button, the sidebar, the
 * cart page and the add-to-cart buttons. Every upstream call goes through the shop API; every
 * action runs in one queue, so writes to the cart never interleave; a failed action keeps the
 * cart as it was (nothing the shopper put in is lost) and fills its own error slot (spec §8).
 * Initial value: the empty cart (id null), also on the server; `initCart()` loads it in the
 * browser.
 */
import { atom, computed, map } from 'nanostores';
import { api } from '../api/bigcommerce.ts';
import { ApiCallError, errorMessage } from '../api/client.ts';
import {
  CART_COOKIE_NAME,
  cartCookie,
  cartItemCount,
  cartItems,
  cartTotals,
  clampQuantity,
  DEFAULT_CART_COOKIE_MAX_AGE,
  EMPTY_CART,
  guestLineItems,
  lineItemAgain,
  loginMergePlan,
  parseCartId,
  type CartState,
  type LineItemInput,
} from '../commerce/cart.ts';
import type { Cart, CurrentCustomer } from '../commerce/types.ts';
import type { SendCartInput } from '../commerce/validation.ts';
import { cookieJar } from './cookie-jar.ts';

export type CartAction = 'load' | 'add' | 'remove' | 'update' | 'clear' | 'send';

/** What an error slot holds: the message key to show, with the API's status and code. */
export interface ActionError {
  /** A message key: the API's English spec key ('Cart not found'...) or a `cart.error.*` key. */
  message: string;
  statusCode: number;
  code: string;
  /** The API's details of the error (a refused add: the stock left per line), if any. */
  details?: Readonly<Record<string, unknown>>;
  /** The cart line a quantity change refused for stock was about: shown on that line. */
  itemId?: string;
}

export const $cart = atom<CartState>(EMPTY_CART);
/** True while any cart action is running or queued. */
export const $cartLoading = atom(false);
/** spec §8: each action keeps its own error slot (null: last run succeeded or not run). */
export const $cartErrors = map<Record<CartAction, ActionError | null>>({
  load: null,
  add: null,
  remove: null,
  update: null,
  clear: null,
  send: null,
});
/** spec §3 derived totals (cents). */
export const $cartTotals = computed($cart, cartTotals);
/** spec §3 total item count (badge of the cart button). */
export const $cartItemCount = computed($cart, cartItemCount);
/** spec §3 item list: physical plus digital lines. */
export const $cartItems = computed($cart, cartItems);

/** A cart action that cannot run: no cart yet (spec §5), or a line that is not in the cart. */
export class CartActionError extends Error {
  override readonly name = 'CartActionError';
  readonly code: 'cart-missing' | 'line-missing';
  readonly statusCode = 409;

  constructor(code: 'cart-missing' | 'line-missing') {
    super(code === 'cart-missing' ? 'cart.error.missing' : 'cart.error.update');
    this.code = code;
  }
}

let cookieMaxAge = DEFAULT_CART_COOKIE_MAX_AGE;

/** Sets the lifetime of the `cart-id` cookie (public config CART_COOKIE_MAX_AGE), in seconds. */
export function configureCartCookie(maxAge: number): void {
  if (Number.isInteger(maxAge) && maxAge > 0) cookieMaxAge = maxAge;
}

// -- the queue --------------------------------------------------------------------------------

let tail: Promise<unknown> = Promise.resolve();
let pending = 0;

/** Runs `task` after every action queued before it (one write to the cart at a time). */
function enqueue<T>(task: () => Promise<T>): Promise<T> {
  pending += 1;
  $cartLoading.set(true);
  const run = tail.then(task);
  const settle = () => {
    pending -= 1;
    if (pending === 0) $cartLoading.set(false);
  };
  tail = run.then(settle, settle);
  return run;
}

function toActionError(error: unknown): ActionError {
  if (error instanceof ApiCallError && error.details !== undefined) {
    const { message, statusCode, code, details } = error;
    return { message, statusCode, code, details };
  }
  if (error instanceof ApiCallError || error instanceof CartActionError) {
    return { message: error.message, statusCode: error.statusCode, code: error.code };
  }
  return { message: errorMessage(error), statusCode: 500, code: 'unknown' };
}

/** Messages a cart line action's failure may show as they are (spec §8 stock messages...). */
export const CART_ERROR_MESSAGES = [
  'Out of stock',
  'The selected quantity exceeds available stock.',
  'Currently unavailable',
  'Cart not found',
  'Cart item not found',
  'error.upstreamTimeout',
  'error.upstreamUnavailable',
  'cart.error.missing',
  'cart.error.remove',
  'cart.error.update',
  'cart.error.clear',
] as const;

const SHOWN_AS_IS: ReadonlySet<string> = new Set(CART_ERROR_MESSAGES);

/**
 * The error the cart's lines show (spec §8: each action's own slot reaches the shopper): that
 * of a failed quantity change, removal or clearing, as its message when it is one the shopper
 * can read (a stock refusal...), else the action's own text. Add errors are notified instead;
 * a quantity change refused for stock is shown on its line (`lineErrorText`), not here.
 */
export function cartErrorText(
  errors: Readonly<Record<CartAction, ActionError | null>>,
): string | null {
  for (const action of ['update', 'remove', 'clear'] as const) {
    const error = errors[action];
    if (error !== null && error.itemId === undefined)
      return SHOWN_AS_IS.has(error.message) ? error.message : `cart.error.${action}`;
  }
  return null;
}

/**
 * The stock refusal of a quantity change of line `itemId` (spec §8 message key), shown on that
 * line with the item's name; null when the last change of that line was not refused for stock.
 */
export function lineErrorText(
  errors: Readonly<Record<CartAction, ActionError | null>>,
  itemId: string,
): string | null {
  const error = errors.update;
  if (error?.itemId !== itemId) return null;
  return SHOWN_AS_IS.has(error.message) ? error.message : 'cart.error.update';
}

function fail(action: CartAction, error: unknown, itemId?: string): false {
  console.error(`cart ${action} failed:`, error);
  const slot = toActionError(error);
  $cartErrors.setKey(action, itemId === undefined ? slot : { ...slot, itemId });
  return false;
}

function writeCookie(cartId: string | null): void {
  const jar = cookieJar();
  jar.set(cartCookie(cartId, { maxAge: cookieMaxAge, secure: jar.secure }));
}

/** Keeps `cart` as the shopper's cart: the store and the cookie. */
function keep(cart: Cart): Cart {
  $cart.set(cart);
  if (parseCartId(cookieJar().get(CART_COOKIE_NAME)) !== cart.id) writeCookie(cart.id);
  return cart;
}

/** Forgets the cart in this browser: the empty initial cart (spec §3), no cookie. */
function forget(): void {
  writeCookie(null);
  $cart.set(EMPTY_CART);
}

/**
 * spec §4 load: no cookie or forced → the empty cart; else fetch, and start again from the
 * empty cart when fetching fails. BigCommerce creates no cart without a line item
 * (`line_items` is required by POST /v3/carts), so "an empty cart is created" lives in the
 * browser: the upstream cart is created by the first add. A fetch that got no reply at all
 * (offline, or the browser cutting the call because the shopper is leaving the page) says
 * nothing of the cart: it throws, and the cookie stays for the next page, where it used to be
 * cleared and the cart lost on a quick click away.
 */
async function load(force: boolean): Promise<CartState> {
  const cartId = force ? null : parseCartId(cookieJar().get(CART_COOKIE_NAME));
  if (cartId !== null) {
    try {
      const cart = await api.getCart({ id: cartId });
      if (cart) return keep(cart);
    } catch (error) {
      if (error instanceof ApiCallError && error.code === 'network') throw error;
      console.error('cart fetch failed, starting a new cart:', error);
    }
  }
  if (force || cartId !== null) forget();
  return $cart.get();
}

function currentCartId(): string {
  // spec §5: "Adding, removing, updating or clearing the cart requires an existing cart".
  const id = $cart.get().id;
  if (id === null) throw new CartActionError('cart-missing');
  return id;
}

// -- actions ----------------------------------------------------------------------------------

export interface LoadCartOptions {
  /** Create a new empty cart whatever the cookie says. */
  force?: boolean;
}

/** spec §4 cart lifecycle on load. Resolves true once a cart is in the store. */
export function loadCart(options: LoadCartOptions = {}): Promise<boolean> {
  return enqueue(async () => {
    $cartErrors.setKey('load', null);
    try {
      await load(options.force === true);
      return true;
    } catch (error) {
      return fail('load', error);
    }
  });
}

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

let resellerArea = false;

/**
 * With the reseller area on (FEATURE_RESELLER_AREA), a reseller's login keeps the cart of the
 * cookie (spec §4 reseller cart) rather than merging with a saved one.
 */
export function configureResellerArea(enabled: boolean): void {
  resellerArea = enabled;
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
      const cartId = $cart.get().id;
      if (cartId === null) {
        // The first add creates the upstream cart; for a logged-in customer the server assigns
        // it and saves it as their 'Cart ID'.
        const created = await api.createCart({ lineItems });
        if (created === null) throw new CartActionError('cart-missing');
        keep(created);
      } else {
        keep(await api.addCartItems({ cartId, lineItems }));
      }
      return true;
    } catch (error) {
      return fail('add', error);
    }
  });
}

/** Removes a line; when it was the last one the cart is gone: a new cart is loaded (spec §4). */
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
    console.error('cart read after a stock refusal failed:', error);
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
      return fail('clear', error);
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

/**
 * spec §4 login merge, run right after a login or a registration:
 * no saved cart → the current cart is assigned to the customer; a saved cart and a non-empty
 * guest cart → the guest items are added to the saved cart, which is then assigned; a saved
 * cart and an empty guest cart → the saved cart is loaded. On any failure a new cart is created
 * (with the guest's items, so none is lost) and assigned.
 */
export function mergeCartOnLogin(
  customer: Pick<CurrentCustomer, 'savedCartId'> & Partial<Pick<CurrentCustomer, 'isReseller'>>,
): Promise<boolean> {
  return enqueue(async () => {
    $cartErrors.setKey('load', null);
    let guest = $cart.get();
    if (guest.id === null) {
      // Logged in before the page loaded the cart of the cookie (initCart waits for the
      // browser to be idle): read it now, or its items would be left out of the merge.
      try {
        guest = await load(false);
      } catch (error) {
        console.error('the guest cart could not be read before the login merge:', error);
      }
    }
    // A reseller's cart is the one of the cookie, assigned to them (spec §4 reseller area).
    const reseller = resellerArea && customer.isReseller === true;
    const plan = loginMergePlan(reseller ? null : customer.savedCartId, guest);
    try {
      switch (plan.action) {
        case 'assign':
          keep(await api.updateCart({ id: plan.cartId }));
          return true;
        case 'create':
          // Nothing saved, nothing in the cart: the empty cart stays until the first add.
          return true;
        case 'merge':
          await api.addCartItems({ cartId: plan.savedCartId, lineItems: plan.lineItems });
          keep(await api.updateCart({ id: plan.savedCartId }));
          return true;
        case 'load-saved': {
          const saved = await api.getCart({ id: plan.savedCartId });
          if (!saved) throw new ApiCallError('Cart not found', 404, 'api');
          keep(saved);
          return true;
        }
      }
    } catch (error) {
      console.error(`cart login merge (${plan.action}) failed, creating a new cart:`, error);
    }
    try {
      const lineItems = guestLineItems(guest);
      if (lineItems.length === 0) {
        forget();
        return true;
      }
      const created = await api.createCart({ lineItems });
      if (created === null) throw new CartActionError('cart-missing');
      keep(created);
      return true;
    } catch (error) {
      return fail('load', error);
    }
  });
}

/**
 * After logout the customer's cart is no longer the shopper's: the cookie is cleared and the
 * shopper starts a new guest cart (the customer finds theirs again at the next login, spec §4).
 */
export function resetCartOnLogout(): Promise<boolean> {
  return enqueue(() => {
    $cartErrors.setKey('load', null);
    forget();
    return Promise.resolve(true);
  });
}

/** Empties every error slot (e.g. when the sidebar closes). */
export function clearCartErrors(): void {
  $cartErrors.set({ load: null, add: null, remove: null, update: null, clear: null, send: null });
}

/** Calls `fn` once `wait` ms have passed without another call (the quantity selector, spec §9). */
export function debounce<A extends unknown[]>(
  fn: (...args: A) => void,
  wait: number,
): ((...args: A) => void) & { cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn(...args);
    }, wait);
  };
  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return debounced;
}

/** spec §9: the cart quantity debounce. */
export const CART_QUANTITY_DEBOUNCE_MS = 500;
