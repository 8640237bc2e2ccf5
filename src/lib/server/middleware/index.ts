import { sequence } from 'astro/middleware';
import type { MiddlewareHandler } from 'astro';
import { withListingView } from './with-listing-view.ts';
import { createWithRedirects, type RedirectsOptions } from './with-redirects.ts';
import { withTrailingSlash } from './with-trailing-slash.ts';

export { createWithRedirects, withListingView, withTrailingSlash, type RedirectsOptions };

/**
 * The shop's Astro middleware, top to bottom: trailing-slash 301, listing view rewrite,
 * storefront redirects. `src/middleware.ts` wires it to the config; tests to a sandbox.
 */
export function createMiddleware(redirects: RedirectsOptions): MiddlewareHandler {
  return sequence(withTrailingSlash, withListingView, createWithRedirects(redirects));
}
