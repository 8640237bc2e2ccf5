/**
 * Conditional requests (RFC 9110 section 13): `If-None-Match` (lists, `*`, weak comparison) and
 * `If-Modified-Since` through `fresh`, and `If-Range`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import fresh from 'fresh';

/**
 * Whether a GET/HEAD for a representation with `etag` (and `lastModified`) is answered 304.
 * `Cache-Control: no-cache` in the request is addressed to caches, not to the origin
 * (RFC 9111 section 5.2.1.4): unlike `fresh` alone, it does not disable the comparison here, so a
 * `fetch()` with `If-None-Match` (which adds it) gets its 304.
 */
export function notModified(
  headers: IncomingHttpHeaders,
  etag: string,
  lastModified?: string,
): boolean {
  const conditions: Record<string, string | undefined> = {
    'if-none-match': headers['if-none-match'],
    'if-modified-since': headers['if-modified-since'],
  };
  const representation: Record<string, string> = { etag };
  if (lastModified !== undefined) representation['last-modified'] = lastModified;
  return fresh(conditions, representation);
}

/**
 * `If-Range` (RFC 9110 section 13.1.5) holds: absent, or naming the current representation by a
 * strong ETag equal to `etag`, or by a date equal to `lastModified`.
 */
export function ifRangeHolds(
  headers: IncomingHttpHeaders,
  etag: string,
  lastModified: string,
): boolean {
  const header = headers['if-range'];
  if (header === undefined) return true;
  const condition = (Array.isArray(header) ? header.join(', ') : header).trim();
  if (condition.startsWith('"')) return condition === etag;
  if (condition.startsWith('W/')) return false;
  const date = Date.parse(condition);
  return !Number.isNaN(date) && date === Date.parse(lastModified);
}
