/**
 * Customers v3 (customers.v3.yml): customers (arrays in, arrays out), validate-credentials,
 * form field values and addresses. Passwords are hashed with scrypt (passwords.ts) and never
 * returned.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import {
  collection,
  InvalidBody,
  json,
  noContent,
  pagination,
  paging,
  placeholders,
  QueryError,
  type Reply,
} from '../http.ts';
import { COUNTRIES } from '../model.ts';
import { hashPassword, verifyPassword } from '../passwords.ts';
import { ADDRESS_FORM_FIELDS, CUSTOMER_FORM_FIELDS } from '../seed/customers.ts';
import {
  arrayBody,
  assertValid,
  bool,
  EMAIL,
  int,
  isObject,
  objectBody,
  str,
  type Errors,
  type Obj,
} from '../validate.ts';
import type { RouteContext } from './context.ts';

interface CustomerDoc {
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

const CUSTOMER_INCLUDES = ['addresses', 'storecredit', 'attributes', 'formfields'] as const;
const CUSTOMER_SORTS = [
  'date_created:asc',
  'date_created:desc',
  'last_name:asc',
  'last_name:desc',
] as const;

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function loadCustomer(db: DatabaseSync, id: number): CustomerDoc | undefined {
  const row = db.prepare('SELECT doc FROM customers WHERE id = ?').get(id) as
    { doc: string } | undefined;
  return row ? (JSON.parse(row.doc) as CustomerDoc) : undefined;
}

export function customerExists(db: DatabaseSync, id: number): boolean {
  return db.prepare('SELECT 1 FROM customers WHERE id = ?').get(id) !== undefined;
}

function emailOwner(db: DatabaseSync, email: string): number | undefined {
  const row = db.prepare('SELECT id FROM customers WHERE email = ?').get(email) as
    { id: number } | undefined;
  return row?.id;
}

interface FieldRow {
  customer_id: number | null;
  address_id: number | null;
  name: string;
  value: string;
}

function fieldJson(row: FieldRow): Record<string, unknown> {
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

function customerJson(
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

function includeList<T extends string>(ctx: RouteContext, allowed: readonly T[]): T[] {
  const list = ctx.query.list('include') ?? [];
  for (const value of list) {
    if (!(allowed as readonly string[]).includes(value)) {
      throw new QueryError('include', `include must be a list of ${allowed.join(', ')}`);
    }
  }
  return list as T[];
}

/** `{ data, meta: { pagination } }` of already built records. */
function page(
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

/** GET /v3/customers: id:in, email:in, name:like, company:in, customer_group_id:in, date filters, sort, include. */
export function listCustomers(ctx: RouteContext): Reply {
  const { query } = ctx;
  const include = includeList(ctx, CUSTOMER_INCLUDES);
  const clauses: string[] = [];
  const params: SQLInputValue[] = [];
  const ids = query.intList('id:in');
  if (ids) {
    clauses.push(`id IN (${placeholders(ids.length)})`);
    params.push(...ids);
  }
  const emails = query.list('email:in');
  if (emails) {
    clauses.push(`email IN (${placeholders(emails.length)})`);
    params.push(...emails);
  }
  const names = query.list('name:like');
  if (names) {
    clauses.push(
      `(${names.map(() => "(json_extract(doc, '$.first_name') || ' ' || last_name) LIKE ?").join(' OR ')})`,
    );
    params.push(...names.map((n) => `%${n}%`));
  }
  const companies = query.list('company:in');
  if (companies) {
    clauses.push(`json_extract(doc, '$.company') IN (${placeholders(companies.length)})`);
    params.push(...companies);
  }
  const groups = query.intList('customer_group_id:in');
  if (groups) {
    clauses.push(`json_extract(doc, '$.customer_group_id') IN (${placeholders(groups.length)})`);
    params.push(...groups);
  }
  for (const [name, op] of [
    ['date_created:min', '>='],
    ['date_created:max', '<='],
  ] as const) {
    const value = query.string(name);
    if (value === undefined) continue;
    if (Number.isNaN(Date.parse(value))) throw new QueryError(name, `${name} must be a date`);
    clauses.push(`date_created ${op} ?`);
    params.push(new Date(value).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  }
  const sort = query.oneOf('sort', CUSTOMER_SORTS);
  const order = sort
    ? `${sort.startsWith('last_name') ? 'last_name' : 'date_created'} ${sort.endsWith('desc') ? 'DESC' : 'ASC'}, id`
    : 'id';
  const paged = paging(query, 50, 250);
  const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
  const total = (
    ctx.db.prepare(`SELECT COUNT(*) AS n FROM customers ${where}`).get(...params) as { n: number }
  ).n;
  const rows = ctx.db
    .prepare(`SELECT doc FROM customers ${where} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .all(...params, paged.limit, paged.offset) as unknown as { doc: string }[];
  const items = rows.map((r) => customerJson(ctx.db, JSON.parse(r.doc) as CustomerDoc, include));
  return page(ctx, items, total, paged);
}

/** The store's password rule (BigCommerce default: 7 characters, letters and digits). */
export const PASSWORD_RULE =
  'Passwords must be at least 7 characters and contain both alphabetic and numeric characters.';

function validPassword(password: string): boolean {
  return password.length >= 7 && /\p{L}/u.test(password) && /\d/.test(password);
}

interface AddressInput {
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
function readAddress(o: Obj, path: string, errors: Errors, required: boolean): AddressInput {
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

function nextId(db: DatabaseSync, table: 'customers' | 'addresses'): number {
  const row = db.prepare(`SELECT MAX(id) AS id FROM ${table}`).get() as { id: number | null };
  return (row.id ?? 0) + 1;
}

function insertAddress(db: DatabaseSync, customerId: number, input: AddressInput): AddressDoc {
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

interface CustomerInput {
  index: number;
  id?: number | undefined;
  email?: string | undefined;
  first_name?: string | undefined;
  last_name?: string | undefined;
  company?: string | undefined;
  phone?: string | undefined;
  notes?: string | undefined;
  customer_group_id?: number | undefined;
  accepts?: boolean | undefined;
  password?: string | undefined;
  force_reset?: boolean | undefined;
  addresses: AddressInput[];
}

function readCustomer(o: Obj, index: number, errors: Errors, create: boolean): CustomerInput {
  const path = String(index);
  const email = str(o, 'email', errors, path, { required: create, min: 3, max: 255 });
  if (email !== undefined && !EMAIL.test(email))
    errors[`${path}.email`] = 'email must be a valid email address';
  const input: CustomerInput = {
    index,
    id: create ? undefined : int(o, 'id', errors, path, { required: true, min: 1 }),
    email: email?.trim(),
    first_name: str(o, 'first_name', errors, path, { required: create, min: 1, max: 100 }),
    last_name: str(o, 'last_name', errors, path, { required: create, min: 1, max: 100 }),
    company: str(o, 'company', errors, path, { max: 255 }),
    phone: str(o, 'phone', errors, path, { max: 50 }),
    notes: str(o, 'notes', errors, path),
    customer_group_id: int(o, 'customer_group_id', errors, path, { min: 0 }),
    accepts: bool(o, 'accepts_product_review_abandoned_cart_emails', errors, path),
    addresses: [],
  };
  if (o.authentication !== undefined) {
    if (!isObject(o.authentication))
      errors[`${path}.authentication`] = 'authentication must be an object';
    else {
      input.password = str(o.authentication, 'new_password', errors, `${path}.authentication`);
      input.force_reset = bool(
        o.authentication,
        'force_password_reset',
        errors,
        `${path}.authentication`,
      );
      if (input.password !== undefined && !validPassword(input.password)) {
        errors[`${path}.authentication.new_password`] = PASSWORD_RULE;
      }
    }
  }
  if (create && o.addresses !== undefined) {
    if (!Array.isArray(o.addresses) || o.addresses.length > 10) {
      errors[`${path}.addresses`] = 'addresses must be an array of at most 10 addresses';
    } else {
      o.addresses.forEach((a: unknown, i) => {
        if (isObject(a))
          input.addresses.push(readAddress(a, `${path}.addresses.${i}`, errors, true));
        else errors[`${path}.addresses.${i}`] = 'must be an object';
      });
    }
  }
  return input;
}

/** POST /v3/customers: an array of customers (at most 10); 200 with the created ones. */
export async function createCustomers(ctx: RouteContext): Promise<Reply> {
  const items = arrayBody(ctx.body);
  if (items.length > 10)
    throw new InvalidBody('Create customers failed.', { '': 'at most 10 customers per request' });
  const errors: Errors = {};
  const inputs = items.map((o, i) => readCustomer(o, i, errors, true));
  assertValid(errors);
  const seen = new Set<string>();
  for (const input of inputs) {
    const email = (input.email ?? '').toLowerCase();
    if (seen.has(email) || emailOwner(ctx.db, email) !== undefined) {
      throw new InvalidBody(`The email address ${input.email ?? ''} is already in use.`, {
        [`${input.index}.email`]: `The email address ${input.email ?? ''} is already in use.`,
      });
    }
    seen.add(email);
  }
  const hashes = await Promise.all(
    inputs.map((i) => (i.password ? hashPassword(i.password) : Promise.resolve(null))),
  );
  const created: CustomerDoc[] = [];
  ctx.db.exec('BEGIN');
  try {
    inputs.forEach((input, index) => {
      const email = input.email ?? '';
      if (emailOwner(ctx.db, email) !== undefined) {
        throw new InvalidBody(`The email address ${email} is already in use.`, {
          [`${input.index}.email`]: `The email address ${email} is already in use.`,
        });
      }
      const date = now();
      const doc: CustomerDoc = {
        id: nextId(ctx.db, 'customers'),
        email,
        first_name: input.first_name ?? '',
        last_name: input.last_name ?? '',
        company: input.company ?? '',
        phone: input.phone ?? '',
        notes: input.notes ?? '',
        tax_exempt_category: '',
        registration_ip_address: '',
        customer_group_id: input.customer_group_id ?? 0,
        date_created: date,
        date_modified: date,
        accepts_product_review_abandoned_cart_emails: input.accepts ?? false,
        origin_channel_id: 1,
        channel_ids: [1],
        store_credit_amounts: [{ amount: 0 }],
        force_password_reset: input.force_reset ?? false,
      };
      ctx.db
        .prepare('INSERT INTO customers VALUES (?, ?, ?, ?, ?, ?)')
        .run(doc.id, email, hashes[index] ?? null, doc.last_name, date, JSON.stringify(doc));
      for (const address of input.addresses) insertAddress(ctx.db, doc.id, address);
      created.push(doc);
    });
    ctx.db.exec('COMMIT');
  } catch (error) {
    ctx.db.exec('ROLLBACK');
    throw error;
  }
  return json(200, {
    data: created.map((c) => customerJson(ctx.db, c, [])),
    meta: {},
  });
}

/** PUT /v3/customers: an array of `{ id, ...fields, authentication? }`; 200 with the updated ones. */
export async function updateCustomers(ctx: RouteContext): Promise<Reply> {
  const items = arrayBody(ctx.body);
  const errors: Errors = {};
  const inputs = items.map((o, i) => readCustomer(o, i, errors, false));
  assertValid(errors);
  for (const input of inputs) {
    if (!customerExists(ctx.db, input.id ?? 0)) {
      throw new InvalidBody('Update customers failed.', {
        [`${input.index}.id`]: `Customer ${input.id ?? ''} not found`,
      });
    }
    if (input.email !== undefined) {
      const owner = emailOwner(ctx.db, input.email);
      if (owner !== undefined && owner !== input.id) {
        throw new InvalidBody(`The email address ${input.email} is already in use.`, {
          [`${input.index}.email`]: `The email address ${input.email} is already in use.`,
        });
      }
    }
  }
  const hashes = await Promise.all(
    inputs.map((i) => (i.password ? hashPassword(i.password) : Promise.resolve(null))),
  );
  const updated: CustomerDoc[] = [];
  inputs.forEach((input, index) => {
    const doc = loadCustomer(ctx.db, input.id ?? 0);
    if (!doc) return;
    if (input.email !== undefined) doc.email = input.email;
    if (input.first_name !== undefined) doc.first_name = input.first_name;
    if (input.last_name !== undefined) doc.last_name = input.last_name;
    if (input.company !== undefined) doc.company = input.company;
    if (input.phone !== undefined) doc.phone = input.phone;
    if (input.notes !== undefined) doc.notes = input.notes;
    if (input.customer_group_id !== undefined) doc.customer_group_id = input.customer_group_id;
    if (input.accepts !== undefined)
      doc.accepts_product_review_abandoned_cart_emails = input.accepts;
    if (input.force_reset !== undefined) doc.force_password_reset = input.force_reset;
    doc.date_modified = now();
    const hash = hashes[index];
    ctx.db
      .prepare(
        'UPDATE customers SET email = ?, last_name = ?, doc = ?, password = COALESCE(?, password) WHERE id = ?',
      )
      .run(doc.email, doc.last_name, JSON.stringify(doc), hash ?? null, doc.id);
    updated.push(doc);
  });
  return json(200, { data: updated.map((c) => customerJson(ctx.db, c, [])), meta: {} });
}

/** DELETE /v3/customers?id:in=...: 204 (without id:in, 204 and nothing deleted, as documented). */
export function deleteCustomers(ctx: RouteContext): Reply {
  const ids = ctx.query.intList('id:in');
  if (!ids) return noContent();
  const list = placeholders(ids.length);
  ctx.db.exec('BEGIN');
  try {
    ctx.db
      .prepare(
        `DELETE FROM form_field_values WHERE customer_id IN (${list}) OR address_id IN (SELECT id FROM addresses WHERE customer_id IN (${list}))`,
      )
      .run(...ids, ...ids);
    ctx.db.prepare(`DELETE FROM addresses WHERE customer_id IN (${list})`).run(...ids);
    ctx.db.prepare(`DELETE FROM customers WHERE id IN (${list})`).run(...ids);
    ctx.db.exec('COMMIT');
  } catch (error) {
    ctx.db.exec('ROLLBACK');
    throw error;
  }
  return noContent();
}

/** POST /v3/customers/validate-credentials `{ email, password, channel_id? }` -> `{ customer_id, is_valid }` (200 either way). */
export async function validateCredentials(ctx: RouteContext): Promise<Reply> {
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const email = str(body, 'email', errors, '', { required: true });
  const password = str(body, 'password', errors, '', { required: true });
  const channelId = int(body, 'channel_id', errors, '', { min: 1 }) ?? 1;
  assertValid(errors);
  const row = ctx.db
    .prepare('SELECT id, password FROM customers WHERE email = ?')
    .get((email ?? '').trim()) as { id: number; password: string | null } | undefined;
  // Unknown e-mails still pay for a hash, so timing does not tell them apart.
  const stored =
    row?.password ??
    'scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
  const valid =
    (await verifyPassword(password ?? '', stored)) &&
    row !== undefined &&
    row.password !== null &&
    channelId === 1;
  return json(200, { customer_id: valid ? row.id : null, is_valid: valid });
}

// Form field values.

/** Whether the store's customer (or address) form has a field of this name. */
function knownField(name: string, addressField: boolean): boolean {
  const fields: readonly string[] = addressField ? ADDRESS_FORM_FIELDS : CUSTOMER_FORM_FIELDS;
  return fields.includes(name);
}

/** GET /v3/customers/form-field-values: customer_id, address_id, field_name, paging. */
export function listFormFieldValues(ctx: RouteContext): Reply {
  const { query } = ctx;
  const clauses: string[] = [];
  const params: SQLInputValue[] = [];
  // customer_id:in and address_id:in are accepted beside the documented single-id filters.
  for (const [name, column] of [
    ['customer_id', 'customer_id'],
    ['address_id', 'address_id'],
  ] as const) {
    const one = query.int(name);
    const many = query.intList(`${name}:in`);
    const ids = [...(one !== undefined ? [one] : []), ...(many ?? [])];
    if (ids.length > 0) {
      clauses.push(`${column} IN (${placeholders(ids.length)})`);
      params.push(...ids);
    }
  }
  const fieldName = query.string('field_name');
  if (fieldName !== undefined) {
    clauses.push('name = ?');
    params.push(fieldName);
  }
  const fieldType = query.string('field_type');
  if (fieldType !== undefined && fieldType !== 'text') {
    // Every form field of the sandbox store is a text field.
    clauses.push('0');
  }
  const paged = paging(query, 50, 250);
  const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
  const total = (
    ctx.db.prepare(`SELECT COUNT(*) AS n FROM form_field_values ${where}`).get(...params) as {
      n: number;
    }
  ).n;
  const rows = ctx.db
    .prepare(`SELECT * FROM form_field_values ${where} ORDER BY rowid LIMIT ? OFFSET ?`)
    .all(...params, paged.limit, paged.offset) as unknown as FieldRow[];
  return page(ctx, rows.map(fieldJson), total, paged);
}

/** PUT /v3/customers/form-field-values: upserts `[{ name, value, customer_id | address_id }]`; 200 with them. */
export function upsertFormFieldValues(ctx: RouteContext): Reply {
  const items = arrayBody(ctx.body);
  const errors: Errors = {};
  const rows: FieldRow[] = [];
  items.forEach((o, index) => {
    const path = String(index);
    const name = str(o, 'name', errors, path, { required: true, min: 1 });
    const customerId = int(o, 'customer_id', errors, path, { min: 1 });
    const addressId = int(o, 'address_id', errors, path, { min: 1 });
    const value = o.value;
    const okValue =
      typeof value === 'string' ||
      (typeof value === 'number' && Number.isFinite(value)) ||
      (Array.isArray(value) && value.every((v) => typeof v === 'string'));
    if (!okValue)
      errors[`${path}.value`] = 'value must be a string, a number or an array of strings';
    if ((customerId === undefined) === (addressId === undefined)) {
      errors[path] = 'exactly one of customer_id and address_id is required';
      return;
    }
    if (customerId !== undefined && !customerExists(ctx.db, customerId)) {
      errors[`${path}.customer_id`] = `Customer ${customerId} not found`;
    }
    if (
      addressId !== undefined &&
      !ctx.db.prepare('SELECT 1 FROM addresses WHERE id = ?').get(addressId)
    ) {
      errors[`${path}.address_id`] = `Address ${addressId} not found`;
    }
    if (name !== undefined && !knownField(name, addressId !== undefined)) {
      errors[`${path}.name`] = `The form field "${name}" does not exist`;
    }
    if (name !== undefined && okValue) {
      rows.push({
        customer_id: customerId ?? null,
        address_id: addressId ?? null,
        name,
        value: JSON.stringify(value),
      });
    }
  });
  assertValid(errors, 'The form field values are not valid.');
  const upsert = ctx.db.prepare(
    'INSERT INTO form_field_values (customer_id, address_id, name, value) VALUES (?, ?, ?, ?) ON CONFLICT (IFNULL(customer_id, 0), IFNULL(address_id, 0), name) DO UPDATE SET value = excluded.value',
  );
  for (const row of rows) upsert.run(row.customer_id, row.address_id, row.name, row.value);
  return json(200, { data: rows.map(fieldJson), meta: {} });
}

// Addresses.

function loadAddress(db: DatabaseSync, id: number): AddressDoc | undefined {
  const row = db.prepare('SELECT doc FROM addresses WHERE id = ?').get(id) as
    { doc: string } | undefined;
  return row ? (JSON.parse(row.doc) as AddressDoc) : undefined;
}

/** GET /v3/customers/addresses: customer_id:in, id:in, company:in, name:in, include=formfields, paging. */
export function listAddresses(ctx: RouteContext): Reply {
  const { query } = ctx;
  const include = includeList(ctx, ['formfields'] as const);
  const clauses: string[] = [];
  const params: SQLInputValue[] = [];
  const customers = query.intList('customer_id:in');
  if (customers) {
    clauses.push(`customer_id IN (${placeholders(customers.length)})`);
    params.push(...customers);
  }
  const ids = query.intList('id:in');
  if (ids) {
    clauses.push(`id IN (${placeholders(ids.length)})`);
    params.push(...ids);
  }
  const companies = query.list('company:in');
  if (companies) {
    clauses.push(`json_extract(doc, '$.company') IN (${placeholders(companies.length)})`);
    params.push(...companies);
  }
  const names = query.list('name:in');
  if (names) {
    clauses.push(
      `(json_extract(doc, '$.first_name') || ' ' || json_extract(doc, '$.last_name')) IN (${placeholders(names.length)})`,
    );
    params.push(...names);
  }
  const paged = paging(query, 50, 250);
  const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
  const total = (
    ctx.db.prepare(`SELECT COUNT(*) AS n FROM addresses ${where}`).get(...params) as { n: number }
  ).n;
  const rows = ctx.db
    .prepare(`SELECT doc FROM addresses ${where} ORDER BY id LIMIT ? OFFSET ?`)
    .all(...params, paged.limit, paged.offset) as unknown as { doc: string }[];
  const items = rows.map((r) =>
    addressJson(ctx.db, JSON.parse(r.doc) as AddressDoc, include.includes('formfields')),
  );
  return page(ctx, items, total, paged);
}

/** POST /v3/customers/addresses: an array; 200 with the created addresses. */
export function createAddresses(ctx: RouteContext): Reply {
  const items = arrayBody(ctx.body);
  const errors: Errors = {};
  const inputs = items.map((o, index) => {
    const customerId = int(o, 'customer_id', errors, String(index), { required: true, min: 1 });
    if (customerId !== undefined && !customerExists(ctx.db, customerId)) {
      errors[`${index}.customer_id`] = `Customer ${customerId} not found`;
    }
    return { customerId: customerId ?? 0, address: readAddress(o, String(index), errors, true) };
  });
  assertValid(errors, 'The address is not valid.');
  const created = inputs.map((i) => insertAddress(ctx.db, i.customerId, i.address));
  return json(200, {
    data: created.map((a) => addressJson(ctx.db, a, false)),
    meta: {
      pagination: pagination(
        ctx.query,
        { page: 1, limit: Math.max(1, created.length), offset: 0 },
        created.length,
        created.length,
      ),
    },
  });
}

/** PUT /v3/customers/addresses: an array of `{ id, customer_id, ...fields }`; 200 with the updated addresses. */
export function updateAddresses(ctx: RouteContext): Reply {
  const items = arrayBody(ctx.body);
  const errors: Errors = {};
  const updates = items.map((o, index) => {
    const path = String(index);
    const id = int(o, 'id', errors, path, { required: true, min: 1 });
    const customerId = int(o, 'customer_id', errors, path, { required: true, min: 1 });
    const current = id !== undefined ? loadAddress(ctx.db, id) : undefined;
    if (id !== undefined && !current) errors[`${path}.id`] = `Address ${id} not found`;
    if (current && customerId !== undefined && current.customer_id !== customerId) {
      errors[`${path}.customer_id`] =
        `Address ${id ?? ''} does not belong to customer ${customerId}`;
    }
    return { current, input: readAddress(o, path, errors, false) };
  });
  assertValid(errors, 'The address is not valid.');
  const updated = updates.map(({ current, input }) => {
    if (!current) throw new InvalidBody('The address is not valid.');
    const doc: AddressDoc = { ...current };
    for (const [key, value] of Object.entries(input) as [
      keyof AddressInput,
      string | undefined,
    ][]) {
      if (value !== undefined)
        (doc as unknown as Record<string, string>)[key] =
          key === 'country_code' ? value.toUpperCase() : value;
    }
    ctx.db.prepare('UPDATE addresses SET doc = ? WHERE id = ?').run(JSON.stringify(doc), doc.id);
    return doc;
  });
  return json(200, {
    data: updated.map((a) => addressJson(ctx.db, a, false)),
    meta: {
      pagination: pagination(
        ctx.query,
        { page: 1, limit: Math.max(1, updated.length), offset: 0 },
        updated.length,
        updated.length,
      ),
    },
  });
}

/** DELETE /v3/customers/addresses?id:in=...: 204 (id:in is required: 422 without it). */
export function deleteAddresses(ctx: RouteContext): Reply {
  const ids = ctx.query.intList('id:in');
  if (!ids) throw new QueryError('id:in', 'id:in is required');
  const list = placeholders(ids.length);
  ctx.db.prepare(`DELETE FROM form_field_values WHERE address_id IN (${list})`).run(...ids);
  ctx.db.prepare(`DELETE FROM addresses WHERE id IN (${list})`).run(...ids);
  return noContent();
}
