/**
 * Load for the rebuild tests on the production build: autocannon over a page of each kind taken
 * from the build itself.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';

export { autocannon };

/**
 * A page of each kind, from the build at `dist`: the static home, a category and a product
 * page, a listing view and search results rendered on demand, a hashed asset.
 */
export function pagesOf(dist: string): string[] {
  const client = path.join(dist, 'client');
  const categories = readdirSync(path.join(client, 'c')).filter((name) => name.endsWith('.html'));
  const category = `/c/${(categories[0] ?? 'x.html').slice(0, -5)}`;
  const productDir = readdirSync(path.join(client, 'p'))[0] ?? '1';
  const productFile = readdirSync(path.join(client, 'p', productDir))[0] ?? 'x.html';
  const css = readdirSync(path.join(client, '_astro')).find((name) => name.endsWith('.css'));
  return [
    '/',
    category,
    `/p/${productDir}/${productFile.slice(0, -5)}`,
    `${category}?sort=2`,
    '/resultats-de-recherche/matelas',
    `/_astro/${css ?? 'none.css'}`,
  ];
}

/** The pages of `pagesOf` as autocannon requests, asking for compressed HTML as a browser does. */
export function loadRequests(dist: string): { path: string; headers: Record<string, string> }[] {
  return pagesOf(dist).map((page) => ({
    path: page,
    headers: { 'accept-encoding': 'gzip, br', accept: 'text/html,*/*' },
  }));
}

/** What must be zero after a load: errors, timeouts, non-2xx, other status codes than 200. */
export function failuresOf(result: autocannon.Result) {
  return {
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statuses: Object.keys(result.statusCodeStats ?? {}),
  };
}

export const NO_FAILURES = { errors: 0, timeouts: 0, non2xx: 0, statuses: ['200'] };
