/**
 * The cart store's core (`cart.ts` is its entry): the atoms, the one queue every action runs
 * in, the error slots and their texts, the `cart-id` cookie, what a failed call says of the
 * cart (`cartFault`), and loading the cart of the cookie. The actions are `cart.ts`'s; the
 * login merge and logout are `cart-login.ts`'s.
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
  DEFAULT_CART_COOKIE_MAX_AGE,
  EMPTY_CART,
  parseCartId,
  type CartState,
} from '../commerce/cart.ts';
import type { Cart } from '../commerce/types.ts';
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
 * The cart could not be loaded (a fault, not a missing cart): it is unknown, so the
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
export function enqueue<T>(task: () => Promise<T>): Promise<T> {
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

export function fail(action: CartAction, error: unknown, itemId?: string): false {
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
export function keep(cart: Cart): Cart {
  $cart.set(cart);
  if (parseCartId(cookieJar().get(CART_COOKIE_NAME)) !== cart.id) writeCookie(cart.id);
  return cart;
}

/** Forgets the cart in this browser: the empty initial cart (spec §3), no cookie. */
export function forget(): void {
  writeCookie(null);
  $cart.set(EMPTY_CART);
}

/**
 * What a failed cart call says of the cart (carts survive faults):
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
export async function fetchCart(cartId: string): Promise<Cart | null> {
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
 * throws, keeping the cookie and the last known cart for a retry (a three-second
 * outage used to empty the cart for good).
 */
export async function load(force: boolean): Promise<CartState> {
  const cartId = force ? null : parseCartId(cookieJar().get(CART_COOKIE_NAME));
  if (cartId !== null) {
    const cart = await fetchCart(cartId);
    if (cart) return keep(cart);
    console.info('the cart of the cookie is gone, starting a new cart');
  }
  if (force || cartId !== null) forget();
  return $cart.get();
}

export function currentCartId(): string {
  // spec §5: "Adding, removing, updating or clearing the cart requires an existing cart".
  const id = $cart.get().id;
  if (id === null) throw new CartActionError('cart-missing');
  return id;
}

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
