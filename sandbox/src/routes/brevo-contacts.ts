/**
 * Brevo contacts and lists in the sandbox, at `/brevo/v3` (header `api-key`), as Brevo v3
 * documents them: create a contact (`POST /contacts`, 201 `{ id }`, 204 with `updateEnabled`,
 * 400 `duplicate_parameter` when the address exists), read and delete one (`/contacts/{email or
 * id}`, 404 `document_not_found`), read a list, add to and remove from a list (201 `{ contacts:
 * { success, failure } }`, 400 `invalid_parameter` when none changed). Lists 2 'Clients' and
 * 31 'Newsletter' (the shop's, spec §9) exist; contacts start empty. Addresses are compared in
 * lower case, as Brevo does.
 */
import type { DatabaseSync } from 'node:sqlite';
import { json, noContent, type Reply } from '../http.ts';
import { EMAIL, isObject } from '../validate.ts';
import { brevoError } from './brevo.ts';
import type { RouteContext } from './context.ts';

const MAX_EMAIL = 254;
const MAX_LIST_EMAILS = 150;
const SEEDED_LISTS: readonly [number, string][] = [
  [2, 'Clients'],
  [31, 'Newsletter'],
];

/**
 * The tables, created when missing: on each call, since a reset drops every table, and a
 * sandbox seeded before they existed gets them too (cheap next to the request).
 */
function db(ctx: RouteContext): DatabaseSync {
  const { db } = ctx;
  {
    db.exec(`
CREATE TABLE IF NOT EXISTS brevo_lists (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS brevo_contacts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  email TEXT NOT NULL UNIQUE,
  attributes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  modified_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS brevo_list_contacts (
  list_id INTEGER NOT NULL,
  contact_id INTEGER NOT NULL,
  PRIMARY KEY (list_id, contact_id)
);`);
    const insert = db.prepare('INSERT OR IGNORE INTO brevo_lists VALUES (?, ?, ?)');
    for (const [id, name] of SEEDED_LISTS) insert.run(id, name, new Date(0).toISOString());
  }
  return db;
}

interface ContactRow {
  id: number;
  email: string;
  attributes: string;
  created_at: string;
  modified_at: string;
}

const invalid = (message: string) => brevoError(400, 'invalid_parameter', message);
const listNotFound = () => brevoError(404, 'document_not_found', 'List ID does not exist');
const contactNotFound = () => brevoError(404, 'document_not_found', 'Contact does not exist');

function validEmail(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MAX_EMAIL || !EMAIL.test(value)) return null;
  return value.toLowerCase();
}

function listExists(ctx: RouteContext, id: number): boolean {
  return db(ctx).prepare('SELECT 1 FROM brevo_lists WHERE id = ?').get(id) !== undefined;
}

/** `{identifier}`: an address (url-encoded) or a contact id. */
function findContact(ctx: RouteContext, identifier: string): ContactRow | undefined {
  const byId = /^\d{1,15}$/.test(identifier);
  return db(ctx)
    .prepare(`SELECT * FROM brevo_contacts WHERE ${byId ? 'id' : 'email'} = ?`)
    .get(byId ? Number(identifier) : identifier.toLowerCase()) as ContactRow | undefined;
}

function listIdsOf(ctx: RouteContext, contactId: number): number[] {
  return (
    db(ctx)
      .prepare('SELECT list_id FROM brevo_list_contacts WHERE contact_id = ? ORDER BY list_id')
      .all(contactId) as { list_id: number }[]
  ).map((row) => row.list_id);
}

function readListIds(value: unknown): number[] | Reply {
  if (value === undefined) return [];
  if (
    !Array.isArray(value) ||
    !value.every((id) => typeof id === 'number' && Number.isSafeInteger(id) && id > 0)
  ) {
    return invalid('listIds should be an array of positive integers');
  }
  return [...new Set(value as number[])];
}

/** POST /contacts `{ email, listIds?, attributes?, updateEnabled? }`. */
export function createContact(ctx: RouteContext): Reply {
  const body = ctx.body;
  if (!isObject(body)) return invalid('The request body is not valid');
  if (body.email === undefined) return brevoError(400, 'missing_parameter', 'email is missing');
  const email = validEmail(body.email);
  if (email === null) return invalid('Invalid email address');
  const listIds = readListIds(body.listIds);
  if (!Array.isArray(listIds)) return listIds;
  const attributes = body.attributes ?? {};
  if (!isObject(attributes)) return invalid('attributes should be an object');
  if (body.updateEnabled !== undefined && typeof body.updateEnabled !== 'boolean') {
    return invalid('updateEnabled should be a boolean');
  }
  if (listIds.some((id) => !listExists(ctx, id))) return listNotFound();
  const now = new Date().toISOString();
  const store = db(ctx);
  const existing = findContact(ctx, email);
  const join = store.prepare('INSERT OR IGNORE INTO brevo_list_contacts VALUES (?, ?)');
  if (existing !== undefined) {
    if (body.updateEnabled !== true) {
      return brevoError(
        400,
        'duplicate_parameter',
        'Unable to create contact, email is already associated with another Contact',
      );
    }
    const merged = { ...(JSON.parse(existing.attributes) as object), ...attributes };
    store
      .prepare('UPDATE brevo_contacts SET attributes = ?, modified_at = ? WHERE id = ?')
      .run(JSON.stringify(merged), now, existing.id);
    for (const id of listIds) join.run(id, existing.id);
    return noContent();
  }
  const { lastInsertRowid } = store
    .prepare(
      'INSERT INTO brevo_contacts (email, attributes, created_at, modified_at) VALUES (?, ?, ?, ?)',
    )
    .run(email, JSON.stringify(attributes), now, now);
  const id = Number(lastInsertRowid);
  for (const listId of listIds) join.run(listId, id);
  return json(201, { id });
}

/** GET /contacts/{identifier}. */
export function getContact(ctx: RouteContext): Reply {
  const contact = findContact(ctx, ctx.params.identifier ?? '');
  if (contact === undefined) return contactNotFound();
  return json(200, {
    email: contact.email,
    id: contact.id,
    emailBlacklisted: false,
    smsBlacklisted: false,
    createdAt: contact.created_at,
    modifiedAt: contact.modified_at,
    attributes: JSON.parse(contact.attributes) as unknown,
    listIds: listIdsOf(ctx, contact.id),
    statistics: {},
  });
}

/** DELETE /contacts/{identifier}: 204. */
export function deleteContact(ctx: RouteContext): Reply {
  const contact = findContact(ctx, ctx.params.identifier ?? '');
  if (contact === undefined) return contactNotFound();
  const store = db(ctx);
  store.prepare('DELETE FROM brevo_list_contacts WHERE contact_id = ?').run(contact.id);
  store.prepare('DELETE FROM brevo_contacts WHERE id = ?').run(contact.id);
  return noContent();
}

function pathListId(ctx: RouteContext): number | null {
  const raw = ctx.params.listId ?? '';
  return /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}

/** GET /contacts/lists/{listId}. */
export function getList(ctx: RouteContext): Reply {
  const id = pathListId(ctx);
  const list =
    id === null
      ? undefined
      : (db(ctx).prepare('SELECT * FROM brevo_lists WHERE id = ?').get(id) as
          { id: number; name: string; created_at: string } | undefined);
  if (list === undefined) return listNotFound();
  const { n } = db(ctx)
    .prepare('SELECT COUNT(*) AS n FROM brevo_list_contacts WHERE list_id = ?')
    .get(list.id) as { n: number };
  return json(200, {
    id: list.id,
    name: list.name,
    totalSubscribers: n,
    uniqueSubscribers: n,
    totalBlacklisted: 0,
    folderId: 1,
    createdAt: list.created_at,
  });
}

function changeList(ctx: RouteContext, change: 'add' | 'remove'): Reply {
  const listId = pathListId(ctx);
  if (listId === null || !listExists(ctx, listId)) return listNotFound();
  const body = ctx.body;
  if (!isObject(body)) return invalid('The request body is not valid');
  const store = db(ctx);
  let emails: string[];
  if (change === 'remove' && body.all === true) {
    emails = (
      store
        .prepare(
          'SELECT email FROM brevo_contacts JOIN brevo_list_contacts ON id = contact_id WHERE list_id = ?',
        )
        .all(listId) as { email: string }[]
    ).map((row) => row.email);
  } else {
    if (
      !Array.isArray(body.emails) ||
      body.emails.length === 0 ||
      body.emails.length > MAX_LIST_EMAILS ||
      !body.emails.every((e) => typeof e === 'string' && e.length <= MAX_EMAIL)
    ) {
      return invalid(`emails should be an array of 1 to ${MAX_LIST_EMAILS} addresses`);
    }
    emails = [...new Set((body.emails as string[]).map((e) => e.toLowerCase()))];
  }
  const success: string[] = [];
  const failure: string[] = [];
  for (const email of emails) {
    const contact = findContact(ctx, email);
    const result =
      contact === undefined
        ? { changes: 0 }
        : change === 'add'
          ? store
              .prepare('INSERT OR IGNORE INTO brevo_list_contacts VALUES (?, ?)')
              .run(listId, contact.id)
          : store
              .prepare('DELETE FROM brevo_list_contacts WHERE list_id = ? AND contact_id = ?')
              .run(listId, contact.id);
    (Number(result.changes) > 0 ? success : failure).push(email);
  }
  if (success.length === 0) {
    return invalid(
      change === 'add'
        ? 'Contact already in list and/or does not exist'
        : 'Contact already removed from list and/or does not exist',
    );
  }
  return json(201, { contacts: { success, failure } });
}

/** POST /contacts/lists/{listId}/contacts/add `{ emails }`. */
export const addToList = (ctx: RouteContext): Reply => changeList(ctx, 'add');
/** POST /contacts/lists/{listId}/contacts/remove `{ emails }` or `{ all: true }`. */
export const removeFromList = (ctx: RouteContext): Reply => changeList(ctx, 'remove');
