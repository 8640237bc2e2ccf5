/**
 * The one HTTP client of the upstream connectors (BigCommerce, Contentful, Brevo, guaranteed
 * reviews); each connector's `client.ts` is a configuration of it. What it does for all of them:
 * a ky instance on the service's base URL and headers; every call within what is left of the
 * request's time budget (`budget.ts`: a call is not started below 20 ms, each attempt and the
 * whole call get at most what is left); GETs retried by the service's policy, other methods
 * never; the reply read as JSON (an empty body is `undefined`) and parsed with the caller's zod
 * schema; every failure turned into the service's own error class, free of secrets
 * (`upstream-error.ts`); the id of the request being served, when there is one, sent as
 * `X-Request-Id` (`config/request-context.ts`: a build or a publish has none); every call of
 * the four services counted in the metrics, its outcome (`ok`, `error`, `timeout`), its time
 * and its retries (`../../config/metrics.ts`). Reads no
 * environment.
 */
import ky, {
  isHTTPError,
  isNetworkError,
  isTimeoutError,
  type HTTPError,
  type KyInstance,
  type Options,
} from 'ky';
import type { z } from 'zod';
import { currentRequestId, REQUEST_ID_HEADER } from '../../config/request-context.ts';
import {
  recordUpstreamCall,
  recordUpstreamRetry,
  upstreamServiceOf,
  type UpstreamOutcome,
} from '../../config/metrics.ts';
import { budgetLeft } from './budget.ts';
import {
  redactor,
  schemaMismatchMessage,
  transportFailure,
  type TransportFailure,
} from './upstream-error.ts';

export type SearchParams = Record<string, string | number | boolean | undefined>;
export type UpstreamMethod = 'get' | 'post' | 'put' | 'delete';

/** Query and JSON body of a call (a `searchParams` entry that is `undefined` is left out). */
export interface CallInit {
  json?: unknown;
  searchParams?: SearchParams | undefined;
}

/** What a connector's error is built from when no usable HTTP error reply came back. */
export interface FailureInit {
  /** TIMEOUT (504: the budget spent, or ky's timeout), NETWORK_ERROR or INVALID_RESPONSE (502). */
  code: TransportFailure['code'];
  status: number;
  /** Method and path below the base URL, without the query: `GET v3/catalog/products`. */
  endpoint: string;
  /** The zod error of a reply the schema refused. */
  cause?: unknown;
}

/**
 * Retries of a failed GET:
 * - `ky`: ky's own; a network error or one of `statusCodes` retried `limit` times, waiting 300 ms
 *   doubling up to `backoffLimit`, or what `Retry-After` says on a 429 or 503; the whole call
 *   bounded by `totalTimeout` (ky then ends it as a timeout).
 * - `wait`: this module's loop; `wait(error, attempt)` is how long to wait before the next
 *   attempt (null: not retried), `limit` times at most; a wait over `maxWait`, or one that would
 *   leave less than an attempt of the call's time (`totalTimeout`, the budget), fails the call
 *   at once with that failure.
 */
export type RetryPolicy =
  | { kind: 'none' }
  | { kind: 'ky'; limit: number; statusCodes: number[]; backoffLimit: number }
  | {
      kind: 'wait';
      limit: number;
      wait: (error: unknown, attempt: number) => number | null;
      maxWait: number;
    };

export interface UpstreamClientConfig {
  /** The service's name in messages: `BigCommerce`, `Contentful`, `Brevo`, `Reviews`. */
  service: string;
  /** Base URL the paths are relative to (a trailing slash is added when missing). */
  prefix: string;
  /** Authentication and content headers, sent on every call. */
  headers: Record<string, string>;
  /** Per-attempt timeout in ms, body included. */
  timeout: number;
  /** Time of a whole call in ms, retries and their waits included (none: unbounded). */
  totalTimeout?: number | undefined;
  retry: RetryPolicy;
  /** The connector's error class, for a call not made, a transport failure or a refused reply. */
  error: new (message: string, init: FailureInit) => Error;
  /** The connector's error for an HTTP error reply (body in `error.data`); `redact` hides secrets. */
  httpError: (error: HTTPError, endpoint: string, redact: (text: string) => string) => Error;
  /** Tokens and keys never to appear in a message (shorter than 4 characters: ignored). */
  secrets: readonly string[];
  /** Replaces the global fetch (instrumentation, tests). */
  fetch?: ((input: Request | URL | string, init?: RequestInit) => Promise<Response>) | undefined;
}

export interface UpstreamClient {
  /** GET `path` (below the base URL) parsed with `schema`. */
  get<S extends z.ZodType>(
    path: string,
    schema: S,
    searchParams?: SearchParams,
  ): Promise<z.output<S>>;
  post<S extends z.ZodType>(path: string, schema: S, init?: CallInit): Promise<z.output<S>>;
  put<S extends z.ZodType>(path: string, schema: S, init?: CallInit): Promise<z.output<S>>;
  delete<S extends z.ZodType>(path: string, schema: S, init?: CallInit): Promise<z.output<S>>;
  request<S extends z.ZodType>(
    method: UpstreamMethod,
    path: string,
    schema: S,
    init?: CallInit,
  ): Promise<z.output<S>>;
  /** The same client, sending these headers too (or instead of those of the same name). */
  withHeaders(headers: Record<string, string>): UpstreamClient;
}

/** Below this much time a call (or a retry) is not started: it could not answer in time. */
const MIN_ATTEMPT_MS = 20;

/** A header saying how long a 429 waits: its name, unit and longest value (in digits). */
export interface RateLimitHeader {
  name: string;
  unit: 'ms' | 's';
  maxDigits: number;
}

/** A service's `wait` retry rule (RetryPolicy `wait`), as its API documents it. */
export interface RetryWaitRule {
  /** Whether a reply of this status is retried. */
  retries(status: number): boolean;
  /** How long a 429 waits: the first of these headers present; else the backoff. */
  rateLimitHeaders: readonly RateLimitHeader[];
  /** Whether an attempt that timed out is retried (network errors always are). */
  timeouts: boolean;
  /** The wait before retry number `attempt` (0, 1...) when no header says. */
  backoff(attempt: number): number;
  /** The shortest wait a header may ask for (ms). */
  minWait: number;
}

/**
 * The `wait` of a RetryPolicy from a service's rule: null (not retried) for a status it does not
 * retry or a failure that is neither a network error nor (when the rule says so) a timeout.
 */
export function retryWait(rule: RetryWaitRule): (error: unknown, attempt: number) => number | null {
  return (error, attempt) => {
    if (isHTTPError(error)) {
      const { status, headers } = error.response;
      if (!rule.retries(status)) return null;
      if (status === 429) {
        for (const header of rule.rateLimitHeaders) {
          const value = headers.get(header.name)?.trim() ?? '';
          if (value.length >= 1 && value.length <= header.maxDigits && /^\d+$/.test(value)) {
            const ms = Number(value) * (header.unit === 's' ? 1000 : 1);
            return Math.max(rule.minWait, ms);
          }
        }
      }
      return rule.backoff(attempt);
    }
    if (isNetworkError(error) || (rule.timeouts && isTimeoutError(error))) {
      return rule.backoff(attempt);
    }
    return null;
  };
}

export function createUpstreamClient(config: UpstreamClientConfig): UpstreamClient {
  const { retry } = config;
  const metricService = upstreamServiceOf(config.service);
  const http = ky.create({
    prefix: `${config.prefix.replace(/\/+$/, '')}/`,
    headers: config.headers,
    timeout: config.timeout,
    ...(retry.kind === 'ky'
      ? {
          ...(config.totalTimeout === undefined ? {} : { totalTimeout: config.totalTimeout }),
          retry: {
            limit: retry.limit,
            methods: ['get'],
            statusCodes: retry.statusCodes,
            backoffLimit: retry.backoffLimit,
          },
          // ky's own retries, counted as this module's are (the metrics of every call).
          ...(metricService === null
            ? {}
            : {
                hooks: {
                  beforeRetry: [
                    () => {
                      recordUpstreamRetry(metricService);
                    },
                  ],
                },
              }),
        }
      : { retry: 0 }),
    ...(config.fetch === undefined ? {} : { fetch: config.fetch }),
  });
  return bind(http, config);
}

/**
 * Parses a reply with the shop's schema; a mismatch is the service's error with code
 * `INVALID_RESPONSE` (status 502) naming the first offending field.
 */
export function replyParser(
  service: string,
  ErrorClass: UpstreamClientConfig['error'],
): <S extends z.ZodType>(schema: S, body: unknown, endpoint: string) => z.output<S> {
  return (schema, body, endpoint) => {
    const parsed = schema.safeParse(body);
    if (parsed.success) return parsed.data;
    throw new ErrorClass(schemaMismatchMessage(service, endpoint, parsed.error.issues), {
      code: 'INVALID_RESPONSE',
      status: 502,
      endpoint,
      cause: parsed.error,
    });
  };
}

function bind(http: KyInstance, config: UpstreamClientConfig): UpstreamClient {
  const { service, retry, timeout, error: ErrorClass } = config;
  const metricService = upstreamServiceOf(service);
  const redact = redactor(config.secrets.filter((secret) => secret.length >= 4));
  const parse = replyParser(service, ErrorClass);
  // The whole call's bound: ky's for its own retries, this loop's for `wait`, none without retry.
  const kyTotal = retry.kind === 'ky' ? config.totalTimeout : undefined;
  const ownTotal = retry.kind === 'wait' ? config.totalTimeout : undefined;

  /** Whatever ky (or JSON.parse) threw, as the service's error free of secrets. */
  function failure(error: unknown, endpoint: string): Error {
    if (isHTTPError(error)) return config.httpError(error, endpoint, redact);
    const { message, code, status } = transportFailure(service, endpoint, error);
    return new ErrorClass(message, { code, status, endpoint });
  }

  /** Wait before the next attempt of a failed call, or null when it is not retried (here). */
  function retryWait(method: UpstreamMethod, error: unknown, attempt: number): number | null {
    if (retry.kind !== 'wait' || method !== 'get' || attempt >= retry.limit) return null;
    const wait = retry.wait(error, attempt);
    return wait === null || wait > retry.maxWait ? null : wait;
  }

  /** A call, counted in the metrics: its outcome and its time, retries included. */
  async function call<S extends z.ZodType>(
    method: UpstreamMethod,
    path: string,
    schema: S,
    init: CallInit = {},
  ): Promise<z.output<S>> {
    if (metricService === null) return send(method, path, schema, init);
    const started = performance.now();
    let outcome: UpstreamOutcome = 'error';
    try {
      const value = await send(method, path, schema, init);
      outcome = 'ok';
      return value;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'TIMEOUT') outcome = 'timeout';
      throw error;
    } finally {
      recordUpstreamCall(metricService, outcome, (performance.now() - started) / 1000);
    }
  }

  async function send<S extends z.ZodType>(
    method: UpstreamMethod,
    path: string,
    schema: S,
    init: CallInit,
  ): Promise<z.output<S>> {
    const endpoint = `${method.toUpperCase()} ${path.replace(/\?.*$/, '')}`;
    const started = performance.now();
    const timeLeft = (): number | undefined => {
      const budget = budgetLeft();
      if (ownTotal === undefined) return budget;
      const own = ownTotal - (performance.now() - started);
      return budget === undefined ? own : Math.min(own, budget);
    };
    const requestId = currentRequestId();
    const options: Options = {
      method,
      ...(requestId === undefined ? {} : { headers: { [REQUEST_ID_HEADER]: requestId } }),
      ...(init.searchParams === undefined ? {} : { searchParams: init.searchParams }),
      ...(init.json === undefined ? {} : { json: init.json }),
    };
    let body: unknown;
    for (let attempt = 0; ; attempt++) {
      const left = timeLeft();
      if (left !== undefined && left < MIN_ATTEMPT_MS) {
        throw new ErrorClass(`${service} ${endpoint} not called: the time budget is spent`, {
          code: 'TIMEOUT',
          status: 504,
          endpoint,
        });
      }
      try {
        // `.text()` of ky (not of the Response) keeps the per-attempt timeout on the body too.
        const text = await http(path, {
          ...options,
          ...(left === undefined ? {} : { timeout: Math.min(timeout, left) }),
          ...(left === undefined || kyTotal === undefined
            ? {}
            : { totalTimeout: Math.min(kyTotal, left) }),
        }).text();
        body = text === '' ? undefined : (JSON.parse(text) as unknown);
        break;
      } catch (error) {
        const wait = retryWait(method, error, attempt);
        if (wait === null || (timeLeft() ?? Infinity) - wait < MIN_ATTEMPT_MS) {
          throw failure(error, endpoint);
        }
        if (metricService !== null) recordUpstreamRetry(metricService);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
    return parse(schema, body, endpoint);
  }

  return {
    get: (path, schema, searchParams) =>
      call('get', path, schema, searchParams === undefined ? {} : { searchParams }),
    post: (path, schema, init) => call('post', path, schema, init),
    put: (path, schema, init) => call('put', path, schema, init),
    delete: (path, schema, init) => call('delete', path, schema, init),
    request: call,
    withHeaders: (headers) => bind(http.extend({ headers }), config),
  };
}
