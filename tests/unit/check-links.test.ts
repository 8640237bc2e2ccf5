/**
 * The dead-link check's own rules (scripts/check-links.ts): which paths are never fetched, and
 * where each entry of the redirect list lands (on a fake fetch). The crawl itself is
 * linkinator's, run on a fake shop in tests/integration/check-links.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { checkRedirects, isSkippedPath } from '../../scripts/check-links.ts';

describe('isSkippedPath', () => {
  it('skips the API, logging out and the webhooks only', () => {
    expect(isSkippedPath('/api/cart/getCart')).toBe(true);
    expect(isSkippedPath('/deconnexion')).toBe(true);
    expect(isSkippedPath('/webhooks/contentful')).toBe(true);
    expect(isSkippedPath('/apiculture')).toBe(false);
    expect(isSkippedPath('/panier')).toBe(false);
  });
});

/** A fake shop: path → [status, body or Location, content type]. */
function fakeFetch(routes: Record<string, [number, string, string?]>): typeof fetch {
  const impl: typeof fetch = (input) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input : input.url,
    );
    const route = routes[url.pathname + url.search];
    if (!route) return Promise.resolve(new Response('not found', { status: 404 }));
    const [status, value, type = 'text/html; charset=utf-8'] = route;
    if (status >= 300 && status < 400) {
      return Promise.resolve(new Response(null, { status, headers: { location: value } }));
    }
    return Promise.resolve(new Response(value, { status, headers: { 'content-type': type } }));
  };
  return impl;
}

describe('checkRedirects', () => {
  it('says where each from_path lands', async () => {
    const fetch = fakeFetch({
      '/ancien': [301, '/p/1/nouveau'],
      '/p/1/nouveau': [200, 'ok'],
      '/soldes': [301, '/matelas/hybrides'],
      '/guide': [301, 'https://aide.test/guide'],
    });
    const checks = await checkRedirects(
      [
        { from_path: '/ancien', to_url: 'https://store.test/nouveau' },
        { from_path: '/soldes', to_url: '/matelas/hybrides' },
        { from_path: '/guide', to_url: 'https://aide.test/guide' },
        { from_path: '/piege', to_url: 'javascript:alert(1)' },
        { from_path: '/oublie', to_url: '/p/1/nouveau' },
      ],
      { baseUrl: 'http://shop.test', isRefused: (to) => to.startsWith('javascript:'), fetch },
    );
    expect(checks.map((c) => [c.fromPath, c.result])).toEqual([
      ['/ancien', 'ok'],
      ['/soldes', 'failed'],
      ['/guide', 'external'],
      ['/piege', 'refused'],
      ['/oublie', 'failed'],
    ]);
    expect(checks[1]?.detail).toBe('/soldes → /matelas/hybrides answers 404');
    expect(checks[4]?.detail).toBe('not redirected: /oublie answers 404');
  });

  it('fails redirect loops and chains longer than five hops', async () => {
    const fetch = fakeFetch({
      '/boucle': [302, '/boucle2'],
      '/boucle2': [302, '/boucle'],
      '/h1': [301, '/h2'],
      '/h2': [301, '/h3'],
      '/h3': [301, '/h4'],
      '/h4': [301, '/h5'],
      '/h5': [301, '/h6'],
      '/h6': [301, '/h7'],
      '/h7': [200, 'fin'],
    });
    const checks = await checkRedirects(
      [
        { from_path: '/boucle', to_url: '/boucle2' },
        { from_path: '/h1', to_url: '/h2' },
      ],
      { baseUrl: 'http://shop.test', isRefused: () => false, fetch },
    );
    expect(checks.map((c) => [c.result, c.detail])).toEqual([
      ['failed', 'redirect loop: /boucle → /boucle2 → /boucle'],
      ['failed', 'more than 5 redirects: /h1 → /h2 → /h3 → /h4 → /h5 → /h6 → /h7'],
    ]);
  });
});
