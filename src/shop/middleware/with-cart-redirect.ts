import type { MiddlewareHandler } from 'astro';
import { cartCookie } from '../../lib/commerce/cart.ts';
import { CART_LINK_ROUTE } from '../../lib/commerce/cart-link.ts';
import { CART_PATH } from '../../lib/commerce/guards.ts';
import type { CartLinkRefusal } from '../carts/cart-redirect.ts';
import { logFailure } from '../faults/failures.ts';

export interface CartRedirectOptions {
  /** False with the transactional flag off: a cart link does nothing (default true). */
  enabled?: boolean;
  /** The cart id to open for a request's `id` and `token`, or null (see cart-redirect.ts). */
  resolve(request: Request, query: { id: string; token: string }): Promise<string | null>;
  /** Lifetime of the cart cookie, in seconds (CART_COOKIE_MAX_AGE). */
  cookieMaxAge: number;
  /**
   * The browser opening the link takes the cart's checkout over (`checkout-holder.ts`): the
   * cookies to set on the redirect.
   */
  adopt?(request: Request, cartId: string, secure: boolean): Promise<string[]>;
  /** The link opened its cart (a sent cart's state becomes 'opened'); failures are logged. */
  opened?(cartId: string): Promise<unknown>;
  /**
   * Why a refused link opens nothing (`explainCartLink`). Without it a refused link goes on to
   * the page asked for, as the link opened nothing before.
   */
  explain?(request: Request, query: { id: string; token: string }): Promise<CartLinkRefusal>;
}

/**
 * spec §2 redirect-to-cart, on on-demand routes: when the query's `id` and `token` are both
 * non-empty and the cart's metadata holds that token, the cart cookie is set to the id and the
 * shopper goes to /panier. A link that opens nothing (a wrong, used or expired token, or a link
 * to /panier with one of the two missing) renders the cart-link route in place of the page
 * (`/vue/lien-panier`, `locals.cartLinkRefusal`): the page says what happened and who to ask,
 * with its own status, and no cookie changes. An upstream failure is logged and the page shown
 * as asked.
 */
export function createWithCartRedirect(options: CartRedirectOptions): MiddlewareHandler {
  return async (context, next) => {
    if (context.isPrerendered || options.enabled === false) return next();
    const url = new URL(context.request.url);
    const id = url.searchParams.get('id')?.trim() ?? '';
    const token = url.searchParams.get('token')?.trim() ?? '';
    const refuse = async (refusal: CartLinkRefusal) => {
      context.locals.cartLinkRefusal = refusal;
      return url.pathname === CART_LINK_ROUTE ? next() : next(CART_LINK_ROUTE);
    };
    if (id === '' || token === '') {
      // A cart link cut short (the e-mail's link without its token): said so on the cart page.
      const cut = url.pathname === CART_PATH && (id !== '' || token !== '');
      return cut && options.explain ? refuse({ problem: 'invalid', preparedBy: null }) : next();
    }
    let cartId: string | null;
    try {
      cartId = await options.resolve(context.request, { id, token });
    } catch (error) {
      logFailure('cart-redirect', 'lookup failed', error);
      return next();
    }
    if (cartId === null) {
      if (!options.explain) return next();
      let refusal: CartLinkRefusal;
      try {
        refusal = await options.explain(context.request, { id, token });
      } catch (error) {
        logFailure('cart-redirect', 'explaining a refused link failed', error);
        refusal = { problem: 'invalid', preparedBy: null };
      }
      return refuse(refusal);
    }
    await options.opened?.(cartId).catch((error: unknown) => {
      logFailure('cart-redirect', 'recording the opened link failed', error);
    });
    const { secure } = context.locals.clientInfo;
    const headers = new Headers({ Location: CART_PATH, 'Cache-Control': 'no-store' });
    for (const cookie of (await options.adopt?.(context.request, cartId, secure)) ?? []) {
      headers.append('Set-Cookie', cookie);
    }
    headers.append(
      'Set-Cookie',
      cartCookie(cartId, {
        maxAge: options.cookieMaxAge,
        // Secure by the browser's scheme (ClientInfo), https behind a TLS proxy too.
        secure,
      }),
    );
    return new Response(null, { status: 302, headers });
  };
}
