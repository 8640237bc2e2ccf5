/**
 * The image proxy: `/_image` of the production server transforms the catalogue's pictures
 * (the sandbox's picture path) and refuses, without fetching them, any other loopback port, the
 * sandbox's other paths, private and link-local addresses and non-https image hosts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Product } from '../../src/lib/commerce/types.ts';
import { CARD_IMAGE } from '../../src/lib/picture-variants.ts';
import { PRODUCTS } from '@literie/sandbox/fixtures';
import { api, expect, test } from './helpers.ts';

// A variant the shop shows (a product card): the proxy serves no other size.
const proxied = (href: string) =>
  `/_image?href=${encodeURIComponent(href)}&w=${String(CARD_IMAGE.width)}&h=${String(CARD_IMAGE.height)}&f=webp`;

let trap: Server;
let hits = 0;

test.beforeAll(async () => {
  // A loopback server the proxy must never reach (a stand-in for Redis, an admin port...).
  trap = createServer((_req, res) => {
    hits++;
    res.end('secret');
  });
  await new Promise<void>((ready) => trap.listen(0, '127.0.0.1', ready));
});

test.afterAll(async () => {
  await new Promise((closed) => trap.close(closed));
});

test('a catalogue picture is transformed; other loopback ports, paths and private addresses are refused unfetched', async ({
  request,
  baseURL,
}) => {
  // The product's picture as the catalogue names it (the sandbox's picture path); the page's
  // zoom link names the shop's encoded picture.
  const product = await api<Product>(request, 'getProductById', [PRODUCTS.trackingNone]);
  const picture = product.images[0]?.urlZoom;
  expect(picture).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/images\//);
  const sandbox = new URL(picture ?? '');

  const ok = await request.get(proxied(sandbox.href));
  expect(ok.status()).toBe(200);
  expect(ok.headers()['content-type']).toBe('image/webp');

  const trapPort = (trap.address() as AddressInfo).port;
  const shop = new URL(baseURL ?? '');
  for (const href of [
    `http://127.0.0.1:${trapPort}/images/800x800/a.jpg`,
    `http://127.0.0.1:${trapPort}/`,
    `http://localhost:${trapPort}/images/a.jpg`,
    `http://[::1]:${trapPort}/images/a.jpg`,
    `http://2130706433:${trapPort}/images/a.jpg`,
    `${shop.origin}/favicon.svg`,
    `${sandbox.origin}/stores/sandbox/v3/catalog/products`,
    `${sandbox.origin}/__sandbox/faults`,
    `${sandbox.origin}/images/../stores/sandbox/v2/store`,
    `http://localhost:${sandbox.port}${sandbox.pathname}`,
    'http://10.0.0.1/images/a.jpg',
    'http://192.168.1.1/a.jpg',
    'http://169.254.169.254/latest/meta-data/',
    'http://cdn11.bigcommerce.com/s-x/images/p.jpg',
  ]) {
    const refused = await request.get(proxied(href));
    expect(refused.status(), href).toBe(403);
  }
  expect(hits).toBe(0);
});
