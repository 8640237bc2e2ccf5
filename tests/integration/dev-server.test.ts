import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { devServerRequests } from '../../src/shop/middleware/dev-server.ts';

// The `astro dev` request handling over real HTTP: a node server runs `devServerRequests`
// ahead of a stand-in for Vite/Astro that answers with the URL it was handed.
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    devServerRequests(req, res, () => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`astro ${req.url ?? ''}`);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

async function get(path: string, method = 'GET') {
  const res = await fetch(base + path, { method, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

describe('astro dev requests', () => {
  test.each([
    ['a trailing slash answers 301 without it', '/c/matelas/', '/c/matelas'],
    ['the query is kept', '/c/matelas/?sort=2', '/c/matelas?sort=2'],
    ['any path', '/panier/', '/panier'],
    ['.html (one spelling per page)', '/panier.html', '/panier'],
    ['an escaped letter', '/espace-revendeur%2ehtml', '/espace-revendeur'],
  ])('%s', async (_case, path, location) => {
    expect(await get(path)).toMatchObject({ status: 301, location });
  });

  test.each([
    [
      'a listing view goes to its on-demand route',
      '/c/matelas?marque=40',
      'astro /vue/c/matelas?marque=40',
    ],
    [
      'a category without listing parameters stays',
      '/c/matelas?utm_source=x',
      'astro /c/matelas?utm_source=x',
    ],
    ['the root stays', '/', 'astro /'],
    ["Vite's own paths are left alone", '/@vite/client/', 'astro /@vite/client/'],
  ])('%s', async (_case, path, text) => {
    expect(await get(path)).toMatchObject({ status: 200, text });
  });

  test('non-GET requests are left alone', async () => {
    expect(await get('/api/bigcommerce/getProducts/', 'POST')).toMatchObject({
      status: 200,
      text: 'astro /api/bigcommerce/getProducts/',
    });
  });
});
