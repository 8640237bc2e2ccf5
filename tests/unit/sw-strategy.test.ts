import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  cacheNames,
  isPrivatePath,
  keepablePage,
  OFFLINE_PATH,
  precacheList,
  staleCaches,
  strategyFor,
} from '../../src/sw/strategy.ts';

const ORIGIN = 'https://www.literie.test';
const get = (path: string, mode = 'navigate') => ({ method: 'GET', url: `${ORIGIN}${path}`, mode });

describe('strategyFor (spec §7 service worker)', () => {
  test.each([
    ['/', 'page'],
    ['/c/matelas?page=2', 'page'],
    ['/p/101/matelas-confort', 'page'],
    ['/les-yeux-fermes', 'page'],
    ['/panier', 'network'],
    ['/paiement?commande=12', 'network'],
    ['/connexion', 'network'],
    ['/inscription', 'network'],
    ['/deconnexion', 'network'],
    ['/mot-de-passe?resetToken=x', 'network'],
    ['/mon-compte/mes-commandes', 'network'],
    ['/espace-revendeur/panier', 'network'],
    ['/vue/lien-panier?id=a&token=b', 'network'],
    ['/?id=a&token=b', 'network'],
    ['/sw.js', 'network'],
  ])('a page load of %s: %s', (path, strategy) => {
    expect(strategyFor(get(path), ORIGIN)).toBe(strategy);
  });

  test.each([
    ['/_astro/page.CvtO6C_7.js', 'asset'],
    ['/_astro/DefaultLayout.Bbfo-TDH.css', 'asset'],
    ['/_astro/fraunces.a1b2.woff2', 'asset'],
    ['/_astro/matelas.Z2cdFau.webp', 'network'],
    ['/_image?href=x', 'network'],
    ['/api/bigcommerce/getCart', 'network'],
    ['/favicon.png', 'network'],
    ['/c/matelas', 'network'],
  ])('a fetch of %s: %s', (path, strategy) => {
    expect(strategyFor(get(path, 'cors'), ORIGIN)).toBe(strategy);
  });

  test('never anything but GET; never another origin; a broken URL is left alone', () => {
    expect(strategyFor({ method: 'POST', url: `${ORIGIN}/`, mode: 'navigate' }, ORIGIN)).toBe(
      'network',
    );
    expect(
      strategyFor({ method: 'GET', url: 'https://cdn.example/x.js', mode: 'cors' }, ORIGIN),
    ).toBe('network');
    expect(strategyFor({ method: 'GET', url: 'not a url', mode: 'navigate' }, ORIGIN)).toBe(
      'network',
    );
  });

  test('property: no private path, API call, write or other origin is ever handled', () => {
    const privatePrefix = fc.constantFrom(
      '/api/',
      '/webhooks/',
      '/panier',
      '/paiement',
      '/connexion',
      '/mon-compte/',
      '/espace-revendeur',
      '/mot-de-passe',
    );
    fc.assert(
      fc.property(
        privatePrefix,
        fc.webSegment(),
        fc.constantFrom('navigate', 'cors', 'no-cors'),
        (prefix, tail, mode) => {
          const path = prefix.endsWith('/') ? `${prefix}${tail}` : `${prefix}/${tail}`;
          expect(strategyFor(get(path, mode), ORIGIN)).toBe('network');
          expect(strategyFor(get(`${prefix.replace(/\/$/, '')}?q=${tail}`, mode), ORIGIN)).toBe(
            'network',
          );
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'),
        fc.webPath(),
        (method, path) => {
          expect(strategyFor({ method, url: `${ORIGIN}${path}`, mode: 'navigate' }, ORIGIN)).toBe(
            'network',
          );
        },
      ),
    );
    fc.assert(
      fc.property(fc.webUrl(), (url) => {
        fc.pre(new URL(url).origin !== ORIGIN);
        expect(strategyFor({ method: 'GET', url, mode: 'navigate' }, ORIGIN)).toBe('network');
      }),
    );
  });

  test('isPrivatePath does not catch look-alikes', () => {
    expect(isPrivatePath('/panier-cadeau')).toBe(false);
    expect(isPrivatePath('/mon-compte-pro')).toBe(false);
    expect(isPrivatePath('/apiculture')).toBe(false);
  });
});

describe('keepablePage', () => {
  const reply = (status: number, headers: Record<string, string>, extra = {}) => ({
    status,
    type: 'basic',
    redirected: false,
    headers: new Headers(headers),
    ...extra,
  });
  test.each([
    ['a static page', reply(200, { 'content-type': 'text/html; charset=utf-8' }), true],
    [
      'a listing view',
      reply(200, { 'content-type': 'text/html', 'cache-control': 'public, s-maxage=60' }),
      true,
    ],
    ['no-store', reply(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }), false],
    ['private', reply(200, { 'content-type': 'text/html', 'cache-control': 'private' }), false],
    ['a 404', reply(404, { 'content-type': 'text/html' }), false],
    ['a 500', reply(500, { 'content-type': 'text/html' }), false],
    ['JSON', reply(200, { 'content-type': 'application/json' }), false],
    ['opaque', reply(200, { 'content-type': 'text/html' }, { type: 'opaque' }), false],
    ['redirected', reply(200, { 'content-type': 'text/html' }, { redirected: true }), false],
  ])('%s: %s', (_name, value, expected) => {
    expect(keepablePage(value)).toBe(expected);
  });
});

describe('caches of a build', () => {
  test('a new build deletes every cache of the earlier ones, pages included, and no one else’s', () => {
    const current = cacheNames('v2');
    const old = cacheNames('v1');
    expect(
      staleCaches([old.assets, old.pages, current.assets, current.pages, 'autre-app'], 'v2'),
    ).toEqual([old.assets, old.pages]);
  });

  test('the precache: the offline page and the hashed scripts, styles and fonts only', () => {
    expect(
      precacheList([
        '/_astro/b.js',
        '/_astro/a.css',
        '/_astro/a.css',
        '/_astro/photo.webp',
        '/_astro/f.woff2',
      ]),
    ).toEqual([OFFLINE_PATH, '/_astro/a.css', '/_astro/b.js', '/_astro/f.woff2']);
  });
});
