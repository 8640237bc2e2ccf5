/**
 * The pure parts of several copies sharing one build (`src/server/rebuild/coordination.ts`):
 * copy names safe in a file name and a key, what is read back from Redis checked (the lease's
 * value, stream entries, the releases a copy uses), and the events a copy keeps while Redis is
 * away, bounded, with a full build asked for when some had to go.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  copyName,
  createBacklog,
  isStreamId,
  leaseValue,
  parseCopyUses,
  parseLeaseValue,
  parseStreamEntry,
} from '../../src/server/rebuild/coordination-records.ts';
import type { RebuildEvent } from '../../src/server/rebuild/scheduler.ts';

const TOKEN = '0123456789abcdef0123456789abcdef';

const event = (id: string): RebuildEvent => ({
  source: 'bigcommerce',
  topic: 'store/product/updated',
  id,
  receivedAt: 1_700_000_000_000,
});

describe('copy names', () => {
  test('host and port, in characters safe in a file name and a Redis key', () => {
    expect(copyName('shop-1.example', 4321)).toBe('shop-1.example-4321');
    expect(copyName('../../etc/passwd', 80)).toBe('.._.._etc_passwd-80');
    expect(copyName('', 80)).toBe('copy-80');
  });

  test('any host gives a name the lease accepts', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.integer({ min: 0, max: 65_535 }),
        (host, port) => {
          const name = copyName(host, port);
          expect(name).not.toContain('/');
          expect(parseLeaseValue(leaseValue(TOKEN, name))).toEqual({ token: TOKEN, name });
        },
      ),
    );
  });
});

describe('the lease value', () => {
  test('a token and a name, nothing else', () => {
    expect(parseLeaseValue(`${TOKEN} shop-4321`)).toEqual({ token: TOKEN, name: 'shop-4321' });
    for (const bad of [
      null,
      42,
      '',
      'shop-4321',
      TOKEN,
      `${TOKEN} shop 4321`,
      `${TOKEN.toUpperCase()} shop`,
      `${TOKEN} ../shop`,
      `${TOKEN} ${'a'.repeat(101)}`,
    ]) {
      expect(parseLeaseValue(bad), String(bad)).toBe(null);
    }
  });
});

describe('stream entries', () => {
  const entry = (message: Record<string, string>, id = '1700000000000-0') => ({ id, message });

  test('an event as a copy added it', () => {
    expect(parseStreamEntry(entry({ event: JSON.stringify(event('7')) }))).toEqual({
      id: '1700000000000-0',
      event: event('7'),
    });
    const full = { ...event('x'), source: 'supervisor', topic: 'events-lost' };
    expect(parseStreamEntry(entry({ event: JSON.stringify(full) }))?.event).toEqual(full);
  });

  test('anything else is refused', () => {
    const good = JSON.stringify(event('7'));
    for (const bad of [
      null,
      'text',
      { id: '1-0' },
      entry({ event: good }, 'not-an-id'),
      entry({ event: good }, '1-0-0'),
      entry({ other: good }),
      entry({ event: 'not json' }),
      entry({ event: JSON.stringify({ ...event('7'), source: 'evil' }) }),
      entry({ event: JSON.stringify({ ...event('7'), topic: 'x'.repeat(101) }) }),
      entry({ event: JSON.stringify({ ...event('7'), receivedAt: 'now' }) }),
      entry({ event: `${good}${' '.repeat(2_000)}` }),
    ]) {
      expect(parseStreamEntry(bad), JSON.stringify(bad)).toBe(null);
    }
  });

  test('stream ids', () => {
    expect(isStreamId('1700000000000-12')).toBe(true);
    for (const bad of ['', '-', '+', '1', '1-', 'a-1', '1-1 ', 1])
      expect(isStreamId(bad)).toBe(false);
  });
});

describe('the releases a copy uses', () => {
  test('release ids only', () => {
    expect(parseCopyUses('["r20251123-180102-1a2b","dist","../x"]')).toEqual([
      'r20251123-180102-1a2b',
    ]);
    expect(parseCopyUses('[]')).toEqual([]);
    for (const bad of [null, 1, '', '{', '{"a":1}', '[1]', JSON.stringify(Array(51).fill('r'))]) {
      expect(parseCopyUses(bad), String(bad)).toBe(null);
    }
  });
});

describe('events kept while Redis is away', () => {
  test('in order, taken one by one', () => {
    const backlog = createBacklog(3);
    expect(backlog.peek()).toBe(null);
    backlog.add(event('1'));
    backlog.add(event('2'));
    expect(backlog.size).toBe(2);
    expect(backlog.peek()?.id).toBe('1');
    backlog.shift();
    expect(backlog.peek()?.id).toBe('2');
    backlog.shift();
    expect(backlog.peek()).toBe(null);
  });

  test('bounded: past the limit the oldest go, and a full build is asked for first', () => {
    const backlog = createBacklog(3, () => 42);
    for (const id of ['1', '2', '3', '4', '5']) backlog.add(event(id));
    expect(backlog.size).toBe(4);
    expect(backlog.peek()).toEqual({
      source: 'supervisor',
      topic: 'events-lost',
      id: '2 event(s) while Redis was away',
      receivedAt: 42,
    });
    backlog.shift();
    const rest: string[] = [];
    for (let next = backlog.peek(); next !== null; next = backlog.peek()) {
      rest.push(next.id);
      backlog.shift();
    }
    expect(rest).toEqual(['3', '4', '5']);
  });
});
