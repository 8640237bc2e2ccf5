/**
 * Customers and addresses as the sandbox stores them and as customers.v3.yml answers them:
 * the stored documents, their JSON (with the included addresses and form fields), a page of
 * them, and an address as a request gives it, checked and inserted.
 */
import type { DatabaseSync } from 'node:sqlite';
import { collection, pagination, QueryError, type Reply } from '../http.ts';
import { COUNTRIES } from '../model.ts';
import { str, type Errors, type Obj } from '../validate.ts';
import type { RouteContext } from './context.ts';

export interface CustomerDoc {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  company: string;
  phone: string;
  notes: string;
  tax_exempt_category: string;
  registration_ip_address: string;
  customer_group_id: number;
  date_created: string;
  date_modified: string;
  accepts_product_review_abandoned_cart_emails: boolean;
  origin_channel_id: number;
  channel_ids: number[];
  store_credit_amounts: { amount: number }[];
  force_password_reset: boolean;
}

export interface AddressDoc {
  id: number;
  customer_id: number;
  first_name: string;
  last_name: string;
  company: string;
  address1: string;
  address2: string;
  city: string;
  state_or_province: string;
  postal_code: string;
  country_code: string;
  phone: string;
  address_type: 'residential' | 'commercial';
}

export const CUSTOMER_INCLUDES = ['addresses', 'storecredit', 'attributes', 'formfields'] as const;
export const CUSTOMER_SORTS = [
  'date_created:asc',
  'date_created:desc',
  'last_name:asc',
  'last_name:desc',
] as const;

export function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function loadCustomer(db: DatabaseSync, id: number): CustomerDoc | undefined {
  const row = db.prepare('SELECT doc FROM customers WHERE id = ?').get(id) as
    { doc: string } | undefined;
  return row ? (JSON.parse(row.doc) as CustomerDoc) : undefined;
}

export function customerExists(db: DatabaseSync, id: number): boolean {
  return db.prepare('SELECT 1 FROM customers WHERE id = ?').get(id) !== undefined;
}

export function emailOwner(db: DatabaseSync, email: string): number | undefined {
  const row = db.prepare('SELECT id FROM customers WHERE email = ?').get(email) as
    { id: number } | undefined;
  return row?.id;
}

export interface FieldRow {
  customer_id: number | null;
  address_id: number | null;
  name: string;
  value: string;
}

export function fieldJson(row: FieldRow): Record<string, unknown> {
  const value = JSON.parse(row.value) as unknown;
  return row.address_id !== null
    ? { name: row.name, value, address_id: row.address_id }
    : { name: row.name, value, customer_id: row.customer_id };
}

function formFields(
  db: DatabaseSync,
  column: 'customer_id' | 'address_id',
  id: number,
): Record<string, unknown>[] {
  const rows = db
    .prepare(`SELECT * FROM form_field_values WHERE ${column} = ? ORDER BY rowid`)
    .all(id) as unknown as FieldRow[];
  return rows.map(fieldJson);
}

export function addressJson(
  db: DatabaseSync,
  doc: AddressDoc,
  withFields: boolean,
): Record<string, unknown> {
  return {
    id: doc.id,
    customer_id: doc.customer_id,
    first_name: doc.first_name,
    last_name: doc.last_name,
    company: doc.company,
    address1: doc.address1,
    address2: doc.address2,
    city: doc.city,
    state_or_province: doc.state_or_province,
    postal_code: doc.postal_code,
    country: COUNTRIES[doc.country_code] ?? doc.country_code,
    country_code: doc.country_code,
    phone: doc.phone,
    address_type: doc.address_type,
    ...(withFields ? { form_fields: formFields(db, 'address_id', doc.id) } : {}),
  };
}

export function customerAddresses(db: DatabaseSync, customerId: number): AddressDoc[] {
  const rows = db
    .prepare('SELECT doc FROM addresses WHERE customer_id = ? ORDER BY id')
    .all(customerId) as unknown as { doc: string }[];
  return rows.map((r) => JSON.parse(r.doc) as AddressDoc);
}

export function customerJson(
  db: DatabaseSync,
  doc: CustomerDoc,
  include: readonly string[],
): Record<string, unknown> {
  const addresses = customerAddresses(db, doc.id);
  const { force_password_reset: forceReset, ...fields } = doc;
  return {
    ...fields,
    address_count: addresses.length,
    attribute_count: 0,
    authentication: { force_password_reset: forceReset },
    ...(include.includes('addresses')
      ? { addresses: addresses.map((a) => addressJson(db, a, include.includes('formfields'))) }
      : {}),
    ...(include.includes('attributes') ? { attributes: [] } : {}),
    ...(include.includes('formfields')
      ? { form_fields: formFields(db, 'customer_id', doc.id) }
      : {}),
  };
}

export function includeList<T extends string>(ctx: RouteContext, allowed: readonly T[]): T[] {
  const list = ctx.query.list('include') ?? [];
  for (const value of list) {
    if (!(allowed as readonly string[]).includes(value)) {
      throw new QueryError('include', `include must be a list of ${allowed.join(', ')}`);
    }
  }
  return list as T[];
}

/** `{ data, meta: { pagination } }` of already built records. */
export function page(
  ctx: RouteContext,
  items: unknown[],
  total: number,
  paged: { page: number; limit: number; offset: number },
): Reply {
  return collection(
    items.map((i) => JSON.stringify(i)),
    { pagination: pagination(ctx.query, paged, total, items.length) },
  );
}
export interface AddressInput {
  first_name?: string | undefined;
  last_name?: string | undefined;
  company?: string | undefined;
  address1?: string | undefined;
  address2?: string | undefined;
  city?: string | undefined;
  state_or_province?: string | undefined;
  postal_code?: string | undefined;
  country_code?: string | undefined;
  phone?: string | undefined;
  address_type?: string | undefined;
}

/** Reads address fields; `required` for POST (upstream's required list), all optional for PUT. */
export function readAddress(o: Obj, path: string, errors: Errors, required: boolean): AddressInput {
  const out: AddressInput = {
    first_name: str(o, 'first_name', errors, path, { required, min: 1, max: 255 }),
    last_name: str(o, 'last_name', errors, path, { required, min: 1, max: 255 }),
    company: str(o, 'company', errors, path, { max: 255 }),
    address1: str(o, 'address1', errors, path, { required, min: 1, max: 255 }),
    address2: str(o, 'address2', errors, path, { max: 255 }),
    city: str(o, 'city', errors, path, { required, min: 1, max: 100 }),
    state_or_province: str(o, 'state_or_province', errors, path, { required, max: 100 }),
    postal_code: str(o, 'postal_code', errors, path, { required, min: 1, max: 30 }),
    country_code: str(o, 'country_code', errors, path, { required, min: 2, max: 2 }),
    phone: str(o, 'phone', errors, path, { max: 50 }),
    address_type: str(o, 'address_type', errors, path),
  };
  const at = (key: string): string => (path ? `${path}.${key}` : key);
  if (out.country_code !== undefined && !(out.country_code.toUpperCase() in COUNTRIES)) {
    errors[at('country_code')] = `country_code ${out.country_code} is not a known country`;
  }
  if (
    out.address_type !== undefined &&
    out.address_type !== 'residential' &&
    out.address_type !== 'commercial'
  ) {
    errors[at('address_type')] = 'address_type must be residential or commercial';
  }
  return out;
}

export function nextId(db: DatabaseSync, table: 'customers' | 'addresses'): number {
  const row = db.prepare(`SELECT MAX(id) AS id FROM ${table}`).get() as { id: number | null };
  return (row.id ?? 0) + 1;
}

export function insertAddress(
  db: DatabaseSync,
  customerId: number,
  input: AddressInput,
): AddressDoc {
  const doc: AddressDoc = {
    id: nextId(db, 'addresses'),
    customer_id: customerId,
    first_name: input.first_name ?? '',
    last_name: input.last_name ?? '',
    company: input.company ?? '',
    address1: input.address1 ?? '',
    address2: input.address2 ?? '',
    city: input.city ?? '',
    state_or_province: input.state_or_province ?? '',
    postal_code: input.postal_code ?? '',
    country_code: (input.country_code ?? 'FR').toUpperCase(),
    phone: input.phone ?? '',
    address_type: input.address_type === 'commercial' ? 'commercial' : 'residential',
  };
  db.prepare('INSERT INTO addresses VALUES (?, ?, ?)').run(doc.id, customerId, JSON.stringify(doc));
  return doc;
}
