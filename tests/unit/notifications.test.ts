import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  $notifications,
  clearNotifications,
  dismissNotification,
  notify,
} from '../../src/lib/stores/notifications.ts';
import { record } from './helpers/shop-api.ts';

const messages = () => $notifications.get().map((n) => n.message);

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  clearNotifications();
  vi.useRealTimers();
});

describe('notifications (spec §4 UI state, §9: max 3, 3 s)', () => {
  test('a notification with its fields; gone after 3 s', () => {
    const onClick = vi.fn();
    const id = notify({
      message: 'Added to cart',
      type: 'success',
      icon: 'check',
      action: { text: 'cart.viewCart', onClick },
    });
    expect($notifications.get()).toEqual([
      {
        id,
        message: 'Added to cart',
        type: 'success',
        icon: 'check',
        action: { text: 'cart.viewCart', onClick },
        dismiss: expect.any(Function) as unknown,
        persistent: false,
      },
    ]);
    vi.advanceTimersByTime(2999);
    expect(messages()).toEqual(['Added to cart']);
    vi.advanceTimersByTime(1);
    expect(messages()).toEqual([]);
  });

  test('defaults: info, no icon, no action', () => {
    notify({ message: 'x' });
    expect($notifications.get()[0]).toMatchObject({
      type: 'info',
      icon: null,
      action: null,
      persistent: false,
    });
  });

  test('at most 3 kept, the oldest dropped (exact sequence)', () => {
    const lists = record($notifications);
    notify({ message: 'a' });
    notify({ message: 'b' });
    notify({ message: 'c' });
    notify({ message: 'd' });
    expect(lists.map((list) => list.map((n) => n.message))).toEqual([
      ['a'],
      ['a', 'b'],
      ['a', 'b', 'c'],
      ['b', 'c', 'd'],
    ]);
  });

  test('each goes 3 s after it came', () => {
    notify({ message: 'a' });
    vi.advanceTimersByTime(1000);
    notify({ message: 'b' });
    vi.advanceTimersByTime(2000);
    expect(messages()).toEqual(['b']);
    vi.advanceTimersByTime(1000);
    expect(messages()).toEqual([]);
  });

  test('a persistent one stays until dismissed', () => {
    const id = notify({ message: 'p', persistent: true });
    notify({ message: 't' });
    vi.advanceTimersByTime(60_000);
    expect(messages()).toEqual(['p']);
    dismissNotification(id);
    expect(messages()).toEqual([]);
  });

  test('a persistent one is still dropped when 3 newer come', () => {
    notify({ message: 'p', persistent: true });
    notify({ message: 'a' });
    notify({ message: 'b' });
    notify({ message: 'c' });
    expect(messages()).toEqual(['a', 'b', 'c']);
  });

  test('dismiss() of the notification removes it and its timer', () => {
    notify({ message: 'a' });
    notify({ message: 'b' });
    const lists = record($notifications);
    $notifications.get()[0]?.dismiss();
    vi.advanceTimersByTime(5000);
    expect(lists.map((list) => list.map((n) => n.message))).toEqual([['b'], []]);
  });

  test('dismissing an unknown id changes nothing', () => {
    notify({ message: 'a' });
    const lists = record($notifications);
    dismissNotification(9999);
    expect(lists).toEqual([]);
  });
});
