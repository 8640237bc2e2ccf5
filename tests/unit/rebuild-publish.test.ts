/**
 * Publishing edits without a full build: what a batch carries to the kept build
 * (the distinct events, bounded), which batches can be published (commerce edits only), the
 * replies the supervisor accepts, and the render cache forgetting older renders on a publish.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createMemoryStore } from '../../src/shop/state/memory.ts';
import { cachedReply, createRenderCache } from '../../src/server/render-cache.ts';
import { parsePublisherReply, publishableEdits } from '../../src/server/rebuild/publish-edits.ts';
import {
  createRebuildScheduler,
  MAX_BATCH_EVENTS,
  type RebuildBatch,
  type RebuildEvent,
} from '../../src/server/rebuild/scheduler.ts';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

const productEvent = (id: number, action = 'updated'): RebuildEvent => ({
  source: 'bigcommerce',
  topic: `store/product/${action}`,
  id: String(id),
  receivedAt: Date.now(),
});

async function batchesOf(events: readonly RebuildEvent[]): Promise<RebuildBatch[]> {
  const batches: RebuildBatch[] = [];
  const scheduler = createRebuildScheduler({
    debounceMs: 100,
    build: (batch) => {
      batches.push(batch);
      return Promise.resolve({ ok: true });
    },
  });
  for (const event of events) scheduler.notify(event);
  await vi.advanceTimersByTimeAsync(1_000);
  await scheduler.stop();
  return batches;
}

describe('a batch names its distinct events', () => {
  test('each entity once, at its latest place; the count keeps every event', async () => {
    const [batch] = await batchesOf([productEvent(1), productEvent(2), productEvent(1, 'deleted')]);
    expect(batch?.count).toBe(3);
    expect(batch?.complete).toBe(true);
    expect(batch?.events.map((e) => `${e.topic} ${e.id}`)).toEqual([
      'store/product/updated 1',
      'store/product/updated 2',
      'store/product/deleted 1',
    ]);
  });

  test('past MAX_BATCH_EVENTS distinct events the batch is incomplete (a full build)', async () => {
    const events = Array.from({ length: MAX_BATCH_EVENTS + 1 }, (_, i) => productEvent(i + 1));
    const [batch] = await batchesOf(events);
    expect(batch?.events).toHaveLength(MAX_BATCH_EVENTS);
    expect(batch?.complete).toBe(false);
  });
});

describe('publishableEdits: which batches a kept build can publish', () => {
  test('products, categories and brands by numeric id, each once', () => {
    expect(
      publishableEdits([
        productEvent(101),
        productEvent(101, 'deleted'),
        { ...productEvent(20), topic: 'store/category/updated' },
        { ...productEvent(3), topic: 'store/brand/created' },
      ]),
    ).toEqual([
      { resource: 'product', id: 101 },
      { resource: 'category', id: 20 },
      { resource: 'brand', id: 3 },
    ]);
  });

  test('content entries and assets, each once, beside commerce edits', () => {
    const content = (topic: string, id: string): RebuildEvent => ({
      source: 'contentful',
      topic,
      id,
      receivedAt: 0,
    });
    expect(
      publishableEdits([
        productEvent(1),
        content('Entry.publish', 'page-cgv'),
        content('Entry.unpublish', 'page-cgv'),
        content('Asset.delete', 'img-1'),
      ]),
    ).toEqual([
      { resource: 'product', id: 1 },
      { resource: 'content', topic: 'Entry.unpublish', id: 'page-cgv' },
      { resource: 'content', topic: 'Asset.delete', id: 'img-1' },
    ]);
  });

  test('another content topic, a supervisor event, an other scope or a bad id: none (a full build)', () => {
    const content: RebuildEvent = {
      source: 'contentful',
      topic: 'ContentType.publish',
      id: 'abc',
      receivedAt: 0,
    };
    expect(publishableEdits([productEvent(1), content])).toBeNull();
    expect(
      publishableEdits([{ source: 'supervisor', topic: 'warm-up', id: 'x', receivedAt: 0 }]),
    ).toBeNull();
    expect(publishableEdits([{ ...productEvent(1), topic: 'store/order/created' }])).toBeNull();
    expect(publishableEdits([])).toBeNull();
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (id) => {
        fc.pre(!/^[1-9]\d{0,9}$/.test(id));
        expect(publishableEdits([{ ...productEvent(1), id }])).toBeNull();
      }),
    );
    expect(
      publishableEdits([{ ...content, topic: 'Entry.publish', id: 'x'.repeat(65) }]),
    ).toBeNull();
  });
});

describe('parsePublisherReply', () => {
  test('takes the three answers, refuses anything else', () => {
    expect(
      parsePublisherReply({ type: 'published', id: 1, written: ['/'], removed: [], ms: 5 }),
    ).toMatchObject({ type: 'published', pictures: [] });
    expect(
      parsePublisherReply({
        type: 'published',
        id: 1,
        written: ['/'],
        removed: [],
        pictures: ['_astro/a_1.webp'],
        ms: 5,
      }),
    ).toMatchObject({ pictures: ['_astro/a_1.webp'] });
    expect(parsePublisherReply({ type: 'publish-full', id: 1, reason: 'tree' })).toMatchObject({
      type: 'publish-full',
    });
    expect(parsePublisherReply({ type: 'publish-failed', error: 'x' })).toMatchObject({
      type: 'publish-failed',
    });
    for (const bad of [
      null,
      'published',
      { type: 'published', id: 1 },
      { type: 'published', id: 1, written: [], removed: [], pictures: [3], ms: 1 },
      { type: 'other' },
    ]) {
      expect(parsePublisherReply(bad)).toBeNull();
    }
  });
});

describe('render cache purge', () => {
  test('a purge forgets every render, here and in the shared store', async () => {
    const store = createMemoryStore();
    const a = createRenderCache({ buildId: 'b', store });
    const b = createRenderCache({ buildId: 'b', store });
    const reply = cachedReply({ 'content-type': 'text/html' }, Buffer.from('old price'), {
      freshMs: 60_000,
      staleMs: 300_000,
      now: Date.now(),
    });
    await a.set(a.keyOf('/vue/c/matelas?page=2'), reply);
    expect(await b.get(b.keyOf('/vue/c/matelas?page=2'))).not.toBeNull();
    a.purge(1);
    b.purge(1);
    expect(await a.get(a.keyOf('/vue/c/matelas?page=2'))).toBeNull();
    expect(await b.get(b.keyOf('/vue/c/matelas?page=2'))).toBeNull();
    expect(a.stats().entries).toBe(0);
    // A process started after the publish, on the same generation, shares with them again.
    const c = createRenderCache({ buildId: 'b', store, generation: 1 });
    await a.set(a.keyOf('/vue/c/matelas'), reply);
    expect(await c.get(c.keyOf('/vue/c/matelas'))).not.toBeNull();
  });
});
