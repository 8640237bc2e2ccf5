/**
 * BigCommerce store webhooks (hooks v3): the shared-secret header the hook was registered with
 * (`X-Webhook-Secret`, compared in constant time), then the payload `{ scope, store_id, data:
 * { type, id }, hash, created_at, producer }` validated with zod, its age checked, and its scope
 * read: products, categories and brands created, updated or deleted rebuild the shop; other
 * scopes are acknowledged and ignored. BigCommerce signs nothing: the secret header is the
 * whole authentication, so the endpoint must only be reachable over TLS in production.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import * as z from 'zod';

export const SECRET_HEADER = 'x-webhook-secret';
/**
 * A notification created longer ago than this is refused (a captured request replayed late).
 * BigCommerce documents no tolerance for `created_at`, signs nothing, and retries an
 * unacknowledged callback with the same payload: five minutes takes its first retries and
 * bounds a replay once the replay store has lost its records.
 */
export const BIGCOMMERCE_MAX_AGE_MS = 5 * 60_000;
/** Nor one created more than this ahead of our clock (then our clock is behind). */
export const BIGCOMMERCE_MAX_SKEW_MS = 60_000;

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * Whether the request carries `secret` in `X-Webhook-Secret`: both sides hashed first, so the
 * constant-time compare always runs on equal lengths and the secret's length does not leak.
 */
export function hasSharedSecret(headers: IncomingHttpHeaders, secret: string): boolean {
  const value = headers[SECRET_HEADER];
  if (typeof value !== 'string' || value.length === 0 || value.length > 1024) return false;
  return timingSafeEqual(digest(value), digest(secret));
}

const RESOURCES = ['product', 'category', 'brand'] as const;
const ACTIONS = ['created', 'updated', 'deleted'] as const;
export type BigCommerceResource = (typeof RESOURCES)[number];
export type BigCommerceAction = (typeof ACTIONS)[number];

/**
 * The scope's resource and action when it is one the shop rebuilds for
 * (`store/{product|category|brand}/{created|updated|deleted}`), else null.
 */
export function parseScope(
  scope: string,
): { resource: BigCommerceResource; action: BigCommerceAction } | null {
  const match = /^store\/([a-z]+)\/([a-z]+)$/.exec(scope);
  if (!match) return null;
  const resource = RESOURCES.find((r) => r === match[1]);
  const action = ACTIONS.find((a) => a === match[2]);
  return resource && action ? { resource, action } : null;
}

export const bigCommercePayloadSchema = z.object({
  scope: z
    .string()
    .max(100)
    .regex(/^store(\/[a-z_]{1,40}){1,4}$/),
  store_id: z.union([z.string().max(40), z.number().int().nonnegative()]),
  data: z
    .object({
      type: z.string().max(40),
      id: z.union([z.number().int().nonnegative(), z.string().max(40)]),
    })
    .loose(),
  hash: z.string().max(128),
  created_at: z.number().int().nonnegative(),
  producer: z.string().max(100),
});
export type BigCommercePayload = z.infer<typeof bigCommercePayloadSchema>;

export type BigCommerceRefusal = 'invalid-payload' | 'wrong-store' | 'stale' | 'future';

export type BigCommerceParse =
  | { ok: true; payload: BigCommercePayload; replayKey: string }
  | {
      ok: false;
      reason: BigCommerceRefusal;
      /** With `stale` and `future`: `created_at` minus `now`, in ms. */
      offsetMs?: number;
      /** With `stale` and `future`: the notification's replay key. */
      replayKey?: string;
    };

/**
 * Parses an authenticated body (call only after `hasSharedSecret`): the payload's shape, the
 * producer `stores/{storeHash}` when the store hash is known, and `created_at` (seconds) within
 * five minutes before and one after `now`. `replayKey` names this notification: scope, id, hash
 * and creation time.
 */
export function parseBigCommerceNotification(
  rawBody: Buffer,
  options: { now: number; storeHash?: string | undefined },
): BigCommerceParse {
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid-payload' };
  }
  const parsed = bigCommercePayloadSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: 'invalid-payload' };
  const payload = parsed.data;
  if (options.storeHash !== undefined && payload.producer !== `stores/${options.storeHash}`) {
    return { ok: false, reason: 'wrong-store' };
  }
  const replayKey = createHash('sha256')
    .update(
      JSON.stringify([payload.scope, String(payload.data.id), payload.hash, payload.created_at]),
    )
    .digest('hex');
  const offsetMs = payload.created_at * 1000 - options.now;
  if (-offsetMs > BIGCOMMERCE_MAX_AGE_MS)
    return { ok: false, reason: 'stale', offsetMs, replayKey };
  if (offsetMs > BIGCOMMERCE_MAX_SKEW_MS)
    return { ok: false, reason: 'future', offsetMs, replayKey };
  return { ok: true, payload, replayKey };
}
