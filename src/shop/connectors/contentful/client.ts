/**
 * The one configured HTTP client of Contentful's Content Delivery API (or the sandbox that
 * emulates it): the upstream client (`../upstream-client.ts`) with `Authorization: Bearer` on
 * `{apiUrl}/spaces/{space}/environments/{env}/`, GETs retried on 429 and 5xx (waiting what
 * `X-Contentful-RateLimit-Reset` says on a 429), each attempt and the whole call cut to what is
 * left of the request's time budget (`../budget.ts`). Replies are parsed with zod; failures are
 * `ContentfulError`s. Reads no environment: `src/shop/config/config.ts` builds the shop's client.
 */
import type { HTTPError } from 'ky';
import type { z } from 'zod';
import { createUpstreamClient, retryWait, type SearchParams } from '../http/upstream-client.ts';
import { codeOfStatus } from '../http/upstream-error.ts';
import { ContentfulError } from './errors.ts';
import { ErrorReplySchema } from './schemas.ts';

export interface ContentfulClientOptions {
  /** e.g. `https://cdn.contentful.com`, or the sandbox `http://127.0.0.1:port/contentful`. */
  apiUrl: string;
  spaceId: string;
  /** Default `master`. */
  environment?: string | undefined;
  /** Content Delivery API token. */
  accessToken: string;
  /** Per-attempt timeout in ms (default 10 s), body included; within a budget, at most what is left. */
  timeout?: number | undefined;
  /** Time of a whole call, retries and their waits included, in ms (default 30 s). */
  totalTimeout?: number | undefined;
  /** Retries of a failed GET (default 2). */
  retryLimit?: number | undefined;
  /** Longest wait before a retry, in ms (default 3 s; a longer rate-limit reset fails the call). */
  maxRetryDelay?: number | undefined;
  /** Replaces the global fetch (instrumentation, tests). */
  fetch?: ((input: Request | URL | string, init?: RequestInit) => Promise<Response>) | undefined;
}

export interface ContentfulClient {
  /** Scheme of the API (`https:` or `http:`): protocol-relative asset URLs are resolved with it. */
  readonly scheme: 'https:' | 'http:';
  /** GET `path` (below the environment, e.g. `entries`, `tags`) parsed with `schema`. */
  get<S extends z.ZodType>(
    path: string,
    schema: S,
    searchParams?: SearchParams,
  ): Promise<z.output<S>>;
}

const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
/** Contentful's header: seconds until the rate limit resets. */
export const RATE_LIMIT_RESET_HEADER = 'X-Contentful-RateLimit-Reset';

export function createContentfulClient(options: ContentfulClientOptions): ContentfulClient {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const environment = options.environment ?? 'master';
  const http = createUpstreamClient({
    service: 'Contentful',
    prefix: `${apiUrl}/spaces/${encodeURIComponent(options.spaceId)}/environments/${encodeURIComponent(environment)}/`,
    headers: { Authorization: `Bearer ${options.accessToken}`, Accept: 'application/json' },
    timeout: options.timeout ?? 10_000,
    totalTimeout: options.totalTimeout ?? 30_000,
    // Retries are the upstream client's loop: ky knows neither Contentful's header nor the budget.
    retry: {
      kind: 'wait',
      limit: options.retryLimit ?? 2,
      wait: retryDelay,
      maxWait: options.maxRetryDelay ?? 3_000,
    },
    error: ContentfulError,
    httpError: toContentfulError,
    secrets: [options.accessToken],
    fetch: options.fetch,
  });
  return {
    scheme: new URL(apiUrl).protocol === 'http:' ? 'http:' : 'https:',
    get: (path, schema, searchParams) => http.get(path, schema, searchParams),
  };
}

/**
 * Wait before retrying a failed attempt, or null when it is not retried: a 429 waits what
 * `X-Contentful-RateLimit-Reset` says (seconds), a 5xx or a network error backs off
 * 300 ms, 600 ms...; a timeout or another status is not retried.
 */
export const retryDelay = retryWait({
  retries: (status) => RETRY_STATUSES.has(status),
  rateLimitHeaders: [{ name: RATE_LIMIT_RESET_HEADER, unit: 's', maxDigits: 6 }],
  timeouts: false,
  backoff: (attempt) => 300 * 2 ** attempt,
  minWait: 50,
});

/** An HTTP error reply as a `ContentfulError`: Contentful's error id and request id, no token. */
function toContentfulError(
  error: HTTPError,
  endpoint: string,
  redact: (text: string) => string,
): ContentfulError {
  const status = error.response.status;
  const reply = ErrorReplySchema.safeParse(error.data);
  const id = reply.success ? redact(reply.data.sys.id).slice(0, 100) : undefined;
  const requestId =
    error.response.headers.get('X-Contentful-Request-Id')?.slice(0, 100) ??
    (reply.success ? reply.data.requestId?.slice(0, 100) : undefined);
  const detail = reply.success && reply.data.message ? `: ${reply.data.message}` : '';
  const message = redact(
    `Contentful ${endpoint} failed with status ${status}${id === undefined ? '' : ` (${id})`}${detail}`,
  ).slice(0, 500);
  return new ContentfulError(message, {
    code: codeOfStatus(status),
    status,
    id,
    requestId,
    endpoint,
  });
}
