/**
 * `redirectTarget`, the one decision on where the shop sends a browser: over generated
 * strings and hostile payloads, a local target resolved against the shop's origin never leaves
 * it, and only the redirect list and the commerce platform give external targets, http(s) only.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { readCookie } from '../../src/lib/commerce/cookie.ts';
import { RETURN_PATH_COOKIE, returnPathCookie } from '../../src/lib/commerce/guards.ts';
import {
  localPath,
  redirectTarget,
  returnPath,
  type TargetSource,
} from '../../src/lib/commerce/redirect-target.ts';
import { pagePathDecision } from '../../src/lib/commerce/page-path.ts';
import { matchRedirect } from '../../src/lib/commerce/redirects.ts';
import { AUTH_PATHS } from '../../src/lib/commerce/routes.ts';
import { redirect } from './fixtures.ts';

const ORIGINS = ['https://www.literie.test', 'http://127.0.0.1:4391'];
const SHOP_HOSTS = ['www.literie.test', 'store-abc.mybigcommerce.com'];

const SOURCES: TargetSource[] = [
  { kind: 'path' },
  { kind: 'return' },
  { kind: 'redirect-list', shopHosts: SHOP_HOSTS },
  { kind: 'redirect-list', shopHosts: 'any' },
  { kind: 'platform' },
];

/** Pieces of known open-redirect and header-injection payloads, glued in any order. */
const PIECES = [
  '/',
  '//',
  '\\',
  '/\\',
  '.',
  '..',
  '%2e',
  '%2E',
  '%2e%2e',
  '.%2e',
  '%2f',
  '%2F',
  '%2f%2f',
  '%252f',
  '%252e',
  '%25',
  '%5c',
  '%5C',
  '\t',
  '\r',
  '\n',
  '\r\n',
  '%0d%0a',
  '%09',
  '%00',
  '\u0000',
  '\u007f',
  '\u2028',
  ' ',
  '@',
  ':',
  '?',
  '#',
  ';',
  'javascript:',
  'JaVaScRiPt:',
  'data:',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:',
  'https:',
  'http:',
  'https://',
  'evil.example',
  'www.literie.test',
  'user:pass@',
  '／',
  '%EF%BC%8F',
  '＼',
  '．',
  '。',
  '%E3%80%82',
  'mon-compte',
  'connexion',
  'é',
  'alert(1)',
];

const payload = fc
  .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 10 })
  .map((parts) => parts.join(''));
/** Payloads, any printable text, any code points, and payloads after a leading slash. */
const anyValue = fc.oneof(
  payload,
  payload.map((p) => `/${p}`),
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
);

/** What a browser does with a Location: the origin it lands on. */
const landsOn = (location: string, origin: string) => new URL(location, origin).origin;

function checkTarget(value: string, source: TargetSource): void {
  const target = redirectTarget(value, source);
  if (target === null) return;
  // A header value: printable ASCII only (no CR/LF, tab, NUL, nothing the header would mangle).
  expect(target.location).toMatch(/^[\x21-\x7e]+$/);
  if (!target.external) {
    expect(target.location.startsWith('/')).toBe(true);
    expect(target.location.startsWith('//')).toBe(false);
    for (const origin of ORIGINS) expect(landsOn(target.location, origin)).toBe(origin);
    // Normalised once: deciding again changes nothing.
    expect(redirectTarget(target.location, { kind: 'path' })).toEqual(target);
    if (source.kind === 'return') {
      const path = new URL(target.location, ORIGINS[0]).pathname;
      expect(AUTH_PATHS.has(path)).toBe(false);
    }
    return;
  }
  expect(['redirect-list', 'platform']).toContain(source.kind);
  const url = new URL(target.location);
  expect(['http:', 'https:']).toContain(url.protocol);
  expect(url.username).toBe('');
  expect(url.password).toBe('');
  expect(url.href).toBe(target.location);
  if (source.kind === 'redirect-list' && source.shopHosts !== 'any') {
    expect(source.shopHosts).not.toContain(url.host);
  }
}

describe('redirectTarget properties', () => {
  test.each(SOURCES.map((source) => [JSON.stringify(source), source] as const))(
    'from %s: a local target stays on the origin, an external one is http(s) and allowed',
    (_name, source) => {
      fc.assert(
        fc.property(anyValue, (value) => {
          checkTarget(value, source);
        }),
        { numRuns: 3000 },
      );
    },
  );

  test('paths and return paths are never external', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        expect(redirectTarget(value, { kind: 'path' })?.external ?? false).toBe(false);
        expect(redirectTarget(value, { kind: 'return' })?.external ?? false).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  test('a path of the shop resolves to the same page as the browser would open', () => {
    // For values that are plain paths of the origin, the decision only drops repeated slashes.
    fc.assert(
      fc.property(fc.webPath(), (path) => {
        const value = path === '' ? '/' : path;
        const location = localPath(value);
        if (location === null) return;
        const wanted = new URL(value, ORIGINS[0]);
        const got = new URL(location, ORIGINS[0]);
        expect(got.pathname).toBe(wanted.pathname.replace(/\/{2,}/g, '/'));
        expect(got.search).toBe(wanted.search);
      }),
      { numRuns: 2000 },
    );
  });

  test('the return-path cookie reads back what was written: one encoding, decoded once', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        const cookie = returnPathCookie(value);
        const pair = cookie.split(';')[0] ?? '';
        const read = readCookie(pair, RETURN_PATH_COOKIE);
        expect(read === '' ? null : (read ?? null)).toBe(returnPath(value));
        expect(returnPath(read)).toBe(returnPath(value));
      }),
      { numRuns: 3000 },
    );
  });

  test('the redirect list never yields a target outside the rules', () => {
    fc.assert(
      fc.property(
        anyValue,
        fc.constantFrom('url', 'product', 'category', 'brand', 'page'),
        (toUrl, toType) => {
          const list = [redirect({ fromPath: '/ancien', toUrl, toType, toEntityId: 7 })];
          for (const path of ['/ancien', '/p/3/ancien']) {
            const target = matchRedirect(path, list, { shopHosts: SHOP_HOSTS });
            if (target === null) continue;
            if (target.external) {
              expect(toType).toBe('url');
              checkTarget(target.location, { kind: 'platform' });
            } else {
              for (const origin of ORIGINS) expect(landsOn(target.location, origin)).toBe(origin);
            }
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('the trailing-slash 301 stays on the origin for any requested path', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        // The request line's path on the shop's origin, as the server builds its URL.
        let requested: URL;
        try {
          requested = new URL(`${ORIGINS[0]}${value.startsWith('/') ? '' : '/'}${value}`);
        } catch {
          return;
        }
        fc.pre(requested.origin === ORIGINS[0]);
        const decision = pagePathDecision(`${requested.pathname}/`, requested.search);
        expect(decision.kind).not.toBe('canonical');
        if (decision.kind !== 'redirect') return;
        for (const origin of ORIGINS) expect(landsOn(decision.location, origin)).toBe(origin);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('hostile values are refused or kept on the shop', () => {
  test.each([
    ['protocol-relative', '//evil.example', null],
    ['protocol-relative with a path', '//evil.example/x', null],
    ['slash backslash', '/\\evil.example', null],
    ['backslash slash', '\\/evil.example', null],
    ['a tab inside the slashes', '/\t/evil.example', null],
    ['CR/LF header injection', '/panier\r\nSet-Cookie: x=1', null],
    ['a newline', '/panier\n', null],
    ['NUL', '/panier\u0000', null],
    ['javascript:', 'javascript:alert(1)', null],
    ['javascript: with a tab', 'java\tscript:alert(1)', null],
    ['data:', 'data:text/html,<script>alert(1)</script>', null],
    ['an absolute URL', 'https://evil.example/x', null],
    ['https: without slashes', 'https:evil.example', null],
    ['a relative path', 'mon-compte', null],
    ['empty', '', null],
    ['missing', undefined, null],
    ['null', null, null],
    ['too long', `/${'a'.repeat(3000)}`, null],
    ['dots then slashes collapse onto the shop', '/.//evil.example', '/evil.example'],
    ['dots climbing out stay at the root', '/a/../../..//evil.example', '/evil.example'],
    ['encoded dot segments are resolved', '/a/%2e%2e/%2E%2e//evil.example', '/evil.example'],
    ['encoded slashes stay data of one segment', '/%2f%2fevil.example', '/%2f%2fevil.example'],
    [
      'the guard case: encoded dots and slashes under the account area',
      '/mon-compte/%2e%2e%2f.%2f%2fevil.example',
      '/mon-compte/%2e%2e%2f.%2f%2fevil.example',
    ],
    [
      'double-encoded slashes are not decoded',
      '/%252f%252fevil.example',
      '/%252f%252fevil.example',
    ],
    ['an encoded backslash stays encoded', '/%5cevil.example', '/%5cevil.example'],
    ['userinfo lookalike is a path segment', '/@evil.example', '/@evil.example'],
    ['fullwidth solidus is escaped', '/／／evil.example', '/%EF%BC%8F%EF%BC%8Fevil.example'],
    [
      'escaped fullwidth solidus',
      '/%EF%BC%8F%EF%BC%8Fevil.example',
      '/%EF%BC%8F%EF%BC%8Fevil.example',
    ],
    ['an encoded CRLF stays encoded', '/panier%0d%0aSet-Cookie:x', '/panier%0d%0aSet-Cookie:x'],
  ])('%s', (_case, value, expected) => {
    expect(localPath(value)).toBe(expected);
  });

  test.each([
    ['javascript:', 'javascript:alert(document.cookie)'],
    ['data:', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['file:', 'file:///etc/passwd'],
    ['ftp:', 'ftp://evil.example/'],
    ['protocol-relative', '//evil.example/x'],
    ['userinfo', 'https://www.literie.test@evil.example/'],
    ['CR/LF', 'https://aide.example/\r\nSet-Cookie: x=1'],
  ])('redirect list and platform refuse %s', (_case, value) => {
    expect(redirectTarget(value, { kind: 'redirect-list', shopHosts: SHOP_HOSTS })).toBeNull();
    expect(redirectTarget(value, { kind: 'platform' })).toBeNull();
  });
});

describe('the legitimate targets', () => {
  test.each([
    ['an account page with its query', '/mon-compte/mes-commandes?page=2'],
    ['the cart', '/panier'],
    ['the checkout', '/paiement'],
    ['a product page', '/p/12/matelas-zen'],
    ['a listing view', '/c/matelas?sort=2&page=3'],
    ['a hash', '/les-yeux-fermes#haut'],
    ['an escaped accent', '/c/linge-de-lit/%C3%A9t%C3%A9'],
  ])('return path: %s is kept as it is', (_case, value) => {
    expect(returnPath(value)).toBe(value);
  });

  test.each([
    ['an accent is escaped', '/c/été', '/c/%C3%A9t%C3%A9'],
    ['dot segments are resolved', '/a/../mon-compte', '/mon-compte'],
    ['surrounding spaces go', ' /panier ', '/panier'],
    ['the root', '/', '/'],
  ])('return path: %s', (_case, value, expected) => {
    expect(returnPath(value)).toBe(expected);
  });

  test.each([
    ['login', '/connexion'],
    ['login with a query', '/connexion?x=1'],
    ['login with a trailing slash', '/connexion/'],
    ['login in capitals', '/CONNEXION'],
    ['login escaped', '/%63onnexion'],
    ['logout', '/deconnexion'],
    ['register', '/inscription'],
    ['password', '/mot-de-passe?resetToken=a'],
    ['legacy login', '/login.php'],
    ['login reached through dots', '/mon-compte/../connexion'],
  ])('return path: the %s page is no way back', (_case, value) => {
    expect(returnPath(value)).toBeNull();
    // It is a path of the shop all the same.
    expect(localPath(value)).not.toBeNull();
  });

  test.each([
    [
      'an http(s) URL elsewhere is external',
      'https://aide.literie-lumiere.fr/hc/fr/guide',
      { location: 'https://aide.literie-lumiere.fr/hc/fr/guide', external: true },
    ],
    [
      'an absolute URL on a shop host is its path',
      'https://store-abc.mybigcommerce.com/matelas//zen/?a=1',
      { location: '/matelas/zen/?a=1', external: false },
    ],
    ['a path', '/c/matelas', { location: '/c/matelas', external: false }],
    ['a path without its slash', 'c/matelas', { location: '/c/matelas', external: false }],
    [
      'a scheme in capitals is http(s) all the same',
      'HTTPS://Aide.Example/x',
      { location: 'https://aide.example/x', external: true },
    ],
  ])('redirect list: %s', (_case, value, expected) => {
    expect(redirectTarget(value, { kind: 'redirect-list', shopHosts: SHOP_HOSTS })).toEqual(
      expected,
    );
  });

  test('platform: the hosted checkout URL as it is', () => {
    const url = 'https://store-abc.mybigcommerce.com/cart.php?action=load&id=1&token=abc';
    expect(redirectTarget(url, { kind: 'platform' })).toEqual({ location: url, external: true });
  });
});
