/**
 * What the copies sharing their rebuilds through Redis write there, and how it is read back
 * (`coordination.ts`): the keys, the Lua scripts that move the lease, the epoch and the cursor
 * atomically, the values of the lease, the stream's events and each copy's releases in use
 * (each checked: a bad value reads as null), and the backlog a copy keeps while Redis is away.
 * Pure, no connection.
 */
import * as z from 'zod';
import { isReleaseId } from './releases.ts';
import type { RebuildEvent } from './scheduler.ts';

export const KEYS = {
  lease: 'rebuild:lease',
  events: 'rebuild:events',
  cursor: 'rebuild:cursor',
  epoch: 'rebuild:epoch',
  copies: 'rebuild:copies',
  copy: (name: string) => `rebuild:copy:${name}`,
} as const;

/** Events the stream keeps (roughly: trimmed by whole blocks). */
export const STREAM_MAX = 10_000;
/** Events a copy keeps while Redis is away; past that, one full build covers them. */
const BACKLOG_MAX = 1_000;
/** Lifetime of the stream and the cursor after their last write. */
export const KEEP_MS = 30 * 24 * 3_600_000;
/** Stream entries read at once. */
export const READ_COUNT = 500;

/** Renews the lease while it holds this copy's value (1), else 0. */
export const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`;

/**
 * Who holds the lease, and its remaining lifetime before this call: `{value, pttl}`. A lease
 * key without an expiry (PTTL -1), with one longer than a lease (ARGV[1] ms), or of another
 * type than a string gets one lease's lifetime now, so it stops nothing for longer than that.
 */
export const READ_LEASE = `
local kind = redis.call('TYPE', KEYS[1])['ok']
if kind == 'none' then return {false, -2} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -1 or ttl > tonumber(ARGV[1]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
if kind ~= 'string' then return {false, ttl, kind} end
return {redis.call('GET', KEYS[1]), ttl}`;

/** The epoch of Redis's data: set when absent (and kept alive); returns the value now. */
export const EPOCH = `
local value = redis.call('GET', KEYS[1])
if value then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return value
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]`;

/** Moves the cursor while the lease holds this copy's value (1), else 0. */
export const MOVE_CURSOR = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0`;

/** Adds an event to the bounded stream and keeps the stream alive; returns its id. */
export const ADD_EVENT = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'event', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return id`;

/** A copy's name: where it runs and its port, in characters safe in a file name and a key. */
export function copyName(host: string, port: number): string {
  const safe = host.replace(/[^A-Za-z0-9.-]/g, '_').slice(0, 80) || 'copy';
  return `${safe}-${String(port)}`;
}

export const COPY_NAME = /^[A-Za-z0-9._-]{1,100}$/;
const TOKEN = /^[0-9a-f]{32}$/;
const STREAM_ID = /^\d{1,20}-\d{1,20}$/;

export function isStreamId(value: unknown): value is string {
  return typeof value === 'string' && STREAM_ID.test(value);
}

/** The lease's value: `{token} {copy name}`. */
export function leaseValue(token: string, name: string): string {
  return `${token} ${name}`;
}

/** The holder named by a lease value, or null when it is not one. */
export function parseLeaseValue(value: unknown): { token: string; name: string } | null {
  if (typeof value !== 'string') return null;
  const [token = '', name = '', ...rest] = value.split(' ');
  if (rest.length > 0 || !TOKEN.test(token) || !COPY_NAME.test(name)) return null;
  return { token, name };
}

/** What `READ_LEASE` gives back, checked: the value (null: none, or not a string) and PTTL. */
export function parseLeaseRead(
  reply: unknown,
): { value: string | null; pttl: number; kind?: string } | null {
  if (!Array.isArray(reply)) return null;
  const [value, pttl, kind] = reply as unknown[];
  if (typeof pttl !== 'number' || !Number.isSafeInteger(pttl)) return null;
  return {
    value: typeof value === 'string' ? value : null,
    pttl,
    ...(typeof kind === 'string' ? { kind: kind.slice(0, 20) } : {}),
  };
}

const eventSchema = z.object({
  source: z.enum(['contentful', 'bigcommerce', 'supervisor']),
  topic: z.string().max(100),
  id: z.string().max(100),
  receivedAt: z.number(),
});

/** One stream entry as node-redis gives it (`{ id, message: { event } }`), checked. */
export function parseStreamEntry(entry: unknown): { id: string; event: RebuildEvent } | null {
  if (typeof entry !== 'object' || entry === null) return null;
  const { id, message } = entry as { id?: unknown; message?: unknown };
  if (!isStreamId(id) || typeof message !== 'object' || message === null) return null;
  const text = (message as { event?: unknown }).event;
  if (typeof text !== 'string' || text.length > 2_000) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = eventSchema.safeParse(json);
  return parsed.success ? { id, event: parsed.data } : null;
}

/** The releases a copy says it uses (JSON array of release ids), or null when not that. */
export function parseCopyUses(value: unknown): string[] | null {
  if (typeof value !== 'string' || value.length > 10_000) return null;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return null;
  }
  const parsed = z.array(z.string().max(100)).max(50).safeParse(json);
  if (!parsed.success) return null;
  return parsed.data.filter((id) => isReleaseId(id));
}

/**
 * The events a copy could not add while Redis was away, oldest first, at most `max`; past that
 * the oldest go and `lost` says so (the holder then builds in full).
 */
export interface Backlog {
  add(event: RebuildEvent): void;
  /** The next one to add to Redis: a full-build request first when events were lost. */
  peek(): RebuildEvent | null;
  /** The one `peek` gave was added. */
  shift(): void;
  readonly size: number;
}

export function createBacklog(max = BACKLOG_MAX, now: () => number = Date.now): Backlog {
  const events: RebuildEvent[] = [];
  let lost = 0;
  const lostEvent = (): RebuildEvent => ({
    source: 'supervisor',
    topic: 'events-lost',
    id: `${String(lost)} event(s) while Redis was away`,
    receivedAt: now(),
  });
  return {
    add(event) {
      events.push(event);
      if (events.length > max) {
        events.shift();
        lost += 1;
      }
    },
    peek: () => (lost > 0 ? lostEvent() : (events[0] ?? null)),
    shift() {
      if (lost > 0) lost = 0;
      else events.shift();
    },
    get size() {
      return events.length + (lost > 0 ? 1 : 0);
    },
  };
}
