/**
 * Customers v3 (customers.v3.yml): customers (arrays in, arrays out) and validate-credentials;
 * form field values and addresses in customer-addresses.ts, the stored documents and their
 * JSON in customer-records.ts. Passwords are hashed with scrypt (passwords.ts) and never
 * returned.
 */
import type { SQLInputValue } from 'node:sqlite';
import {
  InvalidBody,
  json,
  noContent,
  paging,
  placeholders,
  QueryError,
  type Reply,
} from '../http.ts';
import { hashPassword, verifyPassword } from '../passwords.ts';
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
import {
  type CustomerDoc,
  CUSTOMER_INCLUDES,
  CUSTOMER_SORTS,
  now,
  loadCustomer,
  customerExists,
  emailOwner,
  customerJson,
  includeList,
  page,
  type AddressInput,
  readAddress,
  nextId,
  insertAddress,
} from './customer-records.ts';

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
