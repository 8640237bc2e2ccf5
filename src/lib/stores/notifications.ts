/**
 * Notifications (spec §3 entity, §4 UI state, §9): at most 3 are kept, the oldest dropped; each
 * disappears after 3 s unless persistent. Initial value: none, also on the server.
 */
import { atom } from 'nanostores';

/** Tones of the UI kit (order statuses use the same success / danger / highlight). */
export type NotificationType = 'success' | 'danger' | 'info' | 'warning';

export interface NotificationAction {
  /** Message key (or text) of the button. */
  text: string;
  onClick: () => void;
}

export interface Notification {
  id: number;
  /** Message key (or text): the island translates it. */
  message: string;
  type: NotificationType;
  /** Icon name of the UI kit, or null for the type's default. */
  icon: string | null;
  action: NotificationAction | null;
  /** Removes this notification. */
  dismiss: () => void;
  persistent: boolean;
}

export interface NotifyInput {
  message: string;
  type?: NotificationType;
  icon?: string | null;
  action?: NotificationAction | null;
  persistent?: boolean;
}

/** spec §9: max 3. */
export const MAX_NOTIFICATIONS = 3;
/** spec §9: auto-dismiss 3 s. */
export const NOTIFICATION_TIMEOUT_MS = 3000;

export const $notifications = atom<readonly Notification[]>([]);

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function stopTimer(id: number): void {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
}

/** Shows a notification; returns its id. */
export function notify(input: NotifyInput): number {
  const id = nextId++;
  const notification: Notification = {
    id,
    message: input.message,
    type: input.type ?? 'info',
    icon: input.icon ?? null,
    action: input.action ?? null,
    dismiss: () => {
      dismissNotification(id);
    },
    persistent: input.persistent === true,
  };
  const all = [...$notifications.get(), notification];
  const dropped = all.slice(0, Math.max(0, all.length - MAX_NOTIFICATIONS));
  for (const old of dropped) stopTimer(old.id);
  $notifications.set(all.slice(-MAX_NOTIFICATIONS));
  if (!notification.persistent) {
    timers.set(
      id,
      setTimeout(() => {
        dismissNotification(id);
      }, NOTIFICATION_TIMEOUT_MS),
    );
  }
  return id;
}

/** Removes notification `id` (no-op when it is already gone). */
export function dismissNotification(id: number): void {
  stopTimer(id);
  const list = $notifications.get();
  if (list.some((n) => n.id === id)) $notifications.set(list.filter((n) => n.id !== id));
}

/**
 * Removes every notification.
 * @internal The tests' seam: each starts from no notification and no timer.
 */
export function clearNotifications(): void {
  for (const id of timers.keys()) stopTimer(id);
  $notifications.set([]);
}
