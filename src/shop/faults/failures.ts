/**
 * Expected upstream failures (timeouts, unreachable, 5xx, unusable replies) as opposed to
 * bugs: what the API answers for them (spec §8 `{ message, statusCode }` with a message key
 * the islands show in French) and how they are logged — one line each, no stack trace, which
 * is kept for bugs.
 */
import { BigCommerceError } from '../connectors/bigcommerce/errors.ts';
import { BrevoError } from '../connectors/brevo/client.ts';
import { ContentfulError } from '../connectors/contentful/errors.ts';
import { ReviewsError } from '../connectors/reviews/client.ts';
import { log } from '../config/log.ts';

export interface UpstreamFailure {
  /** 504 when upstream was too slow, 503 when it refused for now, 502 otherwise. */
  status: 502 | 503 | 504;
  /** Key of `fr.json`. */
  message: 'error.upstreamTimeout' | 'error.upstreamUnavailable';
}

const UNAVAILABLE_CODES = new Set(['NETWORK_ERROR', 'INVALID_RESPONSE', 'UPSTREAM_ERROR']);

/** The failure of an upstream call that is not the caller's fault nor a bug; else undefined. */
export function upstreamFailure(error: unknown): UpstreamFailure | undefined {
  const upstream =
    error instanceof BigCommerceError ||
    error instanceof BrevoError ||
    error instanceof ContentfulError;
  if (!upstream) return undefined;
  if (error.code === 'TIMEOUT') return { status: 504, message: 'error.upstreamTimeout' };
  if (error.status === 429 || error.status === 503) {
    return { status: 503, message: 'error.upstreamUnavailable' };
  }
  // The shopper's arguments are checked before any content call: whatever the content service
  // refuses (a revoked token, a query it rejects) is its failure, not the shopper's.
  if (
    UNAVAILABLE_CODES.has(error.code) ||
    error.status >= 500 ||
    error instanceof ContentfulError
  ) {
    return { status: 502, message: 'error.upstreamUnavailable' };
  }
  return undefined;
}

type UpstreamError = BigCommerceError | BrevoError | ContentfulError | ReviewsError;

/** The service of an upstream failure, as the operators' metrics and logs name it. */
function serviceOf(error: UpstreamError): string {
  if (error instanceof BigCommerceError) return 'bigcommerce';
  if (error instanceof BrevoError) return 'brevo';
  return error instanceof ReviewsError ? 'reviews' : 'contentful';
}

/**
 * Logs a failure on one line: `[upstream] call failed` with the scope, what failed, the
 * service, its endpoint, code, status and reason as fields for an expected upstream failure
 * (a reviews provider's failure too: only a page's rating is missing, the page answers);
 * `[bug] unexpected error` with the error itself (its stack) for anything else. `what` (which
 * may quote a request) is cut to 300 characters with its control characters escaped.
 */
export function logFailure(scope: string, what: string, error: unknown): void {
  if (upstreamFailure(error) !== undefined || error instanceof ReviewsError) {
    const failed = error as UpstreamError;
    // An upstream error title does not say which call failed: the endpoint does.
    const endpoint =
      error instanceof BigCommerceError || error instanceof ContentfulError ? error.endpoint : '';
    log.error(
      {
        scope,
        what: oneLine(what),
        service: serviceOf(failed),
        endpoint,
        code: failed.code,
        status: failed.status,
        reason: oneLine(failed.message),
      },
      '[upstream] call failed',
    );
    return;
  }
  log.error({ scope, what: oneLine(what), err: error }, '[bug] unexpected error');
}

/**
 * A page's upstream read: its value, or the upstream failure (logged on one line) for the page
 * to answer its error view with the failure's status. A bug is thrown on, to Astro's 500.
 */
export async function readForPage<T>(
  scope: string,
  what: string,
  read: () => Promise<T>,
): Promise<{ value: T; failure?: undefined } | { failure: UpstreamFailure }> {
  try {
    return { value: await read() };
  } catch (error) {
    const failure = upstreamFailure(error);
    if (failure === undefined) throw error;
    logFailure(scope, what, error);
    return { failure };
  }
}

// eslint-disable-next-line no-control-regex -- control characters are what is escaped
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** `text` on one line: control characters (CR, LF, ANSI escapes...) written as escapes. */
export function oneLine(text: string): string {
  const escaped = text.replace(
    CONTROL,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escaped.length > 300 ? `${escaped.slice(0, 300)}…` : escaped;
}

/** How long an on-demand page read from upstream may be kept by caches (and served stale). */
export const ON_DEMAND_PAGE_CACHE = 'public, max-age=60, stale-while-revalidate=300';

/**
 * Status and caching of an on-demand page after its upstream read (listing view, sleep-content
 * view, catch-all): the failure's status, never cached; a page found, cacheable a minute;
 * nothing found, 404 (the static /404 page cannot be a rewrite target of an on-demand route).
 */
export function pageOutcome(
  response: { status?: number; readonly headers: Headers },
  failure: UpstreamFailure | undefined,
  found: boolean,
): void {
  if (failure) {
    response.status = failure.status;
    response.headers.set('Cache-Control', 'no-store');
  } else if (found) {
    response.headers.set('Cache-Control', ON_DEMAND_PAGE_CACHE);
  } else {
    response.status = 404;
  }
}
