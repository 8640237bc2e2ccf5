/**
 * Request checks of the API middleware and the pages: same-origin and JSON checks of
 * state-changing calls and the cross-site check of form posts
 * to on-demand pages.
 * Origins are the public origin of `ClientInfo` (`client.ts`): behind a TLS proxy the request
 * URL says http while the browser's `Origin` says https.
 */

/**
 * A state-changing call must come from the shop's own pages: `Sec-Fetch-Site: same-origin`,
 * or an `Origin` equal to the shop's public `origin` (`ClientInfo.origin`). `Sec-Fetch-Site:
 * none` (a typed URL, a bookmark) and cross-site requests are refused; so is a request that
 * says neither.
 */
export function isSameOriginRequest(request: Request, origin: string): boolean {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null) return site === 'same-origin';
  const sent = request.headers.get('origin');
  if (sent === null || sent === 'null') return false;
  return sent.toLowerCase() === origin.toLowerCase();
}

/**
 * A GET of `/deconnexion` that logs out at once: the browser says the shopper asked for it,
 * from the shop's own pages (`Sec-Fetch-Site: same-origin`, the account menu's link) or by
 * typing the address or opening a bookmark (`none`: no page made the request, so no other
 * site can). Cross-site, same-site (a sibling subdomain) and browsers that do not say get a
 * confirmation instead (another site must not log the shopper out).
 */
export function isLogoutNavigation(request: Request): boolean {
  if (request.method.toUpperCase() !== 'GET') return false;
  const site = request.headers.get('sec-fetch-site');
  return site === 'same-origin' || site === 'none';
}

/**
 * What `/deconnexion` does with a request (no cross-site logout): a POST from the shop's origin
 * (`isSameOriginRequest`) or a GET the shopper asked for (`isLogoutNavigation`) logs out at
 * once; any other GET asks first (a confirmation whose form posts back), and a POST from
 * elsewhere is refused with 403 and asks too.
 */
export function logoutStep(
  request: Request,
  origin: string,
): { kind: 'log-out' } | { kind: 'ask'; status: 200 | 403 } {
  if (request.method.toUpperCase() === 'POST') {
    return isSameOriginRequest(request, origin)
      ? { kind: 'log-out' }
      : { kind: 'ask', status: 403 };
  }
  return isLogoutNavigation(request) ? { kind: 'log-out' } : { kind: 'ask', status: 200 };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// What an HTML form can send cross-site without a CORS preflight (plus no body type at all).
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/**
 * A request another site's page could have made a browser send to an on-demand page: an
 * unsafe method (POST, PUT, DELETE...) whose `Sec-Fetch-Site` is not same-origin, or, from a
 * browser that does not send it, whose `Origin` is not the shop's public `origin` while the
 * body is form-like or untyped (any other type needs a CORS preflight the shop never grants).
 * What Astro's `security.checkOrigin` does, against the public origin instead of the request
 * URL's.
 */
export function isCrossSiteSubmission(request: Request, origin: string): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  const site = request.headers.get('sec-fetch-site');
  if (site !== null) return site !== 'same-origin';
  const sent = request.headers.get('origin');
  if (sent !== null && sent.toLowerCase() === origin.toLowerCase()) return false;
  const type = request.headers.get('content-type');
  if (type === null) return true;
  const essence = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return FORM_TYPES.includes(essence);
}

/** The body is declared JSON (`application/json`, any parameters). */
export function isJsonRequest(request: Request): boolean {
  const type = request.headers.get('content-type');
  if (type === null) return false;
  return type.split(';')[0]?.trim().toLowerCase() === 'application/json';
}
