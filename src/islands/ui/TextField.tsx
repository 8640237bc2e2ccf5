/**
 * A labelled input with optional hint and error for the islands' forms, wired with
 * aria-describedby / aria-invalid like `src/components/ui/Input.astro`. A form's fields are
 * described once (`FieldSpec`: name, label key, autocomplete token, type, required) and
 * rendered by `FormField` with the form's translator and its validation errors (message keys);
 * the fields several forms ask for (name, e-mail) are described here.
 */
import { useId, type InputHTMLAttributes } from 'react';
import { inputClass } from '../../lib/ui/classes.ts';
import type { Translate } from '../../lib/i18n/translate.ts';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  name: string;
  label: string;
  hint?: string | undefined;
  /** Already translated. */
  error?: string | undefined;
}

export function TextField({ name, label, hint, error, type = 'text', ...rest }: TextFieldProps) {
  const id = useId();
  const hintId = hint === undefined ? undefined : `${id}-hint`;
  const errorId = error === undefined ? undefined : `${id}-error`;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold text-neutral-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        aria-describedby={describedBy}
        aria-invalid={error === undefined ? undefined : true}
        className={inputClass(error !== undefined)}
        {...rest}
      />
      {hint !== undefined && (
        <p id={hintId} className="text-sm text-neutral-600">
          {hint}
        </p>
      )}
      {error !== undefined && (
        <p id={errorId} className="text-sm font-semibold text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

export interface CheckboxFieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'type'
> {
  name: string;
  label: string;
  error?: string | undefined;
}

export function CheckboxField({ name, label, error, ...rest }: CheckboxFieldProps) {
  const id = useId();
  const errorId = error === undefined ? undefined : `${id}-error`;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-start gap-3">
        <input
          id={id}
          name={name}
          type="checkbox"
          aria-describedby={errorId}
          aria-invalid={error === undefined ? undefined : true}
          className="mt-0.5 size-5 shrink-0 accent-primary-800"
          {...rest}
        />
        <label htmlFor={id} className="text-sm text-neutral-800">
          {label}
        </label>
      </div>
      {error !== undefined && (
        <p id={errorId} className="text-sm font-semibold text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

/** A text field of a form, described once. */
export interface FieldSpec {
  name: string;
  /** Message key of the label. */
  label: string;
  autoComplete: string;
  type?: 'email' | 'password' | 'tel';
  required?: boolean;
}

/** The validation errors of a form (`fieldErrors`): a message key per field name. */
export type FieldErrors = Partial<Record<string, string>>;

/** The customer's first and last names (registration, profile). */
export const NAME_FIELDS = [
  { name: 'firstName', label: 'register.firstName', autoComplete: 'given-name', required: true },
  { name: 'lastName', label: 'register.lastName', autoComplete: 'family-name', required: true },
] as const satisfies readonly FieldSpec[];

/** The customer's e-mail address (login, registration, reset request, profile). */
export const EMAIL_FIELD = {
  name: 'email',
  label: 'login.email',
  type: 'email',
  autoComplete: 'email',
  required: true,
} as const satisfies FieldSpec;

/** The translated validation error of field `name`, or undefined. */
export function fieldError(t: Translate, errors: FieldErrors, name: string): string | undefined {
  const key = errors[name];
  return key === undefined ? undefined : t(key);
}

export type FormFieldProps = Omit<TextFieldProps, 'name' | 'label' | 'error' | 'type'> & {
  field: FieldSpec;
  t: Translate;
  errors: FieldErrors;
};

/** `field` as a `TextField`: its label translated, its validation error shown. */
export function FormField({ field, t, errors, ...rest }: FormFieldProps) {
  return (
    <TextField
      name={field.name}
      type={field.type}
      autoComplete={field.autoComplete}
      required={field.required}
      label={t(field.label)}
      error={fieldError(t, errors, field.name)}
      {...rest}
    />
  );
}
