/**
 * How search engines see a category listing, over HTTP on the production build. Its
 * plain pages (`/c/matelas`, `/c/matelas?page=2`) are indexed under their own canonical URL and
 * listed in the sitemap; refined views stay `noindex, follow` with the category as canonical; a
 * page past the last is a 404. The rule itself is table-tested (tests/unit/listing-seo.test.ts).
 */
import { type APIRequestContext } from '@playwright/test';
import { t } from '../../src/lib/i18n/index.ts';
import { expect, test } from './helpers.ts';

interface Head {
  status: number;
  robotsHeader: string | undefined;
  robotsMeta: string | null;
  /** Path and query of the canonical link, or null. */
  canonical: string | null;
  title: string;
  description: string;
  /** Pagination links (path and query), in page order. */
  pages: string[];
}

const attr = (tag: string, name: string) =>
  new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1]?.replaceAll('&amp;', '&') ?? null;

async function head(request: APIRequestContext, url: string): Promise<Head> {
  const res = await request.get(url, { maxRedirects: 0 });
  const html = await res.text();
  const tag = (pattern: RegExp) => pattern.exec(html)?.[0] ?? '';
  const canonical = attr(tag(/<link rel="canonical"[^>]*>/), 'href');
  const nav = new RegExp(`<nav aria-label="${t('pagination.label')}"[\\s\\S]*?</nav>`).exec(html);
  return {
    status: res.status(),
    robotsHeader: res.headers()['x-robots-tag'],
    robotsMeta: attr(tag(/<meta name="robots"[^>]*>/), 'content'),
    canonical: canonical === null ? null : new URL(canonical).pathname + new URL(canonical).search,
    title: /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '',
    description: attr(tag(/<meta name="description"[^>]*>/), 'content') ?? '',
    pages: [...(nav?.[0] ?? '').matchAll(/href="([^"]*)"/g)].map(([, href]) =>
      (href ?? '').replaceAll('&amp;', '&'),
    ),
  };
}

test('page 1 and page 2 are indexed, each under its own canonical; pagination links say so', async ({
  request,
}) => {
  const first = await head(request, '/c/matelas');
  expect(first).toMatchObject({
    status: 200,
    robotsHeader: undefined,
    robotsMeta: null,
    canonical: '/c/matelas',
  });
  expect(first.pages).toContain('/c/matelas?page=2');

  const second = await head(request, '/c/matelas?page=2');
  expect(second).toMatchObject({
    status: 200,
    robotsHeader: undefined,
    robotsMeta: null,
    canonical: '/c/matelas?page=2',
  });
  expect(second.title).toMatch(/^Matelas – Page 2 \| /);
  expect(second.description).toMatch(/^Page 2 – /);
  // Previous is page 1, without a page parameter.
  expect(second.pages[0]).toBe('/c/matelas');

  // Another spelling of page 2, and ?page=1: the canonical spelling.
  expect((await head(request, '/c/matelas?page=02&sort=1')).canonical).toBe('/c/matelas?page=2');
  expect(await head(request, '/c/matelas?page=1')).toMatchObject({
    status: 200,
    robotsMeta: null,
    canonical: '/c/matelas',
  });
});

test('refined views stay noindex, follow with the category as canonical; past the last page, 404', async ({
  request,
}) => {
  for (const query of ['sort=2', 'sort=2&page=2', 'itemsperpage=40', 'disponibilite=en-stock']) {
    expect(await head(request, `/c/matelas?${query}`), query).toMatchObject({
      status: 200,
      robotsHeader: 'noindex, follow',
      robotsMeta: 'noindex, follow',
      canonical: '/c/matelas',
    });
  }
  expect(await head(request, '/c/matelas?page=999')).toMatchObject({
    status: 404,
    robotsHeader: 'noindex, follow',
    robotsMeta: 'noindex, follow',
    canonical: null,
  });
});

test('the sitemap lists the pages 2 to N of the listings, and each answers 200', async ({
  request,
}) => {
  const index = await (await request.get('/sitemap-index.xml')).text();
  expect(index).toContain('/sitemap-listings.xml</loc>');
  const res = await request.get('/sitemap-listings.xml');
  expect(res.status()).toBe(200);
  const paths = [...(await res.text()).matchAll(/<loc>([^<]*)<\/loc>/g)].map(([, loc]) => {
    const url = new URL((loc ?? '').replaceAll('&amp;', '&'));
    return url.pathname + url.search;
  });
  expect(paths).toContain('/c/matelas?page=2');
  expect(paths).not.toContain('/c/matelas?page=1');
  for (const path of paths) {
    expect(await head(request, path), path).toMatchObject({
      status: 200,
      robotsMeta: null,
      canonical: path,
    });
  }
});
