/**
 * Where pictures may come from (spec §7 "image proxy with allowed domains"): the
 * configured image hosts (`IMAGE_DOMAINS`, over https) and, when the shop runs on the local
 * sandbox, the sandbox's own picture path on its exact host and port. The image proxy
 * (`/_image`, astro.config.mjs `image.remotePatterns`) and the CSP's `img-src` are built from
 * this one list, so the proxy never fetches another loopback port, a private address or a path
 * of the sandbox other than its pictures. Reads no environment: astro.config.mjs passes it.
 */
import type { RemotePattern } from 'astro';

export const DEFAULT_IMAGE_DOMAINS = 'cdn11.bigcommerce.com,images.ctfassets.net';

/** Path below the sandbox origin where it serves its pictures (sandbox/src/server.ts). */
export const SANDBOX_IMAGE_PATH = '/images/';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
// A DNS name: labels of letters, digits and inner hyphens, at least one dot, no trailing dot.
const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

export class ImageHostsError extends Error {
  readonly code = 'INVALID_IMAGE_DOMAINS';
}

/**
 * `IMAGE_DOMAINS` (comma-separated host names, default the BigCommerce and Contentful CDNs) as
 * a list of lowercase host names. Throws ImageHostsError on an entry that is not a public DNS
 * name: a scheme, port, path, wildcard, IP address or `localhost` has no place there, since the
 * proxy would then reach into the server's own network.
 */
export function parseImageDomains(value: string | undefined): string[] {
  const entries = (value ?? DEFAULT_IMAGE_DOMAINS)
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  for (const entry of entries) {
    if (!HOST_NAME.test(entry) || entry === 'localhost' || entry.endsWith('.localhost')) {
      throw new ImageHostsError(
        `IMAGE_DOMAINS: "${entry}" is not a public host name (no scheme, port, path, IP address or localhost)`,
      );
    }
  }
  return [...new Set(entries)];
}

/**
 * The sandbox's picture origin (`http://127.0.0.1:4010`) when the commerce API URL is the
 * local sandbox (an http(s) URL on a loopback host with an explicit port), else null.
 */
export function sandboxImageOrigin(apiUrl: string | undefined): string | null {
  if (apiUrl === undefined || !URL.canParse(apiUrl)) return null;
  const url = new URL(apiUrl);
  if (!['http:', 'https:'].includes(url.protocol) || !LOOPBACK_HOSTS.has(url.hostname)) return null;
  if (url.port === '') return null;
  return url.origin;
}

/** `image.remotePatterns` of the proxy: https on each image host, the sandbox's pictures. */
export function imageRemotePatterns(
  imageDomains: readonly string[],
  sandboxOrigin: string | null,
): RemotePattern[] {
  const patterns: RemotePattern[] = imageDomains.map((hostname) => ({
    protocol: 'https',
    hostname,
  }));
  if (sandboxOrigin !== null) {
    const sandbox = new URL(sandboxOrigin);
    patterns.push({
      protocol: sandbox.protocol.slice(0, -1),
      hostname: sandbox.hostname,
      port: sandbox.port,
      pathname: `${SANDBOX_IMAGE_PATH}**`,
    });
  }
  return patterns;
}

/** Origins pictures are shown from (the CSP's `img-src`, besides the shop's own). */
export function imageOrigins(
  imageDomains: readonly string[],
  sandboxOrigin: string | null,
): string[] {
  return [
    ...imageDomains.map((hostname) => `https://${hostname}`),
    ...(sandboxOrigin === null ? [] : [sandboxOrigin]),
  ];
}
