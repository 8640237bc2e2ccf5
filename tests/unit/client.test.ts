import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  directClient,
  normaliseAddress,
  parseTrustedProxies,
  resolveClient,
  type ClientRequest,
} from '../../src/shop/auth/client.ts';

const TRUSTED = parseTrustedProxies('10.0.0.0/8, 192.168.1.4, fd00::/8');

const request = (overrides: Partial<ClientRequest>): ClientRequest => ({
  remoteAddress: '10.0.0.2',
  encrypted: false,
  host: 'shop.example',
  forwardedFor: null,
  forwardedProto: null,
  forwardedHost: null,
  ...overrides,
});

describe('parseTrustedProxies', () => {
  test.each([
    ['unset trusts nobody', undefined, '10.0.0.1', false],
    ['empty trusts nobody', ' , ', '127.0.0.1', false],
    ['an address', '10.0.0.1', '10.0.0.1', true],
    ['an address, not its neighbour', '10.0.0.1', '10.0.0.2', false],
    ['a CIDR', '10.0.0.0/8', '10.255.1.2', true],
    ['outside the CIDR', '10.0.0.0/8', '11.0.0.1', false],
    ['spaces around entries', ' 192.168.1.4 , 10.0.0.0/8 ', '192.168.1.4', true],
    ['IPv6 CIDR', 'fd00::/8', 'fd12:3456::1', true],
    ['IPv6 loopback in brackets', '[::1]', '::1', true],
    ['an IPv4-mapped peer is its IPv4 address', '10.0.0.0/8', '::ffff:10.1.2.3', true],
    ['an IPv4-mapped entry', '::ffff:10.0.0.1', '10.0.0.1', true],
    ['a name is never trusted', '10.0.0.0/8', 'localhost', false],
    ['/0 trusts every IPv4 address', '0.0.0.0/0', '203.0.113.9', true],
  ])('%s', (_case, value, address, expected) => {
    expect(parseTrustedProxies(value).trusts(address)).toBe(expected);
  });

  test.each([
    ['a host name', 'proxy.example'],
    ['a prefix too long for IPv4', '10.0.0.0/33'],
    ['a prefix too long for IPv6', 'fd00::/129'],
    ['an empty prefix', '10.0.0.0/'],
    ['two prefixes', '10.0.0.0/8/9'],
    ['a negative prefix', '10.0.0.0/-1'],
    ['a prefix with a space', '10.0.0.0/ 8'],
    ['an octet out of range', '10.0.0.256'],
    ['a wildcard', '*'],
    ['a bad entry among good ones', '10.0.0.1, 10.0.0'],
  ])('%s is refused with a clear error', (_case, value) => {
    const bad = value.split(',').at(-1)?.trim() ?? '';
    expect(() => parseTrustedProxies(value)).toThrow(
      `TRUSTED_PROXIES: "${bad}" is not an IP address or CIDR (e.g. 10.0.0.0/8)`,
    );
  });

  test('every address or CIDR is accepted and trusts its own address', () => {
    const entry = fc.oneof(
      fc.ipV4().map((a) => ({ address: a, entry: a })),
      fc.ipV6().map((a) => ({ address: a, entry: a })),
      fc
        .tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 }))
        .map(([a, p]) => ({ address: a, entry: `${a}/${p}` })),
    );
    fc.assert(
      fc.property(entry, ({ address, entry: text }) => {
        expect(parseTrustedProxies(text).trusts(address)).toBe(true);
      }),
    );
  });

  test('no host name, garbage or out-of-range prefix is ever accepted', () => {
    const garbage = fc.oneof(
      fc.domain(),
      fc.tuple(fc.ipV4(), fc.integer({ min: 33, max: 9999 })).map(([a, p]) => `${a}/${p}`),
      fc.tuple(fc.ipV6(), fc.integer({ min: 129, max: 9999 })).map(([a, p]) => `${a}/${p}`),
      fc.tuple(fc.ipV4(), fc.stringMatching(/^[^\d,\s][^,]{0,5}$/)).map(([a, p]) => `${a}/${p}`),
      fc
        .tuple(fc.ipV4(), fc.nat({ max: 32 }), fc.nat({ max: 32 }))
        .map(([a, p, q]) => `${a}/${p}/${q}`),
    );
    fc.assert(
      fc.property(garbage, (text) => {
        expect(() => parseTrustedProxies(`10.0.0.1, ${text}`)).toThrow(/^TRUSTED_PROXIES: "/);
      }),
    );
  });
});

describe('resolveClient', () => {
  test.each([
    [
      'untrusted peer: headers ignored',
      {
        remoteAddress: '203.0.113.9',
        forwardedFor: '1.2.3.4',
        forwardedProto: 'https',
        forwardedHost: 'evil.example',
      },
      { address: '203.0.113.9', protocol: 'http', secure: false, origin: 'http://shop.example' },
    ],
    [
      'untrusted peer on TLS: https',
      { remoteAddress: '203.0.113.9', encrypted: true },
      { address: '203.0.113.9', protocol: 'https', secure: true, origin: 'https://shop.example' },
    ],
    [
      'trusted proxy, one hop',
      { forwardedFor: '203.0.113.5', forwardedProto: 'https' },
      { address: '203.0.113.5', protocol: 'https', secure: true, origin: 'https://shop.example' },
    ],
    [
      'trusted proxy: entries left of the real client are the client’s',
      { forwardedFor: '1.1.1.1, 203.0.113.5' },
      { address: '203.0.113.5', protocol: 'http' },
    ],
    [
      'a chain of trusted proxies: first untrusted from the right',
      { forwardedFor: '203.0.113.5, 10.9.9.9, 192.168.1.4' },
      { address: '203.0.113.5' },
    ],
    [
      'only trusted hops: the left-most',
      { forwardedFor: '10.1.1.1, 10.2.2.2' },
      { address: '10.1.1.1' },
    ],
    [
      'garbage stops the chain',
      { forwardedFor: '203.0.113.5, unknown, 10.2.2.2' },
      { address: '10.2.2.2' },
    ],
    ['garbage only: the proxy itself', { forwardedFor: 'unknown' }, { address: '10.0.0.2' }],
    ['no X-Forwarded-For: the proxy itself', {}, { address: '10.0.0.2', protocol: 'http' }],
    [
      'IPv4-mapped peer and hops',
      { remoteAddress: '::ffff:10.0.0.2', forwardedFor: '::ffff:203.0.113.5' },
      { address: '203.0.113.5' },
    ],
    [
      'IPv6 client behind an IPv6 proxy',
      { remoteAddress: 'fd00::1', forwardedFor: '[2001:DB8::5]' },
      { address: '2001:db8::5' },
    ],
    [
      'X-Forwarded-Proto: the last value',
      { forwardedProto: 'http, HTTPS' },
      { protocol: 'https', secure: true },
    ],
    [
      'X-Forwarded-Proto other than http(s): ignored',
      { forwardedProto: 'ftp', encrypted: true },
      { protocol: 'https' },
    ],
    [
      'X-Forwarded-Proto http on TLS to the proxy: http',
      { forwardedProto: 'http', encrypted: true },
      { protocol: 'http', secure: false },
    ],
    [
      'X-Forwarded-Host: the last value, lower case',
      { forwardedProto: 'https', forwardedHost: 'a.example, Shop.Example:8443' },
      { origin: 'https://shop.example:8443' },
    ],
    [
      'X-Forwarded-Host not a host: localhost',
      { forwardedHost: 'evil.example/path' },
      { origin: 'http://localhost' },
    ],
    [
      'Host not a host: localhost',
      { remoteAddress: '203.0.113.9', host: 'a b' },
      { origin: 'http://localhost' },
    ],
    [
      'no peer: no address, headers ignored',
      { remoteAddress: undefined, forwardedFor: '1.2.3.4' },
      { address: '' },
    ],
  ] as const)('%s', (_case, overrides, expected) => {
    expect(resolveClient(request(overrides), TRUSTED)).toMatchObject(expected);
  });

  // Peers outside TRUSTED (10/8, 192.168.1.4, fd00::/8).
  const untrustedPeer = fc.oneof(fc.ipV4(), fc.ipV6()).filter((a) => !TRUSTED.trusts(a));
  const header = fc.option(
    fc.oneof(
      fc.string(),
      fc
        .array(fc.oneof(fc.ipV4(), fc.ipV6(), fc.string()), { maxLength: 4 })
        .map((l) => l.join(', ')),
      fc.constantFrom('https', 'http', 'HTTPS', 'https, http'),
    ),
    { nil: null },
  );

  test('from an untrusted peer, no header changes the address, the scheme or the origin', () => {
    fc.assert(
      fc.property(
        untrustedPeer,
        fc.boolean(),
        header,
        header,
        header,
        (peer, encrypted, forwardedFor, forwardedProto, forwardedHost) => {
          const bare = request({ remoteAddress: peer, encrypted });
          expect(
            resolveClient({ ...bare, forwardedFor, forwardedProto, forwardedHost }, TRUSTED),
          ).toEqual(resolveClient(bare, TRUSTED));
        },
      ),
    );
  });

  const trustedHop = fc.oneof(
    fc.ipV4().map((a) => `10.${a.split('.').slice(1).join('.')}`),
    fc.constant('192.168.1.4'),
  );

  test('from a trusted proxy, the right-most hop that is no trusted proxy is the client', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.ipV4(), fc.ipV6(), fc.string()), { maxLength: 4 }),
        untrustedPeer,
        fc.array(trustedHop, { maxLength: 3 }),
        trustedHop,
        (spoofed, client, hops, peer) => {
          // Whatever the client wrote itself (left) cannot hide it: it is read from the right.
          const chain = [...spoofed.map((s) => s.replaceAll(',', '')), client, ...hops].join(', ');
          const resolved = resolveClient(
            request({ remoteAddress: peer, forwardedFor: chain }),
            TRUSTED,
          );
          expect(resolved.address).toBe(normaliseAddress(client));
        },
      ),
    );
  });
});

test('directClient: the URL as it comes, no address', () => {
  expect(directClient(new URL('https://shop.example/api/x'))).toEqual({
    address: '',
    protocol: 'https',
    secure: true,
    origin: 'https://shop.example',
  });
  expect(directClient(new URL('http://127.0.0.1:4321/'))).toMatchObject({
    protocol: 'http',
    secure: false,
  });
});
