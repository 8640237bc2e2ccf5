/**
 * A labelled input with optional hint and error for the islands' forms, wired with
 * aria-describedby / aria-invalid like `src/components/ui/Input.astro`.
 */
import { useId, type InputHTMLAttributes } from 'react';
import { inputClass } from '../../lib/ui/classes.ts';

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
