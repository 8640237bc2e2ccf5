/**
 * Several copies, one build: with `REDIS_URL` set, the supervisors of every server copy
 * (`supervisor.ts`, one per `npm start` / `npm run serve`) share their rebuild work through
 * Redis, so a webhook reaching any copy gives one build that every copy serves.
 *
 * - Events: a copy that accepts a webhook adds it to the stream `rebuild:events` (bounded,
 *   `MAXLEN ~ 10000`). While Redis is away, it keeps them here (at most `BACKLOG_MAX`; past
 *   that, it asks for a full build) and adds them once Redis answers.
 * - The lease: one copy at a time holds `rebuild:lease` (`SET NX PX`, a random token and the
 *   copy's name), renews it every `leaseEveryMs` (compare-and-expire) and frees it on close
 *   (compare-and-delete). Only the holder reads the stream and builds or publishes. A holder
 *   that stops renewing (dead, or cut from Redis) loses it when it expires, and counts itself
 *   out a second earlier (`holds()`), so two copies never both believe they hold it. A lease
 *   always expires: a copy that finds the key without an expiry, with a longer one than a
 *   lease's, or not a string at all (written by hand or by another program) gives it one
 *   lease's lifetime in the same script that reads it, and logs it, so no key stops the builds
 *   for longer than one lease.
 * - Redis losing its data (a restart without persistence, `FLUSHALL`): `rebuild:epoch` is a
 *   random value set once; a copy that sees it change or vanish asks for a full build (the
 *   events in the stream and the cursor are gone with it, and a build under way may have lost
 *   its lease), so no edit stays unbuilt.
 * - The cursor: `rebuild:cursor` is the stream position the last finished build covered; the
 *   holder moves it (only while the lease is its own, in one script). A copy taking the lease
 *   reads on from there, so the events a dead holder had read but not built are built; when
 *   some of them were trimmed away, it asks for a full build.
 * - Releases in use: each copy says which releases it serves or drains (`rebuild:copy:{name}`,
 *   listed in `rebuild:copies`, expiring when the copy stops saying it), and the holder keeps
 *   those when it prunes.
 *
 * The release pointer itself is a file, `current.json` in the shared releases folder
 * (`releases.ts`): the holder writes it, the others follow it. Everything read back from Redis
 * is checked: a bad value is logged once and ignored.
 */
import { randomBytes } from 'node:crypto';
import { oneLine } from '../../shop/faults/failures.ts';
import {
  connectRedis,
  DELETE_IF_EQUALS,
  type RedisClient,
  type RedisConnection,
} from '../../shop/state/redis.ts';
import {
  ADD_EVENT,
  COPY_NAME,
  createBacklog,
  EPOCH,
  isStreamId,
  KEEP_MS,
  KEYS,
  leaseValue,
  MOVE_CURSOR,
  parseCopyUses,
  parseLeaseRead,
  parseLeaseValue,
  parseStreamEntry,
  READ_COUNT,
  READ_LEASE,
  RENEW,
  STREAM_MAX,
} from './coordination-records.ts';
import { isReleaseId } from './releases.ts';
import type { RebuildEvent } from './scheduler.ts';

// What the copies write in Redis and how it is read back: coordination-records.ts.
export { copyName } from './coordination-records.ts';

export interface CoordinationOptions {
  /** `REDIS_URL`. */
  url: string;
  /** This copy (`copyName`): in the lease, the status, the releases it uses. */
  name: string;
  /** An event for this copy's scheduler (only while it holds the lease). */
  onEvent(event: RebuildEvent): void;
  /** The lease was taken (true) or lost (false). */
  onLease(held: boolean): void;
  /** Something `holds`, `holder` or `reachable` says changed (for the status). */
  onChange?(): void;
  /** The releases this copy serves or drains: the holder keeps them when it prunes. */
  inUse(): string[];
  /** Lease lifetime (default 10 s): how long a dead holder blocks builds. */
  leaseMs?: number;
  /** Lease renewal and attempts (default 1 s). */
  leaseEveryMs?: number;
  /** The holder's reads of the stream (default 250 ms). */
  readEveryMs?: number;
  connectTimeoutMs?: number;
  log(line: string): void;
  logError(line: string): void;
}

export interface Coordination {
  readonly name: string;
  /** Adds an accepted event for the copy that builds (kept here while Redis is away). */
  push(event: RebuildEvent): void;
  /** Whether this copy holds the lease now (and so may build and publish). */
  holds(): boolean;
  /** The copy holding the lease as last seen (null: none known). */
  holder(): string | null;
  /** Whether Redis answered the last call. */
  reachable(): boolean;
  /** The stream position of the last event given to `onEvent`: what a build started now covers. */
  position(): string | null;
  /** Renews the lease now: true while it is this copy's (before publishing a release). */
  confirm(): Promise<boolean>;
  /** A build covering the events up to `position` ended: the next holder reads on from there. */
  built(position: string): Promise<void>;
  /** The releases every copy says it uses (null when Redis cannot say). */
  releasesInUse(): Promise<Set<string> | null>;
  /** Frees the lease (when held) and the connection. */
  close(): Promise<void>;
}

export function createCoordination(options: CoordinationOptions): Coordination {
  const leaseMs = options.leaseMs ?? 10_000;
  const leaseEveryMs = options.leaseEveryMs ?? 1_000;
  const readEveryMs = options.readEveryMs ?? 250;
  // Counted out before Redis expires the lease: a renewal may land late by this much.
  const marginMs = Math.min(1_000, leaseMs / 4);
  const token = randomBytes(16).toString('hex');
  const value = leaseValue(token, options.name);
  const backlog = createBacklog();
  let reachable = true;
  let heldUntil = 0;
  let held = false;
  let holder: string | null = null;
  let readFrom: string | null = null;
  let closed = false;
  // One line per distinct oddity read back from Redis, not one per poll.
  const reported = new Set<string>();
  const oddity = (what: string) => {
    if (reported.has(what)) return;
    if (reported.size > 100) reported.clear();
    reported.add(what);
    options.logError(`[rebuild] ignored in Redis: ${oneLine(what)}`);
  };

  const connection: RedisConnection = connectRedis({
    url: options.url,
    ...(options.connectTimeoutMs === undefined
      ? {}
      : { connectTimeoutMs: options.connectTimeoutMs }),
    outageLog: {
      down: (message) => {
        options.logError(
          `[rebuild] ${message}; no copy builds until it answers (events accepted here are kept and added then)`,
        );
      },
      up: (address) => {
        options.log(`[rebuild] Redis at ${address} is reachable again`);
      },
    },
  });
  const run = async <T>(command: (client: RedisClient) => Promise<T>): Promise<T> => {
    try {
      const result = await connection.run(command);
      if (!reachable) {
        reachable = true;
        options.onChange?.();
      }
      return result;
    } catch (error) {
      if (reachable) {
        reachable = false;
        options.onChange?.();
      }
      throw error;
    }
  };

  const holds = () => held && Date.now() < heldUntil;

  const setHolder = (name: string | null) => {
    if (name === holder) return;
    holder = name;
    options.onChange?.();
  };

  // Whether `onLease(true)` was said (the lease is held and the stream position known).
  let announced = false;
  const lose = (why: string) => {
    if (!held) return;
    held = false;
    readFrom = null;
    options.logError(`[rebuild] ${options.name} no longer holds the build lease (${why})`);
    if (announced) options.onLease(false);
    announced = false;
    holder = null; // learnt again on the next attempt
    options.onChange?.();
  };

  /** Where a new holder reads from: the cursor, and whether events past it were trimmed. */
  const startPosition = async (): Promise<{ from: string; gap: boolean }> => {
    const cursor = await run((client) => client.get(KEYS.cursor));
    if (cursor === null) return { from: '-', gap: false };
    if (!isStreamId(cursor)) {
      oddity(`${KEYS.cursor} is not a stream id`);
      return { from: '-', gap: true };
    }
    const [still, after] = await run((client) =>
      Promise.all([
        client.xRange(KEYS.events, cursor, cursor),
        client.xRange(KEYS.events, `(${cursor}`, '+', { COUNT: 1 }),
      ]),
    );
    // The cursor's own entry goes first when the stream is trimmed: with it gone and newer
    // ones there, some unbuilt events may be gone too.
    return { from: cursor, gap: (still ?? []).length === 0 && (after ?? []).length > 0 };
  };

  const takeLease = async () => {
    const since = Date.now();
    const taken = await run((client) =>
      client.set(KEYS.lease, value, {
        condition: 'NX',
        expiration: { type: 'PX', value: leaseMs },
      }),
    );
    if (taken === 'OK') {
      heldUntil = since + leaseMs - marginMs;
      held = true;
      readFrom = null;
      setHolder(options.name);
      return;
    }
    const read = parseLeaseRead(
      await run((client) =>
        client.eval(READ_LEASE, { keys: [KEYS.lease], arguments: [String(leaseMs)] }),
      ),
    );
    const current = read?.value ?? null;
    const parsed = current === null ? null : parseLeaseValue(current);
    if (read !== null && (read.pttl === -1 || read.pttl > leaseMs || read.kind !== undefined)) {
      const what =
        read.kind === undefined
          ? `${KEYS.lease} (${parsed?.name ?? 'not a lease'})`
          : `${KEYS.lease} (a ${read.kind}, not a lease)`;
      const had = read.pttl === -1 ? 'had no expiry' : `expired in ${String(read.pttl)} ms`;
      options.logError(
        `[rebuild] ${oneLine(what)} ${had}: it now expires within ${String(leaseMs)} ms, then a copy takes the lease`,
      );
    } else if (current !== null && parsed === null) oddity(`${KEYS.lease} is not a lease`);
    setHolder(parsed?.name ?? null);
  };

  /**
   * Redis's data epoch: a change (or its loss) since the last look means Redis lost its data,
   * the stream and the cursor with it: one full build covers whatever was not built.
   */
  let epoch: string | null = null;
  const checkEpoch = async () => {
    const mine = randomBytes(8).toString('hex');
    const now = await run((client) =>
      client.eval(EPOCH, { keys: [KEYS.epoch], arguments: [mine, String(KEEP_MS)] }),
    );
    if (typeof now !== 'string') return;
    const before = epoch;
    epoch = now;
    if (before === null || before === now) return;
    options.logError(
      `[rebuild] Redis lost its data (${KEYS.epoch} changed): a full build covers the events it held`,
    );
    backlog.add({
      source: 'supervisor',
      topic: 'events-lost',
      id: 'Redis lost its data (restarted without persistence?)',
      receivedAt: Date.now(),
    });
  };

  /** Once the lease is taken: the stream position, then the supervisor is told. */
  const announce = async () => {
    const { from, gap } = await startPosition();
    if (!holds()) return;
    readFrom = from;
    announced = true;
    options.log(`[rebuild] ${options.name} holds the build lease: it builds for every copy`);
    options.onLease(true);
    if (gap) {
      options.onEvent({
        source: 'supervisor',
        topic: 'events-lost',
        id: 'events trimmed from the stream before they were built',
        receivedAt: Date.now(),
      });
    }
    options.onChange?.();
  };

  const renewLease = async () => {
    const since = Date.now();
    const renewed = await run((client) =>
      client.eval(RENEW, { keys: [KEYS.lease], arguments: [value, String(leaseMs)] }),
    );
    if (Number(renewed) === 1) heldUntil = since + leaseMs - marginMs;
    else lose('another copy took it');
  };

  /** Adds the events kept here to the stream, oldest first, until Redis fails. */
  let flushing = false;
  const flush = async () => {
    if (flushing) return;
    flushing = true;
    try {
      for (let event = backlog.peek(); event !== null && !closed; event = backlog.peek()) {
        const json = JSON.stringify(event);
        await run((client) =>
          client.eval(ADD_EVENT, {
            keys: [KEYS.events],
            arguments: [String(STREAM_MAX), json, String(KEEP_MS)],
          }),
        );
        backlog.shift();
      }
    } finally {
      flushing = false;
    }
  };

  const sayInUse = async () => {
    const ids = options.inUse().filter((id) => isReleaseId(id));
    const ttl = Math.max(3 * leaseMs, 30_000);
    await run(async (client) => {
      await client.set(KEYS.copy(options.name), JSON.stringify(ids), {
        expiration: { type: 'PX', value: ttl },
      });
      await client.sAdd(KEYS.copies, options.name);
      await client.pExpire(KEYS.copies, KEEP_MS);
    });
  };

  /** Reads the stream on from `readFrom` while this copy holds the lease. */
  let reading = false;
  /** Where to read from now, or null when this copy may not read. */
  const readPosition = () => (holds() && announced ? readFrom : null);
  const read = async () => {
    if (reading || readPosition() === null) return;
    reading = true;
    try {
      for (let round = 0; round < 20; round++) {
        const from = readPosition();
        if (from === null) return;
        const start = from === '-' ? '-' : `(${from}`;
        const entries: unknown[] =
          (await run((client) => client.xRange(KEYS.events, start, '+', { COUNT: READ_COUNT }))) ??
          [];
        for (const entry of entries) {
          const parsed = parseStreamEntry(entry);
          const id = (entry as { id?: unknown } | null)?.id;
          if (parsed === null) {
            oddity(`${KEYS.events} entry ${isStreamId(id) ? id : '?'} is not an event`);
            if (!isStreamId(id)) return;
            readFrom = id;
            continue;
          }
          readFrom = parsed.id;
          options.onEvent(parsed.event);
        }
        if (entries.length < READ_COUNT) return;
      }
    } finally {
      reading = false;
    }
  };

  let ticking = false;
  const tick = async () => {
    if (ticking || closed) return;
    ticking = true;
    try {
      await checkEpoch();
      if (held) await renewLease();
      else await takeLease();
      if (holds() && !announced) await announce();
      await flush();
      await sayInUse();
    } catch {
      // Redis is away (one line per outage, from the connection): past its lease, a holder
      // counts itself out.
      if (held && !holds()) lose('Redis did not answer');
    } finally {
      ticking = false;
    }
  };

  const leaseTimer = setInterval(() => void tick(), leaseEveryMs);
  const readTimer = setInterval(() => void read().catch(() => undefined), readEveryMs);
  leaseTimer.unref();
  readTimer.unref();
  void tick();

  return {
    name: options.name,
    push(event) {
      backlog.add(event);
      void flush()
        .then(() => read())
        .catch(() => undefined);
    },
    holds,
    holder: () => holder,
    reachable: () => reachable,
    position: () => (readFrom === '-' ? null : readFrom),
    async confirm() {
      if (!held) return false;
      try {
        await renewLease();
      } catch {
        return holds();
      }
      return holds();
    },
    async built(position) {
      if (!isStreamId(position) || !holds()) return;
      await run((client) =>
        client.eval(MOVE_CURSOR, {
          keys: [KEYS.lease, KEYS.cursor],
          arguments: [value, position, String(KEEP_MS)],
        }),
      ).catch((error: unknown) => {
        // The next holder builds those events again: one build too many, none missing.
        options.logError(`[rebuild] could not record the built events: ${String(error)}`);
      });
    },
    async releasesInUse() {
      try {
        const names = await run((client) => client.sMembers(KEYS.copies));
        const valid = names.filter((name) => COPY_NAME.test(name));
        if (valid.length === 0) return new Set();
        const values = await run((client) => client.mGet(valid.map((name) => KEYS.copy(name))));
        const inUse = new Set<string>();
        const gone: string[] = [];
        values.forEach((uses, i) => {
          const name = valid[i] ?? '';
          if (uses === null) {
            gone.push(name);
            return;
          }
          const ids = parseCopyUses(uses);
          if (ids === null) oddity(`${KEYS.copy(name)} is not a list of releases`);
          for (const id of ids ?? []) inUse.add(id);
        });
        if (gone.length > 0) await run((client) => client.sRem(KEYS.copies, gone));
        return inUse;
      } catch {
        return null;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(leaseTimer);
      clearInterval(readTimer);
      try {
        if (held) {
          await connection.run((client) =>
            client.eval(DELETE_IF_EQUALS, { keys: [KEYS.lease], arguments: [value] }),
          );
        }
        await connection.run((client) => client.del(KEYS.copy(options.name)));
      } catch {
        // Redis is away: the lease and the copy's key expire on their own.
      }
      held = false;
      await connection.close();
    },
  };
}
