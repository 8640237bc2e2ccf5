import { describe, expect, test } from 'vitest';
import { HOUSE_NUMBER_FIELD, houseNumberOf, streetLine } from '../../src/lib/commerce/address.ts';
import type { FormFieldValue } from '../../src/lib/commerce/types.ts';

describe('houseNumberOf (spec §3 address label "house/apartment number", an address form field)', () => {
  test.each<[string, FormFieldValue[], string]>([
    ['no form fields', [], ''],
    ['another field only', [{ name: 'Autre', value: '3' }], ''],
    ['the field', [{ name: HOUSE_NUMBER_FIELD, value: '12 bis' }], '12 bis'],
    ['trimmed', [{ name: HOUSE_NUMBER_FIELD, value: '  Appt 4 ' }], 'Appt 4'],
    ['a list value joined', [{ name: HOUSE_NUMBER_FIELD, value: ['12', 'bis'] }], '12 bis'],
  ])('%s', (_case, fields, expected) => {
    expect(houseNumberOf(fields)).toBe(expected);
  });
});

describe('streetLine (French order: number, then street)', () => {
  test.each([
    ['number and street', { houseNumber: '12', address1: 'rue des Lilas' }, '12 rue des Lilas'],
    ['no number', { houseNumber: '', address1: 'rue des Lilas' }, 'rue des Lilas'],
    ['spaces trimmed', { houseNumber: ' 3 ', address1: ' allée Verte ' }, '3 allée Verte'],
  ] as const)('%s', (_case, address, expected) => {
    expect(streetLine(address)).toBe(expected);
  });
});
