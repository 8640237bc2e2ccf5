/**
 * Address book of the account area (spec §3 shipping address, §6: create, update, delete):
 * the saved addresses and one form at a time, with the spec's labels and the 40-character hint
 * (spec §5). The list starts from the addresses the page rendered with.
 */
import { useMemo, useState, type SubmitEvent } from 'react';
import { errorMessage } from '../../lib/api/client.ts';
import { api } from '../../lib/api/bigcommerce.ts';
import { streetLine } from '../../lib/commerce/address.ts';
import type { CustomerAddress } from '../../lib/commerce/types.ts';
import {
  ADDRESS_MAX_LENGTH,
  AddressInputSchema,
  fieldErrors,
} from '../../lib/commerce/validation.ts';
import {
  createTranslator,
  errorText,
  type Messages,
  type Translate,
} from '../../lib/i18n/translate.ts';
import { notify } from '../../lib/stores/notifications.ts';
import { buttonClass, inputClass } from '../../lib/ui/classes.ts';
import { FormError, formText, SubmitButton } from '../ui/form.tsx';
import { fieldError, FormField, type FieldErrors, type FieldSpec } from '../ui/TextField.tsx';
import { CALL_ERROR_MESSAGES } from '../../lib/api/client.ts';

/** Countries of the locale config (spec §3): France first, then the supported ones. */
export const ADDRESS_COUNTRIES = ['FR', 'AT', 'DE', 'NL', 'US'] as const;

export const ADDRESS_BOOK_MESSAGES = [
  // Any call may fail with these (upstream down or slow...): the island shows them in French.
  ...CALL_ERROR_MESSAGES,
  'address.add',
  'address.edit',
  'address.delete',
  'address.empty',
  'address.formTitleNew',
  'address.formTitleEdit',
  'address.cancel',
  'address.saved',
  'address.deleted',
  'address.firstName',
  'address.lastName',
  'address.company',
  'address.street',
  'address.houseNumber',
  'address.complement',
  'address.city',
  'address.state',
  'address.postalCode',
  'address.country',
  'address.phone',
  'account.save',
  'common.loading',
  'validation.addressHint',
  'validation.required',
  'validation.nameMin',
  'validation.tooLong',
  'validation.postalCode',
  'validation.phone',
  'validation.countryCode',
  'Login required',
  'Address not found',
  'Create address failed',
  'Update address failed',
  'country.FR',
  'country.AT',
  'country.DE',
  'country.NL',
  'country.US',
] as const;

export interface AddressBookProps {
  addresses: CustomerAddress[];
  messages: Messages;
}

export function AddressBook({ addresses: initial, messages }: AddressBookProps) {
  const t = useMemo(() => createTranslator(messages), [messages]);
  const [addresses, setAddresses] = useState(initial);
  const [editing, setEditing] = useState<number | 'new' | null>(null);

  async function remove(id: number) {
    try {
      await api.deleteCustomerAddress({ id: [id] });
      setAddresses((list) => list.filter((address) => address.id !== id));
      notify({ message: t('address.deleted'), type: 'success' });
    } catch (error) {
      notify({ message: errorText(t, errorMessage(error)), type: 'danger' });
    }
  }

  return (
    <div className="flex flex-col gap-6">
      {addresses.length === 0 && editing === null && (
        <p className="text-neutral-700">{t('address.empty')}</p>
      )}
      <ul className="grid gap-4 md:grid-cols-2">
        {addresses.map((address) =>
          editing === address.id ? (
            <li key={address.id} className="md:col-span-2">
              <AddressForm
                t={t}
                address={address}
                onCancel={() => {
                  setEditing(null);
                }}
                onSaved={(saved) => {
                  setAddresses((list) => list.map((a) => (a.id === saved.id ? saved : a)));
                  setEditing(null);
                }}
              />
            </li>
          ) : (
            <li
              key={address.id}
              className="flex flex-col gap-3 rounded-card border border-neutral-200 p-4"
              data-address={address.id}
            >
              <address className="text-neutral-800 not-italic">
                <strong className="block">
                  {address.firstName} {address.lastName}
                </strong>
                {address.company !== '' && <span className="block">{address.company}</span>}
                <span className="block">{streetLine(address)}</span>
                {address.address2 !== '' && <span className="block">{address.address2}</span>}
                <span className="block">
                  {address.postalCode} {address.city}
                </span>
                <span className="block">{t(`country.${address.countryCode}`)}</span>
                {address.phone !== '' && <span className="block">{address.phone}</span>}
              </address>
              <div className="flex gap-4">
                <button
                  type="button"
                  className={buttonClass('link', 'sm')}
                  onClick={() => {
                    setEditing(address.id);
                  }}
                >
                  {t('address.edit')}
                </button>
                <button
                  type="button"
                  className={buttonClass('link', 'sm')}
                  onClick={() => void remove(address.id)}
                >
                  {t('address.delete')}
                </button>
              </div>
            </li>
          ),
        )}
      </ul>
      {editing === 'new' ? (
        <AddressForm
          t={t}
          onCancel={() => {
            setEditing(null);
          }}
          onSaved={(saved) => {
            setAddresses((list) => [...list, saved]);
            setEditing(null);
          }}
        />
      ) : (
        <button
          type="button"
          className={buttonClass('outline', 'md', { className: 'self-start' })}
          onClick={() => {
            setEditing('new');
          }}
        >
          {t('address.add')}
        </button>
      )}
    </div>
  );
}

/** The address form's fields (spec §3 address labels: house/apartment number, street name, complement). */
const FIELDS = [
  { name: 'firstName', label: 'address.firstName', autoComplete: 'given-name', required: true },
  { name: 'lastName', label: 'address.lastName', autoComplete: 'family-name', required: true },
  { name: 'company', label: 'address.company', autoComplete: 'organization' },
  { name: 'houseNumber', label: 'address.houseNumber', autoComplete: 'off' },
  { name: 'address1', label: 'address.street', autoComplete: 'address-line1', required: true },
  { name: 'address2', label: 'address.complement', autoComplete: 'address-line2' },
  { name: 'postalCode', label: 'address.postalCode', autoComplete: 'postal-code', required: true },
  { name: 'city', label: 'address.city', autoComplete: 'address-level2', required: true },
  { name: 'stateOrProvince', label: 'address.state', autoComplete: 'address-level1' },
  { name: 'phone', label: 'address.phone', autoComplete: 'tel' },
] as const satisfies readonly FieldSpec[];

type FieldName = (typeof FIELDS)[number]['name'];

/** The fields of the 40-character address hint (spec §5, §9). */
const ADDRESS_LINES: ReadonlySet<string> = new Set(['houseNumber', 'address1', 'address2']);

function AddressForm({
  t,
  address,
  onCancel,
  onSaved,
}: {
  t: Translate;
  address?: CustomerAddress;
  onCancel: () => void;
  onSaved: (address: CustomerAddress) => void;
}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [apiError, setApiError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = (name: string) => formText(data, name);
    const input = {
      firstName: value('firstName'),
      lastName: value('lastName'),
      company: value('company'),
      houseNumber: value('houseNumber'),
      address1: value('address1'),
      address2: value('address2'),
      city: value('city'),
      stateOrProvince: value('stateOrProvince'),
      postalCode: value('postalCode'),
      countryCode: value('countryCode'),
      phone: value('phone'),
    };
    const found = fieldErrors(AddressInputSchema, input);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    setApiError(null);
    try {
      const saved =
        address === undefined
          ? await api.createCustomerAddress(input)
          : await api.updateCustomerAddress({ ...input, id: address.id });
      notify({ message: t('address.saved'), type: 'success' });
      onSaved(saved);
    } catch (error) {
      setApiError(errorMessage(error));
    } finally {
      setPending(false);
    }
  }

  const initial = (name: FieldName): string => (address === undefined ? '' : address[name]);
  return (
    <form
      noValidate
      className="flex flex-col gap-4 rounded-card border border-neutral-200 p-4"
      onSubmit={(event) => void submit(event)}
    >
      <h2 className="text-lg font-semibold text-primary-900">
        {address === undefined ? t('address.formTitleNew') : t('address.formTitleEdit')}
      </h2>
      <div className="grid gap-4 md:grid-cols-2">
        {FIELDS.map((field) => (
          <FormField
            key={field.name}
            field={field}
            t={t}
            errors={errors}
            defaultValue={initial(field.name)}
            hint={ADDRESS_LINES.has(field.name) ? t('validation.addressHint') : undefined}
            maxLength={ADDRESS_LINES.has(field.name) ? ADDRESS_MAX_LENGTH : undefined}
          />
        ))}
        <CountrySelect
          t={t}
          value={address?.countryCode ?? 'FR'}
          error={fieldError(t, errors, 'countryCode')}
        />
      </div>
      <FormError message={apiError} t={t} />
      <div className="flex flex-wrap gap-3">
        <SubmitButton pending={pending} label={t('account.save')} t={t} />
        <button type="button" className={buttonClass('ghost')} onClick={onCancel}>
          {t('address.cancel')}
        </button>
      </div>
    </form>
  );
}

function CountrySelect({
  t,
  value,
  error,
}: {
  t: Translate;
  value: string;
  error?: string | undefined;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor="address-country" className="text-sm font-semibold text-neutral-800">
        {t('address.country')}
      </label>
      <select
        id="address-country"
        name="countryCode"
        defaultValue={value}
        aria-invalid={error === undefined ? undefined : true}
        className={inputClass(error !== undefined)}
      >
        {ADDRESS_COUNTRIES.map((code) => (
          <option key={code} value={code}>
            {t(`country.${code}`)}
          </option>
        ))}
      </select>
      {error !== undefined && <p className="text-sm font-semibold text-danger">{error}</p>}
    </div>
  );
}
