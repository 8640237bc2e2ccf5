/**
 * What a newsletter form shows for its state (spec §4, §8): pure, so the texts of each state
 * are unit-tested; `newsletter-form.ts` writes them into the static markup.
 */
import type { NewsletterInput } from '../../lib/commerce/validation.ts';
import type { FieldErrors } from '../../lib/commerce/validation.ts';
import type { MessageKey } from '../../lib/i18n/index.ts';
import { errorText, type Translate } from '../../lib/i18n/translate.ts';
import type { NewsletterFormState } from '../../lib/stores/newsletter.ts';
import { CALL_ERROR_MESSAGES } from '../../lib/api/client.ts';
import {
  ADD_EXISTS_OR_MISSING,
  NEWSLETTER_SUCCESS,
  SUBSCRIBE_EXISTS,
} from '../../lib/stores/newsletter.ts';

/** Id of the newsletter panel (its opening buttons' `popovertarget`). */
export const NEWSLETTER_PANEL_ID = 'newsletter-panel';
/** Id of the footer's newsletter section (Footer.astro): the top bar's offer links to it. */
export const NEWSLETTER_SECTION_ID = 'newsletter';

/** Every text the form may show: its validation, API and store messages. */
export const NEWSLETTER_FORM_MESSAGES = [
  // Any call may fail with these (upstream down or slow...): the island shows them in French.
  ...CALL_ERROR_MESSAGES,
  'newsletter.submit',
  'newsletter.success',
  'newsletter.error.exists',
  'newsletter.error.existsOrMissing',
  'validation.required',
  'validation.newsletterConsent',
  'validation.invalid',
  'Invalid email',
  'Too many attempts',
  'common.loading',
  'error.forbidden',
] as const satisfies readonly MessageKey[];

export interface NewsletterFormView {
  emailError: string;
  consentError: string;
  /** Above the button (spec §8 "the error message appears above the button"). */
  formError: string;
  /**
   * Above the button too, as news rather than a fault: the spec §8 texts of an
   * address already on the list ("Le contact existe déjà dans la liste."), in a neutral box
   * and a polite status, not the red alert.
   */
  info: string;
  /** Below it: the success text (spec §4). */
  status: string;
  button: string;
  pending: boolean;
}

export function newsletterFormView(
  state: NewsletterFormState,
  errors: FieldErrors<NewsletterInput>,
  t: Translate,
): NewsletterFormView {
  const text = (key: string | null | undefined) => (key ? t(key) : '');
  const already = state.error === SUBSCRIBE_EXISTS || state.error === ADD_EXISTS_OR_MISSING;
  return {
    emailError: text(errors.email),
    consentError: text(errors.consent ?? errors['']),
    formError: already ? '' : errorText(t, state.error),
    info: already ? errorText(t, state.error) : '',
    status: state.done ? t(NEWSLETTER_SUCCESS) : '',
    button: state.pending ? t('common.loading') : t('newsletter.submit'),
    pending: state.pending,
  };
}
