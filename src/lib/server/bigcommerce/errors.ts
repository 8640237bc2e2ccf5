import type { UpstreamErrorCode } from '../upstream-error.ts';

/**
 * Stable codes of `BigCommerceError` (those of every connector, upstream-error.ts, and the
 * channel check's): callers branch on these, never on messages.
 */
export type BigCommerceErrorCode = UpstreamErrorCode | 'CHANNEL_ERROR';

export interface BigCommerceErrorInit {
  code: BigCommerceErrorCode;
  /** HTTP status: the upstream one, or 502/504 when no usable reply came back. */
  status: number;
  /** Upstream `title` (v3) or `message` (v2), when the reply carried one. */
  title?: string | undefined;
  /** Upstream per-field errors (v3 `errors`), when present. */
  errors?: Record<string, string> | undefined;
  /** Method and path below the store prefix, e.g. `GET v3/catalog/products/12`. */
  endpoint: string;
  cause?: unknown;
}

/**
 * Any failure of a BigCommerce call: HTTP error, timeout, network error, or a reply that does
 * not match the shop's schema. The message never carries the access token nor the store hash.
 */
export class BigCommerceError extends Error {
  override readonly name = 'BigCommerceError';
  readonly code: BigCommerceErrorCode;
  readonly status: number;
  readonly title: string | undefined;
  readonly errors: Record<string, string> | undefined;
  readonly endpoint: string;

  constructor(message: string, init: BigCommerceErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.title = init.title;
    this.errors = init.errors;
    this.endpoint = init.endpoint;
  }
}

export function isBigCommerceError(error: unknown): error is BigCommerceError {
  return error instanceof BigCommerceError;
}
