import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  isCrossSiteSubmission,
  isJsonRequest,
  isLogoutNavigation,
  isSameOriginRequest,
  logoutStep,
} from '../../src/shop/auth/security.ts';

const post = (headers: Record<string, string>, url = 'https://shop.test/api/bigcommerce/x') =>
  new Request(url, { method: 'POST', headers });

// The public origin (ClientInfo.origin): behind a TLS proxy the request URL is http.
const ORIGIN = 'https://shop.test';
const proxied = (headers: Record<string, string>, method = 'POST') =>
  new Request('http://10.0.0.5:4321/paiement', { method, headers });

describe('same-origin check of state-changing calls', () => {
  test.each([
    ['Sec-Fetch-Site same-origin', { 'sec-fetch-site': 'same-origin' }, true],
    ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }, false],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }, false],
    ['Sec-Fetch-Site none (typed URL)', { 'sec-fetch-site': 'none' }, false],
    [
      'Sec-Fetch-Site wins over a matching Origin',
      { 'sec-fetch-site': 'cross-site', origin: 'https://shop.test' },
      false,
    ],
    ['matching Origin', { origin: 'https://shop.test' }, true],
    ['Origin of another scheme', { origin: 'http://shop.test' }, false],
    ['Origin of another host', { origin: 'https://evil.test' }, false],
    ['Origin null', { origin: 'null' }, false],
    ['neither header', {}, false],
  ])('%s', (_case, headers, expected) => {
    expect(isSameOriginRequest(post(headers), ORIGIN)).toBe(expected);
  });

  test('compares with the public origin, not the request URL (TLS proxy)', () => {
    expect(isSameOriginRequest(proxied({ origin: 'https://shop.test' }), ORIGIN)).toBe(true);
    expect(isSameOriginRequest(proxied({ origin: 'http://10.0.0.5:4321' }), ORIGIN)).toBe(false);
  });
});

describe('cross-site submissions to on-demand pages', () => {
  test.each([
    ['GET is never one', 'GET', { origin: 'https://evil.test' }, false],
    ['HEAD is never one', 'HEAD', { 'sec-fetch-site': 'cross-site' }, false],
    ['OPTIONS is never one', 'OPTIONS', { origin: 'https://evil.test' }, false],
    [
      'form post of the shop',
      'POST',
      { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      false,
    ],
    ['form post from the shop, Sec-Fetch-Site', 'POST', { 'sec-fetch-site': 'same-origin' }, false],
    [
      'form post from another site',
      'POST',
      { origin: 'https://evil.test', 'content-type': 'application/x-www-form-urlencoded' },
      true,
    ],
    [
      'form post, scheme of the request URL',
      'POST',
      { origin: 'http://10.0.0.5:4321', 'content-type': 'multipart/form-data; boundary=x' },
      true,
    ],
    [
      'text/plain from another site',
      'POST',
      { origin: 'https://evil.test', 'content-type': 'Text/Plain;charset=utf-8' },
      true,
    ],
    ['no body type from another site', 'DELETE', { origin: 'https://evil.test' }, true],
    ['no Origin, no body type', 'POST', {}, true],
    ['no Origin, form body', 'POST', { 'content-type': 'application/x-www-form-urlencoded' }, true],
    [
      'no Origin, JSON (not a browser form: a preflight would be needed)',
      'POST',
      { 'content-type': 'application/json' },
      false,
    ],
    [
      'Sec-Fetch-Site cross-site wins over a matching Origin',
      'POST',
      { 'sec-fetch-site': 'cross-site', origin: ORIGIN },
      true,
    ],
    [
      'Sec-Fetch-Site same-site',
      'PUT',
      { 'sec-fetch-site': 'same-site', 'content-type': 'application/json' },
      true,
    ],
    ['Origin null', 'POST', { origin: 'null', 'content-type': 'text/plain' }, true],
  ])('%s', (_case, method, headers, expected) => {
    expect(isCrossSiteSubmission(proxied(headers, method), ORIGIN)).toBe(expected);
  });

  const unsafe = fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'post');
  const formType = fc
    .tuple(
      fc.constantFrom('application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'),
      fc.boolean(),
      fc.constantFrom('', '; charset=utf-8', ';boundary=----x'),
    )
    .map(([type, upper, params]) => `${upper ? type.toUpperCase() : type}${params}`);
  const otherOrigin = fc
    .webUrl()
    .map((url) => new URL(url).origin)
    .filter((origin) => origin !== ORIGIN);

  test('no form a foreign page can send passes, whatever its method, origin and type', () => {
    fc.assert(
      fc.property(
        unsafe,
        fc.option(otherOrigin, { nil: undefined }),
        fc.option(formType, { nil: undefined }),
        fc.option(fc.constantFrom('cross-site', 'same-site', 'none'), { nil: undefined }),
        (method, origin, type, site) => {
          const headers: Record<string, string> = {};
          if (origin !== undefined) headers.origin = origin;
          if (type !== undefined) headers['content-type'] = type;
          if (site !== undefined) headers['sec-fetch-site'] = site;
          expect(isCrossSiteSubmission(proxied(headers, method), ORIGIN)).toBe(true);
        },
      ),
    );
  });

  test("the shop's own forms pass, whatever the type", () => {
    fc.assert(
      fc.property(unsafe, fc.option(formType, { nil: undefined }), (method, type) => {
        const headers: Record<string, string> = { origin: ORIGIN };
        if (type !== undefined) headers['content-type'] = type;
        expect(isCrossSiteSubmission(proxied(headers, method), ORIGIN)).toBe(false);
      }),
    );
  });
});

describe('JSON content type', () => {
  test.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON', true],
    ['text/plain', false],
    ['application/x-www-form-urlencoded', false],
    ['multipart/form-data; boundary=x', false],
    ['application/jsonp', false],
  ])('%s', (type, expected) => {
    expect(isJsonRequest(post({ 'content-type': type }))).toBe(expected);
  });

  test('no content type', () => {
    expect(isJsonRequest(new Request('https://shop.test/', { method: 'POST' }))).toBe(false);
  });
});

describe('/deconnexion GET: logs out at once only when the shopper asked for it', () => {
  const get = (headers: Record<string, string>, method = 'GET') =>
    new Request('https://shop.test/deconnexion', { method, headers });
  test.each([
    ['typed in the address bar or a bookmark (none)', { 'Sec-Fetch-Site': 'none' }, true],
    ["the account menu's link (same-origin)", { 'Sec-Fetch-Site': 'same-origin' }, true],
    ['a link on another site (cross-site)', { 'Sec-Fetch-Site': 'cross-site' }, false],
    ['a sibling subdomain (same-site)', { 'Sec-Fetch-Site': 'same-site' }, false],
    ['a browser that does not say', {}, false],
    ['an Origin header is no proof on a GET', { Origin: 'https://shop.test' }, false],
    ['a header value in capitals is not the token', { 'Sec-Fetch-Site': 'NONE' }, false],
  ] as const)('%s → %s', (_case, headers, expected) => {
    expect(isLogoutNavigation(get(headers))).toBe(expected);
  });

  test('any other Sec-Fetch-Site value, and any method but GET, only asks', () => {
    fc.assert(
      fc.property(fc.string(), (site) => {
        fc.pre(site !== 'none' && site !== 'same-origin');
        let request: Request;
        try {
          request = get({ 'Sec-Fetch-Site': site });
        } catch {
          return; // not a valid header value: no browser sends it
        }
        expect(isLogoutNavigation(request)).toBe(false);
      }),
    );
    for (const method of ['POST', 'HEAD', 'PUT'])
      expect(isLogoutNavigation(get({ 'Sec-Fetch-Site': 'none' }, method))).toBe(false);
  });
});

describe('/deconnexion: log out at once, or ask first (logoutStep)', () => {
  const request = (method: string, headers: Record<string, string>) =>
    new Request('http://10.0.0.5:4321/deconnexion', { method, headers });
  test.each([
    ['GET typed or bookmarked', 'GET', { 'Sec-Fetch-Site': 'none' }, { kind: 'log-out' }],
    ['GET from the account menu', 'GET', { 'Sec-Fetch-Site': 'same-origin' }, { kind: 'log-out' }],
    [
      'GET from another site',
      'GET',
      { 'Sec-Fetch-Site': 'cross-site' },
      { kind: 'ask', status: 200 },
    ],
    ['GET from a browser that does not say', 'GET', {}, { kind: 'ask', status: 200 }],
    ['POST of the confirmation', 'POST', { 'Sec-Fetch-Site': 'same-origin' }, { kind: 'log-out' }],
    ['POST with the shop origin', 'POST', { Origin: ORIGIN }, { kind: 'log-out' }],
    [
      'POST from another site',
      'POST',
      { 'Sec-Fetch-Site': 'cross-site' },
      { kind: 'ask', status: 403 },
    ],
    [
      'POST with another origin',
      'POST',
      { Origin: 'https://evil.test' },
      { kind: 'ask', status: 403 },
    ],
    [
      'POST typed (none) is no form of the shop',
      'POST',
      { 'Sec-Fetch-Site': 'none' },
      { kind: 'ask', status: 403 },
    ],
    ['POST that says nothing', 'POST', {}, { kind: 'ask', status: 403 }],
    ['HEAD only asks', 'HEAD', { 'Sec-Fetch-Site': 'none' }, { kind: 'ask', status: 200 }],
  ] as const)('%s', (_case, method, headers, expected) => {
    expect(logoutStep(request(method, headers), ORIGIN)).toEqual(expected);
  });

  test('logs out exactly when the POST is same-origin or the GET a logout navigation', () => {
    const site = fc.constantFrom('none', 'same-origin', 'same-site', 'cross-site', undefined);
    fc.assert(
      fc.property(fc.constantFrom('GET', 'POST', 'HEAD'), site, (method, value) => {
        const req = request(method, value === undefined ? {} : { 'Sec-Fetch-Site': value });
        const expected =
          method === 'POST' ? isSameOriginRequest(req, ORIGIN) : isLogoutNavigation(req);
        expect(logoutStep(req, ORIGIN).kind === 'log-out').toBe(expected);
      }),
    );
  });
});
