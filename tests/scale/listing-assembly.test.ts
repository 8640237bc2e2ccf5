/**
 * A listing view put together from its pre-rendered page 1 (listing-assembly.ts) is the view
 * Astro renders, byte for byte and header for header, over generated views: any sort, page
 * size, page, brand, price, size, colour, availability and search term, on every category of
 * the build. The production server of the build runs in this process with no render cache; each
 * view is asked twice, first rendered (the release's pages 1 hidden from the server), then
 * assembled from copies of the pages 1 that carry a marker comment, so an assembled reply is
 * told from a rendered one by that marker alone. Run by `npm test` after the build (vitest
 * project `scale`); by hand: `DIST_DIR=dist-x SANDBOX_PORT=N npx vitest run --project scale
 * tests/scale/listing-assembly.test.ts` on a build made with those.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensureUpstream, type Upstream } from '../../scripts/lib/upstream.ts';
import { startServer } from '../../src/server/http-server.ts';
import {
  ITEMS_PER_PAGE_OPTIONS,
  listingQueryString,
  SORT_OPTIONS,
} from '../../src/lib/commerce/listing.ts';
import { useListingPages } from '../../src/shop/loaders/listing-page.ts';
import { DIST_DIR, requireBuild, SANDBOX_PORT } from './helpers/suite.ts';

/** Written into the copies of the pages 1, where the assembly copies page 1 as it is. */
const MARKER = '<!--assembled-->';
const marked = (html: string) => html.replace('</body>', `${MARKER}</body>`);

let work = '';
let upstream: Upstream | undefined;
let server: Awaited<ReturnType<typeof startServer>> | undefined;
let markedDir = '';
/** The build's listing paths (`/c/...`). */
let listings: string[] = [];

/** Every `c/**.html` of a client folder, as listing paths. */
function listingPaths(clientDir: string): string[] {
  return readdirSync(path.join(clientDir, 'c'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.html'))
    .map((file) => `/c/${file.slice(0, -'.html'.length).split(path.sep).join('/')}`)
    .sort();
}

beforeAll(async () => {
  requireBuild();
  work = mkdtempSync(path.join(tmpdir(), 'shop-assembly-'));
  upstream = await ensureUpstream({ port: SANDBOX_PORT, dataDir: path.join(work, 'sandbox') });
  Object.assign(process.env, upstream.env);
  const clientDir = path.join(DIST_DIR, 'client');
  listings = listingPaths(clientDir);
  markedDir = path.join(work, 'marked');
  cpSync(path.join(clientDir, 'c'), path.join(markedDir, 'c'), { recursive: true });
  for (const listing of listings) {
    const file = path.join(markedDir, `${listing}.html`);
    writeFileSync(file, marked(readFileSync(file, 'utf8')));
  }
  server = await startServer({ distDir: DIST_DIR, port: 0, renderCache: false });
});

afterAll(async () => {
  await server?.close();
  await upstream?.close();
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

interface Reply {
  status: number;
  text: string;
  headers: Record<string, string>;
}

async function get(url: string): Promise<Reply> {
  const response = await fetch(`${server?.url ?? ''}${url}`, {
    redirect: 'manual',
    headers: { accept: 'text/html', 'accept-encoding': 'identity' },
  });
  // Every header but the moment, the connection's and those of the body (the marker's bytes).
  const headers = Object.fromEntries(
    [...response.headers].filter(
      // Per reply by design: the date, the connection and the request id.
      ([name]) =>
        !['date', 'keep-alive', 'connection', 'content-length', 'etag', 'x-request-id'].includes(
          name,
        ),
    ),
  );
  return { status: response.status, text: await response.text(), headers };
}

/** Mostly `none`, sometimes `some`: most views a shopper opens refine little. */
const rarely = <T>(none: T, some: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 5, arbitrary: fc.constant(none) }, { weight: 1, arbitrary: some });

const label = fc.oneof(
  fc.constantFrom('140x190 cm', '160x200 cm', '90x190 cm', 'Blanc', 'Gris', 'Bleu'),
  fc.string({ maxLength: 12 }),
);

const view = fc.record({
  listing: fc.nat(),
  term: rarely('', fc.oneof(fc.constantFrom('matelas', 'ressorts', 'x'), fc.string())),
  sort: fc.constantFrom(...SORT_OPTIONS.map((option) => option.id)),
  perPage: rarely(ITEMS_PER_PAGE_OPTIONS[0] ?? 20, fc.constantFrom(...ITEMS_PER_PAGE_OPTIONS)),
  page: rarely(1, fc.integer({ min: 2, max: 5 })),
  brands: rarely([], fc.subarray([1, 2, 3, 4, 5, 6, 40, 44, 999], { minLength: 1 })),
  priceMin: rarely(null, fc.integer({ min: 0, max: 100_000 })),
  priceMax: rarely(null, fc.integer({ min: 0, max: 200_000 })),
  sizes: rarely([], fc.array(label, { minLength: 1, maxLength: 2 })),
  colours: rarely([], fc.array(label, { minLength: 1, maxLength: 2 })),
  inStock: rarely(false, fc.constant(true)),
});

test('an assembled listing view is the rendered one, bytes and headers', async () => {
  let assembled = 0;
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(view, async (v) => {
      const listing = listings[v.listing % listings.length] ?? '/c/matelas';
      const query = listingQueryString({
        term: v.term,
        sort: SORT_OPTIONS.find((option) => option.id === v.sort),
        perPage: v.perPage,
        page: v.page,
        filters: {
          brands: v.brands,
          priceMin: v.priceMin,
          priceMax: v.priceMax,
          sizes: v.sizes,
          colours: v.colours,
          inStock: v.inStock,
        },
      });
      const url = `${listing}${query}`;
      useListingPages(undefined);
      const rendered = await get(url);
      useListingPages(markedDir);
      const put = await get(url);
      runs += 1;
      // A shopper's view with products is assembled; anything else is rendered as before, and
      // page 1 itself (no query) is the pre-rendered file.
      const expected =
        query !== '' && rendered.status === 200 && rendered.text.includes('<ul data-grid')
          ? marked(rendered.text)
          : rendered.text;
      if (expected !== rendered.text) assembled += 1;
      expect(put.status).toBe(rendered.status);
      expect(put.headers).toEqual(rendered.headers);
      expect(put.text).toBe(expected);
    }),
    { numRuns: 150 },
  );
  // Many generated views show products: the assembly ran, not only its fallback.
  expect(assembled).toBeGreaterThan(runs / 4);
});

test('the plain pages of every listing are assembled too', async () => {
  for (const listing of listings) {
    for (const query of ['?page=2', '?sort=2']) {
      useListingPages(undefined);
      const rendered = await get(`${listing}${query}`);
      useListingPages(markedDir);
      const put = await get(`${listing}${query}`);
      expect(put.headers).toEqual(rendered.headers);
      expect(put.text).toBe(
        rendered.status === 200 && rendered.text.includes('<ul data-grid')
          ? marked(rendered.text)
          : rendered.text,
      );
    }
  }
});

/** The picture URLs of a page (`src` and `srcset`), `/_astro/` files and `/_image` requests. */
function pictureUrls(html: string): string[] {
  const urls: string[] = [];
  for (const [, attribute = ''] of html.matchAll(/<img[^>]*?\s(?:src|srcset)="([^"]*)"/g)) {
    for (const part of attribute.split(',')) {
      const url = part.trim().split(/\s+/)[0] ?? '';
      if (url.startsWith('/_astro/') || url.startsWith('/_image')) urls.push(url);
    }
  }
  return [...new Set(urls)].sort();
}

test('a listing view shows the pictures page 1 shows: the build’s files, not encoded on request', async () => {
  const clientDir = path.join(DIST_DIR, 'client');
  // Listings whose page 1 holds all their products: another sort shows the same cards.
  const whole = listings.filter((listing) => {
    const html = readFileSync(path.join(clientDir, `${listing}.html`), 'utf8');
    return !html.includes('page=2') && html.includes('<ul data-grid');
  });
  expect(whole.length).toBeGreaterThan(3);
  useListingPages(undefined);
  for (const listing of whole) {
    const pageOne = pictureUrls(readFileSync(path.join(clientDir, `${listing}.html`), 'utf8'));
    expect(pageOne.length, listing).toBeGreaterThan(0);
    for (const sort of SORT_OPTIONS.slice(1, 3)) {
      const url = `${listing}${listingQueryString({ sort })}`;
      const view = await get(url);
      expect(view.status, url).toBe(200);
      expect(pictureUrls(view.text), url).toEqual(pageOne);
    }
    // Each is a file of the release.
    for (const picture of pageOne) {
      expect(picture.startsWith('/_astro/'), picture).toBe(true);
      const reply = await fetch(`${server?.url ?? ''}${picture}`, { method: 'HEAD' });
      expect(reply.status, picture).toBe(200);
      expect(reply.headers.get('content-type'), picture).toMatch(/^image\//);
    }
  }
});
