import type { MiddlewareHandler } from 'astro';
import { cartCookie } from '../../commerce/cart.ts';
import { CART_PATH } from '../../commerce/guards.ts';
import { logFailure } from '../failures.ts';

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
}

/**
 * spec §2 redirect-to-cart, on on-demand routes: when the query's `id` and `token` are both
 * non-empty and the cart's metadata holds that token, the cart cookie is set to the id and the
 * shopper goes to /panier. Otherwise the request goes on (a wrong token reveals nothing); an
 * upstream failure is logged and the page shown as asked.
 */
export function createWithCartRedirect(options: CartRedirectOptions): MiddlewareHandler {
  return async (context, next) => {
    if (context.isPrerendered || options.enabled === false) return next();
    const url = new URL(context.request.url);
    const id = url.searchParams.get('id')?.trim() ?? '';
    const token = url.searchParams.get('token')?.trim() ?? '';
    if (id === '' || token === '') return next();
    let cartId: string | null;
    try {
      cartId = await options.resolve(context.request, { id, token });
    } catch (error) {
      logFailure('cart-redirect', 'lookup failed', error);
      return next();
    }
    if (cartId === null) return next();
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
