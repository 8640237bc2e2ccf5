/**
 * The kept build's request loop (src/server/publish/publisher-loop.ts `servePublishRequests`):
 * a publish that adds or removes a page answers as soon as its pages are in place; the sitemaps
 * are written after the reply once the requests pause (a run of publishes lists its pages once),
 * at the latest once owed for the longest wait, and before a stop; sitemaps that could not be
 * written are written again after the next request.
 */
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import {
  servePublishRequests,
  type PublisherLoopOptions,
  type PublisherReply,
  type SitemapTiming,
} from '../../src/server/publish/publisher-loop.ts';
import type { PublishState } from '../../src/server/publish/publish-data.ts';

const state = {} as PublishState;

/** A loop over a fake parent; `events` records replies and sitemap writes in order. */
function loop(
  sitemaps: (pages: readonly string[]) => Promise<void>,
  /** Whether each publish in turn adds a page (else it renders one again). */
  adds: readonly boolean[],
  timing: SitemapTiming = { quietMs: 30, maxWaitMs: 10_000 },
) {
  const events: string[] = [];
  const parent = new EventEmitter();
  let added = 0;
  const options: PublisherLoopOptions = {
    publisher: {
      routeFor: () => null,
      fileOf: () => '',
      dataChanged: () => undefined,
      publish: (change) =>
        Promise.resolve({
          written: [...change.render],
          removed: [...change.remove],
          pictures: [],
          refused: [],
          ms: 1,
        }),
    },
    data: {
      current: () => Promise.resolve(state),
      apply: () => Promise.resolve({ before: state, after: state }),
    },
    decide: () => {
      const adding = adds[added] ?? false;
      added += 1;
      const render = [adding ? `/p${String(added)}` : '/'];
      return { kind: 'partial', render, remove: [], pageSetChanged: adding };
    },
    send: (reply: PublisherReply) => {
      events.push(reply.type === 'published' ? `published ${String(reply.id)}` : reply.type);
    },
    pages: new Set(['/']),
    sitemaps: async (pages) => {
      events.push(`sitemaps of ${String(pages.length)} pages`);
      await sitemaps(pages);
    },
    listings: null,
  };
  const served = servePublishRequests(options, parent, timing);
  const publish = (id: number) =>
    parent.emit('message', { type: 'publish', id, edits: [{ resource: 'product', id: 7 }] });
  return { events, parent, served, publish };
}

// The loop's timers and clock are the test's: each step is moved on by hand.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});
const pause = (ms: number) => vi.advanceTimersByTimeAsync(ms);

test('a run of publishes answers each at once and lists the pages once, when the requests pause', async () => {
  const { events, parent, served, publish } = loop(() => Promise.resolve(), [true, true, true]);
  publish(1);
  publish(2);
  await pause(5);
  publish(3);
  expect(events).not.toContain('sitemaps of 4 pages');
  await pause(100);
  expect(events).toEqual([
    'publisher-ready',
    'published 1',
    'published 2',
    'published 3',
    'sitemaps of 4 pages',
  ]);
  // Nothing owed any more: a stop writes nothing.
  parent.emit('message', { type: 'stop' });
  await served;
  expect(events.filter((event) => event.startsWith('sitemaps'))).toHaveLength(1);
});

test('a stop writes the sitemaps still owed before it ends', async () => {
  const { events, parent, served, publish } = loop(() => Promise.resolve(), [true, true], {
    quietMs: 60_000,
    maxWaitMs: 60_000,
  });
  publish(1);
  publish(2);
  parent.emit('message', { type: 'stop' });
  await served;
  expect(events).toEqual(['publisher-ready', 'published 1', 'published 2', 'sitemaps of 3 pages']);
});

test('publishes without a pause: the sitemaps are written once owed for the longest wait', async () => {
  const { events, parent, served, publish } = loop(
    () => Promise.resolve(),
    [true, false, false, false, false, false],
    { quietMs: 60_000, maxWaitMs: 40 },
  );
  for (let id = 1; id <= 6; id += 1) {
    publish(id);
    await pause(15);
  }
  parent.emit('message', { type: 'stop' });
  await served;
  const written = events.indexOf('sitemaps of 2 pages');
  // Not after the first reply (the next request came), nor only at the stop.
  expect(written).toBeGreaterThan(events.indexOf('published 2'));
  expect(written).toBeLessThan(events.indexOf('published 6'));
  expect(events.filter((event) => event.startsWith('sitemaps'))).toHaveLength(1);
});

test('sitemaps that could not be written are written after the next request', async () => {
  let fail = true;
  const { events, parent, served, publish } = loop(
    () => (fail ? Promise.reject(new Error('disque plein')) : Promise.resolve()),
    [true, false],
  );
  publish(1);
  await pause(100);
  fail = false;
  // It adds no page, but the list of the first one is still to be written.
  publish(2);
  parent.emit('message', { type: 'stop' });
  await served;
  expect(events).toEqual([
    'publisher-ready',
    'published 1',
    'sitemaps of 2 pages',
    'published 2',
    'sitemaps of 2 pages',
  ]);
});

test('a publish that adds no page writes no sitemap; an operator’s render request does', async () => {
  const { events, parent, served, publish } = loop(() => Promise.resolve(), [false]);
  publish(1);
  parent.emit('message', { type: 'render', id: 2, render: [], remove: [] });
  parent.emit('message', { type: 'stop' });
  await served;
  expect(events).toEqual(['publisher-ready', 'published 1', 'published 2', 'sitemaps of 1 pages']);
});
