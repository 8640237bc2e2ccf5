/**
 * The headers every reply of the storefront server carries, static or on demand, from this
 * one place: no sniffing, no framing by other sites, a referrer policy, no
 * camera/microphone/geolocation, and HSTS when the browser came over https (directly or
 * through a trusted TLS proxy, `src/shop/auth/client.ts`).
 */
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { resolveClient, trustedProxiesFromEnv, type TrustedProxies } from '../shop/auth/client.ts';
import { PICTURE_CSP } from '../shop/html/csp.ts';

/** The framing rule as a CSP policy of its own: it combines with the page's CSP, if any. */
export const FRAME_ANCESTORS = "frame-ancestors 'self'";

export const HSTS = 'max-age=31536000; includeSubDomains';

const ALWAYS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'SAMEORIGIN',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};

/** Security headers of a reply, to spread into a header object. */
export function securityHeaders(secure: boolean): Record<string, string> {
  return secure
    ? { ...ALWAYS, 'Content-Security-Policy': FRAME_ANCESTORS, 'Strict-Transport-Security': HSTS }
    : { ...ALWAYS, 'Content-Security-Policy': FRAME_ANCESTORS };
}

/**
 * Security headers of a pre-rendered page whose own Content-Security-Policy is `policy`
 * (page-policy.ts, null for none): the page's policy and the framing rule, as two policies
 * (browsers enforce both), so the policy covers the whole reply, not only what follows its
 * `<meta>`.
 */
export function pageSecurityHeaders(secure: boolean, policy: string | null): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = securityHeaders(secure);
  if (policy !== null) headers['Content-Security-Policy'] = [policy, FRAME_ANCESTORS];
  return headers;
}

/**
 * Adds the security headers to headers an application wrote (lower- or mixed-case names):
 * those it set itself are kept, except that a Content-Security-Policy without
 * `frame-ancestors` gets the framing rule as a second policy (browsers enforce both) instead
 * of being replaced; the picture proxy's policy (`PICTURE_CSP`, a sandbox that loads nothing)
 * stays the only one, framing being `X-Frame-Options`'s there.
 */
export function withSecurityHeaders(
  headers: OutgoingHttpHeaders,
  secure: boolean,
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const present = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = value;
    present.set(name.toLowerCase(), name);
  }
  for (const [name, value] of Object.entries(securityHeaders(secure))) {
    const existing = present.get(name.toLowerCase());
    if (existing === undefined) {
      out[name] = value;
      continue;
    }
    if (name !== 'Content-Security-Policy') continue;
    const policies = ([] as (string | number)[]).concat(out[existing] ?? []).map(String);
    if (policies.length === 1 && policies[0] === PICTURE_CSP) continue;
    if (!policies.some((policy) => /(?:^|[;,])\s*frame-ancestors\b/i.test(policy))) {
      out[existing] = [...policies, value];
    }
  }
  return out;
}

/** Decides whether a request reached the shop over https, given `TRUSTED_PROXIES`. */
export function httpsDetector(
  trusted: TrustedProxies = trustedProxiesFromEnv(),
): (req: IncomingMessage) => boolean {
  return (req) => {
    const encrypted = 'encrypted' in req.socket && req.socket.encrypted === true;
    if (encrypted) return true;
    const proto = req.headers['x-forwarded-proto'];
    // Without the header nothing but the socket can say https: skip the address check.
    if (proto === undefined || trusted.entries.length === 0) return false;
    return resolveClient(
      {
        remoteAddress: req.socket.remoteAddress,
        encrypted,
        host: req.headers.host,
        forwardedFor: headerText(req.headers['x-forwarded-for']),
        forwardedProto: headerText(proto),
        forwardedHost: headerText(req.headers['x-forwarded-host']),
      },
      trusted,
    ).secure;
  };
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The heads `sharedHead` made, by owner and name (gone with their owner). */
const sharedHeads = new WeakMap<object, Map<string, OutgoingHttpHeaders>>();

/**
 * A head made once for `owner` (a version of a file, a cached reply) and `name` (what else it
 * depends on: coding, scheme, length...), then shared by every reply it answers: a hot page or
 * API reply goes out thousands of times a second, and building its head field by field, the
 * security headers merged in, was a measurable part of each. Frozen, so never written to: the
 * reply class copies it to add the request id (`shop-response.ts`).
 */
export function sharedHead(
  owner: object,
  name: string,
  make: () => OutgoingHttpHeaders,
): OutgoingHttpHeaders {
  let heads = sharedHeads.get(owner);
  if (heads === undefined) {
    heads = new Map();
    sharedHeads.set(owner, heads);
  }
  let head = heads.get(name);
  if (head === undefined) {
    head = Object.freeze(make());
    // A few codings and schemes per owner; more is not a hot head.
    if (heads.size < 16) heads.set(name, head);
  }
  return head;
}
