/**
 * The picture proxy `/_image` over real HTTP against the sandbox: a server
 * answers `/_image` with the shop's proxy (image-proxy.ts) under the storefront server's
 * security headers (src/server/headers.ts), its sources the sandbox's `/images/` on its own
 * port, the one location allowed there (image-hosts.ts). Hostile files are put in the
 * sandbox's picture folder under picture names: an SVG with a script, HTML, a PNG whose header
 * says 20,000 × 20,000; a fault holds a picture request unanswered (a stalled host).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { pictureVariants } from '../../src/lib/picture-variants.ts';
import { PICTURE_CSP } from '../../src/shop/html/csp.ts';
import { imageRemotePatterns } from '../../src/server/pictures/image-hosts.ts';
import { createImageProxy, type ImageProxy } from '../../src/server/pictures/image-proxy.ts';
import { rasterFormat } from '../../src/server/pictures/raster-format.ts';
import { withSecurityHeaders } from '../../src/server/headers.ts';
import { startTestSandbox, type TestSandbox } from '@literie/sandbox/testing';
import { pngClaiming } from './helpers/png.ts';

const FETCH_TIMEOUT_MS = 5_000;

let sandbox: TestSandbox;
let server: Server;
let base = '';
let cacheDir = '';
let proxy: ImageProxy;
let photo = '';

const SVG =
  '\uFEFF  <svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(document.domain)</script></svg>';

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const folder = path.join(sandbox.dataDir, 'images', '1x1');
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'script-svg.jpg'), SVG);
  writeFileSync(path.join(folder, 'page-html.jpg'), '<!DOCTYPE html><script>alert(1)</script>');
  writeFileSync(path.join(folder, 'huge-png.jpg'), pngClaiming(20_000, 20_000));
  const truncated = readFileSync(
    path.join(
      sandbox.dataDir,
      'images',
      '800x800',
      readdirSync(path.join(sandbox.dataDir, 'images', '800x800'))[0] ?? '',
    ),
  );
  writeFileSync(path.join(folder, 'truncated.jpg'), truncated.subarray(0, 600));
  photo = `${sandbox.url}/images/800x800/${readdirSync(path.join(sandbox.dataDir, 'images', '800x800'))[0] ?? ''}`;
  cacheDir = mkdtempSync(path.join(tmpdir(), 'image-proxy-cache-'));
  proxy = createImageProxy({
    imageConfig: {
      domains: [],
      remotePatterns: imageRemotePatterns(['cdn11.bigcommerce.com'], sandbox.url),
      service: { entrypoint: 'astro/assets/services/sharp', config: {} },
    },
    cacheDir: () => cacheDir,
    fetchTimeoutMs: FETCH_TIMEOUT_MS,
  });
  server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://shop.test');
      const reply = await proxy.handle(url);
      const headers = Object.fromEntries(reply.headers);
      const body = Buffer.from(await reply.arrayBuffer());
      res.writeHead(reply.status, withSecurityHeaders(headers, false));
      res.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
});

afterEach(async () => {
  await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'DELETE',
    headers: { 'X-Auth-Token': sandbox.token },
  });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await sandbox.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

async function picture(href: string, size = { width: 340, height: 340 }, format = 'webp') {
  const url = new URL('/_image', base);
  url.searchParams.set('href', href);
  url.searchParams.set('w', String(size.width));
  url.searchParams.set('h', String(size.height));
  url.searchParams.set('f', format);
  const res = await fetch(url);
  const body = Buffer.from(await res.arrayBuffer());
  expect(res.headers.get('content-security-policy')).toBe(PICTURE_CSP);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  return { status: res.status, type: res.headers.get('content-type'), body };
}

describe('/_image against the sandbox', () => {
  test('a sandbox picture is a WebP of the asked size, kept as a file', async () => {
    const reply = await picture(photo);
    expect(reply).toMatchObject({ status: 200, type: 'image/webp' });
    expect(rasterFormat(reply.body)).toBe('webp');
    const { width, height } = await sharp(reply.body).metadata();
    expect({ width, height }).toEqual({ width: 340, height: 340 });
    const files = readdirSync(cacheDir, { recursive: true }).filter((name) =>
      String(name).endsWith('.webp'),
    );
    expect(files.length).toBe(1);
    // The repeat is that file, even with the sandbox's pictures gone.
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'X-Auth-Token': sandbox.token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ match: '/images/', status: 503 }),
    });
    const again = await picture(photo);
    expect(again.status).toBe(200);
    expect(again.body.equals(reply.body)).toBe(true);
  });

  test.each([
    ['an SVG with a script, named .jpg, served as image/jpeg', 'script-svg.jpg', 415],
    ['an HTML page', 'page-html.jpg', 415],
    ['a PNG whose header says 20,000 × 20,000', 'huge-png.jpg', 413],
    ['a truncated JPEG', 'truncated.jpg', [200, 422]],
  ])('%s is refused, never sent back', async (_case, name, status) => {
    const source = readFileSync(path.join(sandbox.dataDir, 'images', '1x1', name));
    const reply = await picture(`${sandbox.url}/images/1x1/${name}`, { width: 96, height: 96 });
    expect(([] as number[]).concat(status)).toContain(reply.status);
    expect(reply.body.equals(source)).toBe(false);
    if (reply.status === 200) expect(rasterFormat(reply.body)).toBe('webp');
    else {
      expect(reply.type).toBe('text/plain; charset=utf-8');
      expect(reply.body.toString()).not.toContain('<');
    }
  });

  test('sizes, formats and qualities the shop never shows are 400, not 500', async () => {
    for (const [w, h, f] of [
      ['-1', '340', 'webp'],
      ['340', '-5', 'webp'],
      ['341', '341', 'webp'],
      ['340', '340', 'svg'],
      ['340', '340', '../x'],
    ] as const) {
      const reply = await picture(photo, { width: Number(w), height: Number(h) }, f);
      expect(reply.status, `${w} ${h} ${f}`).toBe(400);
    }
    const url = new URL('/_image', base);
    url.search = new URLSearchParams({
      href: photo,
      w: '340',
      h: '340',
      f: 'webp',
      q: '1000',
    }).toString();
    expect((await fetch(url)).status).toBe(400);
    for (const size of pictureVariants()) {
      expect(
        (await picture(photo, size)).status,
        `${String(size.width)}x${String(size.height)}`,
      ).toBe(200);
    }
  });

  test('other paths and ports of the sandbox are refused without a fetch', async () => {
    const port = Number(new URL(sandbox.url).port);
    for (const href of [
      `${sandbox.url}/__sandbox/faults`,
      `${sandbox.url}/images/../__sandbox/faults`,
      `${sandbox.url}/images/%2e%2e/stores/sandbox/v3/catalog/products`,
      `http://127.0.0.1:${String(port + 1)}/images/800x800/a.jpg`,
      `http://localhost:${String(port)}/images/800x800/a.jpg`,
      `http://[::1]:${String(port)}/images/800x800/a.jpg`,
    ]) {
      expect((await picture(href)).status, href).toBe(403);
    }
  });

  test('a stalled picture host answers 504 at the deadline', async () => {
    const held = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'X-Auth-Token': sandbox.token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ match: '/images/1x1/', down: 'hang' }),
    });
    expect(held.status).toBe(201);
    const reply = await picture(`${sandbox.url}/images/1x1/stalled.jpg`, { width: 96, height: 96 });
    expect(reply.status).toBe(504);
  });
});
