/**
 * Where a shopper goes once logged in (spec §2, §4): the path kept by the login-required or
 * cart-authenticated guard when it is a path of this shop, else the account page
 * mes-informations. The stored path is used once.
 */
import { ACCOUNT_HOME, RETURN_PATH_COOKIE, returnPathCookie } from '../../lib/commerce/guards.ts';
import { returnPath } from '../../lib/commerce/redirect-target.ts';
import { cookieJar } from '../../lib/stores/cookie-jar.ts';

/** The destination after login (`home` when no path was kept), and forgets the stored path. */
export function takeReturnPath(home: string = ACCOUNT_HOME): string {
  const jar = cookieJar();
  const stored = jar.get(RETURN_PATH_COOKIE);
  if (stored !== undefined) jar.set(returnPathCookie(null, { secure: jar.secure }));
  return returnPath(stored) ?? home;
}
