/**
 * /mot-de-passe?resetToken=... (spec §2, §7): the new password (spec §5 rule), sent with the
 * token of the e-mailed link; the shopper is then logged in with it and goes to the account.
 */
import { useStore } from '@nanostores/react';
import { useMemo, useState, type SubmitEvent } from 'react';
import { ACCOUNT_HOME } from '../../lib/commerce/guards.ts';
import { fieldErrors, PasswordResetInputSchema } from '../../lib/commerce/validation.ts';
import { createTranslator, type Messages } from '../../lib/i18n/translate.ts';
import { $customerErrors, resetPassword } from '../../lib/stores/customer.ts';
import { FormError, SubmitButton } from '../ui/form.tsx';
import { TextField } from '../ui/TextField.tsx';
import { CALL_ERROR_MESSAGES } from '../../lib/api/client.ts';

export const PASSWORD_RESET_MESSAGES = [
  // Any call may fail with these (upstream down or slow...): the island shows them in French.
  ...CALL_ERROR_MESSAGES,
  'password.new',
  'password.submit',
  'register.passwordHint',
  'common.loading',
  'validation.required',
  'Password must have at least 7 characters including one letter and a number',
  'Invalid or expired reset link',
  'Invalid credentials',
  'Too many attempts',
] as const;

export function PasswordResetForm({
  resetToken,
  messages,
}: {
  resetToken: string;
  messages: Messages;
}) {
  const t = useMemo(() => createTranslator(messages), [messages]);
  const [error, setError] = useState<string | undefined>(undefined);
  const [pending, setPending] = useState(false);
  const apiError = useStore($customerErrors).reset;

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = new FormData(event.currentTarget).get('password');
    const input = { password: typeof password === 'string' ? password : '', resetToken };
    const found = fieldErrors(PasswordResetInputSchema, input);
    setError(found.password);
    if (found.password !== undefined) return;
    setPending(true);
    const ok = await resetPassword(input);
    setPending(false);
    if (ok) window.location.assign(ACCOUNT_HOME);
  }

  return (
    <form noValidate className="flex max-w-md flex-col gap-4" onSubmit={(e) => void submit(e)}>
      <TextField
        name="password"
        type="password"
        autoComplete="new-password"
        required
        label={t('password.new')}
        hint={t('register.passwordHint')}
        error={error === undefined ? undefined : t(error)}
      />
      <FormError message={apiError?.message} t={t} />
      <SubmitButton pending={pending} label={t('password.submit')} t={t} />
    </form>
  );
}
