/**
 * "Mes informations" (spec §2 account default page, §6): the customer's profile, updated with
 * `updateCustomer` (spec §8 'Update client failed' when the reply is empty).
 */
import { useStore } from '@nanostores/react';
import { useMemo, useState, type SubmitEvent } from 'react';
import type { CurrentCustomer } from '../../lib/commerce/types.ts';
import { fieldErrors, ProfileInputSchema } from '../../lib/commerce/validation.ts';
import { createTranslator, type Messages } from '../../lib/i18n/translate.ts';
import { $customerErrors, updateProfile } from '../../lib/stores/customer.ts';
import { notify } from '../../lib/stores/notifications.ts';
import { FormError, formChecked, formText, SubmitButton } from '../ui/form.tsx';
import { CheckboxField, TextField } from '../ui/TextField.tsx';
import { CALL_ERROR_MESSAGES } from '../../lib/api/client.ts';

export const PROFILE_FORM_MESSAGES = [
  // Any call may fail with these (upstream down or slow...): the island shows them in French.
  ...CALL_ERROR_MESSAGES,
  'register.firstName',
  'register.lastName',
  'login.email',
  'address.phone',
  'address.company',
  'register.marketing',
  'account.save',
  'account.saved',
  'common.loading',
  'validation.required',
  'validation.nameMin',
  'validation.tooLong',
  'validation.phone',
  'Invalid email',
  'Update client failed',
  'Email already in use',
] as const;

export function ProfileForm({
  customer,
  messages,
}: {
  customer: CurrentCustomer;
  messages: Messages;
}) {
  const t = useMemo(() => createTranslator(messages), [messages]);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [pending, setPending] = useState(false);
  const apiError = useStore($customerErrors).update;

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = (name: string) => formText(data, name);
    const input = {
      firstName: value('firstName'),
      lastName: value('lastName'),
      email: value('email'),
      phone: value('phone'),
      company: value('company'),
      acceptsMarketing: formChecked(data, 'acceptsMarketing'),
    };
    const found = fieldErrors(ProfileInputSchema, input);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const ok = await updateProfile(input);
    setPending(false);
    if (ok) notify({ message: t('account.saved'), type: 'success' });
  }

  const error = (name: string) => (errors[name] === undefined ? undefined : t(errors[name]));
  return (
    <form noValidate className="flex max-w-xl flex-col gap-4" onSubmit={(e) => void submit(e)}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          name="firstName"
          autoComplete="given-name"
          required
          label={t('register.firstName')}
          defaultValue={customer.firstName}
          error={error('firstName')}
        />
        <TextField
          name="lastName"
          autoComplete="family-name"
          required
          label={t('register.lastName')}
          defaultValue={customer.lastName}
          error={error('lastName')}
        />
      </div>
      <TextField
        name="email"
        type="email"
        autoComplete="email"
        required
        label={t('login.email')}
        defaultValue={customer.email}
        error={error('email')}
      />
      <TextField
        name="phone"
        type="tel"
        autoComplete="tel"
        label={t('address.phone')}
        defaultValue={customer.phone}
        error={error('phone')}
      />
      <TextField
        name="company"
        autoComplete="organization"
        label={t('address.company')}
        defaultValue={customer.company}
        error={error('company')}
      />
      <CheckboxField
        name="acceptsMarketing"
        label={t('register.marketing')}
        defaultChecked={customer.acceptsMarketing}
      />
      <FormError message={apiError?.message} t={t} />
      <SubmitButton pending={pending} label={t('account.save')} t={t} />
    </form>
  );
}
