/**
 * robots.txt, pre-rendered: everything may be crawled except the API, cart, checkout, account
 * and login; the sitemap index comes from @astrojs/sitemap.
 */
import type { APIRoute } from 'astro';
import { ACCOUNT_PATH, CART_PATH, CHECKOUT_PATH, LOGIN_PATH } from '../lib/commerce/routes.ts';

export const prerender = true;

const DISALLOWED = ['/api/', CART_PATH, CHECKOUT_PATH, ACCOUNT_PATH, LOGIN_PATH] as const;

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
