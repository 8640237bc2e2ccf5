import type { MiddlewareHandler } from 'astro';
import { matchRedirect } from '../../lib/commerce/redirects.ts';
import type { Redirect } from '../../lib/commerce/types.ts';
import { logFailure } from '../faults/failures.ts';

/** The storefront redirects, and the hosts whose absolute URLs are this shop's. */
export interface RedirectList {
  redirects: readonly Redirect[];
  /** e.g. the BigCommerce store's domain, which `to_url` targets are written on. */
  shopHosts: readonly string[];
}

export interface RedirectsOptions {
  /** Loads the list (see `loadRedirectList`); called once, again only after a failure. */
  load: () => Promise<RedirectList>;
  /** Where a failed load is reported (spec §8: logged only); default one log line. */
  logError?: (message: string, error: unknown) => void;
  /**
   * After a failed load, how long requests go on without redirects before the next attempt
   * (default 10 s): a down upstream does not hold every request for its timeout.
   */
  retryAfterMs?: number;
  /** Clock in ms (tests); default `performance.now`. */
  now?: () => number;
}

// Astro internals and the API middleware never answer a storefront redirect.
const SKIPPED_PREFIXES = ['/api/', '/_'];

const EMPTY: RedirectList = { redirects: [], shopHosts: [] };

/**
 * spec §2 redirections, for on-demand routes (pre-rendered pages are files, served before
 * Astro): the list is loaded once (memoised; a failed load is logged, requests go on without
 * redirects and the first one after `retryAfterMs` tries again), and a path matching a `from_path` answers 301 to its target,
 * a local path or an external `http(s)` URL (`matchRedirect`; any other target: no redirect).
 */
export function createWithRedirects(options: RedirectsOptions): MiddlewareHandler {
  const logError =
    options.logError ??
    ((message: string, error: unknown) => {
      logFailure('redirects', message, error);
    });
  const retryAfterMs = options.retryAfterMs ?? 10_000;
  const now = options.now ?? (() => performance.now());
  let list: Promise<RedirectList> | undefined;
  let failedAt = Number.NEGATIVE_INFINITY;
  const redirects = () => {
    if (list === undefined && now() - failedAt < retryAfterMs) return EMPTY;
    list ??= options.load().catch((error: unknown) => {
      list = undefined;
      failedAt = now();
      logError('Could not load the redirect list', error);
      return EMPTY;
    });
    return list;
  };

  return async (context, next) => {
    const { pathname } = context.url;
    if (context.isPrerendered || SKIPPED_PREFIXES.some((p) => pathname.startsWith(p))) {
      return next();
    }
    const loaded = await redirects();
    const target = matchRedirect(pathname, loaded.redirects, {
      shopHosts: [context.url.host, ...loaded.shopHosts],
    });
    // No match, or a target `redirectTarget` refused (`javascript:`, `data:`...): go on.
    if (target === null) return next();
    if (!target.external && target.location === pathname) return next();
    return new Response(null, { status: 301, headers: { Location: target.location } });
  };
}
