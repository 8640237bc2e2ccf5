/**
 * The one configured HTTP client of the Brevo API v3: the upstream client
 * (`../upstream-client.ts`) with the `api-key` header, for transactional e-mail (`email.ts`) and
 * the newsletter's contacts and lists (`contacts.ts`). Every reply is checked with a zod schema;
 * an empty reply (Brevo's 204) is `undefined`; nothing is retried. Reads no environment:
 * `src/shop/config/config.ts` builds the shop's client.
 */
import type { HTTPError } from 'ky';
import { z } from 'zod';
import { createUpstreamClient, type UpstreamMethod } from '../http/upstream-client.ts';
import { ServiceError } from '../http/upstream-error.ts';

export interface BrevoClientOptions {
  /** e.g. `https://api.brevo.com/v3`, or the sandbox `http://127.0.0.1:port/brevo/v3`. */
  apiUrl: string;
  apiKey: string;
  /** Timeout of a call in ms (default 10 s), body included; within a request's budget, at most what is left of it. */
  timeout?: number | undefined;
  fetch?: ((input: Request | URL | string, init?: RequestInit) => Promise<Response>) | undefined;
}

/**
 * Any failed Brevo call; the message never carries the API key. Code: Brevo's error code (`invalid_parameter`...), or TIMEOUT / NETWORK_ERROR / INVALID_RESPONSE.
 */
export class BrevoError extends ServiceError {
  override readonly name = 'BrevoError';
}

export type BrevoMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

const METHODS = {
  GET: 'get',
  POST: 'post',
  PUT: 'put',
  DELETE: 'delete',
} as const satisfies Record<BrevoMethod, UpstreamMethod>;

export interface BrevoClient {
  /** `path` is relative to the API base (`contacts/lists/31/contacts/add`), already encoded. */
  request<S extends z.ZodType>(
    method: BrevoMethod,
    path: string,
    schema: S,
    json?: unknown,
  ): Promise<z.output<S>>;
  post<S extends z.ZodType>(path: string, schema: S, json: unknown): Promise<z.output<S>>;
}

export function createBrevoClient(options: BrevoClientOptions): BrevoClient {
  const http = createUpstreamClient({
    service: 'Brevo',
    prefix: options.apiUrl,
    headers: { 'api-key': options.apiKey, Accept: 'application/json' },
    timeout: options.timeout ?? 10_000,
    retry: { kind: 'none' },
    error: BrevoError,
    httpError: toBrevoError,
    secrets: [options.apiKey],
    fetch: options.fetch,
  });
  return {
    request: (method, path, schema, json) => http.request(METHODS[method], path, schema, { json }),
    post: (path, schema, json) => http.post(path, schema, { json }),
  };
}

const ErrorBodySchema = z.object({ code: z.string().optional(), message: z.string().optional() });

/** An HTTP error reply as a `BrevoError`: Brevo's code and message, free of the key. */
function toBrevoError(
  error: HTTPError,
  endpoint: string,
  redact: (text: string) => string,
): BrevoError {
  const details = ErrorBodySchema.safeParse(error.data);
  const status = error.response.status;
  const message = details.success ? details.data.message : undefined;
  return new BrevoError(
    redact(message ?? `Brevo ${endpoint} failed with status ${status}`).slice(0, 500),
    {
      code: (details.success ? details.data.code?.slice(0, 100) : undefined) ?? 'REQUEST_FAILED',
      status,
    },
  );
}
