/**
 * The supervisor's small pure parts: the messages between workers and the primary are parsed
 * (a worker's message is input like any other), and release ids are well-formed and sort in
 * time order (pruning and `current.json` rely on both).
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  isListenMessage,
  isStandbyMessage,
  parseDrainMessage,
  parseEventMessage,
  sendOrDrop,
} from '../../src/server/rebuild/messages.ts';
import { isReleaseId, newReleaseId } from '../../src/server/rebuild/releases.ts';

const event = {
  source: 'contentful',
  topic: 'Entry.publish',
  id: 'abc',
  receivedAt: 1_700_000_000_000,
};

describe('a worker started ahead: standby, then listen', () => {
  test('each message is its own type, nothing else', () => {
    expect(isStandbyMessage({ type: 'serve:standby' })).toBe(true);
    expect(isListenMessage({ type: 'serve:listen' })).toBe(true);
    for (const other of [null, 'serve:listen', {}, { type: 'serve:drain' }, { type: 1 }]) {
      expect(isStandbyMessage(other)).toBe(false);
      expect(isListenMessage(other)).toBe(false);
    }
    expect(isStandbyMessage({ type: 'serve:listen' })).toBe(false);
    expect(isListenMessage({ type: 'serve:standby' })).toBe(false);
  });
});

describe('parseEventMessage', () => {
  test('an event message', () => {
    expect(parseEventMessage({ type: 'rebuild:event', event })).toEqual({
      type: 'rebuild:event',
      event,
    });
  });

  test.each([
    ['no type', { event }],
    ['another type', { type: 'serve:drain', event }],
    ['another source', { type: 'rebuild:event', event: { ...event, source: 'shopify' } }],
    ['a long id', { type: 'rebuild:event', event: { ...event, id: 'x'.repeat(101) } }],
    ['a text time', { type: 'rebuild:event', event: { ...event, receivedAt: 'now' } }],
    ['null', null],
    ['a string', 'rebuild:event'],
  ])('%s is ignored', (_name, message) => {
    expect(parseEventMessage(message)).toBeNull();
  });

  test('property: anything else never throws', () => {
    fc.assert(
      fc.property(fc.anything(), (message) => {
        expect(() => parseEventMessage(message)).not.toThrow();
      }),
    );
  });
});

describe('parseDrainMessage', () => {
  test('a drain message', () => {
    const message = {
      type: 'serve:drain',
      assetDirs: ['/srv/r1/client'],
      limitMs: 30_000,
      closeIdle: false,
    };
    expect(parseDrainMessage(message)).toEqual(message);
  });

  test.each([
    ['a negative limit', { type: 'serve:drain', assetDirs: [], limitMs: -1, closeIdle: false }],
    [
      'too many dirs',
      { type: 'serve:drain', assetDirs: Array(11).fill('/x'), limitMs: 1, closeIdle: true },
    ],
    ['no closeIdle', { type: 'serve:drain', assetDirs: [], limitMs: 1 }],
  ])('%s is ignored', (_name, message) => {
    expect(parseDrainMessage(message)).toBeNull();
  });
});

describe('release ids', () => {
  test('shape', () => {
    expect(newReleaseId(Date.UTC(2025, 10, 23, 18, 1, 2))).toMatch(
      /^r20251123-180102-[0-9a-f]{4}$/,
    );
  });

  test('property: well-formed, and later builds sort after earlier ones (to the second)', () => {
    const min = Date.UTC(2000, 0, 1);
    const max = Date.UTC(2099, 11, 31);
    fc.assert(
      fc.property(fc.integer({ min, max }), fc.integer({ min: 1000, max: 10 ** 10 }), (t, gap) => {
        const earlier = newReleaseId(t);
        const later = newReleaseId(t + gap);
        expect(isReleaseId(earlier)).toBe(true);
        expect(later > earlier).toBe(true);
      }),
    );
  });

  test.each([
    ['dist'],
    ['../r20251123-180102-abcd'],
    ['r20251123-180102-ABCD'],
    ['node_modules'],
    [''],
  ])('%j is not a release id', (name) => {
    expect(isReleaseId(name)).toBe(false);
  });
});

describe('sendOrDrop', () => {
  // A plain `send` to a process that is gone raises `error` on the next tick (EPIPE or
  // ERR_IPC_CHANNEL_CLOSED), which ends the sender when nobody listens (CI saw it end a run).
  test('a message to a process that has exited is dropped, reported, and nothing is thrown', async () => {
    const child = fork('-e', ['process.exit(0)'], { execArgv: [], stdio: 'ignore' });
    await once(child, 'exit');
    if (child.connected) await once(child, 'disconnect');
    const errors: unknown[] = [];
    child.on('error', (error) => errors.push(error));
    const dropped: Error[] = [];
    sendOrDrop(child, { type: 'stop' }, (error) => dropped.push(error));
    // Node reports a send on a closed channel on the next tick: to the send's callback when it
    // has one, else as an 'error' event. The loop's next turn (setImmediate) comes after every
    // tick the send queued, so by then either has happened.
    await new Promise((resolve) => setImmediate(resolve));
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toBeInstanceOf(Error);
    expect(errors).toEqual([]);
  });

  test('without a channel (not started by IPC), nothing is sent', () => {
    expect(sendOrDrop({}, { type: 'stop' })).toBe(false);
  });
});
