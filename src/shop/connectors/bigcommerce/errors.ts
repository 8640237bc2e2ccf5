import type { UpstreamErrorCode } from '../http/upstream-error.ts';

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

/** spec §8 stock dictionary messages: the keys a refused cart write is answered with. */
export type StockRefusal =
  'Out of stock' | 'The selected quantity exceeds available stock.' | 'Currently unavailable';

/**
 * The stock message of a cart write BigCommerce refused for stock (422, its `title` such as
 * "Not enough stock: Drap (DRP-1) is out of stock and cannot be added to the cart." or "...
 * only 2 of ... can be added"), else null. Read from the title because BigCommerce gives no
 * code for it; anything unrecognised stays the caller's own error.
 */
export function stockRefusal(error: unknown): StockRefusal | null {
  if (!isBigCommerceError(error) || (error.status !== 422 && error.status !== 409)) return null;
  const text = [error.title ?? '', ...Object.values(error.errors ?? {})].join(' ');
  if (/out of stock/i.test(text)) return 'Out of stock';
  if (
    /not enough stock|insufficient stock|only \d+ |greater than the available|exceeds/i.test(text)
  )
    return 'The selected quantity exceeds available stock.';
  if (/purchas\w* (is )?disabled|cannot be purchased|unavailable/i.test(text))
    return 'Currently unavailable';
  return null;
}
