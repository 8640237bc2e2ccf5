/**
 * `ContentfulError`: any failure of a Content Delivery API call (HTTP error, timeout, network
 * error, a reply that does not match the shop's schema), with the HTTP status and Contentful's
 * own error id (`sys.id`: `AccessTokenInvalid`, `NotFound`, `RateLimitExceeded`,
 * `InvalidQuery`...). Messages never carry the access token.
 */

import type { UpstreamErrorCode } from '../http/upstream-error.ts';

/** Stable codes (upstream-error.ts): callers branch on these (or on `id`), never on messages. */
export type ContentfulErrorCode = UpstreamErrorCode;

export interface ContentfulErrorInit {
  code: ContentfulErrorCode;
  /** HTTP status: the upstream one, or 502/504 when no usable reply came back. */
  status: number;
  /** Contentful's error id (`sys.id` of the error reply), when the reply carried one. */
  id?: string | undefined;
  /** `X-Contentful-Request-Id` of the reply, for Contentful's support. */
  requestId?: string | undefined;
  /** Method and path below the environment, e.g. `GET entries`. */
  endpoint: string;
  cause?: unknown;
}

export class ContentfulError extends Error {
  override readonly name = 'ContentfulError';
  readonly code: ContentfulErrorCode;
  readonly status: number;
  readonly id: string | undefined;
  readonly requestId: string | undefined;
  readonly endpoint: string;

  constructor(message: string, init: ContentfulErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.id = init.id;
    this.requestId = init.requestId;
    this.endpoint = init.endpoint;
  }
}
