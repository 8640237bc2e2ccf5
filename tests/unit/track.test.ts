/**
 * `track` (src/lib/stores/track.ts): the page scripts' pushes reach the analytics store, fetched
 * on first use, in the order they were made; nothing on the server.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';

const calls: string[] = [];
vi.mock('../../src/lib/stores/analytics.ts', () => ({
  trackViewItem: (item: { item_id: string }) => calls.push(`view_item ${item.item_id}`),
  trackAddToCart: (item: { item_id: string }) => calls.push(`add_to_cart ${item.item_id}`),
  trackUserData: () => calls.push('user_data'),
}));

const item = (id: string) => ({ item_id: id, item_name: id, price: 1, quantity: 1 });

afterEach(() => {
  calls.length = 0;
  Reflect.deleteProperty(globalThis, 'window');
});

describe('track', () => {
  test('pushes in call order once the store is loaded', async () => {
    Reflect.set(globalThis, 'window', globalThis);
    const { track, analyticsStore } = await import('../../src/lib/stores/track.ts');
    track('trackUserData');
    track('trackViewItem', item('1'));
    track('trackAddToCart', item('2'));
    await analyticsStore();
    await Promise.resolve();
    expect(calls).toEqual(['user_data', 'view_item 1', 'add_to_cart 2']);
  });

  test('does nothing on the server', async () => {
    const { track, analyticsStore } = await import('../../src/lib/stores/track.ts');
    track('trackViewItem', item('3'));
    await analyticsStore();
    await Promise.resolve();
    expect(calls).toEqual([]);
  });
});
