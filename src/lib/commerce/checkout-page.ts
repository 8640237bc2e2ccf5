/**
 * The checkout page `/paiement` (spec §2, §4) as rules: what a request asks (the hand-over to the
 * hosted checkout, an order's confirmation, the cart's summary), whether a cart may be handed
 * over and whether this browser claims its checkout first, what a confirmation answers and when
 * a guest comes back here after logging in. Pure: `src/pages/paiement.astro` reads the session,
 * the cart and the order and applies them; which order a requester may see is
 * `mayReadOrderOfCart` (`src/shop/carts/ownership.ts`).
 */
import { parseOrderId } from './account-pages.ts';

/** What a request to `/paiement` asks. */
export type CheckoutRequest =
  /** POST (same-origin only): hand the cart over to the hosted checkout. */
  | { kind: 'hand-over' }
  /** GET `?commande={id}`: the hosted checkout's way back; an unreadable id is `null` (404). */
  | { kind: 'confirmation'; orderId: number | null }
  /** GET: the cart's summary and the hand-over form. */
  | { kind: 'summary' };

/** The request's kind, from its method and query. */
export function checkoutRequest(method: string, params: URLSearchParams): CheckoutRequest {
  if (method.toUpperCase() === 'POST') return { kind: 'hand-over' };
  const order = params.get('commande');
  if (order !== null) return { kind: 'confirmation', orderId: parseOrderId(order) };
  return { kind: 'summary' };
}

/** The cart of a hand-over as the rules need it: whose it is (0: a guest's) and its lines. */
export interface HandOverCart {
  customerId: number;
  lineCount: number;
}

/**
 * A same-origin hand-over, once the page read the cart this session may use (null: none):
 * without a cart or lines, back to the cart page (303); otherwise on, claiming the checkout
 * first for a guest cart (another browser holding it answers 409), while a customer's cart is
 * theirs by the session.
 */
export function handOverStart(
  cart: HandOverCart | null,
): { kind: 'back-to-cart' } | { kind: 'hand-over'; claim: boolean } {
  if (cart === null || cart.lineCount === 0) return { kind: 'back-to-cart' };
  return { kind: 'hand-over', claim: cart.customerId === 0 };
}

/**
 * The reply of a confirmation: the order found (the requester may see it) answers 200 and the
 * cart cookie is forgotten, since the cart became that order (spec §4 lifecycle); otherwise 404.
 */
export function confirmationReply(orderFound: boolean): { status: 200 | 404; forgetCart: boolean } {
  return orderFound ? { status: 200, forgetCart: true } : { status: 404, forgetCart: false };
}

/** A guest looking at a cart to pay who logs in from here comes back here (return path). */
export function returnsHereAfterLogin(
  request: CheckoutRequest,
  customerId: number | null,
  lineCount: number,
): boolean {
  return request.kind === 'summary' && customerId === null && lineCount > 0;
}
