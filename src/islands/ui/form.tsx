/**
 * Small pieces the islands' forms share: reading a submitted field, the submit button with
 * its pending label, and the API or store error shown above it (spec §8).
 */
import { errorText, type Translate } from '../../lib/i18n/translate.ts';
import { buttonClass } from '../../lib/ui/classes.ts';

/** The text of field `name` in submitted form data ('' when absent or a file). */
export function formText(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
}

/** Whether checkbox `name` was ticked. */
export function formChecked(data: FormData, name: string): boolean {
  return data.get(name) === 'on';
}

/** The submit button: disabled and saying "Chargement…" while the action runs. */
export function SubmitButton({
  pending,
  label,
  t,
  size = 'md',
  fullWidth = false,
}: {
  pending: boolean;
  label: string;
  t: Translate;
  size?: 'md' | 'lg';
  fullWidth?: boolean;
}) {
  return (
    <button
      type="submit"
      className={buttonClass('primary', size, {
        fullWidth,
        className: fullWidth ? '' : 'self-start',
      })}
      disabled={pending}
    >
      {pending ? t('common.loading') : label}
    </button>
  );
}

/**
 * The error of an action (a message key) above the submit button, as an alert: its French
 * text, or the generic error for a key the island has no text for (`errorText`). A throttled
 * login's error has its own words (`text`: the wait) or a second line (`note`: the attempts
 * left, so the shopper is warned before the waits).
 */
export function FormError({
  message,
  t,
  text,
  note,
}: {
  message: string | null | undefined;
  t: Translate;
  text?: string | undefined;
  note?: string | undefined;
}) {
  if (message === null || message === undefined || message === '') return null;
  return (
    <div
      role="alert"
      className="rounded-control bg-danger/10 px-3 py-2 text-sm font-semibold text-danger"
    >
      <p>{text ?? errorText(t, message)}</p>
      {note !== undefined && <p className="mt-1">{note}</p>}
    </div>
  );
}
