/**
 * The picture proxy `/_image` of the production build, over HTTP: the
 * build's own endpoint (astro.config.mjs `image.endpoint`) behind the storefront server, its
 * sources the sandbox's `/images/`. Hostile files are put in the sandbox's picture folder under
 * picture names (`1x1/proxy-*.jpg`, removed after): an SVG with a script, an HTML page, a PNG
 * whose header says 20,000 × 20,000. Every reply carries the picture CSP alone and nosniff;
 * every variant a page of the build can ask for is a WebP; anything else is 400, never 500;
 * a variant encoded once is a file of the folder the server names. Run by `npm test` after the
 * build (vitest project `scale`); by hand: `DIST_DIR=dist-x SANDBOX_PORT=N SANDBOX_DIR=dir npx
 * vitest run --project scale tests/scale/image-proxy.test.ts` on a build made with those.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensureUpstream, type Upstream } from '../../scripts/lib/upstream.ts';
import { TEST_ENV } from '../../scripts/lib/test-env.ts';
import { startServer } from '../../src/server/http-server.ts';
import { pictureVariants } from '../../src/lib/picture-variants.ts';
import { PICTURE_CSP } from '../../src/shop/html/csp.ts';
import { rasterFormat } from '../../src/server/pictures/raster-format.ts';
import { DIST_DIR, requireBuild, SANDBOX_PORT } from './helpers/suite.ts';
import { pngClaiming } from '../integration/helpers/png.ts';

const SANDBOX_DIR = process.env.SANDBOX_DIR ?? TEST_ENV.SANDBOX_DIR;
const FIXTURES = path.join(SANDBOX_DIR, 'images', '1x1');
const FILES = ['proxy-svg.jpg', 'proxy-html.jpg', 'proxy-huge.jpg'];

let work = '';
let cacheDir = '';
let upstream: Upstream | undefined;
let server: Awaited<ReturnType<typeof startServer>> | undefined;
let sandboxUrl = '';
let photo = '';

beforeAll(async () => {
  requireBuild();
  work = mkdtempSync(path.join(tmpdir(), 'shop-image-proxy-'));
  cacheDir = path.join(work, 'picture-cache');
  upstream = await ensureUpstream({ port: SANDBOX_PORT, dataDir: SANDBOX_DIR });
  Object.assign(process.env, upstream.env);
  sandboxUrl = `http://127.0.0.1:${String(SANDBOX_PORT)}`;
  mkdirSync(FIXTURES, { recursive: true });
  writeFileSync(
    path.join(FIXTURES, 'proxy-svg.jpg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(document.domain)</script></svg>',
  );
  writeFileSync(
    path.join(FIXTURES, 'proxy-html.jpg'),
    '\uFEFF<!DOCTYPE html><script>alert(1)</script>',
  );
  writeFileSync(path.join(FIXTURES, 'proxy-huge.jpg'), pngClaiming(20_000, 20_000));
  // The sandbox on SANDBOX_PORT serves this folder (not one another test left running).
  const served = await fetch(`${sandboxUrl}/images/1x1/proxy-svg.jpg`);
  expect(served.status, `the sandbox at ${sandboxUrl} serves ${SANDBOX_DIR}`).toBe(200);
  await served.body?.cancel();
  const first = readdirSync(path.join(SANDBOX_DIR, 'images', '800x800'))[0] ?? '';
  photo = `${sandboxUrl}/images/800x800/${first}`;
  server = await startServer({
    distDir: DIST_DIR,
    port: 0,
    renderCache: false,
    pictureCacheDir: cacheDir,
  });
});

afterAll(async () => {
  await server?.close();
  await upstream?.close();
  for (const file of FILES) rmSync(path.join(FIXTURES, file), { force: true });
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

async function get(search: string) {
  const response = await fetch(`${server?.url ?? ''}/_image?${search}`, { redirect: 'manual' });
  const body = Buffer.from(await response.arrayBuffer());
  expect(response.headers.get('content-security-policy')).toBe(PICTURE_CSP);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.status).not.toBe(500);
  return { status: response.status, type: response.headers.get('content-type'), body };
}

const variant = (href: string, width: number, height: number) =>
  new URLSearchParams({ href, w: String(width), h: String(height), f: 'webp' }).toString();

test('every variant the build shows is a WebP of its size, kept as a file', async () => {
  for (const size of pictureVariants()) {
    const reply = await get(variant(photo, size.width, size.height));
    expect(reply.status, `${String(size.width)}x${String(size.height)}`).toBe(200);
    expect(reply.type).toBe('image/webp');
    const { width, height, format } = await sharp(reply.body).metadata();
    expect(format).toBe('webp');
    // Never enlarged: the source is 800 px.
    expect(width).toBe(Math.min(size.width, 800));
    expect(height).toBeLessThanOrEqual(size.height);
  }
  const files = readdirSync(cacheDir, { recursive: true }).filter((name) =>
    String(name).endsWith('.webp'),
  );
  expect(files.length).toBe(pictureVariants().length);
});

test('an attack: an SVG on an allowed location is never sent back', async () => {
  const svg = `${sandboxUrl}/images/1x1/proxy-svg.jpg`;
  expect((await get(new URLSearchParams({ href: svg, w: '64' }).toString())).status).toBe(400);
  const reply = await get(variant(svg, 96, 96));
  expect(reply.status).toBe(415);
  expect(reply.type).toBe('text/plain; charset=utf-8');
  expect(reply.body.toString()).not.toContain('<');
  expect((await get(variant(`${sandboxUrl}/images/1x1/proxy-html.jpg`, 96, 96))).status).toBe(415);
  expect((await get(variant(`${sandboxUrl}/images/1x1/proxy-huge.jpg`, 96, 96))).status).toBe(413);
});

test('another method is a plain 405 with the picture headers, not the HTML error page', async () => {
  const url = `${server?.url ?? ''}/_image?${variant(photo, 340, 340)}`;
  for (const method of ['POST', 'PUT', 'DELETE']) {
    const response = await fetch(url, { method, headers: { origin: server?.url ?? '' } });
    const text = await response.text();
    expect([403, 405], method).toContain(response.status);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(text).not.toContain('<');
  }
  const post = await fetch(url, { method: 'POST', headers: { origin: server?.url ?? '' } });
  expect(post.status).toBe(405);
  expect(post.headers.get('content-security-policy')).toBe(PICTURE_CSP);
  const head = await fetch(url, { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.headers.get('content-type')).toBe('image/webp');
});

test('generated parameters: 200 WebP for a listed variant, else 400/403, never 500', async () => {
  const sizes = pictureVariants();
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        href: fc.constantFrom(
          photo,
          `${sandboxUrl}/__sandbox/faults`,
          `${sandboxUrl}/images/../x`,
          'https://evil.test/a.jpg',
        ),
        w: fc.oneof(
          fc.integer({ min: -10, max: 3000 }).map(String),
          fc.constantFrom(...sizes.map((s) => String(s.width))),
        ),
        h: fc.oneof(
          fc.integer({ min: -10, max: 3000 }).map(String),
          fc.constantFrom(...sizes.map((s) => String(s.height))),
        ),
        f: fc.constantFrom('webp', 'svg', 'png', '../x', ''),
        q: fc.option(fc.constantFrom('1000', '80', '-1'), { nil: undefined }),
      }),
      async ({ href, w, h, f, q }) => {
        const params = new URLSearchParams({ href, w, h, f });
        if (q !== undefined) params.set('q', q);
        const reply = await get(params.toString());
        const listed = sizes.some((size) => String(size.width) === w && String(size.height) === h);
        if (reply.status === 200) {
          expect(listed && f === 'webp' && q === undefined && href === photo).toBe(true);
          expect(rasterFormat(reply.body)).toBe('webp');
        } else {
          expect([400, 403]).toContain(reply.status);
        }
      },
    ),
    { numRuns: 60 },
  );
});
