import type { MiddlewareHandler } from 'astro';
import { guardRequest, returnPathCookie } from '../../lib/commerce/guards.ts';

export interface GuardsOptions {
  /**
   * True when the request carries a valid customer session that has not ended. The spec's
   * `authenticated` marker cookie is only a UI hint: the guard trusts the
   * signed session.
   */
  isLoggedIn(request: Request): boolean | Promise<boolean>;
}

/**
 * spec §2 route guards on on-demand routes: `/login.php` → `/deconnexion`, `/mot-de-passe`
 * without a reset token → `/`, login-required account pages and the cart-authenticated cart
 * (`?authenticated=true`) → `/connexion`, the requested path kept in a cookie for after login.
 */
export function createWithGuards(options: GuardsOptions): MiddlewareHandler {
  return async (context, next) => {
    // Pre-rendered pages have no visitor (nor request headers) at build time.
    if (context.isPrerendered) return next();
    const url = new URL(context.request.url);
    // Being logged in only ever lifts a redirect: the session (a store read) is read only then.
    const asVisitor = guardRequest(url, false);
    const decision =
      asVisitor.kind === 'redirect' && (await options.isLoggedIn(context.request))
        ? guardRequest(url, true)
        : asVisitor;
    if (decision.kind === 'next') return next();
    return guardRedirect(decision, context.locals.clientInfo.secure);
  };
}

/**
 * A guard's 302 (never cached), keeping `returnPath` for after login when it has one; the
 * cookie is `Secure` by the browser's scheme (ClientInfo), https behind a TLS proxy too.
 */
export function guardRedirect(
  decision: { location: string; returnPath?: string },
  secure: boolean,
): Response {
  const headers = new Headers({ Location: decision.location, 'Cache-Control': 'no-store' });
  if (decision.returnPath !== undefined) {
    headers.append('Set-Cookie', returnPathCookie(decision.returnPath, { secure }));
  }
  return new Response(null, { status: 302, headers });
}
