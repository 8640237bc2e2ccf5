import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  cacheNames,
  isPrivatePath,
  keepablePage,
  offlineAnswer,
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
    ['/panier', 'online-page'],
    ['/paiement?commande=12', 'online-page'],
    ['/connexion', 'online-page'],
    ['/inscription', 'online-page'],
    ['/deconnexion', 'online-page'],
    ['/mot-de-passe?resetToken=x', 'online-page'],
    ['/mon-compte/mes-commandes', 'online-page'],
    ['/espace-revendeur/panier', 'online-page'],
    ['/vue/lien-panier?id=a&token=b', 'online-page'],
    ['/?id=a&token=b', 'online-page'],
    ['/sw.js', 'online-page'],
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

  test('never anything but GET but a page load; never another origin; a broken URL is left alone', () => {
    expect(strategyFor({ method: 'POST', url: `${ORIGIN}/`, mode: 'cors' }, ORIGIN)).toBe(
      'network',
    );
    expect(strategyFor({ method: 'POST', url: `${ORIGIN}/`, mode: 'navigate' }, ORIGIN)).toBe(
      'online-page',
    );
    expect(
      strategyFor({ method: 'GET', url: 'https://cdn.example/x.js', mode: 'cors' }, ORIGIN),
    ).toBe('network');
    expect(strategyFor({ method: 'GET', url: 'not a url', mode: 'navigate' }, ORIGIN)).toBe(
      'network',
    );
  });

  test('property: no private path, API call, write or other origin is ever kept or read from a cache', () => {
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
          const expected = mode === 'navigate' ? 'online-page' : 'network';
          expect(strategyFor(get(path, mode), ORIGIN)).toBe(expected);
          expect(strategyFor(get(`${prefix.replace(/\/$/, '')}?q=${tail}`, mode), ORIGIN)).toBe(
            expected,
          );
          expect(offlineAnswer(strategyFor(get(path, mode), ORIGIN)).kept).toBe(false);
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'),
        fc.webPath(),
        (method, path) => {
          expect(strategyFor({ method, url: `${ORIGIN}${path}`, mode: 'cors' }, ORIGIN)).toBe(
            'network',
          );
          expect(strategyFor({ method, url: `${ORIGIN}${path}`, mode: 'navigate' }, ORIGIN)).toBe(
            'online-page',
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

  // Offline everywhere: whatever page the shopper opens, the network failing shows the
  // shop's offline page, never the browser's; a script's request never gets that HTML.
  const mode = fc.constantFrom('navigate', 'cors', 'no-cors', 'same-origin');
  const method = fc.constantFrom('GET', 'GET', 'POST', 'PUT', 'DELETE', 'HEAD');
  const path = fc.oneof(
    fc.webPath(),
    fc.constantFrom(
      '/panier',
      '/mon-compte',
      '/mon-compte/mes-commandes',
      '/resultats-de-recherche/matelas',
      '/c/matelas',
      '/vue/c/matelas',
      '/espace-revendeur/panier',
      '/vue/lien-panier',
      '/p/101/matelas-confort',
      '/_astro/page.CvtO6C_7.js',
      '/api/bigcommerce/getCart',
    ),
  );
  const query = fc.option(fc.webQueryParameters(), { nil: undefined });
  const request = fc.record({ method, mode, path, query }).map(({ method, mode, path, query }) => ({
    method,
    mode,
    url: `${ORIGIN}${path.startsWith('/') ? path : `/${path}`}${query === undefined ? '' : `?${query}`}`,
  }));

  test('property: every page load the network fails answers the offline page', () => {
    fc.assert(
      fc.property(request, (info) => {
        fc.pre(info.mode === 'navigate');
        expect(offlineAnswer(strategyFor(info, ORIGIN)).offlinePage).toBe(true);
      }),
    );
  });

  test('property: a request that is not a page load never gets the offline page nor a kept page', () => {
    fc.assert(
      fc.property(request, (info) => {
        fc.pre(info.mode !== 'navigate');
        const strategy = strategyFor(info, ORIGIN);
        expect(['network', 'asset']).toContain(strategy);
        expect(offlineAnswer(strategy)).toEqual({ kept: false, offlinePage: false });
        // An asset is a hashed script, style or font: never HTML.
        if (strategy === 'asset')
          expect(new URL(info.url).pathname).toMatch(/\.(?:m?js|css|woff2?)$/);
      }),
    );
  });

  test('property: a kept copy answers only public pages loaded with GET', () => {
    fc.assert(
      fc.property(request, (info) => {
        const { kept } = offlineAnswer(strategyFor(info, ORIGIN));
        if (!kept) return;
        const url = new URL(info.url);
        expect(info.method).toBe('GET');
        expect(info.mode).toBe('navigate');
        expect(isPrivatePath(url.pathname)).toBe(false);
        expect(url.searchParams.has('id') && url.searchParams.has('token')).toBe(false);
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
