/**
 * The one configured HTTP client of the Brevo API v3 (`api-key` header, JSON): transactional
 * e-mail (`email.ts`) and the newsletter's contacts and lists (`contacts.ts`). Every reply is
 * checked with a zod schema; an empty reply (Brevo's 204) is `undefined`. Reads no environment:
 * `src/lib/server/config.ts` builds the shop's client.
 */
import ky, { isHTTPError } from 'ky';
import { z } from 'zod';
import { budgetLeft } from '../budget.ts';
import {
  redactor,
  schemaMismatchMessage,
  ServiceError,
  transportFailure,
} from '../upstream-error.ts';

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
  const timeout = options.timeout ?? 10_000;
  const http = ky.create({
    prefix: `${options.apiUrl.replace(/\/+$/, '')}/`,
    headers: { 'api-key': options.apiKey, Accept: 'application/json' },
    timeout,
    retry: 0,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  async function request<S extends z.ZodType>(
    method: BrevoMethod,
    path: string,
    schema: S,
    json?: unknown,
  ): Promise<z.output<S>> {
    const what = `${method} ${path}`;
    let body: unknown;
    const left = budgetLeft();
    try {
      if (left !== undefined && left < 20) {
        throw new BrevoError(`Brevo ${what} not called: the time budget is spent`, {
          code: 'TIMEOUT',
          status: 504,
        });
      }
      const text = await http(path, {
        method,
        ...(json === undefined ? {} : { json }),
        ...(left === undefined ? {} : { timeout: Math.min(timeout, left) }),
      }).text();
      body = text === '' ? undefined : (JSON.parse(text) as unknown);
    } catch (error) {
      throw toBrevoError(error, what, [options.apiKey]);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new BrevoError(schemaMismatchMessage('Brevo', what, parsed.error.issues), {
        code: 'INVALID_RESPONSE',
        status: 502,
        cause: parsed.error,
      });
    }
    return parsed.data;
  }
  return { request, post: (path, schema, json) => request('POST', path, schema, json) };
}

const ErrorBodySchema = z.object({ code: z.string().optional(), message: z.string().optional() });

function toBrevoError(error: unknown, what: string, secrets: string[]): BrevoError {
  if (error instanceof BrevoError) return error;
  const redact = redactor(secrets);
  if (isHTTPError(error)) {
    const details = ErrorBodySchema.safeParse(error.data);
    const status = error.response.status;
    const message = details.success ? details.data.message : undefined;
    return new BrevoError(
      redact(message ?? `Brevo ${what} failed with status ${status}`).slice(0, 500),
      {
        code: (details.success ? details.data.code?.slice(0, 100) : undefined) ?? 'REQUEST_FAILED',
        status,
      },
    );
  }
  const failure = transportFailure('Brevo', what, error);
  return new BrevoError(failure.message, { code: failure.code, status: failure.status });
}
