/**
 * A modal dialog or side drawer on the native `<dialog>` (focus kept inside, Escape closes,
 * the page behind inert). Controlled: `open` drives `showModal()` / `close()`, and every way
 * of closing (Escape, the close button, a click on the backdrop) calls `onClose`.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  /** Visible heading, also the dialog's accessible name. */
  title: string;
  /** Accessible label of the close button ("Fermer"). */
  closeLabel: string;
  variant?: 'modal' | 'drawer-right' | 'drawer-left';
  children: ReactNode;
  /** Sticky bottom area (totals, actions) of a drawer. */
  footer?: ReactNode;
}

const PLACEMENT = {
  modal: 'm-auto w-[min(32rem,calc(100vw-2rem))] max-h-[calc(100dvh-2rem)] rounded-card',
  'drawer-right': 'ms-auto me-0 my-0 h-dvh max-h-dvh w-[min(28rem,100vw)] max-w-full',
  'drawer-left': 'ms-0 me-auto my-0 h-dvh max-h-dvh w-[min(28rem,100vw)] max-w-full',
} as const;

export function Dialog({
  open,
  onClose,
  title,
  closeLabel,
  variant = 'modal',
  children,
  footer,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    // The click handler is the backdrop's light dismiss, a pointer shortcut: from the keyboard
    // the dialog closes with Escape (its native cancel) and the labelled close button.
    // (`closedby="any"` would do it natively, but Safari lacks it.)
    // eslint-disable-next-line jsx-a11y-x/click-events-have-key-events, jsx-a11y-x/no-noninteractive-element-interactions -- see above
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className={`${PLACEMENT[variant]} flex-col bg-white p-0 text-neutral-900 shadow-xl backdrop:bg-neutral-950/50 open:flex`}
      onClose={() => {
        // Escape, or close() after `open` became false: tell the owner only in the first case.
        if (open) onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop targets the dialog element itself.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="flex items-center justify-between gap-4 border-b border-neutral-200 px-5 py-4">
        <h2 id={titleId} className="text-lg font-semibold text-primary-900">
          {title}
        </h2>
        <button
          type="button"
          onClick={onClose}
          className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-full text-neutral-700 hover:bg-neutral-100"
        >
          <span aria-hidden="true" className="text-2xl leading-none">
            ×
          </span>
          <span className="sr-only">{closeLabel}</span>
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>
      {footer !== undefined && (
        <div className="border-t border-neutral-200 px-5 py-4">{footer}</div>
      )}
    </dialog>
  );
}
