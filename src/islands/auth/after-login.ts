/**
 * Where a shopper goes once logged in (spec §2, §4): the path kept by the login-required or
 * cart-authenticated guard when it is a path of this shop, else the account page
 * mes-informations. The stored path is used once.
 */
import { ACCOUNT_HOME, RETURN_PATH_COOKIE, safeReturnPath } from '../../lib/commerce/guards.ts';
import { cookieJar } from '../../lib/stores/cookie-jar.ts';

/** The destination after login, and forgets the stored path. */
export function takeReturnPath(): string {
  const jar = cookieJar();
  const stored = jar.get(RETURN_PATH_COOKIE);
  if (stored !== undefined) jar.set(`${RETURN_PATH_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`);
  return safeReturnPath(stored) ?? ACCOUNT_HOME;
}

/** Keeps `path` as the destination after the next login (e.g. the checkout page). */
export function keepReturnPath(path: string): void {
  const safe = safeReturnPath(path);
  if (safe === undefined) return;
  const secure = cookieJar().secure ? '; Secure' : '';
  cookieJar().set(
    `${RETURN_PATH_COOKIE}=${encodeURIComponent(safe)}; Max-Age=600; Path=/; SameSite=Lax${secure}`,
  );
}
