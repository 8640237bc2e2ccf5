/**
 * The dead-link check's reading of pages (scripts/check-links.ts): which URLs a page refers to
 * (relative ones resolved, fragments dropped, `srcset` descriptors, character references), and
 * how the crawler judges answers (redirect chains, loops, POST-only forms, local origins) on a
 * fake fetch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkRedirects,
  crawl,
  decodeEntities,
  extractCssUrls,
  extractLinks,
  extractSitemapLocs,
  isSkippedPath,
  normaliseUrl,
  parseSrcset,
} from '../../scripts/check-links.ts';

const PAGE = 'http://shop.test/c/matelas/ressorts';
const urls = (html: string, page = PAGE) => extractLinks(html, page).map((l) => l.url);

describe('normaliseUrl', () => {
  it('resolves relative references against the page', () => {
    expect(normaliseUrl('/panier', PAGE)).toBe('http://shop.test/panier');
    expect(normaliseUrl('latex', PAGE)).toBe('http://shop.test/c/matelas/latex');
    expect(normaliseUrl('../oreillers', PAGE)).toBe('http://shop.test/c/oreillers');
    expect(normaliseUrl('./', PAGE)).toBe('http://shop.test/c/matelas/');
    expect(normaliseUrl('?page=2', PAGE)).toBe('http://shop.test/c/matelas/ressorts?page=2');
    expect(normaliseUrl('//cdn.test/a.jpg', PAGE)).toBe('http://cdn.test/a.jpg');
  });

  it('drops fragments, and same-page fragments entirely', () => {
    expect(normaliseUrl('/aide#contact', PAGE)).toBe('http://shop.test/aide');
    expect(normaliseUrl('?page=2#produits', PAGE)).toBe(
      'http://shop.test/c/matelas/ressorts?page=2',
    );
    expect(normaliseUrl('#main', PAGE)).toBeNull();
    expect(normaliseUrl('', PAGE)).toBeNull();
    expect(normaliseUrl('   ', PAGE)).toBeNull();
  });

  it('keeps http(s) only', () => {
    for (const value of [
      'mailto:contact@literie.test',
      'tel:+33478000000',
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:image/png;base64,AAAA',
      'blob:http://shop.test/x',
      'ftp://shop.test/x',
    ]) {
      expect(normaliseUrl(value, PAGE)).toBeNull();
    }
    expect(normaliseUrl('https://evil.example/', PAGE)).toBe('https://evil.example/');
  });

  it('trims whitespace and newlines as browsers do', () => {
    expect(normaliseUrl('\n  /cgv \t', PAGE)).toBe('http://shop.test/cgv');
    expect(normaliseUrl('/mentions\n-legales', PAGE)).toBe('http://shop.test/mentions-legales');
  });

  it('never throws and only returns absolute http(s) URLs without fragment', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (value) => {
        const url = normaliseUrl(value, PAGE);
        if (url === null) return;
        const parsed = new URL(url);
        expect(['http:', 'https:']).toContain(parsed.protocol);
        expect(parsed.hash).toBe('');
      }),
    );
  });
});

describe('decodeEntities', () => {
  it('decodes the references an attribute may hold', () => {
    expect(decodeEntities('/c/x?sort=2&amp;page=3')).toBe('/c/x?sort=2&page=3');
    expect(decodeEntities('&#47;aide&#x2F;faq')).toBe('/aide/faq');
    expect(decodeEntities('l&#39;image &quot;x&quot; &lt;b&gt;')).toBe('l\'image "x" <b>');
    expect(decodeEntities('&#38&#x26')).toBe('&&');
  });

  it('keeps unknown names and names without `;`, and replaces invalid code points', () => {
    expect(decodeEntities('?a=1&copy=2&unknown;')).toBe('?a=1&copy=2&unknown;');
    expect(decodeEntities('&#0;&#xD800;&#x110000;')).toBe('\ufffd\ufffd\ufffd');
  });
});

describe('parseSrcset', () => {
  it('reads URLs and drops width and density descriptors', () => {
    expect(parseSrcset('/_astro/a.webp 340w, /_astro/b.webp 680w')).toEqual([
      '/_astro/a.webp',
      '/_astro/b.webp',
    ]);
    expect(parseSrcset('a.jpg, b.jpg 2x,c.jpg 3x')).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
    expect(parseSrcset('  /x.png  ')).toEqual(['/x.png']);
    expect(parseSrcset('')).toEqual([]);
  });

  it('keeps commas inside a URL and in parenthesised descriptors', () => {
    expect(parseSrcset('/_image?href=a,b&w=1 1x, /c.png 2x')).toEqual([
      '/_image?href=a,b&w=1',
      '/c.png',
    ]);
    expect(parseSrcset('/a.png 1x (future, thing), /b.png 2x')).toEqual(['/a.png', '/b.png']);
  });
});

describe('extractLinks', () => {
  it('reads links, pictures, scripts, stylesheets and GET forms', () => {
    const html = `<!doctype html><html><head>
      <link rel="stylesheet" href="/_astro/page.css">
      <link rel="preconnect" href="https://fonts.example">
      <link rel="icon" href="/favicon.svg">
      <script type="module" src="/_astro/page.js"></script>
      </head><body>
      <a href="/c/matelas">Matelas</a>
      <a href='relative'>rel</a>
      <a href=/sans-guillemets>x</a>
      <img src="/_astro/a.webp" srcset="/_astro/a.webp 340w, /_astro/b.webp 680w" alt="">
      <picture><source srcset="/_image?href=http%3A%2F%2Fcdn.test%2Fa.jpg&amp;w=340 340w"></picture>
      <video poster="/poster.jpg" src="/v.mp4"><track src="/v.vtt"></video>
      <form action="/resultats-de-recherche" method="get"><input name="q"></form>
      <form action="/panier" method="POST"></form>
      </body></html>`;
    const links = extractLinks(html, PAGE);
    expect(links.map((l) => [l.kind, l.url.replace('http://shop.test', '')])).toEqual([
      ['link', '/_astro/page.css'],
      ['link', '/favicon.svg'],
      ['src', '/_astro/page.js'],
      ['href', '/c/matelas'],
      ['href', '/c/matelas/relative'],
      ['href', '/sans-guillemets'],
      ['src', '/_astro/a.webp'],
      ['srcset', '/_astro/a.webp'],
      ['srcset', '/_astro/b.webp'],
      ['srcset', '/_image?href=http%3A%2F%2Fcdn.test%2Fa.jpg&w=340'],
      ['src', '/v.mp4'],
      ['poster', '/poster.jpg'],
      ['src', '/v.vtt'],
      ['action', '/resultats-de-recherche'],
      ['action', '/panier'],
    ]);
    expect(links.find((l) => l.url.endsWith('/panier'))?.post).toBe(true);
    expect(links.find((l) => l.url.endsWith('/resultats-de-recherche'))?.post).toBeUndefined();
  });

  it('decodes character references in attributes', () => {
    expect(urls('<a href="/c/x?sort=2&amp;page=3">n</a><a href="&#x2F;aide">a</a>')).toEqual([
      'http://shop.test/c/x?sort=2&page=3',
      'http://shop.test/aide',
    ]);
  });

  it('drops fragments, same-page anchors and other schemes', () => {
    expect(
      urls(
        '<a href="#contenu">s</a><a href="/aide#faq">f</a><a href="mailto:a@b.test">m</a>' +
          '<a href="tel:+33">t</a><a href="javascript:void(0)">j</a><a>none</a><a href="">e</a>',
      ),
    ).toEqual(['http://shop.test/aide']);
  });

  it('resolves against the page when there is no <base>, against <base href> when there is', () => {
    expect(urls('<a href="lits">l</a>')).toEqual(['http://shop.test/c/matelas/lits']);
    expect(urls('<base href="/c/"><a href="lits">l</a>')).toEqual(['http://shop.test/c/lits']);
  });

  it('ignores markup inside comments, scripts and text areas', () => {
    expect(
      urls(
        '<!-- <a href="/commented">x</a> --><script>const a = \'<a href="/in-script">\';</script>' +
          '<textarea><a href="/in-textarea"></textarea><a href="/real">r</a>',
      ),
    ).toEqual(['http://shop.test/real']);
  });

  it('reads a `>` inside a quoted attribute as part of the value', () => {
    expect(urls('<a title="a > b" href="/apres">x</a>')).toEqual(['http://shop.test/apres']);
  });

  it('reads Open Graph URLs, JSON-LD URLs, island URLs and CSS url()', () => {
    const html = `<meta property="og:url" content="http://localhost:4321/c/matelas">
      <meta property="og:image" content="/og.png"><meta name="description" content="/pas-un-lien">
      <script type="application/ld+json">{"@type":"BreadcrumbList","itemListElement":[
        {"@type":"ListItem","position":1,"name":"Accueil","item":"http://localhost:4321/"},
        {"@type":"ListItem","position":2,"name":"/pas-un-lien","item":"http://localhost:4321/c/matelas"}]}</script>
      <astro-island component-url="/_astro/Cart.js" renderer-url="/_astro/client.js"
        props="{&quot;cartHref&quot;:[0,&quot;/panier&quot;],&quot;label&quot;:[0,&quot;/pas-un-lien&quot;],&quot;imageUrl&quot;:[0,&quot;http://cdn.test/a.jpg&quot;]}"></astro-island>
      <style>.hero{background:url("/hero.webp")}</style>
      <div style="background-image: url(/fond.webp)"></div>`;
    expect(extractLinks(html, PAGE).map((l) => [l.kind, l.url])).toEqual([
      ['meta', 'http://localhost:4321/c/matelas'],
      ['meta', 'http://shop.test/og.png'],
      ['json-ld', 'http://localhost:4321/'],
      ['json-ld', 'http://localhost:4321/c/matelas'],
      ['src', 'http://shop.test/_astro/Cart.js'],
      ['src', 'http://shop.test/_astro/client.js'],
      ['prop', 'http://shop.test/panier'],
      ['prop', 'http://cdn.test/a.jpg'],
      ['css', 'http://shop.test/hero.webp'],
      ['css', 'http://shop.test/fond.webp'],
    ]);
  });

  it('never throws on arbitrary markup', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (html) => {
        for (const link of extractLinks(html, PAGE)) expect(link.url).toMatch(/^https?:\/\//);
      }),
    );
  });
});

describe('stylesheets, sitemaps, skipped paths', () => {
  it('reads url() and @import, not comments or data URLs', () => {
    expect(
      extractCssUrls(
        '@import "base.css";/* url(/commented.png) */@font-face{src:url(/f.woff2) format("woff2"),url(\'/f.woff\')}a{background:url( data:image/png;base64,AA )}',
      ).filter((u) => !u.startsWith('data:')),
    ).toEqual(['/f.woff2', '/f.woff', 'base.css']);
  });

  it('reads sitemap <loc>s', () => {
    expect(
      extractSitemapLocs(
        '<urlset><url><loc>http://localhost:4321/c/a?x=1&amp;y=2</loc></url><url><loc> http://localhost:4321/ </loc></url></urlset>',
      ),
    ).toEqual(['http://localhost:4321/c/a?x=1&y=2', 'http://localhost:4321/']);
  });

  it('skips the API, logging out and the webhooks only', () => {
    expect(isSkippedPath('/api/cart/getCart')).toBe(true);
    expect(isSkippedPath('/deconnexion')).toBe(true);
    expect(isSkippedPath('/webhooks/contentful')).toBe(true);
    expect(isSkippedPath('/apiculture')).toBe(false);
    expect(isSkippedPath('/panier')).toBe(false);
  });
});

/** A fake shop: path → [status, body or Location, content type]. */
function fakeFetch(routes: Record<string, [number, string, string?]>) {
  const requested: string[] = [];
  const impl: typeof fetch = (input) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input : input.url,
    );
    requested.push(url.pathname + url.search);
    const route = routes[url.pathname + url.search];
    if (!route) return Promise.resolve(new Response('not found', { status: 404 }));
    const [status, value, type = 'text/html; charset=utf-8'] = route;
    if (status >= 300 && status < 400) {
      return Promise.resolve(new Response(null, { status, headers: { location: value } }));
    }
    return Promise.resolve(new Response(value, { status, headers: { 'content-type': type } }));
  };
  return { fetch: impl, requested };
}

describe('crawl', () => {
  it('follows links once, reports dead ones with the pages linking to them', async () => {
    const { fetch, requested } = fakeFetch({
      '/': [200, '<a href="/a">a</a><a href="/b">b</a><a href="/mort">x</a><img src="/i.webp">'],
      '/a': [
        200,
        '<a href="/">home</a><a href="/mort">x</a><img src="/i.webp"><a href="/deconnexion">o</a>',
      ],
      '/b': [301, '/a'],
      '/i.webp': [200, 'img', 'image/webp'],
    });
    const report = await crawl({ baseUrl: 'http://shop.test', seeds: ['/'], fetch });
    expect(report.dead).toEqual([
      {
        url: 'http://shop.test/mort',
        problem: '404',
        linkCount: 2,
        from: ['http://shop.test/', 'http://shop.test/a'],
      },
    ]);
    expect(report.skipped).toBe(1);
    expect(requested.filter((p) => p === '/i.webp')).toHaveLength(1);
    expect(requested).not.toContain('/deconnexion');
    expect(report.pagesCrawled).toBe(2);
  });

  it('fails redirect loops and chains longer than five hops', async () => {
    const { fetch } = fakeFetch({
      '/': [200, '<a href="/boucle">l</a><a href="/h1">h</a><a href="/ok1">o</a>'],
      '/boucle': [302, '/boucle2'],
      '/boucle2': [302, '/boucle'],
      '/h1': [301, '/h2'],
      '/h2': [301, '/h3'],
      '/h3': [301, '/h4'],
      '/h4': [301, '/h5'],
      '/h5': [301, '/h6'],
      '/h6': [301, '/h7'],
      '/h7': [200, 'fin'],
      '/ok1': [301, '/ok2'],
      '/ok2': [200, 'fin'],
    });
    const report = await crawl({ baseUrl: 'http://shop.test', seeds: ['/'], fetch });
    const problems = Object.fromEntries(report.dead.map((d) => [d.url.slice(16), d.problem]));
    expect(problems['/boucle']).toMatch(/^redirect loop/);
    expect(problems['/h1']).toMatch(/^more than 5 redirects/);
    expect(problems['/ok1']).toBeUndefined();
  });

  it('maps the public origin onto the server, ignores external and upstream links, flags other local origins', async () => {
    const { fetch, requested } = fakeFetch({
      '/': [
        200,
        '<link rel="canonical" href="http://localhost:4321/"><a href="http://localhost:4321/aide">a</a>' +
          '<a href="https://ailleurs.test/x">x</a><a href="http://127.0.0.1:4392/images/a.jpg">z</a>' +
          '<a href="http://localhost:3000/vieux">v</a>',
      ],
      '/aide': [200, 'aide'],
    });
    const report = await crawl({
      baseUrl: 'http://127.0.0.1:4391',
      seeds: ['/'],
      shopOrigins: ['http://localhost:4321'],
      upstreamOrigins: ['http://127.0.0.1:4392'],
      fetch,
    });
    expect(requested.sort()).toEqual(['/', '/aide']);
    expect(report.externalLinks).toBe(2);
    expect(report.dead.map((d) => d.url)).toEqual(['http://localhost:3000/vieux']);
  });

  it('is lenient with POST-only form targets (405), not with 404', async () => {
    const { fetch } = fakeFetch({
      '/': [
        200,
        '<form method="post" action="/paiement"></form><form method="post" action="/nulle-part"></form>',
      ],
      '/paiement': [405, ''],
    });
    const report = await crawl({ baseUrl: 'http://shop.test', seeds: ['/'], fetch });
    expect(report.dead.map((d) => [d.url, d.problem])).toEqual([
      ['http://shop.test/nulle-part', '404'],
    ]);
  });

  it('reads sitemaps and robots.txt', async () => {
    const { fetch, requested } = fakeFetch({
      '/robots.txt': [200, 'User-agent: *\nSitemap: http://shop.test/sitemap.xml\n', 'text/plain'],
      '/sitemap.xml': [
        200,
        '<urlset><url><loc>http://shop.test/p/1</loc></url></urlset>',
        'application/xml',
      ],
      '/p/1': [200, 'produit'],
    });
    const report = await crawl({ baseUrl: 'http://shop.test', seeds: ['/robots.txt'], fetch });
    expect(requested).toEqual(['/robots.txt', '/sitemap.xml', '/p/1']);
    expect(report.dead).toEqual([]);
  });
});

describe('checkRedirects', () => {
  it('says where each from_path lands', async () => {
    const { fetch } = fakeFetch({
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
});
