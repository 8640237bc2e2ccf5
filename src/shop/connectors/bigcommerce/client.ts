/**
 * The one configured HTTP client of the BigCommerce REST API (v2 and v3): the upstream client
 * (`../upstream-client.ts`) on `{apiUrl}/stores/{hash}/` with `X-Auth-Token`, GETs retried
 * (`retryDelay`: a 429 waits what BigCommerce's `X-Rate-Limit-Time-Reset-Ms` or `Retry-After`
 * says; a 408, a 5xx, a network error or a timed-out attempt backs off), failures as
 * `BigCommerceError`. Connector functions (`catalog.ts`, `store.ts`) take a
 * `BigCommerceClient` as first argument, so the build-time loaders, the API middleware and the
 * integration tests (against the sandbox) share them. Nothing here reads the environment:
 * `src/shop/config/config.ts` builds the shop's client.
 */
import type { HTTPError } from 'ky';
import type { z } from 'zod';
import {
  createUpstreamClient,
  replyParser,
  retryWait,
  type SearchParams,
  type UpstreamClient,
} from '../http/upstream-client.ts';
import { codeOfStatus } from '../http/upstream-error.ts';
import { BigCommerceError } from './errors.ts';

/**
 * Header carrying the storefront's channel id on every upstream call (spec §7).
 * @internal Exported for the client's test, which checks the header sent by this name.
 */
export const CHANNEL_ID_HEADER = 'X-Channel-Id';

export interface BigCommerceClientOptions {
  /** e.g. `https://api.bigcommerce.com`, or the sandbox `http://127.0.0.1:port`. */
  apiUrl: string;
  storeHash: string;
  accessToken: string;
  /** Channel of the storefront the calls are made for (spec §3 storefront config). */
  channelId?: number | undefined;
  /**
   * Per-attempt timeout in ms (default 10 s), body included. Within a request's budget
   * (`../budget.ts`) a call gets at most what is left of it, retries included.
   */
  timeout?: number | undefined;
  /** Time of a whole call, retries and their delays included, in ms (default 30 s). */
  totalTimeout?: number | undefined;
  /** Retries of a failed GET (default 2); other methods are never retried. */
  retryLimit?: number | undefined;
  /**
   * Longest wait before a retry, in ms (default 30 s, BigCommerce's rate-limit window): a 429
   * whose reset is further away fails the call at once; so does any wait that would leave less
   * than an attempt of the call's time (`totalTimeout`, the request's budget).
   */
  maxRetryDelay?: number | undefined;
  /** Replaces the global fetch (instrumentation, tests). */
  fetch?: ((input: Request | URL | string, init?: RequestInit) => Promise<Response>) | undefined;
}

export interface BigCommerceClient {
  readonly channelId: number | undefined;
  /** GET `path` (below `/stores/{hash}/`, e.g. `v3/catalog/products`) parsed with `schema`. */
  get<S extends z.ZodType>(
    path: string,
    schema: S,
    searchParams?: SearchParams,
  ): Promise<z.output<S>>;
  /** POST / PUT / DELETE with an optional JSON body; never retried. */
  send<S extends z.ZodType>(
    method: 'post' | 'put' | 'delete',
    path: string,
    schema: S,
    options?: { json?: unknown; searchParams?: SearchParams },
  ): Promise<z.output<S>>;
  /** The same client, calling on behalf of another channel. */
  withChannel(channelId: number): BigCommerceClient;
}

/** Builds the client for one store: prefix `${apiUrl}/stores/${storeHash}/`, auth and JSON headers. */
export function createBigCommerceClient(options: BigCommerceClientOptions): BigCommerceClient {
  const http = createUpstreamClient({
    service: 'BigCommerce',
    prefix: `${options.apiUrl.replace(/\/+$/, '')}/stores/${encodeURIComponent(options.storeHash)}/`,
    headers: {
      'X-Auth-Token': options.accessToken,
      Accept: 'application/json',
      'Content-Type': 'application/json',
      ...(options.channelId === undefined
        ? {}
        : { [CHANNEL_ID_HEADER]: String(options.channelId) }),
    },
    timeout: options.timeout ?? 10_000,
    totalTimeout: options.totalTimeout ?? 30_000,
    // The upstream client's loop, not ky's: ky knows neither BigCommerce's rate-limit header
    // nor retrying an attempt that timed out.
    retry: {
      kind: 'wait',
      limit: options.retryLimit ?? 2,
      wait: retryDelay,
      maxWait: options.maxRetryDelay ?? 30_000,
    },
    error: BigCommerceError,
    httpError: toBigCommerceError,
    secrets: [options.accessToken, options.storeHash],
    fetch: options.fetch,
  });
  return makeClient(http, options.channelId);
}

function makeClient(http: UpstreamClient, channelId: number | undefined): BigCommerceClient {
  const client: BigCommerceClient = {
    channelId,
    get: (path, schema, searchParams) => http.get(path, schema, searchParams),
    send: (method, path, schema, init) => http.request(method, path, schema, init),
    withChannel(next) {
      if (next === channelId) return client;
      return makeClient(http.withHeaders({ [CHANNEL_ID_HEADER]: String(next) }), next);
    },
  };
  return client;
}

const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
/** BigCommerce's header on every reply: ms until the rate-limit window resets. */
export const RATE_LIMIT_RESET_HEADER = 'X-Rate-Limit-Time-Reset-Ms';

/**
 * Wait before retrying a failed GET, or null when it is not retried. A 429 waits what
 * `X-Rate-Limit-Time-Reset-Ms` (ms) or else `Retry-After` (seconds) says; a 408, a 5xx, a 429
 * without either header, a network error or an attempt that timed out back off 300 ms, 600 ms...
 * up to 3 s (a GET is safe to send again). Other statuses (4xx) and refused replies are not
 * retried.
 */
export const retryDelay = retryWait({
  retries: (status) => RETRY_STATUSES.has(status),
  rateLimitHeaders: [
    { name: RATE_LIMIT_RESET_HEADER, unit: 'ms', maxDigits: 7 },
    { name: 'Retry-After', unit: 's', maxDigits: 5 },
  ],
  timeouts: true,
  backoff: (attempt) => Math.min(3_000, 300 * 2 ** attempt),
  minWait: 50,
});

/**
 * Parses an upstream reply with the shop's schema; a mismatch is a `BigCommerceError` with
 * code `INVALID_RESPONSE` (status 502) naming the first offending field.
 */
export const parseReply = replyParser('BigCommerce', BigCommerceError);

/** An HTTP error reply as a `BigCommerceError`: its title and field errors, free of secrets. */
function toBigCommerceError(
  error: HTTPError,
  endpoint: string,
  redact: (text: string) => string,
): BigCommerceError {
  const status = error.response.status;
  const { title, errors } = upstreamDetails(error.data);
  const message = redact(title ?? `BigCommerce ${endpoint} failed with status ${status}`);
  return new BigCommerceError(message, {
    code: codeOfStatus(status),
    status,
    title: title === undefined ? undefined : redact(title),
    errors,
    endpoint,
  });
}

/** v3 errors are `{ status, title, type, errors? }`; v2 errors are `[{ status, message }]`. */
function upstreamDetails(data: unknown): {
  title: string | undefined;
  errors: Record<string, string> | undefined;
} {
  const first: unknown = Array.isArray(data) ? data[0] : data;
  if (typeof first !== 'object' || first === null) return { title: undefined, errors: undefined };
  const record = first as Record<string, unknown>;
  const title = [record.title, record.message, record.detail].find(
    (v): v is string => typeof v === 'string' && v.trim() !== '',
  );
  let errors: Record<string, string> | undefined;
  if (typeof record.errors === 'object' && record.errors !== null) {
    errors = Object.fromEntries(
      Object.entries(record.errors as Record<string, unknown>).map(([k, v]) => [
        k,
        typeof v === 'string' ? v : JSON.stringify(v),
      ]),
    );
  }
  return { title, errors };
}
