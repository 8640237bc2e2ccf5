/**
 * Where a shopper goes once logged in (spec §2, §4): the path kept by the login-required or
 * cart-authenticated guard when it is a path of this shop, else the account page
 * mes-informations. A reseller (reseller mode, spec §6) lands in the reseller area instead, and
 * on the reseller cart rather than the consumer cart or checkout (`resellerLanding`).
 * The stored path is used once.
 */
import { ACCOUNT_HOME, RETURN_PATH_COOKIE, returnPathCookie } from '../../lib/commerce/guards.ts';
import { returnPath } from '../../lib/commerce/redirect-target.ts';
import { resellerLanding } from '../../lib/commerce/reseller.ts';
import { inResellerMode } from '../../lib/commerce/shop-mode.ts';
import { cookieJar } from '../../lib/stores/cookie-jar.ts';
import { $customer } from '../../lib/stores/customer.ts';

/**
 * The destination after login (`home` when no path was kept), and forgets the stored path.
 * `resellerArea`: the reseller area's flag (FEATURE_RESELLER_AREA, `features` of the caller).
 */
export function takeReturnPath(home: string = ACCOUNT_HOME, resellerArea = false): string {
  const jar = cookieJar();
  const stored = jar.get(RETURN_PATH_COOKIE);
  if (stored !== undefined) jar.set(returnPathCookie(null, { secure: jar.secure }));
  const kept = returnPath(stored);
  if (inResellerMode($customer.get(), resellerArea)) return resellerLanding(kept);
  return kept ?? home;
}
