/**
 * spec §3 / §4 cart rules as pure functions: the empty initial cart, derived totals and item
 * count, the displayed item, the `cart-id` cookie, the checkout link and the login merge plan.
 * The store (`src/lib/stores/cart.ts`) applies them; nothing here does I/O.
 */
import { serializeCookie } from './cookie.ts';
import { CHECKOUT_PATH } from './guards.ts';
import { lineModifierSelections } from './item-options.ts';
import type { DisplayPrice } from './price.ts';
import type { Cart, CartLineItem, CartLineItems, Cents } from './types.ts';

/** A cart as the browser holds it: a stored cart, or the empty initial cart (id null). */
export type CartState = Omit<Cart, 'id'> & { id: string | null };

/** What a cart line is added with (the API's `LineItemInput`). */
export interface LineItemInput {
  productId: number;
  variantId?: number;
  quantity: number;
  optionSelections?: { optionId: number; optionValue: number | string }[];
}

const EMPTY_LINE_ITEMS: CartLineItems = Object.freeze({
  physicalItems: [],
  digitalItems: [],
  giftCertificates: [],
  customItems: [],
});

/** spec §3: the empty initial cart has a null id and empty item lists. */
export const EMPTY_CART: CartState = Object.freeze({
  id: null,
  customerId: 0,
  channelId: 0,
  currency: 'EUR',
  baseAmount: 0,
  cartAmount: 0,
  discountAmount: 0,
  lineItems: EMPTY_LINE_ITEMS,
  redirectUrls: null,
  createdTime: '',
  updatedTime: '',
});

export interface CartTotals {
  /** base_amount. */
  total: Cents;
  /** base_amount. */
  subtotal: Cents;
  /** cart_amount: what the shopper pays. */
  special: Cents;
}

/** spec §3: total and subtotal equal base_amount, special equals cart_amount, each 0 by default. */
export function cartTotals(cart: CartState | null | undefined): CartTotals {
  const base = cart?.baseAmount ?? 0;
  return { total: base, subtotal: base, special: cart?.cartAmount ?? 0 };
}

/** What the cart sidebar and the cart pages show of the totals. */
export interface CartTotalsView {
  /** "Sous-total": base_amount. */
  subtotal: Cents;
  /**
   * "Total": base_amount, with cart_amount as its special price when it is lower (a cart-level
   * discount or coupon), shown like a product's special price beside the struck-through one.
   */
  total: Pick<DisplayPrice, 'regular' | 'special'>;
  /** base_amount − cart_amount when positive, else 0 (the "Remise" line). */
  discount: Cents;
  /**
   * What the shopper pays: cart_amount (spec §3 special), the bold bottom line "Total à payer"
   * of the sidebar and the cart page, under the subtotal and the discount.
   */
  due: Cents;
}

/**
 * spec §3 totals as displayed: subtotal and total are base_amount; special (cart_amount) is
 * what is paid and shows as the total's special price only when it is a reduction.
 */
export function cartTotalsView(totals: CartTotals): CartTotalsView {
  const reduced = totals.special >= 0 && totals.special < totals.total;
  return {
    subtotal: totals.subtotal,
    total: { regular: totals.total, special: reduced ? totals.special : null },
    discount: reduced ? totals.total - totals.special : 0,
    due: Math.max(0, totals.special),
  };
}

/** spec §3 item list: physical plus digital items (gift certificates and custom items are not). */
export function cartItems(cart: CartState | null | undefined): CartLineItem[] {
  if (!cart) return [];
  return [...cart.lineItems.physicalItems, ...cart.lineItems.digitalItems];
}

/** spec §3: sum of quantity over physical and digital items only, 0 with no cart. */
export function cartItemCount(cart: CartState | null | undefined): number {
  return cartItems(cart).reduce((sum, item) => sum + item.quantity, 0);
}

/** spec §3 "cart item as displayed". */
export interface CartItemView {
  id: string;
  productId: number;
  variantId: number;
  sku: string;
  image: string;
  name: string;
  /** Unit price: regular = list price, special = sale price when it is a reduction. */
  price: DisplayPrice;
  /** Chosen options, in cart order ("Taille": "140x190 cm"). */
  attributes: { name: string; value: string }[];
  quantity: number;
}

/** spec §3: sku, image, name, price {regular, special}, attributes, quantity of a cart line. */
export function cartItemView(item: CartLineItem): CartItemView {
  const special = item.salePrice > 0 && item.salePrice < item.listPrice ? item.salePrice : null;
  return {
    id: item.id,
    productId: item.productId,
    variantId: item.variantId,
    sku: item.sku,
    image: item.imageUrl,
    name: item.name,
    price: { regular: item.listPrice, special, hidden: false },
    attributes: item.options.map((option) => ({ name: option.name, value: option.value })),
    quantity: item.quantity,
  };
}

// -- cookie (spec §4: the cart id is kept in a cookie) ----------------------------------------

export const CART_COOKIE_NAME = 'cart-id';
/** Default lifetime of the cart cookie (contract: public config CART_COOKIE_MAX_AGE). */
export const DEFAULT_CART_COOKIE_MAX_AGE = 2_592_000;

// BigCommerce cart ids are UUIDs; anything else in the cookie was not written by the shop.
const CART_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The cart id of a `cart-id` cookie value: a UUID, else null (absent, empty or tampered). */
export function parseCartId(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return CART_ID_PATTERN.test(trimmed) ? trimmed.toLowerCase() : null;
}

export interface CartCookieOptions {
  maxAge?: number;
  secure?: boolean;
}

/** The cookie string storing `cartId`, or deleting the cookie when `cartId` is null. */
export function cartCookie(cartId: string | null, options: CartCookieOptions = {}): string {
  return serializeCookie(CART_COOKIE_NAME, cartId ?? '', {
    maxAge: cartId === null ? 0 : (options.maxAge ?? DEFAULT_CART_COOKIE_MAX_AGE),
    path: '/',
    secure: options.secure === true,
  });
}

// -- checkout (spec §4: go-to-checkout links to checkout with a time-stamp parameter t) -------

/** `/paiement?t={now}`: the time stamp makes every visit a fresh request of the page. */
export function checkoutLink(now: number = Date.now(), path: string = CHECKOUT_PATH): string {
  return `${path}?t=${String(Math.floor(now))}`;
}

/** spec §9: the add-to-cart button shows its feedback for 1 s. */
export const ADD_TO_CART_FEEDBACK_MS = 1000;

// -- quantity -------------------------------------------------------------------------------

/** Most units of one line the cart selector offers. */
export const MAX_CART_QUANTITY = 99;

/** The highest quantity allowed for a line: 99, or the tracked stock level when lower. */
export function maxQuantity(stockLevel?: number | null): number {
  if (stockLevel === null || stockLevel === undefined || !Number.isFinite(stockLevel)) {
    return MAX_CART_QUANTITY;
  }
  return Math.max(1, Math.min(MAX_CART_QUANTITY, Math.floor(stockLevel)));
}

/** A quantity the cart accepts: a whole number from 1 to `maxQuantity(stockLevel)`. */
export function clampQuantity(quantity: number, stockLevel?: number | null): number {
  if (!Number.isFinite(quantity)) return 1;
  return Math.min(maxQuantity(stockLevel), Math.max(1, Math.floor(quantity)));
}

// -- login merge (spec §4) --------------------------------------------------------------------

/**
 * What to do with the carts when a shopper logs in (spec §4 login merge):
 * - `assign`: no saved cart id (or the saved cart is the current one): assign the current cart;
 * - `create`: no saved cart and no current cart: create one for the customer;
 * - `merge`: a saved cart and a non-empty guest cart: add the guest items to the saved cart,
 *   then assign it;
 * - `load-saved`: a saved cart and an empty guest cart: load the saved cart.
 * On any failure the store creates a new cart (with the guest items) and assigns it.
 */
export type LoginMergePlan =
  | { action: 'assign'; cartId: string }
  | { action: 'create' }
  | { action: 'merge'; savedCartId: string; lineItems: LineItemInput[] }
  | { action: 'load-saved'; savedCartId: string };

export function loginMergePlan(
  savedCartId: string | null | undefined,
  guestCart: CartState | null | undefined,
): LoginMergePlan {
  const saved = parseCartId(savedCartId);
  const current = guestCart?.id ?? null;
  if (saved === null || saved === current) {
    return current === null ? { action: 'create' } : { action: 'assign', cartId: current };
  }
  const lineItems = guestLineItems(guestCart);
  if (lineItems.length === 0) return { action: 'load-saved', savedCartId: saved };
  return { action: 'merge', savedCartId: saved, lineItems };
}

/**
 * The lines of a cart as line items to add elsewhere: product, variant, quantity and checkbox
 * choices of each top-level physical or digital line (children of a bundle come with their
 * parent).
 */
export function guestLineItems(cart: CartState | null | undefined): LineItemInput[] {
  return cartItems(cart)
    .filter((item) => item.parentId === null && item.quantity > 0)
    .map((item) => lineItemAgain(item, item.quantity));
}

/** A cart line written again with `quantity`: same product, variant and checkbox choices. */
export function lineItemAgain(item: CartLineItem, quantity: number): LineItemInput {
  const optionSelections = lineModifierSelections(item);
  return {
    productId: item.productId,
    variantId: item.variantId,
    quantity,
    ...(optionSelections.length > 0 ? { optionSelections } : {}),
  };
}
