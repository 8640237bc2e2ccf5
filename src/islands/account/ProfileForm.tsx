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
import {
  CheckboxField,
  EMAIL_FIELD,
  FormField,
  NAME_FIELDS,
  type FieldErrors,
  type FieldSpec,
} from '../ui/TextField.tsx';
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

/** The profile's phone and company, below the names and the e-mail. */
const PHONE_FIELD = {
  name: 'phone',
  label: 'address.phone',
  type: 'tel',
  autoComplete: 'tel',
} as const satisfies FieldSpec;
const COMPANY_FIELD = {
  name: 'company',
  label: 'address.company',
  autoComplete: 'organization',
} as const satisfies FieldSpec;

export function ProfileForm({
  customer,
  messages,
}: {
  customer: CurrentCustomer;
  messages: Messages;
}) {
  const t = useMemo(() => createTranslator(messages), [messages]);
  const [errors, setErrors] = useState<FieldErrors>({});
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

  const input = (
    field:
      (typeof NAME_FIELDS)[number] | typeof EMAIL_FIELD | typeof PHONE_FIELD | typeof COMPANY_FIELD,
  ) => (
    <FormField
      key={field.name}
      field={field}
      t={t}
      errors={errors}
      defaultValue={customer[field.name]}
    />
  );
  return (
    <form noValidate className="flex max-w-xl flex-col gap-4" onSubmit={(e) => void submit(e)}>
      <div className="grid gap-4 sm:grid-cols-2">{NAME_FIELDS.map(input)}</div>
      {/* One child each (not a list), as React's ids of the fields were before. */}
      {input(EMAIL_FIELD)}
      {input(PHONE_FIELD)}
      {input(COMPANY_FIELD)}
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
