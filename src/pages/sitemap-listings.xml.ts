/**
 * Sitemap of the category listings' pages 2 to N (`/c/matelas?page=2`...): each is indexed under
 * its own canonical URL (listing-seo.ts), and only page 1 is a pre-rendered page that
 * @astrojs/sitemap lists. Counted from the build's catalogue in the default order and page size;
 * the sitemap index names this file (`customSitemaps` in astro.config.mjs).
 */
import type { APIRoute } from 'astro';
import { getCatalogue } from '../shop/loaders/catalogue.ts';
import { listingSitemapPaths } from '../shop/view-models/catalogue/page-data.ts';

export const prerender = true;

const xmlText = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export const GET: APIRoute = async ({ site, url }) => {
  const paths = listingSitemapPaths(await getCatalogue());
  const base = site ?? url.origin;
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...paths.map((path) => `<url><loc>${xmlText(new URL(path, base).href)}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
