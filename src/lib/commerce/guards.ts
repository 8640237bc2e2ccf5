/**
 * Route guards of spec §2 as pure decisions: which requests need a logged-in shopper, where
 * they go instead, and which path they come back to after login. The Astro middleware
 * (`src/shop/middleware/with-guards.ts`) applies them; the login islands read the
 * stored path back through `returnPath` (`redirect-target.ts`), as it was written.
 */
import { serializeCookie } from './cookie.ts';
import { returnPath } from './redirect-target.ts';
import {
  ACCOUNT_PATH,
  CART_PATH,
  LEGACY_LOGIN_PATH,
  LOGIN_PATH,
  LOGOUT_PATH,
  PASSWORD_PATH,
} from './routes.ts';

export {
  ACCOUNT_HOME,
  ACCOUNT_PATH,
  CART_PATH,
  CHECKOUT_PATH,
  LOGIN_PATH,
  LOGOUT_PATH,
  REGISTER_PATH,
} from './routes.ts';

/** Cookie keeping the path asked for before login (spec §2 login-required). */
export const RETURN_PATH_COOKIE = 'redirect-after-login';
/** A guest's way back is short-lived: 10 minutes is plenty to log in or register. */
export const RETURN_PATH_MAX_AGE = 600;

/**
 * The `Set-Cookie` / `document.cookie` string keeping `path` for after login, or forgetting it
 * (null, or a path that is no way back: see `returnPath`). The value is the path in its URL
 * form; the cookie's own escaping is undone once by `readCookie`, nothing else decodes it.
 * Read back by the login islands, so not HttpOnly.
 */
export function returnPathCookie(path: string | null, options: { secure?: boolean } = {}): string {
  const kept = returnPath(path);
  return serializeCookie(RETURN_PATH_COOKIE, kept ?? '', {
    maxAge: kept === null ? 0 : RETURN_PATH_MAX_AGE,
    secure: options.secure === true,
  });
}

export type GuardDecision =
  /** Let the request through. */
  | { kind: 'next' }

  /** Redirect; `returnPath` (when set) is stored for after login. */
  | { kind: 'redirect'; location: string; returnPath?: string };

/** Paths only a logged-in customer may open (spec §2 login-required, §6). */
export function requiresLogin(pathname: string): boolean {
  return pathname === ACCOUNT_PATH || pathname.startsWith(`${ACCOUNT_PATH}/`);
}

/**
 * The guard decision for a request (spec §2): `/login.php` → logout; `/mot-de-passe` without a
 * `resetToken` → home; account pages for a visitor → login, keeping the requested path; the
 * cart with `authenticated=true` for a visitor → login, keeping the cart path.
 */
export function guardRequest(url: URL, loggedIn: boolean): GuardDecision {
  const { pathname, searchParams } = url;
  if (pathname === LEGACY_LOGIN_PATH) return { kind: 'redirect', location: LOGOUT_PATH };
  if (pathname === PASSWORD_PATH && (searchParams.get('resetToken') ?? '').trim() === '') {
    return { kind: 'redirect', location: '/' };
  }
  if (loggedIn) return { kind: 'next' };
  if (requiresLogin(pathname)) {
    const kept = returnPath(pathname + url.search);
    return kept === null
      ? { kind: 'redirect', location: LOGIN_PATH }
      : { kind: 'redirect', location: LOGIN_PATH, returnPath: kept };
  }
  if (pathname === CART_PATH && searchParams.get('authenticated') === 'true') {
    return { kind: 'redirect', location: LOGIN_PATH, returnPath: CART_PATH };
  }
  return { kind: 'next' };
}
