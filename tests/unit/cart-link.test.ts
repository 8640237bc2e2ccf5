import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  CART_LINK_ROUTE,
  cartLinkPath,
  isReservedNamespace,
} from '../../src/lib/commerce/cart-link.ts';

const read = (target: string) => new URL(target, 'https://www.literie.test');

describe('cartLinkPath (spec §2 redirect-to-cart on every URL)', () => {
  test('a link on the home names the home', () => {
    const target = read(cartLinkPath('/', '?id=abc&token=t0k') ?? '');
    expect(target.pathname).toBe(CART_LINK_ROUTE);
    expect(Object.fromEntries(target.searchParams)).toEqual({ id: 'abc', token: 't0k', page: '/' });
  });

  test('the rest of the query stays with the page', () => {
    const target = read(cartLinkPath('/p/101/matelas', '?utm_source=mail&id=a&token=b') ?? '');
    expect(target.searchParams.get('page')).toBe('/p/101/matelas?utm_source=mail');
  });

  test.each([
    ['/', ''],
    ['/', '?id=abc'],
    ['/', '?token=abc'],
    ['/', '?id=&token=abc'],
    ['/', '?id=%20&token=abc'],
    ['/', '?id=abc&token='],
    ['/api/bigcommerce/getCart', '?id=a&token=b'],
    ['/_astro/x.js', '?id=a&token=b'],
    ['/webhooks/contentful', '?id=a&token=b'],
    [CART_LINK_ROUTE, '?id=a&token=b'],
  ])('%s%s is no cart link', (path, search) => {
    expect(cartLinkPath(path, search)).toBeNull();
  });

  test('id and token survive any text, and the page is the path asked for', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
        fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
        fc
          .webPath()
          .filter(
            (p) =>
              p.startsWith('/') &&
              !/^\/(?:[_@]|(?:api|node_modules|webhooks|vue\/lien-panier)(?:\/|$))/.test(p),
          ),
        (id, token, path) => {
          const search = `?${new URLSearchParams({ id, token }).toString()}`;
          const target = read(cartLinkPath(path, search) ?? '');
          expect(target.searchParams.get('id')).toBe(id);
          expect(target.searchParams.get('token')).toBe(token);
          expect(target.searchParams.get('page')).toBe(path);
        },
      ),
    );
  });
});

describe('isReservedNamespace (the shop API neither reads nor writes it)', () => {
  test.each([
    ['the namespace itself', 'cart-redirection', true],
    ['upper case', 'CART-REDIRECTION', true],
    ['spaces around', '  cart-redirection\t', true],
    ['an underscore', 'cart_redirection', true],
    ['no dash', 'cartredirection', true],
    ['a Unicode hyphen', 'cart\u2010redirection', true],
    ['a zero-width space', 'cart\u200bredirection', true],
    ['a soft hyphen', 'cart-redirection\u00ad', true],
    ['full width', 'ｃａｒｔ－ｒｅｄｉｒｅｃｔｉｏｎ', true],
    ['an accent', 'cart-rédirection', true],
    ['a combining accent', 'cart-re\u0301direction', true],
    ['a dotted capital I', 'CART-REDİRECTİON', true],
    ['a dotless i', 'cart-redırectıon', true],
    ['another namespace', 'gift', false],
    ['a longer name', 'cart-redirection-notes', false],
    ['a shorter name', 'cart-redirect', false],
  ])('%s', (_case, namespace, expected) => {
    expect(isReservedNamespace(namespace)).toBe(expected);
  });

  test('property: invisible characters, case and separators never hide it', () => {
    const noise = fc.constantFrom('', ' ', '-', '_', '.', '\u200b', '\u00ad', '\u2010', '\u3000');
    const letter = (c: string) =>
      fc.constantFrom(c, c.toUpperCase(), String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    const spelled = fc
      .tuple(...'cartredirection'.split('').map((c) => fc.tuple(letter(c), noise)))
      .map((parts) => parts.map(([l, n]) => l + n).join(''));
    fc.assert(
      fc.property(spelled, (namespace) => {
        expect(isReservedNamespace(namespace)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
