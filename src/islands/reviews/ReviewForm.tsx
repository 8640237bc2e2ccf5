/**
 * The review form (spec §2, §5): title and message at least three characters, a rating from 1
 * to 5 (required), name and e-mail (a logged-in customer's are filled in). The new review is
 * pending: the shopper is told it will show once approved.
 */
import { useStore } from '@nanostores/react';
import { useId, useState, type SubmitEvent } from 'react';
import {
  REVIEW_TEXT_MAX_LENGTH,
  REVIEW_TITLE_MAX_LENGTH,
  ReviewInputSchema,
  validateForm,
  type FieldErrors,
  type ReviewInput,
} from '../../lib/commerce/validation.ts';
import type { Translate } from '../../lib/i18n/translate.ts';
import { $customer } from '../../lib/stores/customer.ts';
import { $reviewErrors, createReview } from '../../lib/stores/reviews.ts';
import { FormError, formText, SubmitButton } from '../ui/form.tsx';
import { TextField } from '../ui/TextField.tsx';
import { inputClass } from '../../lib/ui/classes.ts';

export function ReviewForm({ productId, t }: { productId: number; t: Translate }) {
  const customer = useStore($customer);
  const apiError = useStore($reviewErrors).create;
  const [errors, setErrors] = useState<FieldErrors<ReviewInput>>({});
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState(false);
  const id = useId();

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const rating = Number(formText(data, 'rating'));
    const checked = validateForm(ReviewInputSchema, {
      productId,
      title: formText(data, 'title'),
      text: formText(data, 'text'),
      rating: rating > 0 ? rating : undefined,
      name: formText(data, 'name'),
      email: formText(data, 'email'),
    });
    setErrors(checked.errors);
    setSent(false);
    if (!checked.success) {
      const first = Object.keys(checked.errors)[0];
      if (first !== undefined) form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setPending(true);
    const ok = await createReview(checked.data);
    setPending(false);
    if (ok) {
      form.reset();
      setSent(true);
    }
  }

  const error = (name: keyof ReviewInput) =>
    errors[name] === undefined ? undefined : t(errors[name]);
  const ratingError = error('rating');
  const textError = error('text');
  const fullName = customer ? `${customer.firstName} ${customer.lastName}`.trim() : undefined;

  return (
    <form
      noValidate
      aria-labelledby={`${id}-title`}
      className="flex max-w-xl flex-col gap-4"
      onSubmit={(event) => void submit(event)}
      data-review-form
    >
      <h3 id={`${id}-title`} className="text-xl font-semibold">
        {t('reviews.write')}
      </h3>
      <fieldset
        className="flex flex-col gap-1.5"
        aria-describedby={ratingError === undefined ? undefined : `${id}-rating-error`}
      >
        <legend className="text-sm font-semibold text-neutral-800">{t('reviews.rating')}</legend>
        <div className="flex flex-wrap gap-2">
          {[1, 2, 3, 4, 5].map((value) => (
            <label
              key={value}
              className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-control border border-neutral-300 px-3 has-checked:border-primary-700 has-checked:bg-primary-50"
            >
              <input type="radio" name="rating" value={value} className="accent-primary-800" />
              <span>{t('reviews.stars', { count: value })}</span>
            </label>
          ))}
        </div>
        {ratingError !== undefined && (
          <p id={`${id}-rating-error`} className="text-sm font-semibold text-danger">
            {ratingError}
          </p>
        )}
      </fieldset>
      <TextField
        name="title"
        required
        maxLength={REVIEW_TITLE_MAX_LENGTH}
        label={t('reviews.titleField')}
        error={error('title')}
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-text`} className="text-sm font-semibold text-neutral-800">
          {t('reviews.text')}
        </label>
        <textarea
          id={`${id}-text`}
          name="text"
          required
          rows={5}
          maxLength={REVIEW_TEXT_MAX_LENGTH}
          aria-invalid={textError === undefined ? undefined : true}
          aria-describedby={textError === undefined ? undefined : `${id}-text-error`}
          className={`${inputClass(textError !== undefined)} py-2`}
        />
        {textError !== undefined && (
          <p id={`${id}-text-error`} className="text-sm font-semibold text-danger">
            {textError}
          </p>
        )}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          name="name"
          required
          autoComplete="name"
          label={t('reviews.name')}
          defaultValue={fullName}
          error={error('name')}
        />
        <TextField
          name="email"
          type="email"
          required
          autoComplete="email"
          label={t('reviews.email')}
          hint={t('reviews.emailHint')}
          defaultValue={customer?.email}
          error={error('email')}
        />
      </div>
      <FormError message={apiError} t={t} />
      <SubmitButton pending={pending} label={t('reviews.submit')} t={t} />
      <p aria-live="polite" className="text-sm font-semibold text-success" data-review-status>
        {sent ? t('reviews.pending') : ''}
      </p>
    </form>
  );
}
