/**
 * The kept build's request loop (src/server/publish/publisher-loop.ts `servePublishRequests`):
 * a publish that adds or removes a page answers as soon as its pages are in place, and writes
 * the sitemaps after its reply and before the next request is handled; a stop waits for them;
 * sitemaps that could not be written are written again after the next request.
 */
import { EventEmitter } from 'node:events';
import { expect, test } from 'vitest';
import {
  servePublishRequests,
  type PublisherLoopOptions,
  type PublisherReply,
} from '../../src/server/publish/publisher-loop.ts';
import type { PublishState } from '../../src/server/publish/publish-data.ts';

const state = {} as PublishState;

/** A loop over a fake parent; `events` records replies and sitemap writes in order. */
function loop(
  sitemaps: (pages: readonly string[]) => Promise<void>,
  /** Whether each publish in turn adds a page (else it renders one again). */
  adds: readonly boolean[],
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
  const served = servePublishRequests(options, parent);
  const publish = (id: number) =>
    parent.emit('message', { type: 'publish', id, edits: [{ resource: 'product', id: 7 }] });
  return { events, parent, served, publish };
}

test('the reply first, the sitemaps after it, before the next request and before a stop', async () => {
  const { events, parent, served, publish } = loop(() => Promise.resolve(), [true, true]);
  publish(1);
  publish(2);
  parent.emit('message', { type: 'stop' });
  await served;
  expect(events).toEqual([
    'publisher-ready',
    'published 1',
    'sitemaps of 2 pages',
    'published 2',
    'sitemaps of 3 pages',
  ]);
});

test('sitemaps that could not be written are written after the next request', async () => {
  let fail = true;
  const { events, parent, served, publish } = loop(
    () => (fail ? Promise.reject(new Error('disque plein')) : Promise.resolve()),
    [true, false],
  );
  publish(1);
  await new Promise((resolve) => setTimeout(resolve, 10));
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
