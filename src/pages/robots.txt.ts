/**
 * robots.txt, pre-rendered: everything may be crawled except the API, cart, checkout, account
 * and login; the sitemap index comes from @astrojs/sitemap.
 */
import type { APIRoute } from 'astro';

export const prerender = true;

const DISALLOWED = ['/api/', '/panier', '/paiement', '/mon-compte', '/connexion'] as const;

export const GET: APIRoute = ({ site, url }) => {
  const sitemap = new URL('/sitemap-index.xml', site ?? url.origin).href;
  const body = [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${sitemap}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
