import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { precompress } from '../../scripts/lib/precompress.ts';
import { startServer } from '../../scripts/serve.ts';

// The storefront server over real HTTP, on a dist folder made here. Its SSR side is a small
// handler module standing where Astro's `dist/server/entry.mjs` stands, answering with the URL
// it was handed, so the tests see what the server forwards.
let dir: string;
let server: { url: string; close(): Promise<void> };
const css = `body{color:#222}${'.x{margin:0}'.repeat(200)}`;
const bigPage = `<h1>Matelas</h1>${'<p>Un matelas ferme et respirant.</p>'.repeat(100)}`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'serve-test-'));
  await mkdir(path.join(dir, 'client/_astro'), { recursive: true });
  await mkdir(path.join(dir, 'client/c/matelas'), { recursive: true });
  await mkdir(path.join(dir, 'server'), { recursive: true });
  await writeFile(path.join(dir, 'client/index.html'), '<h1>Accueil</h1>');
  await writeFile(path.join(dir, 'client/c/matelas.html'), '<h1>Matelas</h1>');
  await writeFile(path.join(dir, 'client/_astro/app.abc123.css'), css);
  await writeFile(path.join(dir, 'client/robots.txt'), 'User-agent: *');
  await writeFile(path.join(dir, 'client/grande-page.html'), bigPage);
  await writeFile(
    path.join(dir, 'server/entry.mjs'),
    `export function handler(req, res) {
      res.writeHead(299, { 'content-type': 'text/plain', 'x-method': req.method });
      res.end('ssr ' + req.url);
    }`,
  );
  await precompress(path.join(dir, 'client'));
  server = await startServer({ distDir: dir, port: 0 });
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (p: string, headers: Record<string, string> = {}) =>
  fetch(server.url.replace('localhost', '127.0.0.1') + p, { headers, redirect: 'manual' });

describe('storefront server', () => {
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

  test('an unchanged file answers 304 to its ETag', async () => {
    const first = await get('/robots.txt');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const again = await get('/robots.txt', { 'if-none-match': etag });
    expect(again.status).toBe(304);
  });

  test.each([
    ['an unknown path goes to the SSR handler', '/nulle-part', 'ssr /nulle-part'],
    [
      'a trailing slash goes to the SSR handler (which answers 301)',
      '/c/matelas/',
      'ssr /c/matelas/',
    ],
    [
      'a path escaping the folder is not served from disk',
      '/..%2f..%2fetc%2fpasswd',
      'ssr /..%2f..%2fetc%2fpasswd',
    ],
    [
      'a listing view is rewritten to its on-demand route',
      '/c/matelas?sort=2',
      'ssr /vue/c/matelas?sort=2',
    ],
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

  test('non-GET requests always go to the SSR handler', async () => {
    const res = await fetch(`${server.url.replace('localhost', '127.0.0.1')}/c/matelas`, {
      method: 'POST',
    });
    expect(res.status).toBe(299);
    expect(res.headers.get('x-method')).toBe('POST');
  });
});
