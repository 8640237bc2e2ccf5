/**
 * Several copies, one build (`src/server/rebuild/coordination.ts`) against a real Redis: one
 * copy at a time holds the build lease, it frees it on close and another takes it, a holder
 * cut off counts itself out; events any copy adds reach the holder only; a copy taking the
 * lease reads on from the last build's cursor (what a dead holder read but did not build is
 * built), and asks for a full build when unbuilt events were trimmed; values nobody should have
 * written are logged and ignored; the holder learns which releases every copy uses.
 */
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  createCoordination,
  type Coordination,
  type CoordinationOptions,
} from '../../src/server/rebuild/coordination.ts';
import { KEYS } from '../../src/server/rebuild/coordination-records.ts';
import type { RebuildEvent } from '../../src/server/rebuild/scheduler.ts';
import { redisAvailable, startRedis, type TestRedis } from './helpers/redis.ts';

interface Copy {
  coordination: Coordination;
  events: RebuildEvent[];
  leases: boolean[];
  lines: string[];
  uses: string[];
  /** Lease rounds so far (each says what the copy uses). */
  rounds: () => number;
}

describe.runIf(redisAvailable())('rebuild coordination through Redis', () => {
  let redis: TestRedis;
  let raw: ReturnType<typeof createClient>;
  const open: Coordination[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    raw = createClient({ url: redis.url });
    raw.on('error', () => undefined); // the last test stops Redis for a while
    await raw.connect();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
    await raw.flushAll();
  });
  afterAll(async () => {
    await raw.close();
    await redis.stop();
  });

  const copy = (name: string, extra: Partial<CoordinationOptions> = {}): Copy => {
    let rounds = 0;
    const state = {
      events: [] as RebuildEvent[],
      leases: [] as boolean[],
      lines: [] as string[],
      uses: [] as string[],
    };
    const coordination = createCoordination({
      url: redis.url,
      name,
      leaseMs: 1_000,
      leaseEveryMs: 100,
      readEveryMs: 50,
      onEvent: (event) => state.events.push(event),
      onLease: (held) => state.leases.push(held),
      inUse: () => {
        rounds += 1;
        return state.uses;
      },
      log: (line) => state.lines.push(line),
      logError: (line) => state.lines.push(line),
      ...extra,
    });
    open.push(coordination);
    return { ...state, coordination, rounds: () => rounds };
  };

  const event = (id: string): RebuildEvent => ({
    source: 'contentful',
    topic: 'ContentManagement.Entry.publish',
    id,
    receivedAt: Date.now(),
  });

  test('one copy holds the lease; the other names it', async () => {
    const a = copy('shop-a-4321');
    await expect.poll(() => a.coordination.holds()).toBe(true);
    const b = copy('shop-b-4321');
    await expect.poll(() => b.coordination.holder()).toBe('shop-a-4321');
    // Both keep trying: still exactly one holder after many rounds.
    const after = b.rounds() + 5;
    await expect.poll(() => b.rounds()).toBeGreaterThanOrEqual(after);
    expect([a.coordination.holds(), b.coordination.holds()]).toEqual([true, false]);
    expect(a.leases).toEqual([true]);
    expect(b.leases).toEqual([]);
    expect(await b.coordination.confirm()).toBe(false);
    expect(await a.coordination.confirm()).toBe(true);
  });

  test('events added by any copy reach the holder only, in the order each copy added them', async () => {
    const a = copy('shop-a-4321');
    await expect.poll(() => a.coordination.holds()).toBe(true);
    const b = copy('shop-b-4321');
    await expect.poll(() => b.coordination.holder()).toBe('shop-a-4321');
    b.coordination.push(event('one'));
    a.coordination.push(event('two'));
    b.coordination.push(event('three'));
    // Two copies write on their own connections, so their events interleave in any order
    // (CI saw b's two land before a's); one copy's events keep the order it added them in.
    await expect.poll(() => a.events.map((e) => e.id).sort()).toEqual(['one', 'three', 'two']);
    const ids = a.events.map((e) => e.id);
    expect(ids.indexOf('one')).toBeLessThan(ids.indexOf('three'));
    expect(b.events).toEqual([]);
    expect(a.coordination.position()).toMatch(/^\d+-\d+$/);
  });

  test('closing frees the lease: another copy takes it and reads on from the cursor', async () => {
    const a = copy('shop-a-4321');
    await expect.poll(() => a.coordination.holds()).toBe(true);
    const b = copy('shop-b-4321');
    b.coordination.push(event('built'));
    await expect.poll(() => a.events.length).toBe(1);
    // A builds what it read, then reads one more event it never builds, and stops.
    await a.coordination.built(a.coordination.position() ?? '');
    b.coordination.push(event('read-not-built'));
    await expect.poll(() => a.events.length).toBe(2);
    await a.coordination.close();
    await expect.poll(() => b.leases).toEqual([true]);
    expect(b.coordination.holds()).toBe(true);
    await expect.poll(() => b.events.map((e) => e.id)).toEqual(['read-not-built']);
  });

  test('a holder that cannot renew counts itself out before its lease ends', async () => {
    const a = copy('shop-a-4321');
    await expect.poll(() => a.coordination.holds()).toBe(true);
    // Someone else's value in the lease (as after it expired and another copy took it).
    await raw.set(KEYS.lease, `${'f'.repeat(32)} shop-c-4321`, { PX: 5_000 });
    await expect.poll(() => a.coordination.holds()).toBe(false);
    expect(a.leases).toEqual([true, false]);
    await expect.poll(() => a.coordination.holder()).toBe('shop-c-4321');
    expect(a.lines.join('\n')).toContain('no longer holds the build lease');
  });

  test.each([
    ['without an expiry', undefined, 'had no expiry'],
    ['with a day to live', { PX: 86_400_000 }, 'expired in'],
  ])(
    'a lease %s (written by hand, or a dead copy) stops builds for one lease at most',
    async (_what, expiry, said) => {
      await raw.set(KEYS.lease, `${'e'.repeat(32)} shop-dead-4321`, expiry);
      const a = copy('shop-a-4321');
      // Its first attempt gives the key one lease's lifetime (1 s here) and says so.
      await expect.poll(() => a.lines.join('\n')).toContain(said);
      expect(a.lines.join('\n')).toContain('rebuild:lease (shop-dead-4321) ' + said);
      const ttl = await raw.pTTL(KEYS.lease);
      expect(ttl === -2 || (ttl > 0 && ttl <= 1_000), String(ttl)).toBe(true);
      expect(a.coordination.holder()).toBe('shop-dead-4321');
      await expect.poll(() => a.coordination.holds(), { timeout: 3_000 }).toBe(true);
      // Its own lease has the lease's lifetime.
      const own = await raw.pTTL(KEYS.lease);
      expect(own > 0 && own <= 1_000, String(own)).toBe(true);
    },
  );

  test('a lease key of another type (not a string) expires too', async () => {
    await raw.hSet(KEYS.lease, 'holder', 'nobody');
    const a = copy('shop-a-4321');
    await expect
      .poll(() => a.lines.join('\n'))
      .toContain('rebuild:lease (a hash, not a lease) had no expiry');
    await expect.poll(() => a.coordination.holds(), { timeout: 3_000 }).toBe(true);
  });

  test('Redis losing its data (FLUSHALL): the holder is asked for a full build', async () => {
    const a = copy('shop-a-4321');
    await expect.poll(() => a.coordination.holds()).toBe(true);
    const b = copy('shop-b-4321');
    await expect.poll(() => b.coordination.holder()).toBe('shop-a-4321');
    b.coordination.push(event('before'));
    await expect.poll(() => a.events.map((e) => e.id)).toEqual(['before']);
    // As a restart without persistence: the stream, the cursor and the lease are gone.
    await raw.flushAll();
    // Whoever holds the lease next builds in full (each copy asks once; they coalesce).
    const holder = () => (a.coordination.holds() ? a : b.coordination.holds() ? b : null);
    await expect
      .poll(() => holder()?.events.some((e) => e.topic === 'events-lost') ?? false, {
        timeout: 5_000,
      })
      .toBe(true);
    // Each copy says so at its next look at the epoch (the other may not have looked yet).
    await expect.poll(() => a.lines.join('\n')).toContain('Redis lost its data');
    await expect.poll(() => b.lines.join('\n')).toContain('Redis lost its data');
  });

  test('a built cursor is moved by the holder only', async () => {
    const a = copy('shop-a-4321');
    await expect.poll(() => a.coordination.holds()).toBe(true);
    const b = copy('shop-b-4321');
    await expect.poll(() => b.coordination.holder()).toBe('shop-a-4321');
    await b.coordination.built('123-0');
    expect(await raw.get(KEYS.cursor)).toBe(null);
    await a.coordination.built('456-0');
    expect(await raw.get(KEYS.cursor)).toBe('456-0');
  });

  test('unbuilt events trimmed from the stream: the next holder asks for a full build', async () => {
    // The cursor names an entry no longer there, and newer ones are.
    await raw.set(KEYS.cursor, '1-0');
    await raw.xAdd(KEYS.events, '*', { event: JSON.stringify(event('after-the-gap')) });
    const a = copy('shop-a-4321');
    await expect
      .poll(() => a.events.map((e) => `${e.source} ${e.topic}`))
      .toEqual(['supervisor events-lost', 'contentful ContentManagement.Entry.publish']);
  });

  test('hostile values in Redis are logged once and ignored', async () => {
    // Long enough to outlive the copy's first look on a loaded machine.
    await raw.set(KEYS.lease, 'not a lease', { PX: 3_000 });
    await raw.xAdd(KEYS.events, '*', { event: '{"source":"evil","topic":"x","id":"1"}' });
    await raw.xAdd(KEYS.events, '*', { other: 'field' });
    await raw.xAdd(KEYS.events, '*', { event: JSON.stringify(event('good')) });
    const a = copy('shop-a-4321');
    await expect.poll(() => a.coordination.holder()).toBe(null);
    expect(a.coordination.holds()).toBe(false);
    // The bad lease expires; then this copy holds it and reads past the bad entries.
    await expect.poll(() => a.coordination.holds(), { timeout: 8_000 }).toBe(true);
    await expect.poll(() => a.events.map((e) => e.id)).toEqual(['good']);
    const ignored = a.lines.filter((line) => line.includes('ignored in Redis'));
    expect(ignored.filter((line) => line.includes(KEYS.lease))).toHaveLength(1);
    expect(ignored.filter((line) => line.includes('is not an event'))).toHaveLength(2);
  });

  test('the holder learns which releases every copy uses; junk is ignored', async () => {
    const a = copy('shop-a-4321');
    a.uses.push('r20251123-180102-1a2b', 'dist');
    const b = copy('shop-b-4321');
    b.uses.push('r20251124-090000-3c4d');
    await raw.sAdd(KEYS.copies, ['shop-gone-1', 'shop-junk-1']);
    await raw.set(KEYS.copy('shop-junk-1'), '{"not":"a list"}', { PX: 5_000 });
    await expect
      .poll(async () => [...((await a.coordination.releasesInUse()) ?? [])].sort())
      .toEqual(['r20251123-180102-1a2b', 'r20251124-090000-3c4d']);
    // A copy that stopped saying what it uses is dropped from the list.
    expect(await raw.sIsMember(KEYS.copies, 'shop-gone-1')).toBe(0);
    expect(a.lines.join('\n')).toContain('rebuild:copy:shop-junk-1 is not a list of releases');
  });

  test('Redis away: events are kept and added once it answers; nobody holds the lease', async () => {
    const port = redis.port;
    const a = copy('shop-a-4321');
    await expect.poll(() => a.coordination.holds()).toBe(true);
    await redis.stop();
    await expect.poll(() => a.coordination.reachable(), { timeout: 5_000 }).toBe(false);
    a.coordination.push(event('while-away'));
    // Past its lease, the holder counts itself out (no build without Redis).
    await expect.poll(() => a.coordination.holds(), { timeout: 5_000 }).toBe(false);
    expect(a.lines.filter((line) => line.includes('no copy builds until it answers'))).toHaveLength(
      1,
    );
    redis = await startRedis(port);
    await raw.connect().catch(() => undefined);
    await expect.poll(() => a.coordination.holds(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => a.events.map((e) => e.id), { timeout: 5_000 }).toContain('while-away');
  }, 30_000);
});
