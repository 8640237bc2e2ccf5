/**
 * Customer replies of `/v3/customers` (`../customer.ts`): customers, their addresses, form
 * field values and the credentials check.
 */
import { z } from 'zod';
import { houseNumberOf } from '../../../../lib/commerce/address.ts';
import type { Customer, CustomerAddress, FormFieldValue } from '../../../../lib/commerce/types.ts';
import { id, text, count, flag, list, v3PageSchema } from './common.ts';

const FormFieldValueSchema = z
  .object({
    name: z.string(),
    value: z
      .union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))])
      .nullish()
      .transform((v) => (v == null ? '' : Array.isArray(v) ? v.map(String) : String(v))),
  })
  .transform((f): FormFieldValue => ({ name: f.name, value: f.value }));

/** An entry of `/v3/customers/form-field-values`: a customer's or an address's. */
export const FormFieldValueEntrySchema = z
  .object({
    name: z.string(),
    value: z.unknown(),
    customer_id: z.number().int().nullish(),
    address_id: z.number().int().nullish(),
  })
  .transform((f) => ({
    field: FormFieldValueSchema.parse({ name: f.name, value: f.value }),
    customerId: f.customer_id ?? null,
    addressId: f.address_id ?? null,
  }));

export const FormFieldValuePageSchema = v3PageSchema(FormFieldValueEntrySchema);

export const CustomerSchema = z
  .object({
    id,
    email: z.string(),
    first_name: text,
    last_name: text,
    company: text,
    phone: text,
    accepts_product_review_abandoned_cart_emails: flag(false),
    customer_group_id: count,
    date_created: text,
    date_modified: text,
    form_fields: list(FormFieldValueSchema),
  })
  .transform((c): Customer => ({
    id: c.id,
    email: c.email,
    firstName: c.first_name,
    lastName: c.last_name,
    company: c.company,
    phone: c.phone,
    acceptsMarketing: c.accepts_product_review_abandoned_cart_emails,
    customerGroupId: c.customer_group_id,
    dateCreated: c.date_created,
    dateModified: c.date_modified,
    formFields: c.form_fields,
  }));

export const CustomerPageSchema = v3PageSchema(CustomerSchema);
/** POST / PUT `/v3/customers` answer `{ data: [...] }` (possibly empty). */
export const CustomerListReplySchema = z
  .object({ data: list(CustomerSchema) })
  .transform(({ data }) => data);

export const ValidateCredentialsReplySchema = z
  .object({ is_valid: z.boolean(), customer_id: z.number().int().nullish() })
  .transform((r) => ({ isValid: r.is_valid, customerId: r.customer_id ?? null }));

export const CustomerAddressSchema = z
  .object({
    id,
    customer_id: id,
    first_name: text,
    last_name: text,
    company: text,
    address1: text,
    address2: text,
    city: text,
    state_or_province: text,
    postal_code: text,
    country: text,
    country_code: text,
    phone: text,
    address_type: z
      .enum(['residential', 'commercial'])
      .nullish()
      .transform((v) => v ?? 'residential'),
    form_fields: list(FormFieldValueSchema),
  })
  .transform((a): CustomerAddress => ({
    id: a.id,
    customerId: a.customer_id,
    firstName: a.first_name,
    lastName: a.last_name,
    company: a.company,
    houseNumber: houseNumberOf(a.form_fields),
    address1: a.address1,
    address2: a.address2,
    city: a.city,
    stateOrProvince: a.state_or_province,
    postalCode: a.postal_code,
    country: a.country,
    countryCode: a.country_code,
    phone: a.phone,
    addressType: a.address_type,
    formFields: a.form_fields,
  }));

export const CustomerAddressPageSchema = v3PageSchema(CustomerAddressSchema);
export const CustomerAddressListReplySchema = z
  .object({ data: list(CustomerAddressSchema) })
  .transform(({ data }) => data);
