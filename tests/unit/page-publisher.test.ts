/**
 * The kept build's publisher (src/server/publish/page-publisher.ts) writes and removes only the file
 * of a canonical path that belongs to the route rendering it: a content page `index`
 * no longer overwrites the home page's `index.html` (nor does unpublishing it delete it), a
 * slug naming a route of the shop or a path that is not canonical is left alone and logged,
 * and the rest of the publish goes on.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  createPagePublisher,
  publishRefusal,
  type PrerenderApp,
  type PublishedRoute,
} from '../../src/server/publish/page-publisher.ts';
import type { CapturedPictures } from '../../src/server/publish/publish-pictures.ts';
import { canonicalPath } from '../../src/lib/commerce/page-path.ts';
import { isShopRoute, SHOP_ROUTES } from '../../src/lib/shop-routes.ts';

const route = (name: string, pattern: RegExp): PublishedRoute => ({
  route: name,
  component: `src/pages${name}.astro`,
  type: 'page',
  prerender: true,
  pattern,
});

/** The shop's pre-rendered routes that matter here, with Astro's patterns. */
const ROUTES = [
  route('/', /^\/$/),
  route('/c/[...slug]', /^\/c(?:\/(.*?))?\/?$/),
  route('/marque/[url]', /^\/marque\/([^/]+?)\/?$/),
  route('/[slug]', /^\/([^/]+?)\/?$/),
];

/** Astro's pre-render app as the publisher uses it: each page renders its own URL. */
const app: PrerenderApp = {
  manifest: { routes: ROUTES.map((routeData) => ({ routeData })) },
  render: (request) => Promise.resolve(new Response(`page ${new URL(request.url).pathname}`)),
  getComponentByRoute: () => Promise.resolve({}),
  routeCache: { clearAll: () => undefined },
};

let client = '';
beforeEach(() => {
  client = mkdtempSync(path.join(tmpdir(), 'page-publisher-'));
});
afterEach(() => {
  rmSync(client, { recursive: true, force: true });
  delete (globalThis as { astroAsset?: unknown }).astroAsset;
});

function publisher() {
  const pictures: CapturedPictures = {
    addStaticImage: () => '/_astro/x.webp',
    imageConfig: {} as CapturedPictures['imageConfig'],
    assetsDir: '_astro',
  };
  return createPagePublisher({ app, clientDir: client, origin: 'http://shop.test', pictures });
}

describe('publishRefusal', () => {
  test.each([
    ['/index', '/[slug]', 'canonical'],
    ['/espace-revendeur', '/[slug]', 'route of the shop'],
    ['/panier', '/[slug]', 'route of the shop'],
    ['/Panier', '/[slug]', 'route of the shop'],
    ['/c/../panier', '/c/[...slug]', 'canonical'],
    ['/c/matelas/index', '/c/[...slug]', 'index'],
    ['/cgv/', '/[slug]', 'canonical'],
    ['/', '/[slug]', 'not a page'],
  ])('%s through %s is refused (%s)', (pathname, name, reason) => {
    expect(publishRefusal(pathname, { route: name })).toContain(reason);
  });

  test.each([
    ['/', '/'],
    ['/cgv', '/[slug]'],
    ['/c/matelas/ressorts', '/c/[...slug]'],
    ['/marque/dormelune', '/marque/[url]'],
  ])('%s through %s is the route’s own', (pathname, name) => {
    expect(publishRefusal(pathname, { route: name })).toBeNull();
  });

  test('property: a path taken through the top-level route is canonical and no route of the shop', () => {
    const reserved = Object.values(SHOP_ROUTES).flat();
    const segment = fc.oneof(
      fc.constantFrom(...reserved, 'index', '.', '..', '', 'cgv', 'INDEX', '%2e%2e', 'a%2fb'),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 3 }), (segments) => {
        const pathname = `/${segments.join('/')}`;
        if (publishRefusal(pathname, { route: '/[slug]' }) !== null) return;
        expect(canonicalPath(pathname)).toBe(pathname);
        expect(isShopRoute(pathname.split('/')[1] ?? '')).toBe(false);
        expect(pathname.split('/')).not.toContain('index');
      }),
      { numRuns: 3000 },
    );
  });
});

describe('createPagePublisher', () => {
  test('a content page `index` neither replaces nor removes the home page; the rest is published', async () => {
    writeFileSync(path.join(client, 'index.html'), 'home');
    const lines: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    const pages = publisher();
    const published = await pages.publish({
      render: ['/index', '/espace-revendeur', '/cgv', '/c/../panier', '/c/matelas'],
      remove: [],
    });
    expect(readFileSync(path.join(client, 'index.html'), 'utf8')).toBe('home');
    expect(existsSync(path.join(client, 'espace-revendeur.html'))).toBe(false);
    expect(existsSync(path.join(client, 'panier.html'))).toBe(false);
    expect(readFileSync(path.join(client, 'cgv.html'), 'utf8')).toBe('page /cgv.html');
    expect(published.written).toEqual(['/cgv', '/c/matelas']);
    expect(published.refused).toEqual(['/index', '/espace-revendeur', '/c/../panier']);

    // Unpublished: the home page's file stays.
    const removed = await pages.publish({ render: [], remove: ['/index', '/cgv'] });
    warn.mockRestore();
    expect(readFileSync(path.join(client, 'index.html'), 'utf8')).toBe('home');
    expect(removed.removed).toEqual(['/cgv']);
    expect(removed.refused).toEqual(['/index']);
    expect(lines.filter((line) => line.includes('"/index"'))).toHaveLength(2);
    expect(lines.some((line) => line.includes('"/espace-revendeur"'))).toBe(true);
  });
});
