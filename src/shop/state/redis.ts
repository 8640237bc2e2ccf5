/**
 * The `SharedStore` of several server copies: Redis at `REDIS_URL` through node-redis.
 * `setIfAbsent` is `SET NX PX`, `increment` one Lua script (`INCR`, then `PEXPIRE` when the
 * key has no lifetime yet: a fixed window), `deleteIfEquals` a compare-and-delete script, `extendIfEquals` a compare-and-extend one.
 * Values are strings or Buffers (binary safe). The connection is made at creation: when Redis
 * cannot be reached within `connectTimeoutMs`, every call fails with a `StoreUnavailableError`
 * naming the address (never its password), and the next call tries again. Once connected, a
 * lost connection is retried with backoff while calls fail at once (no queue of commands
 * waiting for a Redis that may not come back). `connectRedis` is that connection alone, for the
 * other users of Redis (the rebuild coordination of several copies, `src/server/rebuild/`).
 */
import { createClient, RESP_TYPES } from 'redis';
import type { SharedStore } from './types.ts';
import { log } from '../config/log.ts';

/** Redis could not be reached: the message names the address and the setting. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  readonly code = 'STORE_UNAVAILABLE';
}

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://...` (TLS). */
  url: string;
  /** How long the first connection may take before calls fail (default 5 s). */
  connectTimeoutMs?: number;
}

// INCR creates the key without a lifetime: the window starts at the first increment.
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/** Compare-and-delete: `DEL KEYS[1]` only while it holds `ARGV[1]` (1 when deleted). */
export const DELETE_IF_EQUALS = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * Compare-and-extend: while `KEYS[1]` holds `ARGV[1]`, its lifetime becomes at least `ARGV[2]`
 * ms (1 when it held the value). The value itself is never written.
 */
const EXTEND_IF_EQUALS = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;

const lifetime = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs));

/** `url` without its password, for messages. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.href;
  } catch {
    return '(invalid REDIS_URL)';
  }
}

/** Whether `url` is a Redis address node-redis accepts. */
export function isRedisUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol, hostname } = new URL(url);
  return (protocol === 'redis:' || protocol === 'rediss:') && hostname !== '';
}

/** What a connection says when Redis goes away and comes back (default: one `[store]` line). */
export interface RedisOutageLog {
  /** Once per outage, with the reason naming the address (never its password). */
  down(message: string): void;
  up(address: string): void;
}

/** The client of `connectRedis`: calls fail at once while disconnected (no offline queue). */
function newClient(
  url: string,
  connectTimeout: number,
  reconnectStrategy: (retries: number, cause: Error) => number | Error,
) {
  return createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout, reconnectStrategy },
  });
}

/** A node-redis client with the shop's connection policy (`connectRedis`). */
export type RedisClient = ReturnType<typeof newClient>;

export interface RedisConnection {
  /** The client; use it through `run`, which connects first and fails fast when Redis is away. */
  readonly client: RedisClient;
  /** The address without its password, for messages. */
  readonly address: string;
  run<T>(command: (client: RedisClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * A connection to Redis at `url` with the policy of every user of Redis here: connected at
 * creation, calls failing at once (`StoreUnavailableError`) while it is away instead of
 * queueing, retried with backoff, one log line per outage.
 */
export function connectRedis(
  options: RedisStoreOptions & { outageLog?: RedisOutageLog },
): RedisConnection {
  if (!isRedisUrl(options.url)) {
    throw new StoreUnavailableError(
      `REDIS_URL must be redis://host:port or rediss://host:port, not ${redactRedisUrl(options.url)}`,
    );
  }
  const address = redactRedisUrl(options.url);
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const outageLog: RedisOutageLog = options.outageLog ?? {
    down: (message) => {
      log.error({ reason: message }, '[store] Redis unreachable');
    },
    up: (at) => {
      log.warn({ address: at }, '[store] Redis is reachable again');
    },
  };
  let connected = false;
  let attemptStarted = 0;
  let down = false;
  let closed = false;

  const unreachable = (cause: unknown) =>
    new StoreUnavailableError(
      `Redis at ${address} is unreachable (${cause instanceof Error ? cause.message : String(cause)}): start it, fix REDIS_URL, or unset REDIS_URL to keep the state in a local file`,
    );

  const client = newClient(options.url, Math.min(connectTimeoutMs, 5_000), (retries, cause) => {
    if (!connected && Date.now() - attemptStarted >= connectTimeoutMs) return unreachable(cause);
    return Math.min(50 * 2 ** retries, 2_000);
  });

  client.on('error', (error: unknown) => {
    // One line per outage, not one per retry.
    if (down || closed) return;
    down = true;
    outageLog.down(unreachable(error).message);
  });
  client.on('ready', () => {
    if (down) outageLog.up(address);
    down = false;
    connected = true;
  });

  let connecting: Promise<void> | undefined;
  const connect = (): Promise<void> => {
    attemptStarted = Date.now();
    connecting = client.connect().then(
      () => undefined,
      (error: unknown) => {
        // The next call tries again (recovery without a restart).
        connecting = undefined;
        throw error instanceof StoreUnavailableError ? error : unreachable(error);
      },
    );
    return connecting;
  };
  // Connect now, so a wrong REDIS_URL shows in the log at startup; callers see the error.
  connect().catch(() => undefined);

  return {
    client,
    address,
    async run(command) {
      if (closed) throw new StoreUnavailableError('The store is closed');
      await (connecting ?? connect());
      return command(client);
    },
    async close() {
      closed = true;
      if (client.isOpen) await client.close();
      else if (connecting !== undefined) client.destroy();
    },
  };
}

export function createRedisStore(options: RedisStoreOptions): SharedStore {
  const connection = connectRedis(options);
  const { client } = connection;
  const binary = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  const run = <T>(command: () => Promise<T>): Promise<T> => connection.run(command);

  return {
    kind: 'redis',
    get: (key) => run(() => client.get(key)),
    getBuffer: (key) => run(() => binary.get(key)),
    set: (key, value, ttlMs) =>
      run(async () => {
        await client.set(key, value, { expiration: { type: 'PX', value: lifetime(ttlMs) } });
      }),
    setIfAbsent: (key, value, ttlMs) =>
      run(async () => {
        const reply = await client.set(key, value, {
          condition: 'NX',
          expiration: { type: 'PX', value: lifetime(ttlMs) },
        });
        return reply === 'OK';
      }),
    increment: (key, ttlMs) =>
      run(async () =>
        Number(await client.eval(INCREMENT, { keys: [key], arguments: [String(lifetime(ttlMs))] })),
      ),
    ttl: (key) =>
      run(async () => {
        const ms = await client.pTTL(key);
        return ms < 0 ? null : ms;
      }),
    delete: (key) =>
      run(async () => {
        await client.del(key);
      }),
    deleteIfEquals: (key, value) =>
      run(
        async () =>
          Number(await client.eval(DELETE_IF_EQUALS, { keys: [key], arguments: [value] })) === 1,
      ),
    extendIfEquals: (key, value, ttlMs) =>
      run(
        async () =>
          Number(
            await client.eval(EXTEND_IF_EQUALS, {
              keys: [key],
              arguments: [value, String(lifetime(ttlMs))],
            }),
          ) === 1,
      ),
    close: () => connection.close(),
  };
}
