/**
 * spec §5 validation: one `zod/mini` schema per form, shared by the island that shows the form
 * and the API method that receives it (the server wraps them in its argument tuples). Every
 * message is a message key of `fr.json`: islands translate it, the API answers it as is.
 * For one field, the first failing rule is the one shown (`fieldErrors`), so each field lists
 * its rules in the order the shopper should read them: required first.
 */
import { z } from 'zod/mini';
import type { MessageKey } from '../i18n/index.ts';

/** The message keys of the rules (values in `fr.json`). */
export const VALIDATION_MESSAGES = {
  /** spec §5 required rule: "Ce champ est requis". */
  required: 'validation.required',
  /** spec §5 email rule. */
  email: 'Invalid email',
  /** spec §5 / §9 password rule. */
  password: 'Password must have at least 7 characters including one letter and a number',
  /** spec §5 dictionary hint: first and last name at least 2 characters. */
  nameMin: 'validation.nameMin',
  /** spec §5 dictionary hint: "Veuillez entrer votre adresse valide (maximum 40 caractères)". */
  address: 'validation.addressHint',
  /** spec §5 dictionary hint: review title and message at least three characters. */
  reviewMin: 'validation.reviewMin',
  /** spec §5: the "I want to create an account" checkbox must be ticked. */
  createAccount: 'validation.createAccount',
  tooLong: 'validation.tooLong',
  postalCode: 'validation.postalCode',
  phone: 'validation.phone',
  countryCode: 'validation.countryCode',
  rating: 'validation.rating',
  /** spec §5 newsletter: the consent checkbox must be ticked. */
  newsletterConsent: 'validation.newsletterConsent',
  /** spec §5: a reseller sending a cart to a client must also select a seller. */
  seller: 'You need to select a seller too',
  /** A value no form field can produce (not an object, a checkbox that is not a boolean). */
  invalid: 'validation.invalid',
} as const satisfies Record<string, MessageKey>;

export type ValidationMessage = (typeof VALIDATION_MESSAGES)[keyof typeof VALIDATION_MESSAGES];

const M = VALIDATION_MESSAGES;

/** spec §9: password at least 7 characters with a letter and a digit. */
export const PASSWORD_MIN_LENGTH = 7;
/** spec §5 / §9 address hint: maximum 40 characters. */
export const ADDRESS_MAX_LENGTH = 40;
export const NAME_MIN_LENGTH = 2;
export const NAME_MAX_LENGTH = 100;
export const REVIEW_MIN_LENGTH = 3;
export const REVIEW_TITLE_MAX_LENGTH = 255;
export const REVIEW_TEXT_MAX_LENGTH = 5000;

// -- field rules -----------------------------------------------------------------------------

/** A trimmed string that must not be empty. */
const requiredText = () =>
  z.string({ error: M.required }).check(z.trim(), z.minLength(1, M.required));

// The format test is not given by the spec (§5): zod's email pattern (the one of its docs,
// "reasonable" for forms) with a cap at RFC 5321's 254 characters.
const email = () =>
  z
    .string({ error: M.required })
    .check(z.trim(), z.minLength(1, M.required), z.maxLength(254, M.email), z.email(M.email));

const loginPassword = () => z.string({ error: M.required }).check(z.minLength(1, M.required));

// Spaces count: a password is never trimmed.
const newPassword = () =>
  z
    .string({ error: M.required })
    .check(
      z.minLength(1, M.required),
      z.minLength(PASSWORD_MIN_LENGTH, M.password),
      z.regex(/\p{L}/u, M.password),
      z.regex(/\p{Nd}/u, M.password),
    );

const personName = () =>
  z
    .string({ error: M.required })
    .check(
      z.trim(),
      z.minLength(1, M.required),
      z.minLength(NAME_MIN_LENGTH, M.nameMin),
      z.maxLength(NAME_MAX_LENGTH, M.tooLong),
    );

const optionalText = (max: number, message: ValidationMessage = M.tooLong) =>
  z.optional(z.string().check(z.trim(), z.maxLength(max, message)));

const addressLine = () =>
  z
    .string({ error: M.required })
    .check(z.trim(), z.minLength(1, M.required), z.maxLength(ADDRESS_MAX_LENGTH, M.address));

// Postal codes of the supported countries (spec §3: FR, US, AT, DE, NL): letters, digits,
// a space or a hyphen; France's five digits are checked on the address as a whole.
const postalCode = () =>
  z
    .string({ error: M.required })
    .check(
      z.trim(),
      z.minLength(1, M.required),
      z.regex(/^[A-Za-z0-9](?:[A-Za-z0-9 -]{0,8}[A-Za-z0-9])?$/, M.postalCode),
    );

const countryCode = () =>
  z
    .string({ error: M.required })
    .check(
      z.trim(),
      z.toUpperCase(),
      z.minLength(1, M.required),
      z.regex(/^[A-Z]{2}$/, M.countryCode),
    );

const phone = () =>
  z.optional(z.string().check(z.trim(), z.regex(/^(?:$|\+?[0-9][0-9 .()-]{4,18}[0-9])$/, M.phone)));

// -- forms -----------------------------------------------------------------------------------

/** An object of fields; a value that is not an object at all gets the `invalid` key. */
const form = <S extends z.core.$ZodLooseShape>(shape: S) => z.object(shape, { error: M.invalid });

/** spec §5 login: email required and valid; password required. */
export const LoginInputSchema = form({
  email: email(),
  password: loginPassword(),
});
export type LoginInput = z.output<typeof LoginInputSchema>;

/**
 * spec §5 registration: email, first and last name (2 characters at least), the password
 * rule, the "I want to create an account" checkbox ticked; the marketing checkbox optional
 * (it sets `accepts_product_review_abandoned_cart_emails`).
 */
export const RegistrationInputSchema = form({
  email: email(),
  firstName: personName(),
  lastName: personName(),
  password: newPassword(),
  createAccount: z.literal(true, { error: M.createAccount }),
  acceptsMarketing: z.optional(z.boolean({ error: M.invalid })),
});
export type RegistrationInput = z.output<typeof RegistrationInputSchema>;

/**
 * spec §5 "send the cart to a client" (reseller area): one of the reseller's sellers ("You need
 * to select a seller too" otherwise) and the client's e-mail. The server also checks the seller
 * is one of the reseller's.
 */
export const SendCartInputSchema = form({
  seller: z
    .string({ error: M.seller })
    .check(z.trim(), z.minLength(1, M.seller), z.maxLength(NAME_MAX_LENGTH, M.tooLong)),
  email: email(),
});
export type SendCartInput = z.output<typeof SendCartInputSchema>;

/** The profile form of `mes-informations` (`updateCustomer`). */
export const ProfileInputSchema = form({
  email: email(),
  firstName: personName(),
  lastName: personName(),
  phone: phone(),
  company: optionalText(NAME_MAX_LENGTH),
  acceptsMarketing: z.optional(z.boolean({ error: M.invalid })),
});
export type ProfileInput = z.output<typeof ProfileInputSchema>;

const addressShape = {
  firstName: personName(),
  lastName: personName(),
  company: optionalText(NAME_MAX_LENGTH),
  // spec §3 "house/apartment number", beside the street; the 40-character hint (spec §5).
  houseNumber: optionalText(ADDRESS_MAX_LENGTH, M.address),
  address1: addressLine(),
  address2: optionalText(ADDRESS_MAX_LENGTH, M.address),
  city: z
    .string({ error: M.required })
    .check(z.trim(), z.minLength(1, M.required), z.maxLength(NAME_MAX_LENGTH, M.tooLong)),
  stateOrProvince: optionalText(NAME_MAX_LENGTH),
  postalCode: postalCode(),
  countryCode: countryCode(),
  phone: phone(),
};

type AddressShape = z.output<z.ZodMiniObject<typeof addressShape>>;

// France: five digits (the other supported countries keep the general rule).
const frenchPostalCode = z.refine<AddressShape>(
  (address) => address.countryCode !== 'FR' || /^\d{5}$/.test(address.postalCode),
  {
    message: M.postalCode,
    path: ['postalCode'],
    when: (payload) => {
      const value = payload.value as Partial<Record<string, unknown>> | null;
      return (
        typeof value === 'object' &&
        value !== null &&
        typeof value.countryCode === 'string' &&
        typeof value.postalCode === 'string'
      );
    },
  },
);

/** spec §3 shipping address (create): address lines at most 40 characters (spec §5 hint). */
export const AddressInputSchema = form(addressShape).check(frenchPostalCode);
export type AddressInput = z.output<typeof AddressInputSchema>;

/** An address being updated: the same fields and its id. */
export const AddressUpdateInputSchema = form({
  ...addressShape,
  id: z.number({ error: M.required }).check(z.int(M.required), z.positive(M.required)),
}).check(frenchPostalCode);
export type AddressUpdateInput = z.output<typeof AddressUpdateInputSchema>;

/** "Forgot password": the e-mail to send the reset link to (`generateOttAndToken`). */
export const PasswordResetRequestSchema = form({ email: email() });
/** `/mot-de-passe?resetToken=...`: the new password (spec §5 rule) and the token of the link. */
export const PasswordResetInputSchema = form({
  password: newPassword(),
  resetToken: requiredText(),
});
export type PasswordResetInput = z.output<typeof PasswordResetInputSchema>;

/** spec §5 newsletter: email required and valid; the consent checkbox must be ticked. */
export const NewsletterInputSchema = form({
  email: email(),
  consent: z.literal(true, M.newsletterConsent),
});
export type NewsletterInput = z.output<typeof NewsletterInputSchema>;

/**
 * A product review (spec §5 hint: title and text at least 3 characters; rating required; the
 * reviewer's name and e-mail, the e-mail never shown).
 */
export const ReviewInputSchema = form({
  productId: z.number({ error: M.required }).check(z.int(M.required), z.positive(M.required)),
  title: z
    .string({ error: M.required })
    .check(
      z.trim(),
      z.minLength(1, M.required),
      z.minLength(REVIEW_MIN_LENGTH, M.reviewMin),
      z.maxLength(REVIEW_TITLE_MAX_LENGTH, M.tooLong),
    ),
  text: z
    .string({ error: M.required })
    .check(
      z.trim(),
      z.minLength(1, M.required),
      z.minLength(REVIEW_MIN_LENGTH, M.reviewMin),
      z.maxLength(REVIEW_TEXT_MAX_LENGTH, M.tooLong),
    ),
  rating: z
    .number({ error: M.rating })
    .check(z.int(M.rating), z.gte(1, M.rating), z.lte(5, M.rating)),
  name: personName(),
  email: email(),
});
export type ReviewInput = z.output<typeof ReviewInputSchema>;

// -- form errors -----------------------------------------------------------------------------

/** Field name → message key of its first failing rule; `''` when the value is not an object. */
export type FieldErrors<T> = Partial<Record<Extract<keyof T, string> | '', string>>;

/**
 * The errors a form shows: for each field (dotted path for nested fields), the message key of
 * its first failing rule. `{}` when the value is valid.
 */
export function fieldErrors<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
): FieldErrors<z.output<S>> {
  const result = schema.safeParse(value);
  return result.success ? {} : issuesByField(result.error.issues);
}

function issuesByField<T>(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): FieldErrors<T> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join('.');
    errors[field] ??= issue.message;
  }
  return errors;
}

export type FormValidation<T> =
  | { success: true; data: T; errors: Record<string, never> }
  | { success: false; data: null; errors: FieldErrors<T> };

/**
 * A form's submit: the parsed value (trimmed, typed: what the API method takes) when valid,
 * else the field errors of `fieldErrors`.
 */
export function validateForm<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
): FormValidation<z.output<S>> {
  const result = schema.safeParse(value);
  if (result.success) return { success: true, data: result.data, errors: {} };
  return { success: false, data: null, errors: issuesByField(result.error.issues) };
}
