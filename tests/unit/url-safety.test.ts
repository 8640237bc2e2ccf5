/**
 * The one URL-safety module (`src/lib/url-safety.ts`): over generated hostile URLs (dangerous
 * schemes in any case with white space, control characters and entities around and inside,
 * protocol-relative `//host`, backslashes, `/\host`, encoded slashes, dots and controls,
 * userinfo), checked against the WHATWG URL parser (Node's `URL`, the browser's): a link or path
 * it accepts lands where it says, on the shop's origin for a local one, and nothing a browser
 * would read as another scheme than http(s), mailto or tel is ever a link.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  httpHref,
  httpUrl,
  isAbsoluteHttp,
  LINK_SCHEMES,
  linkHref,
  localPath,
  MAX_URL_LENGTH,
  parseUrl,
  urlAsParsed,
} from '../../src/lib/url-safety.ts';
import { anyUrl, HOSTILE_LINKS } from './hostile-urls.ts';

const ORIGINS = ['https://www.literie.test', 'http://127.0.0.1:4391', 'https://a.b.example:8443'];
const RUNS = { numRuns: 3_000 };

/** What the browser's parser reads as the scheme of an `href` written on a shop page. */
const protocolOnPage = (value: string) => parseUrl(value, ORIGINS[0])?.protocol ?? null;
const landsOn = (href: string, origin: string) => new URL(href, origin).origin;
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const C0_CONTROLS = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- the same, C1 controls included
const C0_OR_C1_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;

// --- properties ----------------------------------------------------------------------------

describe('properties over generated hostile URLs', () => {
  test('urlAsParsed reads a URL as the browser does', () => {
    fc.assert(
      fc.property(anyUrl, (value) => {
        for (const origin of ORIGINS) {
          expect(parseUrl(urlAsParsed(value), origin)?.href).toBe(parseUrl(value, origin)?.href);
        }
      }),
      RUNS,
    );
  });

  test('linkHref: only http(s), mailto, tel or a path of the shop, wherever the browser looks', () => {
    fc.assert(
      fc.property(anyUrl, (value) => {
        const link = linkHref(value);
        const read = protocolOnPage(value);
        // Whatever the browser reads as another scheme is never a link.
        if (read !== null && !LINK_SCHEMES.includes(read.slice(0, -1))) expect(link).toBeNull();
        if (link === null) return;
        const { href, external } = link;
        expect(href).toMatch(/^(https?:\/\/|mailto:|tel:|\/(?!\/))/);
        // Written as is in an attribute: nothing a parser would drop or trim.
        expect(href).not.toMatch(C0_OR_C1_CONTROLS);
        expect(urlAsParsed(href)).toBe(href);
        // The browser reads the value and the written href alike: same scheme, same target.
        expect(protocolOnPage(href)).toBe(read);
        expect(linkHref(href)).toEqual(link);
        if (external) {
          const url = new URL(href);
          expect(['http:', 'https:']).toContain(url.protocol);
          expect(url.username + url.password).toBe('');
          expect(url.href).toBe(href);
          expect(httpHref(value)).toBe(href);
        } else {
          expect(httpHref(value)).toBeNull();
        }
        if (href.startsWith('/')) {
          expect(external).toBe(false);
          for (const origin of ORIGINS) {
            expect(landsOn(href, origin)).toBe(origin);
            expect(landsOn(value, origin)).toBe(origin);
          }
        }
      }),
      RUNS,
    );
  });

  test('localPath: null or a printable path that stays on every origin, normalised once', () => {
    fc.assert(
      fc.property(anyUrl, (value) => {
        const path = localPath(value);
        if (path === null) return;
        expect(path).toMatch(/^\/(?!\/)[\x21-\x7e]*$/);
        expect(path).not.toMatch(/^[^?#]*\\/);
        for (const origin of ORIGINS) expect(landsOn(path, origin)).toBe(origin);
        expect(localPath(path)).toBe(path);
        // Read strictly: no control character anywhere in what was accepted.
        expect(value).not.toMatch(C0_CONTROLS);
      }),
      RUNS,
    );
  });

  test('httpUrl: null or an absolute http(s) URL without userinfo, printable, normalised once', () => {
    fc.assert(
      fc.property(anyUrl, (value) => {
        const href = httpUrl(value);
        if (href === null) return;
        expect(href).toMatch(/^https?:\/\/[\x21-\x7e]+$/);
        const url = new URL(href);
        expect(url.username + url.password).toBe('');
        expect(url.href).toBe(href);
        expect(httpUrl(href)).toBe(href);
        expect(value).not.toMatch(C0_CONTROLS);
      }),
      RUNS,
    );
  });

  test('isAbsoluteHttp agrees with the browser whenever it parses the URL', () => {
    fc.assert(
      fc.property(anyUrl, (value) => {
        const url = parseUrl(value);
        if (url !== null) expect(isAbsoluteHttp(value)).toBe(/^https?:$/.test(url.protocol));
        else if (isAbsoluteHttp(value)) expect(urlAsParsed(value)).toMatch(/^https?:/i);
      }),
      RUNS,
    );
  });
});

// --- known cases ---------------------------------------------------------------------------

describe('hostile links are refused', () => {
  test.each(HOSTILE_LINKS.map((value) => [value]))('linkHref(%j) is null', (value) => {
    expect(linkHref(value)).toBeNull();
    expect(httpHref(value)).toBeNull();
  });

  test.each([
    ['HTTPS://Exemple.FR/a b', 'https://exemple.fr/a%20b', true],
    ['  https://exemple.fr  ', 'https://exemple.fr/', true],
    ['ht\ttps://exemple.fr', 'https://exemple.fr/', true],
    ['https://exemple.fr/?q=a\\b', 'https://exemple.fr/?q=a\\b', true],
    ['MAILTO:a@b.fr', 'mailto:a@b.fr', false],
    ['tel:+33 1 23 45 67 89', 'tel:+33 1 23 45 67 89', false],
    ['/a/../b', '/b', false],
    ['/.//evil.example', '/evil.example', false],
    ['/%2f%2fevil.example', '/%2f%2fevil.example', false],
    ['/c/été?x=1#h', '/c/%C3%A9t%C3%A9?x=1#h', false],
  ])('linkHref(%j) is %j', (value, href, external) => {
    expect(linkHref(value)).toEqual({ href, external });
  });
});

describe('strict reading of targets', () => {
  test.each([
    ['a tab', '/pa\tnier'],
    ['CR/LF', '/panier\r\nSet-Cookie: x=1'],
    ['NUL', '/panier\u0000'],
    ['DEL', '/panier\u007f'],
    ['protocol-relative', '//evil.example'],
    ['slash backslash', '/\\evil.example'],
    ['no leading slash', 'panier'],
    ['too long', `/${'a'.repeat(MAX_URL_LENGTH)}`],
  ])('localPath refuses %s', (_case, value) => {
    expect(localPath(value)).toBeNull();
  });

  test.each([
    ['a tab in the scheme', 'ht\ttps://exemple.fr/'],
    ['CR/LF', 'https://aide.example/\r\nSet-Cookie: x=1'],
    ['userinfo', 'https://www.literie.test@evil.example/'],
    ['a backslash before the query', 'https://exemple.fr\\@evil.example/'],
    ['another scheme', 'ftp://exemple.fr/'],
    ['a path', '/panier'],
  ])('httpUrl refuses %s', (_case, value) => {
    expect(httpUrl(value)).toBeNull();
  });

  test('a backslash in the query is data', () => {
    expect(localPath('/recherche?q=a\\b')).toBe('/recherche?q=a\\b');
    expect(httpUrl(' HTTPS://Exemple.fr/?q=a\\b ')).toBe('https://exemple.fr/?q=a\\b');
  });
});
