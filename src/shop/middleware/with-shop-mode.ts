import type { MiddlewareHandler } from 'astro';
import { isResellerPath } from '../../lib/features.ts';
import type { ResellerVisitor } from '../../lib/commerce/reseller.ts';
import {
  hasResellerMode,
  resellerCartRedirect,
  resellerPage,
  SHOP_MODE_COOKIE,
} from '../../lib/commerce/shop-mode.ts';

export interface ShopModeOptions {
  /** The reseller area is on (FEATURE_RESELLER_AREA): without it there is no reseller mode. */
  enabled: boolean;
  /** Who asks, from the signed session (never from the mode cookie itself). */
  visitor(request: Request): Promise<ResellerVisitor>;
}

/**
 * spec §1, §6 reseller mode of the whole shop, for the pages rendered on request (listing
 * views, search results, content and products published after the build): a request carrying
 * the reseller mode cookie (`shop-mode.ts`) is checked against the session; a reseller's page
 * renders in the reseller layout (`locals.isReseller`) and is never shared by a cache, and the
 * consumer cart and checkout send them to the reseller cart (`resellerCartRedirect`); anyone
 * else loses the stale cookie and gets the page everyone gets. Area pages and the API are left
 * alone; pre-rendered files are stripped by the storefront server (`src/server/serve.ts`).
 */
export function createWithShopMode(options: ShopModeOptions): MiddlewareHandler {
  return async (context, next) => {
    context.locals.isReseller = false;
    const { pathname } = context.url;
    if (
      !options.enabled ||
      // Pre-rendered pages meet the middleware at build (made for everyone) and under
      // `astro dev`, where a reseller's is stripped here as the server does in production.
      (context.isPrerendered && !import.meta.env.DEV) ||
      pathname.startsWith('/api/') ||
      isResellerPath(pathname) ||
      !hasResellerMode(context.request.headers.get('cookie'))
    ) {
      return next();
    }
    if ((await options.visitor(context.request)) !== 'reseller') {
      context.cookies.delete(SHOP_MODE_COOKIE, { path: '/' });
      return next();
    }
    context.locals.isReseller = true;
    // The consumer cart and checkout lead a reseller to the reseller cart.
    const cart = resellerCartRedirect(pathname, context.url.search);
    if (cart !== null) {
      return new Response(null, {
        status: context.request.method === 'GET' || context.request.method === 'HEAD' ? 302 : 303,
        headers: { Location: cart, 'Cache-Control': 'no-store', Vary: 'Cookie' },
      });
    }
    const response = await next();
    // The same transformation as the storefront server's for pre-rendered pages (which reach
    // the middleware under `astro dev` only): upstream text's hidden links, flags, references.
    const page = (response.headers.get('content-type') ?? '').includes('text/html')
      ? new Response(resellerPage(await response.text()), response)
      : response;
    page.headers.delete('Content-Length');
    page.headers.set('Cache-Control', 'private, no-store');
    page.headers.append('Vary', 'Cookie');
    return page;
  };
}
