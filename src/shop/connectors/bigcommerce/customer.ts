/**
 * Customer connectors (spec §7 "Commerce: customer"): customers with their form fields,
 * credentials check, form-field values and the address book. Identity rules (who may read
 * or change whom) live in the API middleware, which passes the session's customer id.
 */
import { z } from 'zod';
import { HOUSE_NUMBER_FIELD } from '../../../lib/commerce/address.ts';
import type { Customer, CustomerAddress, FormFieldValue } from '../../../lib/commerce/types.ts';
import type { BigCommerceClient } from './client.ts';
import type { AddressWrite, CustomerWrite } from './queries.ts';
import {
  CustomerAddressListReplySchema,
  CustomerAddressPageSchema,
  CustomerListReplySchema,
  CustomerPageSchema,
  FormFieldValuePageSchema,
  ValidateCredentialsReplySchema,
} from './schemas/customers.ts';

const INCLUDE_FORM_FIELDS = 'formfields';

/** The customer with its form fields, or null. */
export async function getCustomerById(
  client: BigCommerceClient,
  customerId: number,
): Promise<Customer | null> {
  const page = await client.get('v3/customers', CustomerPageSchema, {
    'id:in': customerId,
    include: INCLUDE_FORM_FIELDS,
  });
  return page.items.find((c) => c.id === customerId) ?? null;
}

/** The customer with this e-mail (compared without case), or null. */
export async function getCustomerByEmail(
  client: BigCommerceClient,
  email: string,
): Promise<Customer | null> {
  const page = await client.get('v3/customers', CustomerPageSchema, {
    'email:in': email,
    include: INCLUDE_FORM_FIELDS,
  });
  const wanted = email.toLowerCase();
  return page.items.find((c) => c.email.toLowerCase() === wanted) ?? null;
}

function customerBody(input: CustomerWrite) {
  return {
    ...(input.email === undefined ? {} : { email: input.email }),
    ...(input.firstName === undefined ? {} : { first_name: input.firstName }),
    ...(input.lastName === undefined ? {} : { last_name: input.lastName }),
    ...(input.company === undefined ? {} : { company: input.company }),
    ...(input.phone === undefined ? {} : { phone: input.phone }),
    ...(input.acceptsMarketing === undefined
      ? {}
      : { accepts_product_review_abandoned_cart_emails: input.acceptsMarketing }),
    ...(input.password === undefined
      ? {}
      : { authentication: { force_password_reset: false, new_password: input.password } }),
  };
}

/**
 * Creates a customer on the client's channel. Returns the first created customer, or null
 * when the reply holds none.
 */
export async function createCustomer(
  client: BigCommerceClient,
  input: CustomerWrite & { email: string; firstName: string; lastName: string },
): Promise<Customer | null> {
  const channel = client.channelId === undefined ? {} : { origin_channel_id: client.channelId };
  const [created] = await client.send('post', 'v3/customers', CustomerListReplySchema, {
    json: [{ ...customerBody(input), ...channel }],
  });
  return created ?? null;
}

/** Updates a customer; returns the first customer of the reply, or null when it is empty. */
export async function updateCustomer(
  client: BigCommerceClient,
  customerId: number,
  input: CustomerWrite,
): Promise<Customer | null> {
  const [updated] = await client.send('put', 'v3/customers', CustomerListReplySchema, {
    json: [{ id: customerId, ...customerBody(input) }],
  });
  return updated ?? null;
}

/**
 * Checks an e-mail and password on the client's channel: the customer id when valid, null
 * otherwise (BigCommerce answers 200 either way).
 */
export async function validateCustomerCredentials(
  client: BigCommerceClient,
  credentials: { email: string; password: string },
): Promise<number | null> {
  const reply = await client.send(
    'post',
    'v3/customers/validate-credentials',
    ValidateCredentialsReplySchema,
    {
      json: {
        email: credentials.email,
        password: credentials.password,
        ...(client.channelId === undefined ? {} : { channel_id: client.channelId }),
      },
    },
  );
  return reply.isValid && reply.customerId !== null ? reply.customerId : null;
}

/** Upserts form-field values of the customer; returns those of the reply that are its own. */
export async function updateCustomerFormFields(
  client: BigCommerceClient,
  customerId: number,
  fields: readonly FormFieldValue[],
): Promise<FormFieldValue[]> {
  const page = await client.send(
    'put',
    'v3/customers/form-field-values',
    FormFieldValuePageSchema,
    {
      json: fields.map((f) => ({ name: f.name, value: f.value, customer_id: customerId })),
    },
  );
  return page.items.filter((f) => f.customerId === customerId).map((f) => f.field);
}

/** The customer's addresses (with their form fields), or the ones of `ids` among them. */
export async function getCustomerAddresses(
  client: BigCommerceClient,
  customerId: number,
  ids?: readonly number[],
): Promise<CustomerAddress[]> {
  const page = await client.get('v3/customers/addresses', CustomerAddressPageSchema, {
    'customer_id:in': customerId,
    include: INCLUDE_FORM_FIELDS,
    limit: 250,
    ...(ids === undefined ? {} : { 'id:in': ids.join(',') }),
  });
  return page.items.filter((a) => a.customerId === customerId);
}

function addressBody(input: Partial<AddressWrite>) {
  const body: Record<string, string> = {};
  const fields: [keyof AddressWrite, string][] = [
    ['firstName', 'first_name'],
    ['lastName', 'last_name'],
    ['company', 'company'],
    ['address1', 'address1'],
    ['address2', 'address2'],
    ['city', 'city'],
    ['stateOrProvince', 'state_or_province'],
    ['postalCode', 'postal_code'],
    ['countryCode', 'country_code'],
    ['phone', 'phone'],
    ['addressType', 'address_type'],
  ];
  for (const [from, to] of fields) {
    const value = input[from];
    if (value !== undefined) body[to] = value;
  }
  return body;
}

/**
 * Writes the house or apartment number of an address (an address form field: BigCommerce's
 * address has no such field, `address.ts`).
 */
async function writeHouseNumber(
  client: BigCommerceClient,
  addressId: number,
  houseNumber: string,
): Promise<void> {
  await client.send('put', 'v3/customers/form-field-values', FormFieldValuePageSchema, {
    json: [{ name: HOUSE_NUMBER_FIELD, value: houseNumber, address_id: addressId }],
  });
}

/** The address as stored, with its form fields (the write replies carry none). */
async function readAddress(
  client: BigCommerceClient,
  customerId: number,
  addressId: number,
): Promise<CustomerAddress | null> {
  const [address] = await getCustomerAddresses(client, customerId, [addressId]);
  return address ?? null;
}

/**
 * Adds an address to the customer's book, its house or apartment number included; null when
 * the reply holds none. When the number cannot be stored, the new address is deleted again
 * and the error goes on: never half an address.
 */
export async function createCustomerAddress(
  client: BigCommerceClient,
  customerId: number,
  input: AddressWrite,
): Promise<CustomerAddress | null> {
  const [created] = await client.send(
    'post',
    'v3/customers/addresses',
    CustomerAddressListReplySchema,
    // BigCommerce requires state_or_province, which French addresses leave empty.
    { json: [{ state_or_province: '', ...addressBody(input), customer_id: customerId }] },
  );
  if (created === undefined) return null;
  const houseNumber = input.houseNumber?.trim() ?? '';
  if (houseNumber === '') return created;
  try {
    await writeHouseNumber(client, created.id, houseNumber);
  } catch (error) {
    await deleteCustomerAddresses(client, [created.id]);
    throw error;
  }
  return readAddress(client, customerId, created.id);
}

/** Changes an address of the customer (and its house or apartment number); null when the reply holds none. */
export async function updateCustomerAddress(
  client: BigCommerceClient,
  customerId: number,
  addressId: number,
  input: Partial<AddressWrite>,
): Promise<CustomerAddress | null> {
  const [updated] = await client.send(
    'put',
    'v3/customers/addresses',
    CustomerAddressListReplySchema,
    { json: [{ ...addressBody(input), id: addressId, customer_id: customerId }] },
  );
  if (updated === undefined) return null;
  if (input.houseNumber === undefined) return updated;
  await writeHouseNumber(client, addressId, input.houseNumber.trim());
  return readAddress(client, customerId, addressId);
}

/** Deletes addresses by id (`id:in`, 204). */
export async function deleteCustomerAddresses(
  client: BigCommerceClient,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  await client.send('delete', 'v3/customers/addresses', z.unknown(), {
    searchParams: { 'id:in': ids.join(',') },
  });
}
