/**
 * Contentful webhook requests: the signature check (the upstream contract's "Webhook signing":
 * HMAC-SHA256 over `METHOD\npath\nname:value;...\nbody`, the signed headers lower-case and
 * sorted, hex in `x-contentful-signature`), the 30-second timestamp window, and the parse of a
 * verified body into a rebuild event. The window is judged only once the signature holds: a
 * signed timestamp out of the window says something about the clocks (`routes.ts` answers 503
 * when it says this copy's clock is off), an unsigned one says nothing. Nothing of the body is read before the signature holds;
 * the signature is compared in constant time on equal-length buffers. `signContentfulRequest`
 * is Contentful's side of the same algorithm (tests, the bench, documentation).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import * as z from 'zod';

export const SIGNATURE_HEADER = 'x-contentful-signature';
export const SIGNED_HEADERS_HEADER = 'x-contentful-signed-headers';
export const TIMESTAMP_HEADER = 'x-contentful-timestamp';
export const TOPIC_HEADER = 'x-contentful-topic';

/**
 * A request this old or older is refused: Contentful's documented request TTL (`verifyRequest`
 * of `@contentful/node-apps-toolkit`: 30 s by default, too old from 30 s on).
 */
export const CONTENTFUL_MAX_AGE_MS = 30_000;
/**
 * A timestamp more than this ahead of our clock is refused too. Contentful documents no bound
 * ahead (its toolkit checks only the age); the same 30 s is the clock difference tolerated
 * either way. A request Contentful signs ahead of our clock means our clock is behind.
 */
export const CONTENTFUL_MAX_SKEW_MS = 30_000;
/** At most this many signed headers (Contentful signs a handful). */
const MAX_SIGNED_HEADERS = 32;
/** Header names of the signed list: HTTP token characters, lower-case. */
const HEADER_NAME = /^[a-z0-9!#$%&'*+.^_`|~-]{1,100}$/;

export type ContentfulRefusal =
  | 'missing-signature'
  | 'malformed-signature'
  | 'missing-timestamp'
  | 'malformed-timestamp'
  | 'stale-timestamp'
  | 'future-timestamp'
  | 'missing-signed-headers'
  | 'malformed-signed-headers'
  | 'missing-signed-header'
  | 'bad-signature';

export interface ContentfulRequest {
  /** The request method as received (`POST`). */
  method: string;
  /** The request target as received: path and query (`/webhooks/contentful`). */
  path: string;
  /** The request headers, names lower-case (Node's `req.headers`). */
  headers: IncomingHttpHeaders;
  /** The body exactly as received. */
  rawBody: Buffer;
  /** The webhook signing secret. */
  secret: string;
  /** Milliseconds since the epoch. */
  now: number;
}

export type ContentfulVerification =
  | { ok: true; signature: string; timestamp: number }
  | {
      ok: false;
      reason: ContentfulRefusal;
      /**
       * Set when the signature held but the timestamp is out of the window: timestamp minus
       * `now`, in ms (negative: stale; positive: ahead of our clock).
       */
      offsetMs?: number;
    };

/** One header's value as a single string, or undefined when absent or repeated. */
function single(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The signed string's header part: `name:value` of each signed header, sorted, `;`-joined. */
export function canonicalHeaders(names: readonly string[], headers: IncomingHttpHeaders): string {
  return [...names]
    .sort()
    .map((name) => `${name}:${single(headers, name) ?? ''}`)
    .join(';');
}

function hmac(
  secret: string,
  method: string,
  path: string,
  headerPart: string,
  body: Buffer,
): Buffer {
  return createHmac('sha256', secret)
    .update(`${method}\n${path}\n${headerPart}\n`)
    .update(body)
    .digest();
}

/** The signed-headers list: lower-case names, or null when unusable. */
function parseSignedHeaders(value: string): string[] | null {
  const names = value.split(',').map((name) => name.trim().toLowerCase());
  if (names.length > MAX_SIGNED_HEADERS) return null;
  if (!names.every((name) => HEADER_NAME.test(name))) return null;
  if (new Set(names).size !== names.length) return null;
  return names;
}

/**
 * Checks a Contentful webhook request: signature present and well-formed, a timestamp, the
 * signed-headers list naming itself and the timestamp, every signed header present once, the
 * HMAC equal (constant time), then the timestamp less than 30 s old and at most 30 s ahead of
 * `now`. A bad signature is `bad-signature` whatever its timestamp; a genuine one out of the
 * window is `stale-timestamp` or `future-timestamp` with its `offsetMs`. Reads nothing else.
 */
export function verifyContentfulRequest(request: ContentfulRequest): ContentfulVerification {
  const { headers } = request;
  const signature = single(headers, SIGNATURE_HEADER);
  if (signature === undefined) return { ok: false, reason: 'missing-signature' };
  if (!/^[0-9a-f]{64}$/i.test(signature)) return { ok: false, reason: 'malformed-signature' };

  const timestampText = single(headers, TIMESTAMP_HEADER);
  if (timestampText === undefined) return { ok: false, reason: 'missing-timestamp' };
  if (!/^\d{1,15}$/.test(timestampText)) return { ok: false, reason: 'malformed-timestamp' };
  const timestamp = Number(timestampText);

  const signedText = single(headers, SIGNED_HEADERS_HEADER);
  if (signedText === undefined) return { ok: false, reason: 'missing-signed-headers' };
  const names = parseSignedHeaders(signedText);
  if (
    names === null ||
    !names.includes(SIGNED_HEADERS_HEADER) ||
    !names.includes(TIMESTAMP_HEADER)
  ) {
    return { ok: false, reason: 'malformed-signed-headers' };
  }
  // A signed header the request lacks (or repeats) cannot have been signed with this value.
  if (!names.every((name) => single(headers, name) !== undefined)) {
    return { ok: false, reason: 'missing-signed-header' };
  }

  const expected = hmac(
    request.secret,
    request.method,
    request.path,
    canonicalHeaders(names, headers),
    request.rawBody,
  );
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'bad-signature' };
  }
  const offsetMs = timestamp - request.now;
  if (-offsetMs >= CONTENTFUL_MAX_AGE_MS) return { ok: false, reason: 'stale-timestamp', offsetMs };
  if (offsetMs > CONTENTFUL_MAX_SKEW_MS) return { ok: false, reason: 'future-timestamp', offsetMs };
  return { ok: true, signature: signature.toLowerCase(), timestamp };
}

/**
 * Contentful's side: the headers that sign `body` for `method path` at `timestamp`. `headers`
 * are the other headers to sign (names any case; they are signed lower-case). Returns every
 * header to send, the given ones included.
 * @internal For the tests, which send webhooks signed as Contentful signs them; the shop only
 * verifies (with the same canonical form as this signer).
 */
export function signContentfulRequest(input: {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Buffer;
  secret: string;
  timestamp: number;
}): Record<string, string> {
  const lower: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(input.headers)) lower[name.toLowerCase()] = value;
  lower[TIMESTAMP_HEADER] = String(input.timestamp);
  const names = [...new Set([...Object.keys(lower), SIGNED_HEADERS_HEADER])].sort();
  lower[SIGNED_HEADERS_HEADER] = names.join(',');
  const body = typeof input.body === 'string' ? Buffer.from(input.body) : input.body;
  const signature = hmac(
    input.secret,
    input.method,
    input.path,
    canonicalHeaders(names, lower),
    body,
  ).toString('hex');
  return { ...(lower as Record<string, string>), [SIGNATURE_HEADER]: signature };
}

/** What a verified Contentful notification says, as far as the rebuild cares. */
export interface ContentfulNotification {
  /** `Entry.publish`, `Asset.unpublish`... (the topic without `ContentManagement.`). */
  topic: string;
  /** The entity's id. */
  id: string;
  /** Whether the change reaches the Delivery API (publish, unpublish, delete). */
  relevant: boolean;
}

const TOPIC = /^ContentManagement\.([A-Za-z]{1,40})\.([a-z_]{1,40})$/;
/** Actions that change what the Delivery API serves, hence the built site. */
const RELEVANT_ACTIONS = new Set(['publish', 'unpublish', 'delete']);

const bodySchema = z.object({
  sys: z.object({
    id: z.string().min(1).max(64),
    type: z.string().max(64).optional(),
  }),
});

/**
 * Parses a verified notification (call only after `verifyContentfulRequest` said ok): the
 * topic header and the body's `sys.id`. Null when the body is not such JSON.
 */
export function parseContentfulNotification(
  topicHeader: string | undefined,
  rawBody: Buffer,
): ContentfulNotification | null {
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return null;
  }
  const parsed = bodySchema.safeParse(json);
  if (!parsed.success) return null;
  const match = topicHeader === undefined ? null : TOPIC.exec(topicHeader);
  if (!match) return { topic: 'unknown', id: parsed.data.sys.id, relevant: false };
  const [, type = '', action = ''] = match;
  return {
    topic: `${type}.${action}`,
    id: parsed.data.sys.id,
    relevant: RELEVANT_ACTIONS.has(action),
  };
}
