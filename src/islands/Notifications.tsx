/**
 * The notification stack (spec §4 UI state): at most 3 notifications, each gone after 3 s
 * unless persistent (the store enforces both). Rendered into the layout's polite live region
 * (`[data-notifications]` of BaseLayout.astro, static markup there from the start), so a screen
 * reader hears "Ajouté au panier" without losing its place, the first one included.
 */
import { useStore } from '@nanostores/react';
import { createPortal } from 'react-dom';
import type { Translate } from '../lib/i18n/translate.ts';
import { $notifications, dismissNotification } from '../lib/stores/notifications.ts';

/** Message keys the stack reads. */
export const NOTIFICATIONS_MESSAGES = ['notification.close'] as const;

const TONE = {
  success: 'border-success bg-white',
  danger: 'border-danger bg-white',
  info: 'border-primary-700 bg-white',
  warning: 'border-highlight bg-white',
} as const;

export function Notifications({ t, region }: { t: Translate; region: HTMLElement }) {
  const notifications = useStore($notifications);
  return createPortal(
    <>
      {notifications.map((notification) => (
        <div
          key={notification.id}
          role={notification.type === 'danger' ? 'alert' : 'status'}
          className={`pointer-events-auto flex w-full max-w-sm items-center gap-3 rounded-card border-s-4 px-4 py-3 shadow-lg ${TONE[notification.type]}`}
        >
          <p className="flex-1 text-sm font-semibold text-neutral-900">{notification.message}</p>
          {notification.action && (
            <button
              type="button"
              className="min-h-11 text-sm font-semibold text-primary-800 underline underline-offset-4"
              onClick={() => {
                notification.action?.onClick();
                dismissNotification(notification.id);
              }}
            >
              {notification.action.text}
            </button>
          )}
          {
            <button
              type="button"
              className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-full text-neutral-700 hover:bg-neutral-100"
              onClick={() => {
                dismissNotification(notification.id);
              }}
            >
              <span aria-hidden="true" className="text-xl leading-none">
                ×
              </span>
              <span className="sr-only">{t('notification.close')}</span>
            </button>
          }
        </div>
      ))}
    </>,
    region,
  );
}
