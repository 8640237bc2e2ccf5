/**
 * spec §3 shipping address labels beyond BigCommerce's own address fields. BigCommerce's
 * customer address has `address1` (the street) and `address2` (its "complément d'adresse"),
 * nothing for the house or apartment number: the shop keeps it in an address form field
 * (`HOUSE_NUMBER_FIELD`, a text field of the store's address form, read with
 * `include=formfields`, written through `/v3/customers/form-field-values` with the address id).
 * Pure.
 */
import type { FormFieldValue } from './types.ts';

/** Name of the address form field holding the house or apartment number (store setting). */
export const HOUSE_NUMBER_FIELD = 'Numéro de rue / appartement';

/** The house or apartment number of an address's form fields ('' when none). */
export function houseNumberOf(formFields: readonly FormFieldValue[]): string {
  const value = formFields.find((field) => field.name === HOUSE_NUMBER_FIELD)?.value ?? '';
  return (Array.isArray(value) ? value.join(' ') : value).trim();
}

/** The street line as French addresses write it: number, then street ("12 rue des Lilas"). */
export function streetLine(address: { houseNumber: string; address1: string }): string {
  return [address.houseNumber.trim(), address.address1.trim()].filter(Boolean).join(' ');
}
