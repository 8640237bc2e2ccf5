/**
 * Who is asking, and over what, behind a proxy: the client address, the scheme and
 * the public origin of a request. `TRUSTED_PROXIES` lists the load balancers (addresses or
 * CIDRs) whose `X-Forwarded-For`, `X-Forwarded-Proto` and `X-Forwarded-Host` are believed; from
 * anyone else those headers are ignored, so a visitor cannot pick the address the login limits
 * count, nor make the shop think it is served over https.
 */
import { BlockList, isIP } from 'node:net';
import { readEnvironment } from '../../shop/config/environment.ts';

/** The caller as the shop sees it, once proxies are accounted for. */
export interface ClientInfo {
  /** The client's IP address ('' when unknown). */
  address: string;
  /** The scheme the browser used: 'https' behind a trusted TLS proxy. */
  protocol: 'http' | 'https';
  /** True over https: cookies get `Secure`, replies get HSTS. */
  secure: boolean;
  /** `protocol://host` as the browser sees it (origin checks compare `Origin` to it). */
  origin: string;
}

export interface TrustedProxies {
  /** Whether `address` is one of the trusted proxies. */
  trusts(address: string): boolean;
  /** The entries as configured (for logs). */
  readonly entries: readonly string[];
}

/** An IPv4 address mapped into IPv6 (`::ffff:10.0.0.1`, Node's dual-stack form) as IPv4. */
export function normaliseAddress(address: string): string {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(trimmed);
  const bare = mapped?.[1] ?? trimmed.replace(/^\[(.*)\]$/, '$1');
  return bare.toLowerCase();
}

/**
 * `TRUSTED_PROXIES` of the process environment, parsed (`parseTrustedProxies`): the variable's
 * one reader, read at run time so one build serves behind any proxy. The storefront server
 * (`src/server/headers.ts`, HSTS) and the Astro middleware (`config.ts` `trustedProxies`, the
 * client info) run in one process and take it from here; `npm run dev` loads `.env` into it.
 */
export function trustedProxiesFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): TrustedProxies {
  return parseTrustedProxies(readEnvironment(['TRUSTED_PROXIES'], env).TRUSTED_PROXIES);
}

/**
 * Parses `TRUSTED_PROXIES`: a comma-separated list of IPv4/IPv6 addresses or CIDRs
 * (`10.0.0.0/8, 192.168.1.4, fd00::/8`). Empty or unset trusts nobody. Throws a clear error on
 * an entry that is neither (a typo must not silently trust nobody, or everybody).
 */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const list = new BlockList();
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    const [rawAddress = '', rawPrefix, ...rest] = entry.split('/');
    const address = normaliseAddress(rawAddress);
    const family = isIP(address);
    const invalid = () =>
      new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR (e.g. 10.0.0.0/8)`);
    if (family === 0 || rest.length > 0) throw invalid();
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (rawPrefix === undefined) {
      list.addAddress(address, type);
      continue;
    }
    const prefix = Number(rawPrefix);
    if (!/^\d{1,3}$/.test(rawPrefix) || prefix > (family === 4 ? 32 : 128)) throw invalid();
    list.addSubnet(address, prefix, type);
  }
  return {
    entries,
    trusts(address) {
      const normalised = normaliseAddress(address);
      const family = isIP(normalised);
      if (family === 0 || entries.length === 0) return false;
      return list.check(normalised, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** Values of a list header (`a, b` and repeated headers alike), in order. */
function headerValues(value: string | null | undefined): string[] {
  if (value === null || value === undefined) return [];
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

// A host as a browser sends it: name or IPv4, or a bracketed IPv6, with an optional port.
const HOST = /^(?:[a-z0-9.-]{1,253}|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;

/**
 * The peer address of a render the server makes for everyone (a page or API reply it caches,
 * with no shopper's request behind it: `detachedRequest` in src/server/on-demand.ts). Not an
 * address a socket can have, so no client can pose as it; the middleware reads it as no peer.
 * Without one, Astro throws (and builds a stack trace) each time the middleware asks.
 */
export const SHARED_RENDER_PEER = 'shared-render';

export interface ClientRequest {
  /** The TCP peer of the connection (`req.socket.remoteAddress`). */
  remoteAddress: string | undefined;
  /** Whether the connection itself is TLS. */
  encrypted?: boolean;
  /** `Host` as received. */
  host: string | null | undefined;
  forwardedFor: string | null | undefined;
  forwardedProto: string | null | undefined;
  forwardedHost: string | null | undefined;
}

/**
 * The client of a request. From a trusted proxy: the address is the right-most
 * `X-Forwarded-For` entry that is not itself a trusted proxy (entries left of it were written
 * by the client and prove nothing), the scheme the last `X-Forwarded-Proto` value, the host the
 * last `X-Forwarded-Host` value (else `Host`). From anyone else: the TCP peer, the connection's
 * own scheme and `Host`.
 */
export function resolveClient(request: ClientRequest, trusted: TrustedProxies): ClientInfo {
  const peer = normaliseAddress(request.remoteAddress ?? '');
  let address = peer;
  let protocol: 'http' | 'https' = request.encrypted === true ? 'https' : 'http';
  let host = request.host ?? '';
  if (peer !== '' && trusted.trusts(peer)) {
    const chain = headerValues(request.forwardedFor).map(normaliseAddress);
    for (let i = chain.length - 1; i >= 0; i -= 1) {
      const hop = chain[i] ?? '';
      if (isIP(hop) === 0) break; // garbage: stop believing the chain here
      address = hop;
      if (!trusted.trusts(hop)) break;
    }
    const proto = headerValues(request.forwardedProto).at(-1)?.toLowerCase();
    if (proto === 'https' || proto === 'http') protocol = proto;
    const forwardedHost = headerValues(request.forwardedHost).at(-1);
    if (forwardedHost !== undefined) host = forwardedHost;
  }
  if (!HOST.test(host)) host = 'localhost';
  return {
    address,
    protocol,
    secure: protocol === 'https',
    origin: `${protocol}://${host.toLowerCase()}`,
  };
}

/**
 * The client of a request taken as it comes, believing no proxy: no address, the scheme and
 * origin of its URL (pre-rendered pages at build time; callers that know no peer).
 */
export function directClient(url: URL): ClientInfo {
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  return { address: '', protocol, secure: protocol === 'https', origin: url.origin };
}
