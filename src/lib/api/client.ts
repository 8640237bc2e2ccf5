/**
 * The browser's call to the shop's API middleware (spec §7): `POST /api/{service}/{method}`
 * with the arguments as a JSON array, reply `{ data }` or `{ message, statusCode }`. Uses the
 * global `fetch` at call time (tests stub it), with the session cookie (same origin).
 */

/** Stable kinds of failure of a call. */
export type ApiCallErrorCode =
  /** The API answered `{ message, statusCode }` (message = an English spec key, e.g. 'Invalid credentials'). */
  | 'api'
  /** The reply was not the API's JSON (an HTML error page, an empty body...). */
  | 'invalid-response'
  /** No reply, or a reply cut before its body ended: offline, DNS, aborted. */
  | 'network';

/** Message key shown when the API gave no message of its own. */
export const GENERIC_ERROR_MESSAGE = 'error.generic';

/**
 * Message key of a call that got no reply because the shopper is offline ("Vous êtes hors
 * ligne. Vérifiez votre connexion puis réessayez."): every action that fails so says it.
 */
export const OFFLINE_MESSAGE = 'offline.action';

/**
 * The message of a call that got no reply: offline when the browser says so, or when the
 * request itself failed (`fetch` rejects with a TypeError when no connection could be made);
 * a call its page aborted (an AbortError) is no fault of the connection.
 */
export function noReplyMessage(cause: unknown): string {
  // Node's `navigator` (tests, the server) has no `onLine`: only a browser's false counts.
  const onLine = (globalThis.navigator as { onLine?: boolean } | undefined)?.onLine;
  if (onLine === false) return OFFLINE_MESSAGE;
  return cause instanceof TypeError ? OFFLINE_MESSAGE : GENERIC_ERROR_MESSAGE;
}

/**
 * Message keys any call may fail with, whatever the method: no reply, an upstream down or too
 * slow (the API's 502/503/504), a refused cross-site call, a session gone. Every island that
 * shows a call's error is handed their texts, and shows anything else it has no text for as
 * the generic error (`errorText` of `src/lib/i18n/translate.ts`), never as a raw key.
 */
export const CALL_ERROR_MESSAGES = [
  GENERIC_ERROR_MESSAGE,
  OFFLINE_MESSAGE,
  'error.upstreamTimeout',
  'error.upstreamUnavailable',
  'Forbidden',
  'Login required',
] as const;

/** spec §8: errors of the call layer are a message plus a statusCode (else 500). */
export class ApiCallError extends Error {
  override readonly name = 'ApiCallError';
  readonly statusCode: number;
  readonly code: ApiCallErrorCode;
  /** The reply's `details` (an object), e.g. a refused add's stock left per line. */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    message: string,
    statusCode: number,
    code: ApiCallErrorCode,
    options?: ErrorOptions & { details?: Readonly<Record<string, unknown>> | undefined },
  ) {
    super(message, options);
    this.statusCode = statusCode;
    this.code = code;
    this.details = options?.details;
  }
}

/**
 * Whether a failed call is the shop's own answer to what the shopper asked: a 4xx the API sent
 * (a wrong password, a quantity over stock, an address already on the list). The form shows
 * it; it is no fault of the shop.
 */
export function isRefusal(error: unknown): boolean {
  return (
    error instanceof ApiCallError &&
    error.code === 'api' &&
    error.statusCode >= 400 &&
    error.statusCode < 500
  );
}

/** Whether a call got no reply because the shopper is offline (`OFFLINE_MESSAGE`). */
export function isOffline(error: unknown): boolean {
  return error instanceof ApiCallError && error.message === OFFLINE_MESSAGE;
}

/**
 * Logs a failed call of a store (spec §8: every failure is logged): a refusal (`isRefusal`) as a
 * warning, and so is a call the shopper's lost connection left without a reply (`isOffline`);
 * a fault (5xx, a reply that is not the API's) as an error. The browser
 * suite fails on any console error, so a page logs errors for faults only.
 */
export function logCallFailure(what: string, error: unknown): void {
  if (isRefusal(error) || isOffline(error)) console.warn(what, error);
  else console.error(what, error);
}

export interface CallApiInit {
  signal?: AbortSignal;
  /** Origin or path prefix of the API (default: same origin, `''`). */
  baseUrl?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Calls `service.method(...args)` on the API and resolves with the reply's `data`; throws an
 * `ApiCallError` on an error reply, a reply that is not the API's JSON, or no reply.
 */
export async function callApi<T>(
  service: string,
  method: string,
  args: readonly unknown[] = [],
  init: CallApiInit = {},
): Promise<T> {
  const url = `${init.baseUrl ?? ''}/api/${encodeURIComponent(service)}/${encodeURIComponent(method)}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(args),
      credentials: 'same-origin',
      signal: init.signal ?? null,
    });
  } catch (cause) {
    throw new ApiCallError(noReplyMessage(cause), 500, 'network', { cause });
  }

  // A reply cut while its body streams in (the page being left, the connection dropped) is no
  // reply at all: it says nothing of what was asked, unlike a body that is not the API's JSON.
  let text: string;
  try {
    text = await response.text();
  } catch (cause) {
    throw new ApiCallError(noReplyMessage(cause), 500, 'network', { cause });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (cause) {
    throw new ApiCallError(
      GENERIC_ERROR_MESSAGE,
      response.ok ? 500 : response.status,
      'invalid-response',
      { cause },
    );
  }

  if (isRecord(body)) {
    if (typeof body.message === 'string' && !('data' in body && response.ok)) {
      const status = body.statusCode;
      const statusCode =
        typeof status === 'number' && Number.isInteger(status) && status >= 400
          ? status
          : response.ok
            ? 500
            : response.status;
      throw new ApiCallError(body.message || GENERIC_ERROR_MESSAGE, statusCode, 'api', {
        details: isRecord(body.details) ? body.details : undefined,
      });
    }
    if (response.ok && 'data' in body) return body.data as T;
  }
  throw new ApiCallError(
    GENERIC_ERROR_MESSAGE,
    response.ok ? 500 : response.status,
    'invalid-response',
  );
}

/** The message (key) of any error thrown by a call, for the stores' error slots. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiCallError) return error.message;
  return GENERIC_ERROR_MESSAGE;
}
