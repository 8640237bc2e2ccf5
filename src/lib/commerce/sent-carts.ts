/**
 * The carts a reseller sent to clients (spec §1, §2, §5 "send the cart to a client"):
 * who prepared each (the seller and the reseller's shop, with their contact), where it went,
 * and how far the client got: sent, opened (the link visited), paid (an order placed from it).
 * Pure: the records live in the shared store (`src/shop/carts/sent-carts.ts`).
 */
import type { Cents } from './types.ts';

/** How far a sent cart got; the order of the list is the order of the states. */
export const SENT_CART_STATES = ['sent', 'opened', 'paid'] as const;
export type SentCartState = (typeof SENT_CART_STATES)[number];

/**
 * How long a cart link works, in days: as long as its cart lives upstream. BigCommerce keeps a
 * cart 30 days after its last change, then deletes it (carts.v3.yml), and an order placed from
 * it consumes it; the shop's token itself has no other expiry (`cart-redirect.ts`).
 */
export const CART_LINK_VALID_DAYS = 30;
export const CART_LINK_VALID_MS = CART_LINK_VALID_DAYS * 24 * 60 * 60 * 1000;

/** How many sent carts the reseller area keeps per reseller (the newest). */
export const MAX_SENT_CARTS = 20;

/** Who prepared a sent cart: the seller chosen in the form and the reseller's shop. */
export interface PreparedBy {
  seller: string;
  /** The reseller's shop name ('Nom de la boutique'), or their name when they set none. */
  reseller: string;
  /** The reseller's contact, shown to the client. */
  email: string;
  phone: string;
}

export interface SentCart {
  cartId: string;
  /** The reseller's customer id: the only one who may list it (`ownership.ts`). */
  resellerId: number;
  preparedBy: PreparedBy;
  clientEmail: string;
  /** Epoch milliseconds of the send. */
  sentAt: number;
  /** What the client pays (cart_amount, VAT included), at the send. */
  total: Cents;
  currency: string;
  state: SentCartState;
  /** The order placed from it, once paid. */
  orderId: number | null;
}

/** What happens to a sent cart after the send. */
export type SentCartEvent = { kind: 'opened' } | { kind: 'paid'; orderId: number };

const rank = (state: SentCartState) => SENT_CART_STATES.indexOf(state);

/**
 * The record after an event: a state only moves forward (a link opened again after payment
 * leaves it paid), and the first order recorded stays the cart's order.
 */
export function advanceSentCart(record: SentCart, event: SentCartEvent): SentCart {
  if (rank(event.kind) <= rank(record.state)) return record;
  return {
    ...record,
    state: event.kind,
    orderId: event.kind === 'paid' ? event.orderId : record.orderId,
  };
}

/**
 * A reseller's list of sent cart ids after sending `cartId`: newest first, each once (a cart
 * sent again moves to the top), at most `max`.
 */
export function withSentCart(
  list: readonly string[],
  cartId: string,
  max: number = MAX_SENT_CARTS,
): string[] {
  return [cartId, ...list.filter((id) => id !== cartId)].slice(0, Math.max(1, max));
}

/** Why a cart link opens nothing (`/vue/lien-panier`). */
export type CartLinkProblem = 'used' | 'invalid';

/**
 * Why a shop-minted link (its signature checked) no longer opens its cart: `used` once an order
 * was placed from it or a customer account took the cart over; else `invalid` (the cart expired,
 * was emptied, or the link was replaced).
 */
export function cartLinkProblem(input: {
  /** The sent cart's record, or null when the store has none. */
  sent: Pick<SentCart, 'state'> | null;
  /** The cart's customer upstream: 0 for a guest cart, null when the cart is gone. */
  cartCustomerId: number | null;
}): CartLinkProblem {
  if (input.sent?.state === 'paid') return 'used';
  if (input.cartCustomerId !== null && input.cartCustomerId !== 0) return 'used';
  return 'invalid';
}
