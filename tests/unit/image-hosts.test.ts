/**
 * The image proxy's sources: over generated URLs (loopback and private addresses in
 * every spelling, other ports, other paths of the sandbox, userinfo, look-alike hosts), Astro's
 * own matcher with our remote patterns allows exactly the configured hosts over https and the
 * sandbox's picture path on its own host and port.
 */
import { isRemoteAllowed } from '@astrojs/internal-helpers/remote';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  ImageHostsError,
  imageOrigins,
  imageRemotePatterns,
  parseImageDomains,
  sandboxImageOrigin,
} from '../../src/server/pictures/image-hosts.ts';

const DOMAINS = ['cdn11.bigcommerce.com', 'images.ctfassets.net'];
const SANDBOX = 'http://127.0.0.1:4392';
const patterns = imageRemotePatterns(DOMAINS, SANDBOX);
const allowed = (url: string) => isRemoteAllowed(url, { domains: [], remotePatterns: patterns });

/** The rule, stated independently of the patterns. */
function expected(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const u = new URL(url);
  if (u.protocol === 'https:' && DOMAINS.includes(u.hostname)) return true;
  return (
    u.protocol === 'http:' &&
    u.hostname === '127.0.0.1' &&
    u.port === '4392' &&
    u.pathname.startsWith('/images/') &&
    u.pathname !== '/images/'
  );
}

const LOOPBACK_AND_PRIVATE = [
  '127.0.0.1',
  '127.1',
  '127.0.0.2',
  '2130706433',
  '0x7f000001',
  '0177.0.0.1',
  'localhost',
  'localhost.',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '0.0.0.0',
  '0',
  '10.0.0.1',
  '172.16.0.1',
  '172.31.255.254',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '[fd00::1]',
  '[fe80::1]',
  'metadata.google.internal',
];
const LOOK_ALIKES = [
  'cdn11.bigcommerce.com.evil.example',
  'evilcdn11.bigcommerce.com',
  'cdn11-bigcommerce.com',
  'images.ctfassets.net.127.0.0.1.nip.io',
];

const host = fc.oneof(
  fc.constantFrom(...LOOPBACK_AND_PRIVATE),
  fc.constantFrom(...LOOK_ALIKES),
  fc.constantFrom(...DOMAINS),
);
const port = fc.oneof(
  fc.constant(''),
  fc.constantFrom(':4392', ':4391', ':4010', ':443', ':80', ':6379'),
  fc.integer({ min: 1, max: 65535 }).map((n) => `:${n}`),
);
const path = fc.oneof(
  fc.constantFrom(
    '/images/1280x1280/matelas-gris-perle-a.jpg',
    '/images/',
    '/images',
    '/images/../stores/sandbox/v3/catalog/products',
    '/images/%2e%2e/stores/sandbox/v2/store',
    '/images%2f..%2fstores',
    '/stores/sandbox/v3/catalog/products',
    '/__sandbox/faults',
    '/brevo/v3/smtp/email',
    '/login/token/x',
    '/latest/meta-data/',
    '/s-abc/images/stencil/original/p.jpg',
  ),
  fc.webPath(),
);
const userinfo = fc.constantFrom('', 'user@', 'cdn11.bigcommerce.com@', 'a:b@');
const scheme = fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', 'file://', '//');
const url = fc
  .tuple(scheme, userinfo, host, port, path)
  .map(([s, u, h, p, q]) => `${s}${u}${h}${p}${q}`);

describe('image proxy sources', () => {
  test('generated URLs: allowed exactly when an https image host or the sandbox picture path', () => {
    fc.assert(
      fc.property(url, (candidate) => {
        expect(allowed(candidate)).toBe(expected(candidate));
      }),
      { numRuns: 5_000 },
    );
  });

  test.each([
    ['a sandbox picture', `${SANDBOX}/images/800x800/matelas-gris-perle-a.jpg`, true],
    ['the BigCommerce CDN', 'https://cdn11.bigcommerce.com/s-x/images/p.jpg', true],
    ['the CDN over http', 'http://cdn11.bigcommerce.com/s-x/images/p.jpg', false],
    ['the shop itself', 'http://127.0.0.1:4391/favicon.svg', false],
    ['the sandbox API', `${SANDBOX}/stores/sandbox/v3/catalog/products`, false],
    ['the sandbox fault admin', `${SANDBOX}/__sandbox/faults`, false],
    ['a dot-dot out of the picture path', `${SANDBOX}/images/../stores/sandbox/v2/store`, false],
    ['the sandbox as localhost', 'http://localhost:4392/images/800x800/a.jpg', false],
    ['Redis on loopback', 'http://127.0.0.1:6379/images/a.jpg', false],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/', false],
    ['a private address', 'http://10.0.0.1/images/a.jpg', false],
    ['a data: URL', 'data:image/svg+xml,<svg/>', false],
  ])('%s', (_case, candidate, ok) => {
    expect(allowed(candidate)).toBe(ok);
  });

  test('without the sandbox, only the image hosts', () => {
    const production = imageRemotePatterns(DOMAINS, null);
    expect(
      isRemoteAllowed(`${SANDBOX}/images/800x800/a.jpg`, {
        domains: [],
        remotePatterns: production,
      }),
    ).toBe(false);
    expect(imageOrigins(DOMAINS, null)).toEqual([
      'https://cdn11.bigcommerce.com',
      'https://images.ctfassets.net',
    ]);
    expect(imageOrigins(DOMAINS, SANDBOX)).toContain(SANDBOX);
  });
});

describe('parseImageDomains', () => {
  test.each([
    ['default', undefined, DOMAINS],
    [
      'trimmed, lower-cased, deduplicated',
      ' CDN.example.fr , cdn.example.fr,,',
      ['cdn.example.fr'],
    ],
  ])('%s', (_case, value, domains) => {
    expect(parseImageDomains(value)).toEqual(domains);
  });

  test.each([
    ['an IP address', '10.0.0.1'],
    ['loopback', '127.0.0.1'],
    ['localhost', 'localhost'],
    ['a .localhost name', 'shop.localhost'],
    ['an IPv6 address', '[::1]'],
    ['a scheme', 'https://cdn.example.fr'],
    ['a port', 'cdn.example.fr:8080'],
    ['a path', 'cdn.example.fr/images'],
    ['a wildcard', '*.example.fr'],
    ['a single label', 'intranet'],
  ])('refuses %s', (_case, value) => {
    expect(() => parseImageDomains(value)).toThrow(ImageHostsError);
  });
});

describe('sandboxImageOrigin', () => {
  test.each([
    ['the sandbox', 'http://127.0.0.1:4392', 'http://127.0.0.1:4392'],
    ['the sandbox with a path', 'http://127.0.0.1:4010/', 'http://127.0.0.1:4010'],
    ['BigCommerce', 'https://api.bigcommerce.com', null],
    ['loopback without a port', 'http://127.0.0.1', null],
    ['another host', 'http://10.0.0.5:4010', null],
    ['unset', undefined, null],
    ['not a URL', 'sandbox', null],
  ])('%s', (_case, apiUrl, origin) => {
    expect(sandboxImageOrigin(apiUrl)).toBe(origin);
  });
});
