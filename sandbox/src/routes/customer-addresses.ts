/**
 * Customers v3 (customers.v3.yml), a customer's form field values (list, upsert) and
 * addresses (list, create, update, delete).
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import {
  InvalidBody,
  json,
  noContent,
  pagination,
  paging,
  placeholders,
  QueryError,
  type Reply,
} from '../http.ts';
import { ADDRESS_FORM_FIELDS, CUSTOMER_FORM_FIELDS } from '../seed/customers.ts';
import { arrayBody, assertValid, int, str, type Errors } from '../validate.ts';
import type { RouteContext } from './context.ts';
import {
  type AddressDoc,
  customerExists,
  type FieldRow,
  fieldJson,
  addressJson,
  includeList,
  page,
  type AddressInput,
  readAddress,
  insertAddress,
} from './customer-records.ts';

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
