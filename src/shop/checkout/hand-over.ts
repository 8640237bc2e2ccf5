/**
 * The hand-over of a cart to BigCommerce's hosted checkout (`POST /paiement`, spec §2, §4
 * Stock): the one place that decides its answer. Its collaborators are handed in (the page
 * wires them to the session, the cart cookie and the connectors), so every answer is tested
 * without a server (tests/unit/checkout-hand-over.test.ts):
 * - 403: a post from another origin;
 * - 303 to the cart: no cart of this browser, or an empty one;
 * - the summary again, 409: a line out of stock or over what is left (the stock is read again
 *   here: the browser's check can be bypassed), each such line flagged;
 * - 409 (text): a guest cart whose checkout another browser holds (`checkout-holder.ts`);
 * - 502: the hosted checkout URL upstream gave is not an http(s) URL;
 * - 303 to the hosted checkout, with the cookie that says this browser holds the checkout.
 */
import { cartItems } from '../../lib/commerce/cart.ts';
import { handOverStart } from '../../lib/commerce/checkout-page.ts';
import { CART_PATH } from '../../lib/commerce/guards.ts';
import { lineStockIssue } from '../../lib/commerce/line-stock.ts';
import { redirectTarget } from '../../lib/commerce/redirect-target.ts';
import type { Cart } from '../../lib/commerce/types.ts';
import { t } from '../../lib/i18n/index.ts';
import { ReplyCookies } from '../auth/cookies.ts';
import { log } from '../config/log.ts';

export interface HandOver {
  /** The post comes from the shop's own origin. */
  sameOrigin: boolean;
  /** Cookies are `Secure` (the browser uses https). */
  secure: boolean;
  /** The browser's cart, when it is a guest cart or the session customer's own. */
  ownCart(): Promise<Cart | null>;
  /** The cart with each line's stock read again. */
  withStock(cart: Cart): Promise<Cart>;
  /** This browser claims the guest cart's checkout; false: another browser holds it. */
  claim(cookies: ReplyCookies, cartId: string): Promise<boolean>;
  /** The hosted checkout URL of the cart, as upstream gives it. */
  checkoutUrl(cart: Cart): Promise<string>;
}

export type HandOverAnswer =
  | { kind: 'reply'; response: Response }
  | { kind: 'redirect'; location: string }
  /** Shown again as the summary, with status 409: lines to fix first. */
  | { kind: 'refused'; cart: Cart };

const TEXT = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };

export async function handOver(deps: HandOver): Promise<HandOverAnswer> {
  if (!deps.sameOrigin) {
    return { kind: 'reply', response: new Response(t('error.forbidden'), { status: 403 }) };
  }
  const found = await deps.ownCart();
  const start = handOverStart(
    found === null ? null : { customerId: found.customerId, lineCount: cartItems(found).length },
  );
  if (found === null || start.kind === 'back-to-cart')
    return { kind: 'redirect', location: CART_PATH };
  const cart = await deps.withStock(found);
  if (cartItems(cart).some((line) => lineStockIssue(line) !== null))
    return { kind: 'refused', cart };
  // This browser places a guest cart's order: it claims the checkout, unless another one
  // holds it (a customer's cart, a guest cart assigned on the way, is theirs: the session
  // decides).
  const cookies = new ReplyCookies({ secure: deps.secure });
  if (start.claim && !(await deps.claim(cookies, cart.id))) {
    const response = new Response(t('This cart is being paid for in another browser'), {
      status: 409,
      headers: TEXT,
    });
    return { kind: 'reply', response };
  }
  const target = redirectTarget(await deps.checkoutUrl(cart), { kind: 'platform' });
  if (target === null) {
    // Only an http(s) hosted checkout is a way on; anything else from upstream is its fault.
    log.error('[paiement] the hosted checkout URL is not an http(s) URL');
    return { kind: 'reply', response: new Response(t('error.generic'), { status: 502 }) };
  }
  const headers = new Headers({ Location: target.location, 'Cache-Control': 'no-store' });
  for (const value of cookies.headers()) headers.append('Set-Cookie', value);
  return { kind: 'reply', response: new Response(null, { status: 303, headers }) };
}
