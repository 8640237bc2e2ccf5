import { describe, expect, test } from 'vitest';
import fr from '../../src/lib/i18n/fr.json' with { type: 'json' };
import { t, type MessageKey } from '../../src/lib/i18n/index.ts';
import {
  AddressInputSchema,
  AddressUpdateInputSchema,
  fieldErrors,
  LoginInputSchema,
  PasswordResetInputSchema,
  PasswordResetRequestSchema,
  ProfileInputSchema,
  RegistrationInputSchema,
  ReviewInputSchema,
  validateForm,
  VALIDATION_MESSAGES,
} from '../../src/lib/commerce/validation.ts';

const REQUIRED = 'validation.required';
const EMAIL = 'Invalid email';
const PASSWORD = 'Password must have at least 7 characters including one letter and a number';
const NAME = 'validation.nameMin';
const ADDRESS = 'validation.addressHint';
const REVIEW = 'validation.reviewMin';

describe('message keys (spec §5 exact texts through fr.json)', () => {
  test.each(Object.entries(VALIDATION_MESSAGES))('%s → %s is in fr.json', (_rule, key) => {
    expect(Object.keys(fr)).toContain(key);
  });

  test.each([
    [REQUIRED, 'Ce champ est requis'],
    [EMAIL, 'Adresse e-mail invalide'],
    [PASSWORD, 'Le mot de passe doit contenir au moins 7 caractères dont une lettre et un chiffre'],
    [ADDRESS, 'Veuillez entrer votre adresse valide (maximum 40 caractères)'],
  ] as const)('%s reads %j', (key, french) => {
    expect(t(key as MessageKey)).toBe(french);
  });
});

const login = { email: 'marie.martin@example.fr', password: 'x' };

describe('LoginInputSchema (spec §5: email required and valid, password required)', () => {
  test.each([
    ['valid', login, {}],
    ['email missing', { password: 'x' }, { email: REQUIRED }],
    ['email empty', { ...login, email: '' }, { email: REQUIRED }],
    ['email blank', { ...login, email: '   ' }, { email: REQUIRED }],
    ['email without @', { ...login, email: 'marie.example.fr' }, { email: EMAIL }],
    ['email without domain dot', { ...login, email: 'marie@example' }, { email: EMAIL }],
    ['email with a space inside', { ...login, email: 'ma rie@example.fr' }, { email: EMAIL }],
    ['password empty', { ...login, password: '' }, { password: REQUIRED }],
    ['password missing', { email: login.email }, { password: REQUIRED }],
    ['nothing', {}, { email: REQUIRED, password: REQUIRED }],
    ['not an object', null, { '': 'validation.invalid' }],
  ] as const)('%s', (_case, input, expected) => {
    expect(fieldErrors(LoginInputSchema, input)).toEqual(expected);
  });

  test('the email is trimmed, the password is not', () => {
    expect(LoginInputSchema.parse({ email: ' marie@example.fr ', password: ' a b ' })).toEqual({
      email: 'marie@example.fr',
      password: ' a b ',
    });
  });
});

const registration = {
  email: 'paul@example.fr',
  firstName: 'Paul',
  lastName: 'Durand',
  password: 'Sommeil1',
  createAccount: true,
};

describe('RegistrationInputSchema (spec §5 registration)', () => {
  test.each([
    ['valid without marketing', registration, {}],
    ['valid with marketing', { ...registration, acceptsMarketing: true }, {}],
    ['email invalid', { ...registration, email: 'paul@' }, { email: EMAIL }],
    ['first name empty', { ...registration, firstName: '' }, { firstName: REQUIRED }],
    ['first name of 1 character', { ...registration, firstName: 'P' }, { firstName: NAME }],
    [
      'first name of 1 character and spaces',
      { ...registration, firstName: ' P ' },
      { firstName: NAME },
    ],
    ['first name of 2 characters', { ...registration, firstName: 'Lu' }, {}],
    ['last name missing', { ...registration, lastName: undefined }, { lastName: REQUIRED }],
    ['last name of 1 character', { ...registration, lastName: 'D' }, { lastName: NAME }],
    [
      'name too long',
      { ...registration, lastName: 'x'.repeat(101) },
      { lastName: 'validation.tooLong' },
    ],
    ['password empty', { ...registration, password: '' }, { password: REQUIRED }],
    ['password of 6 characters', { ...registration, password: 'abcd12' }, { password: PASSWORD }],
    ['password without a digit', { ...registration, password: 'abcdefgh' }, { password: PASSWORD }],
    [
      'password without a letter',
      { ...registration, password: '12345678' },
      { password: PASSWORD },
    ],
    ['password of 7 with letter and digit', { ...registration, password: 'abcdef1' }, {}],
    ['accented letter counts as a letter', { ...registration, password: 'éééééé1' }, {}],
    [
      'create-account box not ticked',
      { ...registration, createAccount: false },
      { createAccount: 'validation.createAccount' },
    ],
    [
      'create-account box missing',
      { ...registration, createAccount: undefined },
      { createAccount: 'validation.createAccount' },
    ],
    [
      'marketing not a boolean',
      { ...registration, acceptsMarketing: 'on' },
      { acceptsMarketing: 'validation.invalid' },
    ],
  ] as const)('%s', (_case, input, expected) => {
    expect(fieldErrors(RegistrationInputSchema, input)).toEqual(expected);
  });

  test('an empty form shows the required rule on every required field', () => {
    expect(fieldErrors(RegistrationInputSchema, {})).toEqual({
      email: REQUIRED,
      firstName: REQUIRED,
      lastName: REQUIRED,
      password: REQUIRED,
      createAccount: 'validation.createAccount',
    });
  });
});

const profile = { email: 'marie@example.fr', firstName: 'Marie', lastName: 'Martin' };

describe('ProfileInputSchema', () => {
  test.each([
    ['valid', profile, {}],
    ['with phone and company', { ...profile, phone: '+33 6 12 34 56 78', company: 'ACME' }, {}],
    ['empty phone is no phone', { ...profile, phone: '' }, {}],
    ['phone with letters', { ...profile, phone: '06 AB' }, { phone: 'validation.phone' }],
    ['last name of 1 character', { ...profile, lastName: 'M' }, { lastName: NAME }],
    ['email invalid', { ...profile, email: 'x' }, { email: EMAIL }],
  ] as const)('%s', (_case, input, expected) => {
    expect(fieldErrors(ProfileInputSchema, input)).toEqual(expected);
  });
});

const address = {
  firstName: 'Marie',
  lastName: 'Martin',
  address1: '12 rue des Lilas',
  city: 'Lyon',
  postalCode: '69003',
  countryCode: 'FR',
};

describe('AddressInputSchema (spec §3 shipping address, §5 40-character hint)', () => {
  test.each([
    ['valid', address, {}],
    ['address of 40 characters', { ...address, address1: 'a'.repeat(40) }, {}],
    ['address of 41 characters', { ...address, address1: 'a'.repeat(41) }, { address1: ADDRESS }],
    [
      'complement of 41 characters',
      { ...address, address2: 'b'.repeat(41) },
      { address2: ADDRESS },
    ],
    ['house/apartment number given', { ...address, houseNumber: '12 bis, appt 4' }, {}],
    [
      'house/apartment number of 41 characters',
      { ...address, houseNumber: 'n'.repeat(41) },
      { houseNumber: ADDRESS },
    ],
    ['address empty', { ...address, address1: '' }, { address1: REQUIRED }],
    ['city missing', { ...address, city: undefined }, { city: REQUIRED }],
    ['first name of 1 character', { ...address, firstName: 'M' }, { firstName: NAME }],
    [
      'French postal code of 4 digits',
      { ...address, postalCode: '6900' },
      { postalCode: 'validation.postalCode' },
    ],
    ['German postal code', { ...address, countryCode: 'DE', postalCode: '10115' }, {}],
    [
      'Dutch postal code with letters',
      { ...address, countryCode: 'NL', postalCode: '1012 AB' },
      {},
    ],
    [
      'postal code with symbols',
      { ...address, countryCode: 'DE', postalCode: '10#15' },
      { postalCode: 'validation.postalCode' },
    ],
    ['postal code empty', { ...address, postalCode: '' }, { postalCode: REQUIRED }],
    [
      'country code of 3 letters',
      { ...address, countryCode: 'FRA' },
      { countryCode: 'validation.countryCode' },
    ],
    ['country code empty', { ...address, countryCode: '' }, { countryCode: REQUIRED }],
    ['phone valid', { ...address, phone: '04 78 00 00 00' }, {}],
  ] as const)('%s', (_case, input, expected) => {
    expect(fieldErrors(AddressInputSchema, input)).toEqual(expected);
  });

  test('country code is upper-cased before the French postal code rule', () => {
    expect(AddressInputSchema.parse({ ...address, countryCode: 'fr' }).countryCode).toBe('FR');
    expect(
      fieldErrors(AddressInputSchema, { ...address, countryCode: 'fr', postalCode: 'ABC' }),
    ).toEqual({
      postalCode: 'validation.postalCode',
    });
  });

  test.each([
    ['with id', { ...address, id: 3 }, {}],
    ['without id', address, { id: REQUIRED }],
  ] as const)('AddressUpdateInputSchema %s', (_case, input, expected) => {
    expect(fieldErrors(AddressUpdateInputSchema, input)).toEqual(expected);
  });
});

describe('password reset', () => {
  test.each([
    ['valid', { password: 'Nouveau1', resetToken: 'abc' }, {}],
    ['weak password', { password: 'nouveau', resetToken: 'abc' }, { password: PASSWORD }],
    ['token missing', { password: 'Nouveau1' }, { resetToken: REQUIRED }],
    ['token blank', { password: 'Nouveau1', resetToken: ' ' }, { resetToken: REQUIRED }],
  ] as const)('PasswordResetInputSchema: %s', (_case, input, expected) => {
    expect(fieldErrors(PasswordResetInputSchema, input)).toEqual(expected);
  });

  test.each([
    ['valid', { email: 'a@b.fr' }, {}],
    ['invalid', { email: 'a@b' }, { email: EMAIL }],
    ['empty', { email: '' }, { email: REQUIRED }],
  ] as const)('PasswordResetRequestSchema: %s', (_case, input, expected) => {
    expect(fieldErrors(PasswordResetRequestSchema, input)).toEqual(expected);
  });
});

const review = {
  productId: 12,
  title: 'Top',
  text: 'Très bon matelas',
  rating: 5,
  name: 'Claire',
  email: 'claire@example.fr',
};

describe('ReviewInputSchema (spec §5: title and text at least 3 characters; rating 1–5)', () => {
  test.each([
    ['valid', review, {}],
    ['title of 2 characters', { ...review, title: 'Ok' }, { title: REVIEW }],
    ['title of 2 characters and spaces', { ...review, title: ' Ok  ' }, { title: REVIEW }],
    ['title empty', { ...review, title: '' }, { title: REQUIRED }],
    ['text of 2 characters', { ...review, text: 'Ba' }, { text: REVIEW }],
    ['rating 0', { ...review, rating: 0 }, { rating: 'validation.rating' }],
    ['rating 6', { ...review, rating: 6 }, { rating: 'validation.rating' }],
    ['rating 4.5', { ...review, rating: 4.5 }, { rating: 'validation.rating' }],
    ['rating missing', { ...review, rating: undefined }, { rating: 'validation.rating' }],
    ['rating 1', { ...review, rating: 1 }, {}],
    ['product id missing', { ...review, productId: undefined }, { productId: REQUIRED }],
    ['name missing', { ...review, name: ' ' }, { name: REQUIRED }],
    ['name of 1 character', { ...review, name: 'C' }, { name: 'validation.nameMin' }],
    ['e-mail invalid', { ...review, email: 'claire@' }, { email: 'Invalid email' }],
  ] as const)('%s', (_case, input, expected) => {
    expect(fieldErrors(ReviewInputSchema, input)).toEqual(expected);
  });
});

describe('validateForm', () => {
  test('valid: the parsed (trimmed) value', () => {
    expect(validateForm(LoginInputSchema, { email: ' a@b.fr ', password: 'p' })).toEqual({
      success: true,
      data: { email: 'a@b.fr', password: 'p' },
      errors: {},
    });
  });

  test('invalid: the field errors', () => {
    expect(validateForm(LoginInputSchema, { email: 'a', password: '' })).toEqual({
      success: false,
      data: null,
      errors: { email: EMAIL, password: REQUIRED },
    });
  });
});
