/**
 * The one configured HTTP client of the BigCommerce REST API (v2 and v3). Connector functions
 * (`catalog.ts`, `store.ts`) take a `BigCommerceClient` as first argument, so the build-time
 * loaders, the API middleware and the integration tests (against the sandbox) share them.
 * Nothing here reads the environment: `src/lib/server/config.ts` builds the shop's client.
 */
import ky, { isHTTPError, type KyInstance } from 'ky';
import type { z } from 'zod';
import { budgetLeft } from '../budget.ts';
import {
  codeOfStatus,
  redactor,
  schemaMismatchMessage,
  transportFailure,
} from '../upstream-error.ts';
import { BigCommerceError } from './errors.ts';

/** Header carrying the storefront's channel id on every upstream call (spec §7). */
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
  /** Replaces the global fetch (instrumentation, tests). */
  fetch?: ((input: Request | URL | string, init?: RequestInit) => Promise<Response>) | undefined;
}

export type SearchParams = Record<string, string | number | boolean | undefined>;

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

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_TOTAL_TIMEOUT_MS = 30_000;
const DEFAULT_RETRY_LIMIT = 2;
/** Below this much budget a call is not started: it could not answer in time. */
const MIN_ATTEMPT_MS = 20;

/** Builds the client for one store: prefix `${apiUrl}/stores/${storeHash}/`, auth and JSON headers. */
export function createBigCommerceClient(options: BigCommerceClientOptions): BigCommerceClient {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const http = ky.create({
    prefix: `${apiUrl}/stores/${encodeURIComponent(options.storeHash)}/`,
    headers: {
      'X-Auth-Token': options.accessToken,
      Accept: 'application/json',
      'Content-Type': 'application/json',
      ...(options.channelId === undefined
        ? {}
        : { [CHANNEL_ID_HEADER]: String(options.channelId) }),
    },
    timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
    totalTimeout: options.totalTimeout ?? DEFAULT_TOTAL_TIMEOUT_MS,
    retry: {
      limit: options.retryLimit ?? DEFAULT_RETRY_LIMIT,
      methods: ['get'],
      statusCodes: [408, 429, 500, 502, 503, 504],
      backoffLimit: 3_000,
    },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const secrets = [options.accessToken, options.storeHash].filter((s) => s.length >= 4);
  return makeClient(http, options, secrets);
}

function makeClient(
  http: KyInstance,
  options: BigCommerceClientOptions,
  secrets: string[],
): BigCommerceClient {
  async function call<S extends z.ZodType>(
    method: 'get' | 'post' | 'put' | 'delete',
    path: string,
    schema: S,
    init: { json?: unknown; searchParams?: SearchParams },
  ): Promise<z.output<S>> {
    const endpoint = `${method.toUpperCase()} ${path.replace(/\?.*$/, '')}`;
    const left = budgetLeft();
    if (left !== undefined && left < MIN_ATTEMPT_MS) {
      throw new BigCommerceError(`BigCommerce ${endpoint} not called: the time budget is spent`, {
        code: 'TIMEOUT',
        status: 504,
        endpoint,
      });
    }
    const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    const totalTimeout = options.totalTimeout ?? DEFAULT_TOTAL_TIMEOUT_MS;
    let body: unknown;
    try {
      // `.text()` of ky (not of the Response) keeps the per-attempt timeout on the body too.
      const text = await http(path, {
        method,
        ...(left === undefined
          ? {}
          : { timeout: Math.min(timeout, left), totalTimeout: Math.min(totalTimeout, left) }),
        ...(init.searchParams === undefined ? {} : { searchParams: init.searchParams }),
        ...(init.json === undefined ? {} : { json: init.json }),
      }).text();
      body = text === '' ? undefined : (JSON.parse(text) as unknown);
    } catch (error) {
      throw toBigCommerceError(error, endpoint, secrets);
    }
    return parseReply(schema, body, endpoint);
  }

  const client: BigCommerceClient = {
    channelId: options.channelId,
    get: (path, schema, searchParams) =>
      call('get', path, schema, searchParams === undefined ? {} : { searchParams }),
    send: (method, path, schema, init) => call(method, path, schema, init ?? {}),
    withChannel(channelId) {
      if (channelId === options.channelId) return client;
      const next = http.extend({ headers: { [CHANNEL_ID_HEADER]: String(channelId) } });
      return makeClient(next, { ...options, channelId }, secrets);
    },
  };
  return client;
}

/**
 * Parses an upstream reply with the shop's schema; a mismatch is a `BigCommerceError` with
 * code `INVALID_RESPONSE` (status 502) naming the first offending field.
 */
export function parseReply<S extends z.ZodType>(
  schema: S,
  body: unknown,
  endpoint: string,
): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new BigCommerceError(schemaMismatchMessage('BigCommerce', endpoint, parsed.error.issues), {
    code: 'INVALID_RESPONSE',
    status: 502,
    endpoint,
    cause: parsed.error,
  });
}

/** Turns whatever ky (or JSON.parse) threw into a `BigCommerceError` free of secrets. */
function toBigCommerceError(error: unknown, endpoint: string, secrets: string[]): BigCommerceError {
  const redact = redactor(secrets);
  if (isHTTPError(error)) {
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
  const failure = transportFailure('BigCommerce', endpoint, error);
  return new BigCommerceError(failure.message, {
    code: failure.code,
    status: failure.status,
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
