/**
 * Route guards of spec §2 as pure decisions: which requests need a logged-in shopper, where
 * they go instead, and which path they come back to after login. The Astro middleware
 * (`src/lib/server/middleware/with-guards.ts`) applies them; the login islands read the
 * stored path back with `safeReturnPath`.
 */
import { serializeCookie } from './cookie.ts';

/** Cookie keeping the path asked for before login (spec §2 login-required). */
export const RETURN_PATH_COOKIE = 'redirect-after-login';
/** A guest's way back is short-lived: 10 minutes is plenty to log in or register. */
export const RETURN_PATH_MAX_AGE = 600;

export const LOGIN_PATH = '/connexion';
export const LOGOUT_PATH = '/deconnexion';
export const REGISTER_PATH = '/inscription';
export const PASSWORD_PATH = '/mot-de-passe';
export const ACCOUNT_PATH = '/mon-compte';
export const CART_PATH = '/panier';
export const CHECKOUT_PATH = '/paiement';
/** spec §2: the account area's default page. */
export const ACCOUNT_HOME = `${ACCOUNT_PATH}/mes-informations`;
/** spec §2: a request to /login.php is redirected to the logout page. */
export const LEGACY_LOGIN_PATH = '/login.php';

/**
 * The `Set-Cookie` / `document.cookie` string keeping `path` for after login, or forgetting it
 * (null). Read back by the login islands, so not HttpOnly.
 */
export function returnPathCookie(path: string | null, options: { secure?: boolean } = {}): string {
  return serializeCookie(RETURN_PATH_COOKIE, path ?? '', {
    maxAge: path === null ? 0 : RETURN_PATH_MAX_AGE,
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
    return { kind: 'redirect', location: LOGIN_PATH, returnPath: pathname + url.search };
  }
  if (pathname === CART_PATH && searchParams.get('authenticated') === 'true') {
    return { kind: 'redirect', location: LOGIN_PATH, returnPath: CART_PATH };
  }
  return { kind: 'next' };
}

/**
 * The stored return path, if it is a path of this shop (spec §2: "used after login only if it
 * is a same-origin path"); otherwise undefined. Rejects absolute and protocol-relative URLs,
 * backslash tricks, control characters and the login pages themselves (no loop).
 */
export function safeReturnPath(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(value.trim());
  } catch {
    return undefined;
  }
  if (path.length === 0 || path.length > 2048) return undefined;
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(path)) return undefined;
  // Resolving against a dummy origin must not leave it (e.g. '/\t/evil' was refused above).
  const resolved = new URL(path, 'https://shop.invalid');
  if (resolved.origin !== 'https://shop.invalid') return undefined;
  const target = resolved.pathname;
  if (target === LOGIN_PATH || target === LOGOUT_PATH || target === REGISTER_PATH) return undefined;
  return resolved.pathname + resolved.search + resolved.hash;
}
