import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CART_LINK_ROUTE, cartLinkPath } from '../../src/lib/commerce/cart-link.ts';

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
