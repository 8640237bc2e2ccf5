import { describe, expect, test } from 'vitest';
import { matchRedirect } from '../../src/lib/commerce/redirects.ts';
import { redirect } from './fixtures.ts';

const redirects = [
  redirect({
    id: 1,
    fromPath: '/ancien-matelas/',
    toUrl: 'https://store-abc.mybigcommerce.com/matelas-zen/',
    toType: 'product',
    toEntityId: 42,
  }),
  redirect({ id: 2, fromPath: '/Promo-Ete', toUrl: '/c/matelas/?sort=price', toType: 'url' }),
  redirect({ id: 3, fromPath: '/blog', toUrl: 'https://blog.example.org/sommeil', toType: 'url' }),
  redirect({
    id: 4,
    fromPath: '/notre-boutique',
    toUrl: 'https://www.literie.fr/magasins/',
    toType: 'url',
  }),
  redirect({
    id: 5,
    fromPath: '/vieille-categorie',
    toUrl: 'https://store-abc.mybigcommerce.com/literie/',
    toType: 'category',
    toEntityId: 7,
  }),
  redirect({ id: 6, fromPath: '/ancien-matelas', toUrl: '/ignored', toType: 'url' }),
  redirect({
    id: 7,
    fromPath: '/marques/dormelune',
    toUrl: 'https://store-abc.mybigcommerce.com/dormelune/',
    toType: 'brand',
    toEntityId: 40,
  }),
  redirect({
    id: 8,
    fromPath: '/marque-deja-locale',
    toUrl: 'https://www.literie.fr/marque/dormelune',
    toType: 'brand',
    toEntityId: 40,
  }),
];

const options = { shopHosts: ['www.literie.fr'] };

describe('matchRedirect (spec §2 redirections)', () => {
  test.each([
    [
      'exact from_path → path of to_url, on the product route /p/{entity_id}',
      '/ancien-matelas/',
      { location: '/p/42/matelas-zen', external: false },
    ],
    [
      'trailing slash ignored, first redirect wins',
      '/ancien-matelas',
      { location: '/p/42/matelas-zen', external: false },
    ],
    [
      'case ignored, local to_url keeps its query',
      '/promo-ete',
      { location: '/c/matelas?sort=price', external: false },
    ],
    [
      'category redirect on the platform host is local, on the /c route',
      '/vieille-categorie',
      { location: '/c/literie', external: false },
    ],
    [
      'absolute URL of this shop reduced to its path',
      '/notre-boutique',
      { location: '/magasins', external: false },
    ],
    [
      'external URL returned as it is, flagged',
      '/blog',
      { location: 'https://blog.example.org/sommeil', external: true },
    ],
    [
      '/p/{number}/rest: id dropped, rest matched, product id put back',
      '/p/12/ancien-matelas',
      { location: '/p/42/ancien-matelas', external: false },
    ],
    [
      '/p/{number}/rest to a non-product: path of to_url on its route',
      '/p/12/vieille-categorie',
      { location: '/c/literie', external: false },
    ],
    [
      'brand redirect lands on the brand corner /marque/{slug}',
      '/marques/dormelune',
      { location: '/marque/dormelune', external: false },
    ],
    [
      'brand redirect already on /marque/ is kept',
      '/marque-deja-locale',
      { location: '/marque/dormelune', external: false },
    ],
    ['no match', '/inconnu', null],
    ['/p/{number}/rest with no match', '/p/12/inconnu', null],
    ['/p/ with a non-numeric id is not the product rule', '/p/abc/ancien-matelas', null],
    ['root', '/', null],
  ])('%s', (_case, pathname, expected) => {
    expect(matchRedirect(pathname, redirects, options)).toEqual(expected);
  });

  test('percent-encoded path matches its decoded from_path', () => {
    const list = [redirect({ fromPath: '/été', toUrl: '/c/ete', toType: 'url' })];
    expect(matchRedirect('/%C3%A9t%C3%A9', list)).toEqual({ location: '/c/ete', external: false });
  });
});
