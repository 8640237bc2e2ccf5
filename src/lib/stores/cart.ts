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
import { ApiCallError, errorMessage, logCallFailure, OFFLINE_MESSAGE } from '../api/client.ts';
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
/**
 * issue 30: the cart could not be loaded (a fault, not a missing cart): it is unknown, so the
 * cart views say it is momentarily unavailable rather than empty.
 */
export const $cartUnavailable = computed($cartErrors, (errors) => errors.load !== null);
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
  // A change that got no reply offline.
  OFFLINE_MESSAGE,
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
  logCallFailure(`cart ${action} failed:`, error);
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
 * What a failed cart call says of the cart (issue 30, carts survive faults):
 * - `gone`: the API's 404 'Cart not found' for that id: the platform no longer has it (or it is
 *   not this session's). Only this replaces the cart.
 * - `refused`: a definite answer about the request (a 4xx other than 404 and 429, a call the
 *   store refused itself): the cart is as it was.
 * - `transient`: anything else: 5xx, 429, 408, a timeout, no reply, a reply that is not the
 *   API's JSON, an unexpected error. The cart is unknown for now, never gone: the cookie and
 *   the last known cart stay, and the shopper may retry.
 */
export type CartFault = 'gone' | 'refused' | 'transient';

export function cartFault(error: unknown): CartFault {
  if (error instanceof CartActionError) return 'refused';
  if (!(error instanceof ApiCallError) || error.code !== 'api') return 'transient';
  if (error.statusCode === 404 && error.message === 'Cart not found') return 'gone';
  const status = error.statusCode;
  return status >= 400 && status < 500 && status !== 408 && status !== 429
    ? 'refused'
    : 'transient';
}

/** The cart of `cartId`, or null when the API says it is gone; throws on any other failure. */
async function fetchCart(cartId: string): Promise<Cart | null> {
  try {
    return (await api.getCart({ id: cartId })) ?? null;
  } catch (error) {
    if (cartFault(error) === 'gone') return null;
    throw error;
  }
}

/**
 * spec §4 load: no cookie or forced → the empty cart; else fetch it. BigCommerce creates no
 * cart without a line item (`line_items` is required by POST /v3/carts), so "an empty cart is
 * created" lives in the browser: the upstream cart is created by the first add. Only a
 * definite "this cart does not exist" (a null reply, or 404 'Cart not found', `cartFault`)
 * forgets the cookie; any other failure (5xx, 429, timeout, no reply, a malformed reply)
 * throws, keeping the cookie and the last known cart for a retry (issue 30: a three-second
 * outage used to empty the cart for good).
 */
async function load(force: boolean): Promise<CartState> {
  const cartId = force ? null : parseCartId(cookieJar().get(CART_COOKIE_NAME));
  if (cartId !== null) {
    const cart = await fetchCart(cartId);
    if (cart) return keep(cart);
    console.info('the cart of the cookie is gone, starting a new cart');
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
      let cartId = $cart.get().id;
      if (cartId === null && parseCartId(cookieJar().get(CART_COOKIE_NAME)) !== null) {
        // issue 30: the cookie names a cart this page could not load (a fault): read it first,
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

type MergeCustomer = Pick<CurrentCustomer, 'savedCartId'> &
  Partial<Pick<CurrentCustomer, 'isReseller'>>;

/** The login merge a transient fault deferred (retried by `retryCart`), or null. */
let pendingMerge: MergeCustomer | null = null;

/** Whether a login merge waits for a retry (a transient fault deferred it). */
export const $cartMergePending = atom(false);

/** Assigns `cartId` to the customer; a cart that is gone is forgotten (the empty cart). */
async function assign(cartId: string): Promise<void> {
  try {
    keep(await api.updateCart({ id: cartId }));
  } catch (error) {
    if (cartFault(error) !== 'gone') throw error;
    forget();
  }
}

async function runMerge(customer: MergeCustomer): Promise<boolean> {
  $cartErrors.setKey('load', null);
  let guest = $cart.get();
  try {
    if (guest.id === null) {
      // Logged in before the page loaded the cart of the cookie (initCart waits for the
      // browser to be idle): read it now, or its items would be left out of the merge.
      guest = await load(false);
    }
    // A reseller's cart is the one of the cookie, assigned to them (spec §4 reseller area).
    const reseller = resellerArea && customer.isReseller === true;
    const plan = loginMergePlan(reseller ? null : customer.savedCartId, guest);
    try {
      switch (plan.action) {
        case 'assign':
          await assign(plan.cartId);
          break;
        case 'create':
          // Nothing saved, nothing in the cart: the empty cart stays until the first add.
          break;
        case 'merge': {
          let merged: Cart | null;
          try {
            merged = await api.addCartItems({
              cartId: plan.savedCartId,
              lineItems: plan.lineItems,
            });
          } catch (error) {
            if (cartFault(error) !== 'gone') throw error;
            merged = null;
          }
          if (merged === null) {
            // The saved cart is gone: the guest cart becomes the customer's.
            if (guest.id !== null) await assign(guest.id);
          } else {
            // The guest items are in the saved cart now: it is the shopper's cart from here
            // on, so a retry after a fault below assigns it, never adds the items twice.
            keep(merged);
            await assign(plan.savedCartId);
          }
          break;
        }
        case 'load-saved': {
          const saved = await fetchCart(plan.savedCartId);
          // The saved cart is gone: the empty cart, until the first add makes one.
          if (saved) keep(saved);
          else forget();
          break;
        }
      }
    } catch (error) {
      if (cartFault(error) === 'transient') throw error;
      // spec §4: "On any failure a new cart is created and assigned": a definite refusal
      // (another browser paying for the guest cart...), with the guest's items, so none is
      // lost.
      console.error(`cart login merge (${plan.action}) refused, creating a new cart:`, error);
      const lineItems = guestLineItems(guest);
      if (lineItems.length === 0) {
        forget();
      } else {
        const created = await api.createCart({ lineItems });
        if (created === null) throw new CartActionError('cart-missing');
        keep(created);
      }
    }
    pendingMerge = null;
    $cartMergePending.set(false);
    return true;
  } catch (error) {
    // issue 30: a transient fault never makes a second cart nor touches the saved 'Cart ID':
    // the login stands, the cart of the cookie stays (with every guest item), and the merge
    // waits for `retryCart`.
    pendingMerge = customer;
    $cartMergePending.set(true);
    return fail('load', error);
  }
}

/**
 * spec §4 login merge, run right after a login or a registration:
 * no saved cart → the current cart is assigned to the customer; a saved cart and a non-empty
 * guest cart → the guest items are added to the saved cart, which is then assigned; a saved
 * cart and an empty guest cart → the saved cart is loaded. A cart the API says is gone is
 * replaced (the saved one by the guest cart, the guest one by the empty cart). On a definite
 * refusal a new cart is created (with the guest's items, so none is lost) and assigned. On a
 * transient fault (5xx, timeout, no reply) nothing is created or dropped: the cart of the
 * cookie stays, the load slot says why, and `retryCart` runs the merge again.
 */
export function mergeCartOnLogin(customer: MergeCustomer): Promise<boolean> {
  return enqueue(() => runMerge(customer));
}

/**
 * The "Réessayer" of a cart that could not be loaded: the deferred login merge if a fault
 * stopped one, else the cart of the cookie again.
 */
export function retryCart(): Promise<boolean> {
  const customer = pendingMerge;
  if (customer !== null) return enqueue(() => runMerge(customer));
  return loadCart();
}

/**
 * After logout the customer's cart is no longer the shopper's: the cookie is cleared and the
 * shopper starts a new guest cart (the customer finds theirs again at the next login, spec §4).
 */
export function resetCartOnLogout(): Promise<boolean> {
  return enqueue(() => {
    $cartErrors.setKey('load', null);
    pendingMerge = null;
    $cartMergePending.set(false);
    forget();
    return Promise.resolve(true);
  });
}
