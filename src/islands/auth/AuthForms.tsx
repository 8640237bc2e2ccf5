/**
 * The login and registration forms (spec §2 login modal, /connexion, /inscription) and the
 * "forgotten password" request. Validation runs on the shared schemas of
 * `src/lib/commerce/validation.ts` (the API methods check the same ones); the login or register
 * error appears above the submit button (spec §8) and the form stays open.
 */
import { useStore } from '@nanostores/react';
import { useId, useState, type SubmitEvent } from 'react';
import {
  fieldErrors,
  LoginInputSchema,
  PasswordResetRequestSchema,
  RegistrationInputSchema,
  validateForm,
} from '../../lib/commerce/validation.ts';
import type { Translate } from '../../lib/i18n/translate.ts';
import { trackLogin, trackSignUp } from '../../lib/stores/analytics.ts';
import {
  $customerErrors,
  login,
  register,
  requestPasswordReset,
} from '../../lib/stores/customer.ts';
import { buttonClass } from '../../lib/ui/classes.ts';
import { FormError, formChecked, formText, SubmitButton } from '../ui/form.tsx';
import {
  CheckboxField,
  EMAIL_FIELD,
  fieldError,
  FormField,
  NAME_FIELDS,
  type FieldErrors,
  type FieldSpec,
} from '../ui/TextField.tsx';
import { CALL_ERROR_MESSAGES } from '../../lib/api/client.ts';
import { throttleNotice } from '../../lib/commerce/login-throttle.ts';
import { WAIT_MESSAGES, waitInWords } from '../../lib/i18n/wait.ts';
import type { ActionError } from '../../lib/stores/cart.ts';

export type AuthScreen = 'login' | 'register' | 'forgot';

/** Message keys the forms read (validation and API error keys included). */
export const AUTH_FORMS_MESSAGES = [
  // Any call may fail with these (upstream down or slow...): the island shows them in French.
  ...CALL_ERROR_MESSAGES,
  'login.title',
  'login.email',
  'login.password',
  'login.submit',
  'login.forgotPassword',
  'login.toRegister',
  'register.title',
  'register.firstName',
  'register.lastName',
  'register.submit',
  'register.toLogin',
  'register.marketing',
  'register.passwordHint',
  'I want to create an account',
  'forgot.title',
  'forgot.intro',
  'forgot.submit',
  'forgot.sent',
  'forgot.back',
  'common.loading',
  'validation.required',
  'validation.nameMin',
  'validation.createAccount',
  'validation.tooLong',
  'Invalid email',
  'Password must have at least 7 characters including one letter and a number',
  'Invalid credentials',
  // 429 of the login and registration throttle (the form shows it, then the shopper waits).
  'Too many attempts',
  // The throttle's wait in words, and the attempts left before it (login-throttle.ts).
  ...WAIT_MESSAGES,
  'throttle.wait',
  'login.attemptsLeft_one',
  'login.attemptsLeft_other',
  'login.attemptsLeftNone',
  'Get user data failed',
  'Email already in use',
] as const;

export interface AuthFormsProps {
  screen: AuthScreen;
  onScreenChange: (screen: AuthScreen) => void;
  /** Called once the shopper is logged in (after login or registration). */
  onSuccess: () => void;
  t: Translate;
  /** Heading level of the form titles (2 in a dialog or page section). */
  headingLevel?: 1 | 2;
  /** The login screen links to registration (not in the reseller area: accounts come from us). */
  allowRegister?: boolean;
}

export function AuthForms(props: AuthFormsProps) {
  if (props.screen === 'register') return <RegisterForm {...props} />;
  if (props.screen === 'forgot') return <ForgotForm {...props} />;
  return <LoginForm {...props} />;
}

/** The password of a login, and the new one of a registration (with its hint). */
const PASSWORD_FIELD = {
  name: 'password',
  label: 'login.password',
  type: 'password',
  autoComplete: 'current-password',
  required: true,
} as const satisfies FieldSpec;
const NEW_PASSWORD_FIELD = { ...PASSWORD_FIELD, autoComplete: 'new-password' } as const;

/**
 * The login or registration error, throttle included: a refused attempt says how
 * long to wait ("Veuillez réessayer dans 4 minutes"), a wrong password with few attempts left
 * says how many. Without such details, the spec text alone.
 */
function AccountFormError({ error, t }: { error: ActionError | null; t: Translate }) {
  const notice = throttleNotice(error);
  return (
    <FormError
      message={error?.message}
      t={t}
      text={
        notice?.kind === 'wait'
          ? t('throttle.wait', { wait: waitInWords(t, notice.seconds) })
          : undefined
      }
      note={
        notice?.kind !== 'warning'
          ? undefined
          : notice.attemptsLeft === 0
            ? t('login.attemptsLeftNone')
            : t('login.attemptsLeft', { count: notice.attemptsLeft })
      }
    />
  );
}

/** A link-styled button to another screen of the forms. */
function ScreenLink({
  to,
  onScreenChange,
  align,
  children,
}: {
  to: AuthScreen;
  onScreenChange: (screen: AuthScreen) => void;
  align: 'start' | 'center';
  children: string;
}) {
  return (
    <button
      type="button"
      className={buttonClass('link', 'sm', {
        className: align === 'start' ? 'self-start' : 'self-center',
      })}
      onClick={() => {
        onScreenChange(to);
      }}
    >
      {children}
    </button>
  );
}

function formValues(event: SubmitEvent<HTMLFormElement>): FormData {
  event.preventDefault();
  return new FormData(event.currentTarget);
}

function Heading({ level = 2, children }: { level?: 1 | 2 | undefined; children: string }) {
  const className = 'text-2xl font-semibold text-primary-900';
  return level === 1 ? (
    <h1 className={className}>{children}</h1>
  ) : (
    <h2 className={className}>{children}</h2>
  );
}

function LoginForm({
  onScreenChange,
  onSuccess,
  t,
  headingLevel,
  allowRegister = true,
}: AuthFormsProps) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const apiError = useStore($customerErrors).login;

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    const data = formValues(event);
    const input = { email: formText(data, 'email'), password: formText(data, 'password') };
    const found = fieldErrors(LoginInputSchema, input);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const ok = await login(input);
    setPending(false);
    if (!ok) return;
    // GA4 login, before onSuccess leaves the page.
    trackLogin();
    onSuccess();
  }

  return (
    <form noValidate className="flex flex-col gap-4" onSubmit={(e) => void submit(e)}>
      <Heading level={headingLevel}>{t('login.title')}</Heading>
      <FormField field={EMAIL_FIELD} t={t} errors={errors} />
      <FormField field={PASSWORD_FIELD} t={t} errors={errors} />
      <ScreenLink to="forgot" onScreenChange={onScreenChange} align="start">
        {t('login.forgotPassword')}
      </ScreenLink>
      <AccountFormError error={apiError} t={t} />
      <SubmitButton pending={pending} label={t('login.submit')} t={t} size="lg" fullWidth />
      {allowRegister && (
        <ScreenLink to="register" onScreenChange={onScreenChange} align="center">
          {t('login.toRegister')}
        </ScreenLink>
      )}
    </form>
  );
}

function RegisterForm({ onScreenChange, onSuccess, t, headingLevel }: AuthFormsProps) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const apiError = useStore($customerErrors).register;

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    const data = formValues(event);
    const input = {
      email: formText(data, 'email'),
      firstName: formText(data, 'firstName'),
      lastName: formText(data, 'lastName'),
      password: formText(data, 'password'),
      createAccount: formChecked(data, 'createAccount'),
      acceptsMarketing: formChecked(data, 'acceptsMarketing'),
    };
    const result = validateForm(RegistrationInputSchema, input);
    setErrors(result.errors);
    if (!result.success) return;
    setPending(true);
    const ok = await register(result.data);
    setPending(false);
    if (!ok) return;
    // GA4 sign_up, before onSuccess leaves the page.
    trackSignUp();
    onSuccess();
  }

  return (
    <form noValidate className="flex flex-col gap-4" onSubmit={(e) => void submit(e)}>
      <Heading level={headingLevel}>{t('register.title')}</Heading>
      <div className="grid gap-4 sm:grid-cols-2">
        {NAME_FIELDS.map((field) => (
          <FormField key={field.name} field={field} t={t} errors={errors} />
        ))}
      </div>
      <FormField field={EMAIL_FIELD} t={t} errors={errors} />
      <FormField
        field={NEW_PASSWORD_FIELD}
        t={t}
        errors={errors}
        hint={t('register.passwordHint')}
      />
      <CheckboxField
        name="createAccount"
        required
        label={t('I want to create an account')}
        error={fieldError(t, errors, 'createAccount')}
      />
      <CheckboxField name="acceptsMarketing" label={t('register.marketing')} />
      <AccountFormError error={apiError} t={t} />
      <SubmitButton pending={pending} label={t('register.submit')} t={t} size="lg" fullWidth />
      <ScreenLink to="login" onScreenChange={onScreenChange} align="center">
        {t('register.toLogin')}
      </ScreenLink>
    </form>
  );
}

function ForgotForm({ onScreenChange, t, headingLevel }: AuthFormsProps) {
  const [error, setError] = useState<string | undefined>(undefined);
  const [sent, setSent] = useState(false);
  const [pending, setPending] = useState(false);
  const apiError = useStore($customerErrors).reset;
  const introId = useId();

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    const data = formValues(event);
    const input = { email: formText(data, 'email') };
    const found = fieldErrors(PasswordResetRequestSchema, input);
    setError(found.email);
    if (found.email !== undefined) return;
    setPending(true);
    const ok = await requestPasswordReset(input.email);
    setPending(false);
    setSent(ok);
  }

  return (
    <form
      noValidate
      aria-describedby={introId}
      className="flex flex-col gap-4"
      onSubmit={(e) => void submit(e)}
    >
      <Heading level={headingLevel}>{t('forgot.title')}</Heading>
      <p id={introId} className="text-sm text-neutral-700">
        {t('forgot.intro')}
      </p>
      <FormField field={EMAIL_FIELD} t={t} errors={{ email: error }} />
      {sent && (
        <p
          role="status"
          className="rounded-control bg-success/10 px-3 py-2 text-sm font-semibold text-success"
        >
          {t('forgot.sent')}
        </p>
      )}
      <FormError message={apiError?.message} t={t} />
      <SubmitButton pending={pending} label={t('forgot.submit')} t={t} size="lg" fullWidth />
      <ScreenLink to="login" onScreenChange={onScreenChange} align="center">
        {t('forgot.back')}
      </ScreenLink>
    </form>
  );
}
