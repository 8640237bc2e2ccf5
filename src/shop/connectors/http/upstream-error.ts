/**
 * What the connectors (BigCommerce, Contentful, Brevo, guaranteed reviews) share about failed
 * calls: the stable code of an HTTP status, the failures that come with no usable reply
 * (timeout, unreachable host, invalid JSON, anything else fetch throws), the message of a reply
 * that does not match the shop's schema, and the redaction of secrets. The upstream client
 * (`upstream-client.ts`) turns them into each connector's own error class with what its service
 * adds (BigCommerce's field errors, Contentful's error id, Brevo's code). Messages never quote a
 * URL, a token or a key.
 */
import { isNetworkError, isTimeoutError } from 'ky';

/**
 * A failed call of a connector that adds nothing but its code and status (Brevo, guaranteed
 * reviews); each service names its own subclass. The message never carries a secret.
 */
export class ServiceError extends Error {
  readonly code: string;
  readonly status: number;

  constructor(message: string, init: { code: string; status: number; cause?: unknown }) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
  }
}

/** Stable codes of a failed upstream call: callers branch on these, never on messages. */
export type UpstreamErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'UNPROCESSABLE_ENTITY'
  | 'RATE_LIMITED'
  | 'REQUEST_FAILED'
  | 'UPSTREAM_ERROR'
  | 'TIMEOUT'
  | 'NETWORK_ERROR'
  | 'INVALID_RESPONSE';

/** Code of an upstream HTTP error status. */
export function codeOfStatus(status: number): UpstreamErrorCode {
  switch (status) {
    case 400:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'CONFLICT';
    case 422:
      return 'UNPROCESSABLE_ENTITY';
    case 429:
      return 'RATE_LIMITED';
    default:
      return status >= 500 ? 'UPSTREAM_ERROR' : 'REQUEST_FAILED';
  }
}

/** A failure with no usable HTTP reply: its code, the status the shop answers, a message. */
export interface TransportFailure {
  code: 'TIMEOUT' | 'NETWORK_ERROR' | 'INVALID_RESPONSE';
  /** 504 for a timeout, else 502. */
  status: 502 | 504;
  message: string;
}

/**
 * What a call to `service` (`BigCommerce`, `Contentful`, `Brevo`) at `endpoint` (method and
 * path, no host) failed with when it got no HTTP error reply: ky's timeout, a network error,
 * a body that is not JSON, or anything else (a TypeError of fetch may quote the URL, so its
 * text is never used).
 */
export function transportFailure(
  service: string,
  endpoint: string,
  error: unknown,
): TransportFailure {
  if (isTimeoutError(error)) {
    return { code: 'TIMEOUT', status: 504, message: `${service} ${endpoint} timed out` };
  }
  if (isNetworkError(error)) {
    return { code: 'NETWORK_ERROR', status: 502, message: `${service} ${endpoint} is unreachable` };
  }
  if (error instanceof SyntaxError) {
    return {
      code: 'INVALID_RESPONSE',
      status: 502,
      message: `${service} ${endpoint} replied with invalid JSON`,
    };
  }
  return { code: 'NETWORK_ERROR', status: 502, message: `${service} ${endpoint} failed` };
}

/** The message of a reply the shop's schema refused, naming the first offending field. */
export function schemaMismatchMessage(
  service: string,
  endpoint: string,
  issues: readonly { path: readonly PropertyKey[] }[],
): string {
  const issue = issues[0];
  const where =
    issue === undefined ? '' : ` at ${issue.path.map((key) => String(key)).join('.') || '(root)'}`;
  return `Unexpected ${service} reply for ${endpoint}${where}`;
}

/** Replaces every non-empty secret in a text with `[redacted]`. */
export function redactor(secrets: readonly string[]): (text: string) => string {
  const present = secrets.filter((secret) => secret.length > 0);
  return (text) => present.reduce((t, secret) => t.replaceAll(secret, '[redacted]'), text);
}
