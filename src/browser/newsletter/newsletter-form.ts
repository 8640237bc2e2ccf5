/**
 * Runs a newsletter form (spec §4, §5, §8): checks the e-mail and the consent, then
 * subscribes through the store, writing each state's texts (`newsletter-view.ts`) into the
 * static markup of `NewsletterForm.astro`. Each form keeps its own state.
 */
import {
  NewsletterInputSchema,
  validateForm,
  type FieldErrors,
  type NewsletterInput,
} from '../../lib/commerce/validation.ts';
import { createTranslator, pageMessages, PAGE_MESSAGES_ID } from '../../lib/i18n/translate.ts';
import { createNewsletterForm, IDLE_NEWSLETTER_FORM } from '../../lib/stores/newsletter.ts';
import { newsletterFormView } from './newsletter-view.ts';

type Runner = () => Promise<void>;

const runners = new WeakMap<HTMLFormElement, Runner>();

function runner(form: HTMLFormElement): Runner {
  const existing = runners.get(form);
  if (existing) return existing;
  const t = createTranslator(pageMessages(PAGE_MESSAGES_ID));
  const { $state, submit } = createNewsletterForm();
  const email = form.elements.namedItem('email');
  const consent = form.elements.namedItem('consent');
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  let errors: FieldErrors<NewsletterInput> = {};
  // Live regions from now on, before any text goes in (spec §8: the error above the button).
  form.querySelector('[data-form-error]')?.setAttribute('aria-live', 'assertive');
  form.querySelector('[data-form-status]')?.setAttribute('aria-live', 'polite');
  form.querySelector('[data-form-info]')?.setAttribute('role', 'status');

  const setText = (selector: string, text: string) => {
    const node = form.querySelector(selector);
    if (node && node.textContent !== text) node.textContent = text;
  };
  const markInvalid = (input: unknown, message: string) => {
    if (input instanceof HTMLInputElement) {
      if (message) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
  };
  const render = () => {
    const view = newsletterFormView($state.get(), errors, t);
    setText('[data-field-error="email"]', view.emailError);
    setText('[data-field-error="consent"]', view.consentError);
    setText('[data-form-error]', view.formError);
    setText('[data-form-info]', view.info);
    setText('[data-form-status]', view.status);
    markInvalid(email, view.emailError);
    markInvalid(consent, view.consentError);
    if (button) {
      button.textContent = view.button;
      button.disabled = view.pending;
    }
  };
  $state.listen(render);

  const run: Runner = async () => {
    if ($state.get().pending) return;
    const checked = validateForm(NewsletterInputSchema, {
      email: email instanceof HTMLInputElement ? email.value : '',
      consent: consent instanceof HTMLInputElement && consent.checked,
    });
    errors = checked.errors;
    $state.set({ ...IDLE_NEWSLETTER_FORM });
    render();
    if (!checked.success) {
      const first = checked.errors.email ? email : consent;
      if (first instanceof HTMLInputElement) first.focus();
      return;
    }
    const ok = await submit(checked.data.email);
    if (ok) form.reset();
  };
  runners.set(form, run);
  return run;
}

/** Readies the form (its live regions, its state) ahead of a submit: on its first focus. */
export function prepareNewsletterForm(form: HTMLFormElement): void {
  runner(form);
}

/** The form's submit: validation, then the subscription (ignored while one is running). */
export function submitNewsletterForm(form: HTMLFormElement): Promise<void> {
  return runner(form)();
}
