/**
 * The one configured HTTP client of Contentful's Content Delivery API (or the sandbox that
 * emulates it): `Authorization: Bearer`, prefix `{apiUrl}/spaces/{space}/environments/{env}/`,
 * GETs retried on 429 and 5xx (waiting what `X-Contentful-RateLimit-Reset` says on a 429),
 * each attempt and the whole call cut to what is left of the request's time budget
 * (`../budget.ts`) like the BigCommerce client. Replies are parsed with zod; failures are
 * `ContentfulError`s. Reads no environment: `src/lib/server/config.ts` builds the shop's client.
 */
import ky, { isHTTPError, isNetworkError } from 'ky';
import type { z } from 'zod';
import { budgetLeft } from '../budget.ts';
import {
  codeOfStatus,
  redactor,
  schemaMismatchMessage,
  transportFailure,
} from '../upstream-error.ts';
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

export type SearchParams = Record<string, string | number | boolean | undefined>;

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

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_TOTAL_TIMEOUT_MS = 30_000;
const DEFAULT_RETRY_LIMIT = 2;
const DEFAULT_MAX_RETRY_DELAY_MS = 3_000;
/** Below this much time a call (or a retry) is not started: it could not answer in time. */
const MIN_ATTEMPT_MS = 20;
const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
/** Contentful's header: seconds until the rate limit resets. */
export const RATE_LIMIT_RESET_HEADER = 'X-Contentful-RateLimit-Reset';

export function createContentfulClient(options: ContentfulClientOptions): ContentfulClient {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const scheme = new URL(apiUrl).protocol === 'http:' ? 'http:' : 'https:';
  const environment = options.environment ?? 'master';
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  const totalTimeout = options.totalTimeout ?? DEFAULT_TOTAL_TIMEOUT_MS;
  const retryLimit = options.retryLimit ?? DEFAULT_RETRY_LIMIT;
  const maxRetryDelay = options.maxRetryDelay ?? DEFAULT_MAX_RETRY_DELAY_MS;
  const http = ky.create({
    prefix: `${apiUrl}/spaces/${encodeURIComponent(options.spaceId)}/environments/${encodeURIComponent(environment)}/`,
    headers: { Authorization: `Bearer ${options.accessToken}`, Accept: 'application/json' },
    timeout,
    // Retries are this client's own: it knows Contentful's rate-limit header and the budget.
    retry: 0,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const secrets = [options.accessToken].filter((s) => s.length >= 4);

  async function get<S extends z.ZodType>(
    path: string,
    schema: S,
    searchParams?: SearchParams,
  ): Promise<z.output<S>> {
    const endpoint = `GET ${path.replace(/\?.*$/, '')}`;
    const started = performance.now();
    const left = () => {
      const own = totalTimeout - (performance.now() - started);
      const budget = budgetLeft();
      return budget === undefined ? own : Math.min(own, budget);
    };
    let body: unknown;
    for (let attempt = 0; ; attempt++) {
      const time = left();
      if (time < MIN_ATTEMPT_MS) {
        throw new ContentfulError(`Contentful ${endpoint} not called: the time budget is spent`, {
          code: 'TIMEOUT',
          status: 504,
          endpoint,
        });
      }
      try {
        // `.text()` of ky keeps the per-attempt timeout on the body too.
        const text = await http
          .get(path, {
            timeout: Math.min(timeout, time),
            ...(searchParams === undefined ? {} : { searchParams: defined(searchParams) }),
          })
          .text();
        body = text === '' ? undefined : (JSON.parse(text) as unknown);
        break;
      } catch (error) {
        const failure = toContentfulError(error, endpoint, secrets);
        const wait = retryDelay(error, attempt);
        if (attempt >= retryLimit || wait === null || wait > maxRetryDelay) throw failure;
        if (left() - wait < MIN_ATTEMPT_MS) throw failure;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
    return parseReply(schema, body, endpoint);
  }

  return { scheme, get };
}

function defined(params: SearchParams): Record<string, string | number | boolean> {
  const result: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(params)) if (value !== undefined) result[key] = value;
  return result;
}

/**
 * Wait before retrying a failed attempt, or null when it is not retried: a 429 waits what
 * `X-Contentful-RateLimit-Reset` says (seconds), a 5xx or a network error backs off
 * 300 ms, 600 ms...; a timeout or another status is not retried.
 */
export function retryDelay(error: unknown, attempt: number): number | null {
  const backoff = 300 * 2 ** attempt;
  if (isHTTPError(error)) {
    const { status, headers } = error.response;
    if (!RETRY_STATUSES.has(status)) return null;
    const reset = headers.get(RATE_LIMIT_RESET_HEADER)?.trim() ?? '';
    if (status === 429 && /^\d{1,6}$/.test(reset)) return Math.max(50, Number(reset) * 1000);
    return backoff;
  }
  if (isNetworkError(error)) return backoff;
  return null;
}

/** Parses a reply with the shop's schema; a mismatch is `INVALID_RESPONSE` (502) naming the field. */
export function parseReply<S extends z.ZodType>(
  schema: S,
  body: unknown,
  endpoint: string,
): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new ContentfulError(schemaMismatchMessage('Contentful', endpoint, parsed.error.issues), {
    code: 'INVALID_RESPONSE',
    status: 502,
    endpoint,
    cause: parsed.error,
  });
}

/** Turns whatever ky (or JSON.parse) threw into a `ContentfulError` free of secrets. */
function toContentfulError(error: unknown, endpoint: string, secrets: string[]): ContentfulError {
  const redact = redactor(secrets);
  if (isHTTPError(error)) {
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
  const failure = transportFailure('Contentful', endpoint, error);
  return new ContentfulError(failure.message, {
    code: failure.code,
    status: failure.status,
    endpoint,
  });
}
