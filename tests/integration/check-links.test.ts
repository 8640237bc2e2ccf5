/**
 * The dead-link check (scripts/check-links.ts, `npm test`'s dead-links step) on a small fake
 * shop over real HTTP: linkinator crawls it from the start pages and the sitemap, and every
 * broken link planted in it (a page, a stylesheet's font, a redirect loop, a hard-coded local
 * origin, a page only the sitemap reaches) is reported with the pages linking to it, while the
 * API, logging out, other sites and the upstream are never requested. The same fake shop
 * without its broken links passes: the step fails on a broken link and only then.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLinks, islandScripts } from '../../scripts/check-links.ts';

const PUBLIC = 'http://localhost:4321';
const UPSTREAM = 'http://127.0.0.1:4392';

const html = (body: string) =>
  `<!DOCTYPE html><html lang="fr"><head><title>t</title></head><body>${body}</body></html>`;

/** path → [status, body or Location, content type]. */
type Routes = Record<string, [number, string, string?]>;

const healthy: Routes = {
  '/': [
    200,
    html(
      '<link rel="stylesheet" href="/s.css"><link rel="preconnect" href="http://localhost:3998">' +
        `<link rel="canonical" href="${PUBLIC}/"><a href="/a#haut">a</a><a href="/b">b</a>` +
        `<img src="/i.webp" srcset="/i.webp 1x, /i-2x.webp 2x" alt=""><a href="${PUBLIC}/aide">aide</a>` +
        `<a href="https://ailleurs.test/x">x</a><img src="${UPSTREAM}/images/a.jpg" alt="">` +
        '<a href="/api/cart/getCart">api</a><a href="/deconnexion">sortir</a>' +
        '<a href="/vers-ailleurs">guide</a>' +
        '<a href="mailto:contact@literie.test">m</a><a href="tel:+33478000000">t</a>' +
        `<script type="application/ld+json">{"@type":"Organization","url":"${PUBLIC}/","logo":"${PUBLIC}/logo.svg"}</script>`,
    ),
  ],
  '/a': [
    200,
    html(
      '<a href="/">accueil</a>' +
        Array.from({ length: 30 }, (_, i) => `<a href="/liste?page=${i + 1}">${i + 1}</a>`).join(
          '',
        ),
    ),
  ],
  '/b': [301, '/a'],
  '/vers-ailleurs': [302, 'https://ailleurs.test/guide'],
  '/liste': [200, html('liste')],
  '/s.css': [200, 'body{background:url(/fond.webp)}', 'text/css'],
  '/fond.webp': [200, 'img', 'image/webp'],
  '/i.webp': [200, 'img', 'image/webp'],
  '/i-2x.webp': [200, 'img', 'image/webp'],
  '/aide': [200, html('<a href="/">accueil</a>')],
  '/logo.svg': [200, '<svg/>', 'image/svg+xml'],
  '/orpheline': [200, html('<a href="/">accueil</a>')],
  '/sitemap.xml': [
    200,
    `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${PUBLIC}/p/1</loc></url></urlset>`,
    'application/xml',
  ],
  '/p/1': [200, html('<a href="/">accueil</a>')],
};

/** The same shop with broken links planted in it. */
const broken: Routes = {
  ...healthy,
  '/': [
    200,
    healthy['/']?.[1].replace(
      '</body>',
      '<a href="/mort">x</a><a href="/boucle">l</a><a href="http://localhost:3999/vieux">v</a></body>',
    ) ?? '',
  ],
  '/a': [200, healthy['/a']?.[1].replace('</body>', '<a href="/mort">x</a></body>') ?? ''],
  '/s.css': [200, '@font-face{src:url(/police.woff2)}body{background:url(/fond.webp)}', 'text/css'],
  '/boucle': [302, '/boucle2'],
  '/boucle2': [302, '/boucle'],
  '/p/1': [200, html('<a href="/mort-plan">x</a>')],
  '/orpheline': [200, html('<img src="/_astro/absent.webp" alt="">')],
};

function serve(routes: Routes) {
  const requested: string[] = [];
  const server = http.createServer((request, response) => {
    const target = request.url ?? '/';
    requested.push(target);
    if (target === '/fragile' && !requested.slice(0, -1).includes(target)) {
      response.writeHead(503).end();
      return;
    }
    const route = routes[target] ?? routes[target.split('?')[0] ?? ''];
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/html' }).end(html('introuvable'));
      return;
    }
    const [status, value, type = 'text/html; charset=utf-8'] = route;
    if (status >= 300 && status < 400) response.writeHead(status, { location: value }).end();
    else response.writeHead(status, { 'content-type': type }).end(value);
  });
  return { server, requested };
}

async function check(routes: Routes, retries = 0) {
  const { server, requested } = serve(routes);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  try {
    const report = await checkLinks({
      baseUrl,
      seeds: ['/', '/orpheline'],
      sitemaps: [`${PUBLIC}/sitemap.xml`],
      shopOrigins: [PUBLIC],
      upstreamOrigins: [UPSTREAM],
      timeoutMs: 5_000,
      retries,
    });
    const short = (u: string) => (u.startsWith(baseUrl) ? u.slice(baseUrl.length) : u);
    const dead = Object.fromEntries(
      report.dead.map((d) => [short(d.url), { problem: d.problem, from: d.from.map(short) }]),
    );
    return { report, dead, requested };
  } finally {
    server.close();
  }
}

describe('checkLinks (linkinator on a fake shop)', () => {
  it('passes a shop without broken links, never requesting the API, logging out or other origins', async () => {
    const { report, dead, requested } = await check(healthy);
    expect(dead).toEqual({});
    expect(requested).not.toContain('/api/cart/getCart');
    expect(requested).not.toContain('/deconnexion');
    // Stylesheets, srcset candidates, JSON-LD URLs, redirects and the public origin's links.
    for (const path of ['/s.css', '/fond.webp', '/i-2x.webp', '/logo.svg', '/a', '/aide', '/p/1'])
      expect(requested).toContain(path);
    // 25 query variants of one path, not more.
    expect(requested.filter((p) => p.startsWith('/liste?'))).toHaveLength(25);
    // Links and redirects to other sites and the upstream: counted, not requested.
    expect(report.externalLinks).toBe(3);
    expect(report.skipped).toBe(2 + 5);
    expect(report.retried).toEqual([]);
  });

  it('reports every planted broken link with the pages linking to it', async () => {
    const { report, dead } = await check(broken);
    expect(Object.keys(dead).sort()).toEqual([
      '/_astro/absent.webp',
      '/boucle',
      '/mort',
      '/mort-plan',
      '/police.woff2',
      'http://localhost:3999/vieux',
    ]);
    expect(dead['/mort']?.problem).toBe('404');
    // `/b` is `/a` through a redirect: linkinator names the page by the URL it requested.
    expect(dead['/mort']?.from.sort()).toEqual(['/', '/a', '/b']);
    expect(dead['/police.woff2']?.from).toEqual(['/s.css']);
    expect(dead['/mort-plan']?.from).toEqual(['/p/1']);
    expect(dead['/_astro/absent.webp']?.from).toEqual(['/orpheline']);
    expect(dead['/boucle']?.problem).toMatch(/redirect/);
    expect(dead['http://localhost:3999/vieux']).toEqual({
      problem: 'another origin on this machine (not the shop)',
      from: ['/'],
    });
    expect(report.dead[0]?.url.endsWith('/mort')).toBe(true);
  });
});

describe('checkLinks asks a failing page again', () => {
  it('passes a page answering 503 once, fails one answering 500 every time', async () => {
    const routes: Routes = {
      ...healthy,
      '/orpheline': [200, html('<a href="/fragile">f</a><a href="/panne">p</a>')],
      '/fragile': [200, html('enfin')],
      '/panne': [500, html('erreur')],
    };
    const { report, dead, requested } = await check(routes, 1);
    expect(Object.keys(dead)).toEqual(['/panne']);
    expect(dead['/panne']).toEqual({ problem: '500', from: ['/orpheline'] });
    expect(requested.filter((p) => p === '/fragile')).toHaveLength(2);
    expect(requested.filter((p) => p === '/panne')).toHaveLength(2);
    expect(report.retried.map((u) => new URL(u).pathname).sort()).toEqual(['/fragile', '/panne']);
  });
});

describe('islandScripts', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'islands-'));
    mkdirSync(path.join(dir, 'p'));
    writeFileSync(
      path.join(dir, 'index.html'),
      html('<astro-island uid="1" component-url="/_astro/A.js" renderer-url="/_astro/r.js">'),
    );
    writeFileSync(
      path.join(dir, 'p', 'x.html'),
      html('<astro-island component-url="/_astro/B.js" renderer-url="/_astro/r.js">'),
    );
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists each island script once, with the first page loading it', () => {
    expect([...islandScripts(dir, ['/', '/p/x'])]).toEqual([
      ['/_astro/A.js', '/'],
      ['/_astro/r.js', '/'],
      ['/_astro/B.js', '/p/x'],
    ]);
  });
});
