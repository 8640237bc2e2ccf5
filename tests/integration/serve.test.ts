import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect as netConnect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { precompress } from '../../src/server/precompress.ts';
import { startServer } from '../../src/server/http-server.ts';
import { createMemoryStore } from '../../src/shop/state/memory.ts';
import { redisAvailable, startRedis } from './helpers/redis.ts';

// The storefront server over real HTTP, on a dist folder made here. Its SSR side is a small
// handler module standing where Astro's `dist/server/entry.mjs` stands: it answers with the URL
// it was handed (so the tests see what the server forwards), counts its renders in
// `globalThis.__ssr`, and has routes for each kind of reply the server treats differently.
interface SsrState {
  calls: Record<string, number>;
  fail: boolean;
  /** Renders wait for this before answering (a render held open by the test). */
  gate: Promise<void> | null;
}
const ssr: SsrState = { calls: {}, fail: false, gate: null };
(globalThis as { __ssr?: SsrState }).__ssr = ssr;

const HANDLER = `
const state = () => globalThis.__ssr;
const filler = '<p>' + 'Un matelas ferme et respirant, garni de laine. '.repeat(60) + '</p>';
async function bodyOf(req) {
  if (req.body !== undefined) return Buffer.from(req.body).toString();
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString();
}
export async function handler(req, res) {
  const s = state();
  const url = req.url;
  const path = url.split('?')[0];
  s.calls[url] = (s.calls[url] ?? 0) + 1;
  if (s.gate) await s.gate;
  const cookie = req.headers.cookie ?? '';
  if (path === '/boom') throw new Error('secret stack detail');
  if (path === '/vide') {
    // Astro's reply when its error page itself failed: the status, no body.
    res.writeHead(500);
    res.end();
    return;
  }
  if (path === '/vue/c/echoue' && s.fail) {
    res.writeHead(500, { 'content-type': 'text/html' });
    res.end('<h1>Erreur</h1>');
    return;
  }
  if (path === '/vue/c/absente') {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<h1>Introuvable</h1>' + filler);
    return;
  }
  if (path.startsWith('/vue/c/') || path.startsWith('/resultats-de-recherche')) {
    const headers = { 'content-type': 'text/html', 'x-robots-tag': 'noindex, follow', 'x-cookie': cookie };
    if (path === '/vue/c/biscuit') headers['set-cookie'] = 'cart-id=1; Path=/';
    res.writeHead(200, headers);
    res.write('<h1>' + url + '</h1>');
    res.end(filler + '<p>rendu ' + s.calls[url] + '</p>');
    return;
  }
  if (path === '/csp') {
    res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': "script-src 'self'" });
    res.end('<h1>CSP</h1>');
    return;
  }
  if (path === '/panier') {
    res.statusMessage = '';
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
    res.end('<h1>Panier</h1>' + filler);
    return;
  }
  if (path === '/image') {
    res.writeHead(200, { 'content-type': 'image/webp' });
    res.write(Buffer.alloc(2000, 1));
    res.end(Buffer.alloc(2000, 2));
    return;
  }
  if (path.startsWith('/api/')) {
    const body = await bodyOf(req);
    const read = path === '/api/catalogue/lire';
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': read ? 'public, max-age=0, s-maxage=30' : 'no-store',
      'x-cookie': cookie,
    });
    res.end(JSON.stringify({ data: { body, items: Array.from({ length: 80 }, (_, i) => 'article ' + i) } }));
    return;
  }
  res.writeHead(299, { 'content-type': 'text/plain', 'x-method': req.method });
  res.end('ssr ' + url);
}
`;

// A shared page with what resellers do not see (spec §6 reseller mode, shop-mode.ts).
const RESELLER_SOURCE =
  '<html lang="fr"><h1>Boutique</h1><!--consumer-only--><form id="newsletter">Lettre</form><!--/consumer-only-->' +
  '<article data-card><h3>Matelas</h3><!--reseller-ref:R%C3%A9f.%20MAT%2D1--></article>' +
  '<a href="/panier">Panier</a><a href="/les-yeux-fermes/podcast">Podcast</a></html>';

// Pre-rendered pages as the layouts open them (the policy's meta right after the charset),
// and one whose policy meta comes after JSON-LD holding a policy-like text (page-policy.ts).
const PAGE_POLICY = "default-src 'self'; script-src 'self' 'sha256-abc='";
const policyPage = (policy: string) =>
  `<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8"><meta http-equiv="content-security-policy" content="${policy}">` +
  '<script type="application/ld+json">{"name":"Politique"}</script></head><body><h1>Politique</h1></body></html>';
const LATE_POLICY_PAGE =
  '<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8">' +
  '<script type="application/ld+json">{"x":"\\u003cmeta http-equiv=\\"content-security-policy\\" content=\\"script-src *\\">"}</script>' +
  `<meta http-equiv="content-security-policy" content="${PAGE_POLICY}"></head><body></body></html>`;

let dir: string;
let server: Awaited<ReturnType<typeof startServer>>;
let clock = Date.now();
const css = `body{color:#222}${'.x{margin:0}'.repeat(200)}`;
const bigPage = `<h1>Matelas</h1>${'<p>Un matelas ferme et respirant.</p>'.repeat(100)}`;
const blob = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
// Above the size the server holds in memory (1 MiB): streamed from disk.
const big = Buffer.from(Array.from({ length: 1_500_000 }, (_, i) => (i * 7) % 253));

async function makeDist(at: string): Promise<void> {
  await mkdir(path.join(at, 'client/_astro'), { recursive: true });
  await mkdir(path.join(at, 'client/c/matelas'), { recursive: true });
  await mkdir(path.join(at, 'server'), { recursive: true });
  await writeFile(path.join(at, 'client/index.html'), '<h1>Accueil</h1>');
  await writeFile(path.join(at, 'client/500.html'), '<h1>Erreur du serveur</h1>');
  await writeFile(path.join(at, 'client/c/matelas.html'), '<h1>Matelas</h1>');
  await writeFile(path.join(at, 'client/boutique.html'), RESELLER_SOURCE);
  await writeFile(path.join(at, 'client/politique.html'), policyPage(PAGE_POLICY));
  await writeFile(path.join(at, 'client/politique-tardive.html'), LATE_POLICY_PAGE);
  await writeFile(path.join(at, 'client/_astro/app.abc123.css'), css);
  await writeFile(path.join(at, 'client/robots.txt'), 'User-agent: *');
  await writeFile(path.join(at, 'client/grande-page.html'), bigPage);
  await writeFile(path.join(at, 'client/fichier.bin'), blob);
  await writeFile(path.join(at, 'client/gros.bin'), big);
  await writeFile(path.join(at, 'server/entry.mjs'), HANDLER);
  await precompress(path.join(at, 'client'));
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'serve-test-'));
  await makeDist(dir);
  server = await startServer({ distDir: dir, port: 0, now: () => clock });
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  ssr.fail = false;
  ssr.gate = null;
});

const base = () => server.url.replace('localhost', '127.0.0.1');
const get = (p: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(base() + p, { headers, redirect: 'manual', method });

/** A raw request (fetch adds its own Accept-Encoding, sets Host and cannot send TRACE). */
function raw(
  method: string,
  p: string,
  headers: Record<string, string> = {},
  body?: string,
  at: string = base(),
): Promise<{
  status: number;
  reason: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(at + p, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          reason: res.statusMessage ?? '',
          headers: res.headers,
          body: Buffer.concat(chunks),
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function decoded(res: { headers: Record<string, unknown>; body: Buffer }): string {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(res.body).toString();
  if (coding === 'gzip') return gunzipSync(res.body).toString();
  return res.body.toString();
}

const SECURITY = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

describe('static files', () => {
  test.each([
    ['the root serves index.html', '/', '<h1>Accueil</h1>'],
    ['a page path serves its .html file', '/c/matelas', '<h1>Matelas</h1>'],
  ])('%s', async (_case, p, body) => {
    const res = await get(p, { 'accept-encoding': 'identity' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe(body);
  });

  test('hashed assets are immutable and sent precompressed (br preferred, then gzip)', async () => {
    const br = await get('/_astro/app.abc123.css', { 'accept-encoding': 'gzip, br' });
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(await br.text()).toBe(css);
    const gz = await get('/_astro/app.abc123.css', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(css);
  });

  test('pages are compressed on first request (br preferred, then gzip), then from cache', async () => {
    expect(existsSync(path.join(dir, 'client/grande-page.html.br'))).toBe(false);
    for (const [accept, encoding] of [
      ['gzip, br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, br', 'br'],
    ]) {
      const res = await get('/grande-page', { 'accept-encoding': accept ?? '' });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(Number(res.headers.get('content-length'))).toBeLessThan(bigPage.length / 4);
      expect(await res.text()).toBe(bigPage);
    }
    const plain = await get('/grande-page', { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(bigPage);
  });

  test.each([
    ['q-values: gzip preferred over br', 'gzip;q=0.9, br;q=0.5', 'gzip'],
    ['q-values: br preferred over gzip', 'gzip;q=0.5, br;q=1', 'br'],
    ['br refused', 'br;q=0, gzip', 'gzip'],
    ['both refused', 'br;q=0, gzip;q=0', undefined],
    ['only identity', 'identity', undefined],
    ['anything', '*', 'br'],
    ['no header', undefined, undefined],
  ])('compression follows Accept-Encoding (%s)', async (_case, accept, coding) => {
    const res = await raw(
      'GET',
      '/grande-page',
      accept === undefined ? {} : { 'accept-encoding': accept },
    );
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(decoded(res)).toBe(bigPage);
  });

  test('an unchanged file answers 304 to its ETag, alone, in a list, or `*`', async () => {
    const first = await get('/robots.txt');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    for (const condition of [etag, `"autre", ${etag}`, `W/${etag}`, '*']) {
      const again = await get('/robots.txt', { 'if-none-match': condition });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    }
    const other = await get('/robots.txt', { 'if-none-match': '"autre", "encore"' });
    expect(other.status).toBe(200);
  });

  test('each coding has its own ETag, and revalidates as itself', async () => {
    const br = await raw('GET', '/grande-page', { 'accept-encoding': 'br' });
    const gz = await raw('GET', '/grande-page', { 'accept-encoding': 'gzip' });
    expect(br.headers.etag).not.toBe(gz.headers.etag);
    const again = await raw('GET', '/grande-page', {
      'accept-encoding': 'br',
      'if-none-match': String(br.headers.etag),
    });
    expect(again.status).toBe(304);
  });

  test.each([
    ['a first range', 'bytes=0-99', 206, 0, 99],
    ['a middle range', 'bytes=1000-1999', 206, 1000, 1999],
    ['a suffix range', 'bytes=-500', 206, 4500, 4999],
    ['an open range', 'bytes=4990-', 206, 4990, 4999],
    ['a range past the end is cut to it', 'bytes=4000-9999', 206, 4000, 4999],
  ])('Range: %s gives 206 with those bytes', async (_case, range, status, start, end) => {
    const res = await raw('GET', '/fichier.bin', { range, 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(status);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${blob.length}`);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.equals(blob.subarray(start, end + 1))).toBe(true);
  });

  test('Range: unsatisfiable gives 416 with the size', async () => {
    const res = await raw('GET', '/fichier.bin', { range: 'bytes=6000-7000' });
    expect(res.status).toBe(416);
    expect(res.reason).toBe('Range Not Satisfiable');
    expect(res.headers['content-range']).toBe(`bytes */${blob.length}`);
  });

  test.each([
    ['several ranges', 'bytes=0-9, 20-29'],
    ['a malformed range', 'bytes=abc'],
    ['another unit', 'items=0-1'],
  ])('Range: %s gives the whole file', async (_case, range) => {
    const res = await raw('GET', '/fichier.bin', { range });
    expect(res.status).toBe(200);
    expect(res.body.equals(blob)).toBe(true);
  });

  test('If-Range: the current ETag keeps the range, another one gets the whole file', async () => {
    const head = await raw('HEAD', '/fichier.bin', { 'accept-encoding': 'identity' });
    const etag = String(head.headers.etag);
    const kept = await raw('GET', '/fichier.bin', { range: 'bytes=0-9', 'if-range': etag });
    expect(kept.status).toBe(206);
    const changed = await raw('GET', '/fichier.bin', { range: 'bytes=0-9', 'if-range': '"vieux"' });
    expect(changed.status).toBe(200);
    expect(changed.body.length).toBe(blob.length);
  });

  test('a file too large to hold in memory is streamed, whole or in a range', async () => {
    const whole = await raw('GET', '/gros.bin');
    expect(whole.status).toBe(200);
    expect(whole.body.equals(big)).toBe(true);
    const part = await raw('GET', '/gros.bin', { range: 'bytes=1200000-1299999' });
    expect(part.status).toBe(206);
    expect(part.body.equals(big.subarray(1_200_000, 1_300_000))).toBe(true);
  });

  test('HEAD gives the headers of GET without a body', async () => {
    const res = await raw('HEAD', '/grande-page', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(Number(res.headers['content-length'])).toBeGreaterThan(0);
    expect(res.body.length).toBe(0);
  });
});

describe('methods', () => {
  test.each([
    ['TRACE on a static page', 'TRACE', '/', 'GET, HEAD, OPTIONS'],
    ['TRACE on an on-demand page', 'TRACE', '/panier', 'GET, HEAD, POST, OPTIONS'],
    ['PROPFIND', 'PROPFIND', '/nulle-part', 'GET, HEAD, POST, OPTIONS'],
    ['TRACE on the API', 'TRACE', '/api/catalogue/lire', 'POST'],
    ['POST to a static file', 'POST', '/c/matelas', 'GET, HEAD, OPTIONS'],
    ['DELETE on a page', 'DELETE', '/panier', 'GET, HEAD, POST, OPTIONS'],
  ])('%s: 405 with Allow, no stack, no SSR call', async (_case, method, p, allow) => {
    const before = JSON.stringify(ssr.calls);
    const res = await raw(method, p);
    expect(res.status).toBe(405);
    expect(res.reason).toBe('Method Not Allowed');
    expect(res.headers.allow).toBe(allow);
    expect(res.body.toString()).toBe('Method Not Allowed\n');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(JSON.stringify(ssr.calls)).toBe(before);
  });

  test('CONNECT is answered 405, and TRACK (unknown to the HTTP parser) 400', async () => {
    const connect = await new Promise<string>((resolve, reject) => {
      const socket = netConnect(Number(new URL(base()).port), '127.0.0.1', () => {
        socket.write('CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n');
      });
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('close', () => {
        resolve(text);
      });
      socket.on('error', reject);
    });
    expect(connect).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(connect).toContain('Allow: GET, HEAD, POST, OPTIONS');
    const track = await raw('TRACK', '/');
    expect(track.status).toBe(400);
  });

  test('OPTIONS answers 204 with what the path allows', async () => {
    expect((await raw('OPTIONS', '/c/matelas')).headers.allow).toBe('GET, HEAD, OPTIONS');
    const page = await raw('OPTIONS', '/paiement');
    expect(page.status).toBe(204);
    expect(page.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
  });

  test('POST to an on-demand page goes to the SSR handler', async () => {
    const res = await raw(
      'POST',
      '/paiement',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'a=1',
    );
    expect(res.status).toBe(299);
    expect(res.headers['x-method']).toBe('POST');
  });

  test('a handler that throws gives the fallback page (spec §8), no stack, no detail', async () => {
    const res = await raw('GET', '/boom');
    expect(res.status).toBe(500);
    expect(res.reason).toBe('Internal Server Error');
    const text = decoded(res);
    expect(text).not.toMatch(/secret|at .*\.mjs|Error:/);
    expect(text).toContain('Une erreur est survenue');
    expect(text).toContain(`<a href="/">Retour à l'accueil</a>`);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  test('an error reply without a body (the error page failed) gets the fallback page', async () => {
    const res = await raw('GET', '/vide');
    expect(res.status).toBe(500);
    expect(res.reason).toBe('Internal Server Error');
    expect(decoded(res)).toContain('Une erreur est survenue');
    expect(decoded(res)).toContain('href="/"');
  });

  test('the pre-rendered /500 answers with its status, never 304', async () => {
    const res = await raw('GET', '/500');
    expect(res.status).toBe(500);
    expect(res.reason).toBe('Internal Server Error');
    expect(decoded(res)).toContain('Erreur du serveur');
    expect(res.headers['cache-control']).toBe('no-store');
    const again = await raw('GET', '/500', { 'if-none-match': '*' });
    expect(again.status).toBe(500);
  });
});

describe('on-demand replies', () => {
  test.each([
    ['an unknown path goes to the SSR handler', '/nulle-part', 'ssr /nulle-part'],
    ['a page without listing parameters stays static', '/c/matelas?utm_source=x', null],
  ])('%s', async (_case, p, expected) => {
    const res = await get(p);
    if (expected === null) {
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('<h1>Matelas</h1>');
    } else {
      expect(res.status).toBe(299);
      expect(await res.text()).toBe(expected);
    }
  });

  // One spelling per page, answered by the server before files and Astro.
  test.each([
    ['a trailing slash (spec §2)', '/c/matelas/?page=2', '/c/matelas?page=2'],
    ['a pre-rendered page as .html', '/c/matelas.html', '/c/matelas'],
    ['the home page as /index.html', '/index.html', '/'],
    ['an on-demand page as .html', '/panier.html', '/panier'],
    ['escaped letters, decoded again', '/pan%2569er%252ehtml', '/panier'],
    [
      'a path escaping the folder is not served from disk',
      '/..%2f..%2fetc%2fpasswd',
      '/etc/passwd',
    ],
  ])('%s: 301 to the one spelling', async (_case, p, location) => {
    const res = await get(p);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(location);
  });

  test('an unreadable path goes to the not-found page', async () => {
    const res = await get('/panier%C3');
    expect(res.status).toBe(299);
    expect(await res.text()).toBe('ssr /404');
  });

  test('a listing view is rewritten to its on-demand route, with its canonical query', async () => {
    const res = await get('/c/matelas?sort=2&utm_source=x&page=1');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<h1>/vue/c/matelas?sort=2</h1>');
  });

  test.each([
    ['a page', '/panier', 'text/html'],
    ['the 404 page', '/vue/c/absente?page=2', 'text/html'],
    ['a cached listing view', '/c/matelas?page=7', 'text/html'],
    ['an API reply', '/api/catalogue/ecrire', 'application/json'],
  ])('%s carries the security headers and is compressed', async (_case, p, type) => {
    const method = p.startsWith('/api/') ? 'POST' : 'GET';
    const res = await raw(
      method,
      p,
      { 'accept-encoding': 'gzip;q=0.5, br;q=1' },
      method === 'POST' ? '[]' : undefined,
    );
    for (const [name, value] of Object.entries(SECURITY)) expect(res.headers[name]).toBe(value);
    expect(res.headers['content-security-policy']).toBe("frame-ancestors 'self'");
    expect(res.headers['permissions-policy']).toContain('camera=()');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['content-type']).toContain(type);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(decoded(res).length).toBeGreaterThan(res.body.length * 2);
  });

  test('the status line carries the standard reason phrase', async () => {
    expect((await raw('GET', '/vue/c/absente')).reason).toBe('Not Found');
    expect((await raw('GET', '/panier')).reason).toBe('OK');
    expect((await raw('GET', '/nulle-part')).reason).toBe('Unknown');
  });

  test("a page's own CSP is kept, the framing rule added as a second policy", async () => {
    const res = await raw('GET', '/csp');
    expect(res.headers['content-security-policy']).toBe(
      "script-src 'self', frame-ancestors 'self'",
    );
  });

  test("a pre-rendered page's own policy (its meta after the charset) is sent as a header too", async () => {
    const both = `${PAGE_POLICY}, frame-ancestors 'self'`;
    const res = await raw('GET', '/politique', { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBe(both);
    const head = await raw('HEAD', '/politique');
    expect(head.headers['content-security-policy']).toBe(both);
    const etag = String(head.headers.etag);
    const again = await raw('GET', '/politique', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers['content-security-policy']).toBe(both);
    // A reseller's stripped copy carries it as well.
    const reseller = await raw('GET', '/politique', { cookie: 'mode-revendeur=1' });
    expect(reseller.headers['content-security-policy']).toBe(both);
  });

  test('a policy meta that does not directly follow the charset is not taken for the header', async () => {
    const res = await raw('GET', '/politique-tardive');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBe("frame-ancestors 'self'");
    const reseller = await raw('GET', '/politique-tardive', { cookie: 'mode-revendeur=1' });
    expect(reseller.headers['content-security-policy']).toBe("frame-ancestors 'self'");
  });

  test("a page's new version brings its new policy", async () => {
    const file = path.join(dir, 'client/politique.html');
    const newer = "default-src 'none'; script-src 'self' 'sha256-xyz0='";
    try {
      await writeFile(file, policyPage(newer));
      clock += 2000; // past the lookup's recheck
      const res = await raw('GET', '/politique');
      expect(res.headers['content-security-policy']).toBe(`${newer}, frame-ancestors 'self'`);
    } finally {
      await writeFile(file, policyPage(PAGE_POLICY));
      clock += 2000;
    }
  });

  test('a compressed copy gone since its lookup (sitemaps written again): the file is looked up again, never a 404', async () => {
    const client = path.join(dir, 'client');
    const file = path.join(client, 'sitemap-7.xml');
    try {
      await writeFile(file, '<urlset>ancien</urlset>');
      await writeFile(`${file}.br`, brotliCompressSync('<urlset>ancien</urlset>'));
      await writeFile(`${file}.gz`, gzipSync('<urlset>ancien</urlset>'));
      // Looked up (with its copies), its own bytes held; the copies never read.
      const first = await raw('GET', '/sitemap-7.xml');
      expect(first.body.toString()).toBe('<urlset>ancien</urlset>');
      // Within the lookup's recheck: the server still knows the old file and its copies.
      await writeFile(file, '<urlset>nouveau</urlset>');
      await rm(`${file}.br`);
      await rm(`${file}.gz`);
      const res = await raw('GET', '/sitemap-7.xml', { 'accept-encoding': 'br, gzip' });
      expect(res.status).toBe(200);
      expect(decoded(res)).toBe('<urlset>nouveau</urlset>');
    } finally {
      await rm(file, { force: true });
      clock += 2000;
    }
  });

  test('HSTS only over https from a trusted proxy', async () => {
    // TRUSTED_PROXIES is unset here: the header proves nothing.
    const spoofed = await raw('GET', '/panier', { 'x-forwarded-proto': 'https' });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
    const saved = process.env.TRUSTED_PROXIES;
    process.env.TRUSTED_PROXIES = '127.0.0.1';
    const behindProxy = await startServer({ distDir: dir, port: 0 });
    if (saved === undefined) delete process.env.TRUSTED_PROXIES;
    else process.env.TRUSTED_PROXIES = saved;
    try {
      const at = behindProxy.url.replace('localhost', '127.0.0.1');
      for (const p of ['/panier', '/c/matelas', '/c/matelas?page=9']) {
        const tls = await raw('GET', p, { 'x-forwarded-proto': 'https' }, undefined, at);
        expect(tls.headers['strict-transport-security']).toBe(
          'max-age=31536000; includeSubDomains',
        );
        const plain = await raw('GET', p, { 'x-forwarded-proto': 'http' }, undefined, at);
        expect(plain.headers['strict-transport-security']).toBeUndefined();
      }
    } finally {
      await behindProxy.close();
    }
  });

  test('replies that are not text stream through uncompressed', async () => {
    const res = await raw('GET', '/image', { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body.length).toBe(4000);
  });
});

describe('reseller mode (spec §6)', () => {
  test('a pre-rendered page is stripped for the reseller mode cookie, private', async () => {
    const res = await raw('GET', '/boutique', {
      cookie: 'locale=fr; mode-revendeur=1',
      'accept-encoding': 'br',
    });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.vary).toBe('Cookie, Accept-Encoding');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(decoded(res)).toBe(
      '<html data-reseller lang="fr"><h1>Boutique</h1>' +
        '<article data-card data-reseller><h3>Matelas</h3><p class="text-xs text-neutral-600">Réf. MAT-1</p></article>' +
        '<a href="/espace-revendeur/panier">Panier</a>Podcast</html>',
    );
  });

  test('everyone else gets the file as it is, shareable', async () => {
    const res = await get('/boutique', {
      cookie: 'mode-revendeur=0',
      'accept-encoding': 'identity',
    });
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(await res.text()).toBe(RESELLER_SOURCE);
  });

  test('an on-demand page for the cookie skips the shared cache and reaches the app with it', async () => {
    const first = await raw('GET', '/c/matelas?sort=2&page=3', { cookie: 'mode-revendeur=1' });
    const second = await raw('GET', '/c/matelas?sort=2&page=3', { cookie: 'mode-revendeur=1' });
    expect(first.headers['x-cookie']).toBe('mode-revendeur=1');
    expect(decoded(second)).not.toBe(decoded(first));
  });
});

describe('render cache', () => {
  test('a listing view is rendered once for equivalent URLs, then served from cache', async () => {
    const urls = [
      '/c/lits?page=2&sort=3',
      '/c/lits?sort=3&page=2',
      '/c/lits?sort=3&page=2&utm_source=mail&itemsperpage=20',
      '/vue/c/lits?page=2&sort=3',
    ];
    for (const url of urls) {
      const res = await raw('GET', url, { 'accept-encoding': 'gzip' });
      expect(res.status).toBe(200);
      expect(decoded(res)).toContain(
        '<h1>/vue/c/lits?sort=3&amp;page=2</h1>'.replace('&amp;', '&'),
      );
      expect(res.headers['cache-control']).toBe(
        'public, max-age=0, s-maxage=60, stale-while-revalidate=300, stale-if-error=86400',
      );
    }
    expect(ssr.calls['/vue/c/lits?sort=3&page=2']).toBe(1);
  });

  test('concurrent misses of one key share one render', async () => {
    let release: () => void = () => undefined;
    ssr.gate = new Promise((resolve) => (release = resolve));
    const pending = Promise.all(
      Array.from({ length: 12 }, () =>
        raw('GET', '/c/couettes?page=3', { 'accept-encoding': 'br' }),
      ),
    );
    // The render is under way and held; a request sent after the twelve has its reply (the
    // server took them in order), then the render may end.
    await expect.poll(() => ssr.calls['/vue/c/couettes?page=3']).toBe(1);
    expect((await raw('GET', '/robots.txt')).status).toBe(200);
    release();
    const replies = await pending;
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(ssr.calls['/vue/c/couettes?page=3']).toBe(1);
  });

  test("cached renders never see the shopper's cookies", async () => {
    const res = await raw('GET', '/c/oreillers?page=2', { cookie: 'session=secret' });
    expect(res.headers['x-cookie']).toBeUndefined();
    expect(decoded(res)).not.toContain('secret');
  });

  test('a cached page answers 304 to its ETag (in a list too)', async () => {
    const first = await raw('GET', '/c/oreillers?page=4', { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+-br"$/);
    const again = await raw('GET', '/c/oreillers?page=4', {
      'accept-encoding': 'br',
      'if-none-match': `"x", ${etag}`,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const identity = await raw('GET', '/c/oreillers?page=4', { 'accept-encoding': 'identity' });
    expect(identity.headers.etag).toMatch(/^"[^"]+"$/);
    expect(identity.body.toString()).toBe(decoded(first));
  });

  test.each([
    ['a reply with Set-Cookie', '/vue/c/biscuit?page=2', 200],
    ['a 404', '/vue/c/absente?page=3', 404],
  ])('%s is never cached', async (_case, p, status) => {
    for (let i = 0; i < 2; i++) expect((await raw('GET', p)).status).toBe(status);
    expect(ssr.calls[p]).toBe(2);
  });

  test('a request with the redirect-to-cart parameters always reaches the application', async () => {
    await raw('GET', '/c/accessoires?page=2');
    await raw('GET', '/c/accessoires?page=2&id=abc&token=def');
    await raw('GET', '/c/accessoires?page=2&id=abc&token=def');
    expect(ssr.calls['/vue/c/accessoires?page=2']).toBe(1);
    // Never from the render cache: the cart-link route, every time.
    const link = '/vue/lien-panier?id=abc&token=def&page=%2Fc%2Faccessoires%3Fpage%3D2';
    expect(ssr.calls[link]).toBe(2);
  });

  test('a stale page is served at once and re-rendered in the background', async () => {
    await raw('GET', '/c/linge?page=2');
    clock += 61_000;
    const stale = await raw('GET', '/c/linge?page=2');
    expect(decoded(stale)).toContain('rendu 1');
    // The background render, then its reply kept: waited for, not slept on.
    await expect.poll(() => ssr.calls['/vue/c/linge?page=2']).toBe(2);
    await expect
      .poll(async () => decoded(await raw('GET', '/c/linge?page=2')))
      .toContain('rendu 2');
    expect(ssr.calls['/vue/c/linge?page=2']).toBe(2);
  });

  test('a failed render serves the last cached copy (stale-if-error)', async () => {
    const first = await raw('GET', '/c/echoue?page=2');
    expect(first.status).toBe(200);
    ssr.fail = true;
    clock += 400_000; // past stale-while-revalidate: a render is needed
    const fallback = await raw('GET', '/c/echoue?page=2');
    expect(fallback.status).toBe(200);
    expect(decoded(fallback)).toContain('rendu 1');
    expect(ssr.calls['/vue/c/echoue?page=2']).toBe(2);
    // Without a copy, the error is the error.
    const none = await raw('GET', '/c/echoue?page=3');
    expect(none.status).toBe(500);
  });

  test('API reads the API marks public are cached by body; others never', async () => {
    const call = (p: string, body: string, cookie = '') =>
      raw(
        'POST',
        p,
        { 'content-type': 'application/json', cookie, 'accept-encoding': 'gzip' },
        body,
      );
    // The first reply teaches the server that the method may be shared.
    await call('/api/catalogue/lire', '[1]', 'session=a');
    for (let i = 0; i < 3; i++) {
      const res = await call('/api/catalogue/lire', '[2]', 'session=b');
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=0, s-maxage=30');
      expect(res.headers['x-cookie']).toBeUndefined();
      expect(JSON.parse(decoded(res))).toMatchObject({ data: { body: '[2]' } });
    }
    expect(ssr.calls['/api/catalogue/lire']).toBe(2);
    await call('/api/catalogue/lire', '[3]');
    expect(ssr.calls['/api/catalogue/lire']).toBe(3);
    const writes = ssr.calls['/api/catalogue/ecrire'] ?? 0;
    for (let i = 0; i < 2; i++) {
      const res = await call('/api/catalogue/ecrire', '[]', 'session=c');
      expect(res.headers['x-cookie']).toBe('session=c');
    }
    expect(ssr.calls['/api/catalogue/ecrire']).toBe(writes + 2);
  });

  test('a cached API reply is the reply to its own body, short or long, and carries its own id', async () => {
    const call = (body: string) =>
      raw('POST', '/api/catalogue/lire', { 'content-type': 'application/json' }, body);
    await call('[0]'); // the method is known to be shared from now on
    // Short bodies name their reply verbatim, long ones (over 256 bytes) by digest: bodies
    // that look alike in either form, and accents (one byte or two), never share a reply.
    // A small alphabet, so that bodies share long prefixes and lengths.
    const unit = fc.constantFrom('a', 'b', 'é');
    const body = fc.oneof(
      fc.string({ unit, maxLength: 8 }),
      fc.string({ unit, minLength: 250, maxLength: 270 }),
      fc.constantFrom('#abc', '=abc', 'é', 'Ã©', 'x'.repeat(256), 'x'.repeat(257)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(body, { minLength: 1, maxLength: 6 }), async (bodies) => {
        // Each body twice: the second reply comes from the render cache.
        for (const sent of [...bodies, ...bodies]) {
          const res = await call(sent);
          expect(res.status).toBe(200);
          expect(JSON.parse(decoded(res))).toMatchObject({ data: { body: sent } });
        }
      }),
      { numRuns: 15 },
    );
    const again = await Promise.all([call('[0]'), call('[0]')]);
    const ids = again.map((res) => res.headers['x-request-id']);
    expect(new Set(ids).size).toBe(2);
    for (const res of again) expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('render cache across builds and copies', () => {
  test('copies of one build share renders through the store; a new build renders anew', async () => {
    const store = createMemoryStore();
    const other = await mkdtemp(path.join(os.tmpdir(), 'serve-test-copy-'));
    await makeDist(other);
    const a = await startServer({ distDir: other, port: 0, renderCache: { store } });
    const b = await startServer({ distDir: other, port: 0, renderCache: { store } });
    try {
      expect(a.buildId).toBe(b.buildId);
      // Behind one load balancer, copies see the same Host.
      const url = '/c/partage?page=2';
      const host = { host: 'boutique.example' };
      const at = (copy: { url: string }) => copy.url.replace('localhost', '127.0.0.1');
      await raw('GET', url, host, undefined, at(a));
      const fromB = await raw('GET', url, host, undefined, at(b));
      expect(decoded(fromB)).toContain('rendu 1');
      expect(ssr.calls['/vue/c/partage?page=2']).toBe(1);

      await writeFile(path.join(other, 'server/chunk.mjs'), 'export const release = 2;');
      const c = await startServer({ distDir: other, port: 0, renderCache: { store } });
      try {
        expect(c.buildId).not.toBe(a.buildId);
        const fromC = await raw('GET', url, host, undefined, at(c));
        expect(decoded(fromC)).toContain('rendu 2');
        expect(ssr.calls['/vue/c/partage?page=2']).toBe(2);
      } finally {
        await c.close();
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
      await rm(other, { recursive: true, force: true });
    }
  });
});

describe.runIf(redisAvailable())('render cache through Redis (REDIS_URL)', () => {
  test('two servers on one Redis share a render; a stopped Redis only costs renders', async () => {
    const redis = await startRedis();
    const saved = process.env.REDIS_URL;
    process.env.REDIS_URL = redis.url;
    const other = await mkdtemp(path.join(os.tmpdir(), 'serve-test-redis-'));
    await makeDist(other);
    const a = await startServer({ distDir: other, port: 0 });
    const b = await startServer({ distDir: other, port: 0 });
    if (saved === undefined) delete process.env.REDIS_URL;
    else process.env.REDIS_URL = saved;
    const at = (copy: { url: string }) => copy.url.replace('localhost', '127.0.0.1');
    const host = { host: 'boutique.example', 'accept-encoding': 'gzip' };
    try {
      const first = await raw('GET', '/c/redis?page=2', host, undefined, at(a));
      const second = await raw('GET', '/c/redis?page=2', host, undefined, at(b));
      expect(decoded(second)).toBe(decoded(first));
      expect(ssr.calls['/vue/c/redis?page=2']).toBe(1);

      await redis.stop();
      const without = await raw('GET', '/c/redis?page=3', host, undefined, at(b));
      expect(without.status).toBe(200);
      expect(decoded(without)).toContain('/vue/c/redis?page=3');
    } finally {
      await Promise.all([a.close(), b.close()]);
      await redis.stop().catch(() => undefined);
      await rm(other, { recursive: true, force: true });
    }
  });
});
