/**
 * The Brevo subset of the sandbox, at `/brevo/v3` (header `api-key`): transactional e-mail.
 * Sent mails are kept in an outbox (one entry per recipient, as Brevo reports them) that tests
 * read back through the same API Brevo offers: GET /smtp/emails and /smtp/emails/{uuid} (which
 * also shows a mail's text part as `textContent`, a sandbox addition, when it had both).
 */
import { randomUUID } from 'node:crypto';
import type { SQLInputValue } from 'node:sqlite';
import { json, type Reply } from '../http.ts';
import { EMAIL, isObject, type Obj } from '../validate.ts';
import type { RouteContext } from './context.ts';

export function brevoError(status: number, code: string, message: string): Reply {
  return json(status, { code, message });
}

class BrevoError extends Error {
  readonly code: string;
  constructor(code: 'missing_parameter' | 'invalid_parameter', message: string) {
    super(message);
    this.code = code;
  }
}

interface Person {
  email: string;
  name?: string;
}

function person(value: unknown, field: string): Person {
  if (!isObject(value)) throw new BrevoError('invalid_parameter', `${field} is not valid`);
  if (typeof value.email !== 'string' || value.email === '') {
    throw new BrevoError('missing_parameter', `${field}.email is missing`);
  }
  if (!EMAIL.test(value.email))
    throw new BrevoError('invalid_parameter', `${field}.email is not valid`);
  if (value.name !== undefined && typeof value.name !== 'string') {
    throw new BrevoError('invalid_parameter', `${field}.name is not valid`);
  }
  return typeof value.name === 'string'
    ? { email: value.email, name: value.name }
    : { email: value.email };
}

function people(value: unknown, field: string, required: boolean): Person[] {
  if (value === undefined) {
    if (required) throw new BrevoError('missing_parameter', `${field} is missing`);
    return [];
  }
  if (!Array.isArray(value) || (required && value.length === 0)) {
    throw new BrevoError('invalid_parameter', `${field} is not valid`);
  }
  return value.map((v: unknown, i) => person(v, `${field}[${i}]`));
}

function paramText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return `${value}`;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

/** Replaces `{{ params.name }}` (Brevo's template syntax) with the given params, HTML-escaped. */
function render(template: string, params: Obj): string {
  return template.replace(/\{\{\s*params\.([\w]+)\s*\}\}/g, (_, name: string) =>
    paramText(params[name]).replace(
      /[&<>"]/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c,
    ),
  );
}

function readMail(body: unknown): Obj {
  if (!isObject(body)) throw new BrevoError('invalid_parameter', 'The request body is not valid');
  const templateId = body.templateId;
  if (
    templateId !== undefined &&
    (typeof templateId !== 'number' || !Number.isInteger(templateId) || templateId < 1)
  ) {
    throw new BrevoError('invalid_parameter', 'templateId is not valid');
  }
  if (body.sender === undefined && templateId === undefined) {
    throw new BrevoError('missing_parameter', 'sender is missing');
  }
  const sender = body.sender === undefined ? undefined : person(body.sender, 'sender');
  const to = people(body.to, 'to', true);
  const cc = people(body.cc, 'cc', false);
  const bcc = people(body.bcc, 'bcc', false);
  const subject = body.subject;
  if (templateId === undefined && (typeof subject !== 'string' || subject.trim() === '')) {
    throw new BrevoError('missing_parameter', 'subject is missing');
  }
  if (subject !== undefined && typeof subject !== 'string')
    throw new BrevoError('invalid_parameter', 'subject is not valid');
  const html = body.htmlContent;
  const text = body.textContent;
  if (html !== undefined && typeof html !== 'string')
    throw new BrevoError('invalid_parameter', 'htmlContent is not valid');
  if (text !== undefined && typeof text !== 'string')
    throw new BrevoError('invalid_parameter', 'textContent is not valid');
  if (templateId === undefined && !html && !text) {
    throw new BrevoError(
      'missing_parameter',
      'htmlContent or textContent or templateId is missing',
    );
  }
  const params = body.params ?? {};
  if (!isObject(params)) throw new BrevoError('invalid_parameter', 'params is not valid');
  const tags = body.tags ?? [];
  if (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string')) {
    throw new BrevoError('invalid_parameter', 'tags is not valid');
  }
  const content =
    typeof html === 'string' && html
      ? render(html, params)
      : typeof text === 'string' && text
        ? render(text, params)
        : `<p>Template ${String(templateId)}</p><pre>${render(JSON.stringify(params, null, 2), {})}</pre>`;
  return {
    from: sender?.email ?? 'no-reply@example.fr',
    fromName: sender?.name ?? '',
    to,
    cc,
    bcc,
    subject:
      typeof subject === 'string' ? render(subject, params) : `Template ${String(templateId)}`,
    body: content,
    // The text part as sent, beside the HTML one (Brevo's API shows the HTML only).
    ...(typeof html === 'string' && html && typeof text === 'string' && text
      ? { text: render(text, params) }
      : {}),
    ...(templateId !== undefined ? { templateId } : {}),
    params,
    tags,
  };
}

/** POST /smtp/email: 201 `{ messageId }`. */
export function sendEmail(ctx: RouteContext): Reply {
  let mail: Obj;
  try {
    mail = readMail(ctx.body);
  } catch (error) {
    if (error instanceof BrevoError) return brevoError(400, error.code, error.message);
    throw error;
  }
  const stamp = new Date();
  const messageId = `<${stamp.toISOString().replace(/\D/g, '').slice(0, 14)}.${randomUUID().replace(/-/g, '').slice(0, 16)}@smtp-relay.mailin.fr>`;
  const insert = ctx.db.prepare('INSERT INTO outbox VALUES (?, ?, ?, ?, ?)');
  const recipients = [
    ...(mail.to as Person[]),
    ...(mail.cc as Person[]),
    ...(mail.bcc as Person[]),
  ];
  for (const recipient of recipients) {
    insert.run(
      randomUUID(),
      messageId,
      recipient.email.toLowerCase(),
      stamp.toISOString(),
      JSON.stringify(mail),
    );
  }
  return json(201, { messageId });
}

interface OutboxRow {
  uuid: string;
  message_id: string;
  recipients: string;
  date: string;
  doc: string;
}

/** GET /smtp/emails: email, messageId, templateId (at least one), limit (max 1000, default 500), offset, sort. */
export function listEmails(ctx: RouteContext): Reply {
  const { query } = ctx;
  const clauses: string[] = [];
  const params: SQLInputValue[] = [];
  const email = query.string('email');
  if (email !== undefined) {
    clauses.push('recipients = ?');
    params.push(email.toLowerCase());
  }
  const messageId = query.string('messageId');
  if (messageId !== undefined) {
    clauses.push('message_id = ?');
    params.push(messageId);
  }
  const templateId = query.string('templateId');
  if (templateId !== undefined) {
    clauses.push("json_extract(doc, '$.templateId') = ?");
    params.push(Number(templateId));
  }
  if (clauses.length === 0) {
    return brevoError(400, 'missing_parameter', 'email, messageId or templateId is required');
  }
  const limit = Number(query.string('limit') ?? 500);
  const offset = Number(query.string('offset') ?? 0);
  if (!Number.isInteger(limit) || limit < 0 || limit > 1000)
    return brevoError(400, 'invalid_parameter', 'limit is not valid');
  if (!Number.isInteger(offset) || offset < 0)
    return brevoError(400, 'invalid_parameter', 'offset is not valid');
  const sort = query.string('sort') ?? 'desc';
  if (sort !== 'asc' && sort !== 'desc')
    return brevoError(400, 'invalid_parameter', 'sort is not valid');
  const where = `WHERE ${clauses.join(' AND ')}`;
  const count = (
    ctx.db.prepare(`SELECT COUNT(*) AS n FROM outbox ${where}`).get(...params) as { n: number }
  ).n;
  const rows = ctx.db
    .prepare(
      `SELECT * FROM outbox ${where} ORDER BY date ${sort.toUpperCase()}, rowid ${sort.toUpperCase()} LIMIT ? OFFSET ?`,
    )
    .all(...params, limit, offset) as unknown as OutboxRow[];
  return json(200, {
    count,
    transactionalEmails: rows.map((row) => {
      const mail = JSON.parse(row.doc) as Obj;
      return {
        email: row.recipients,
        subject: mail.subject,
        ...(mail.templateId !== undefined ? { templateId: mail.templateId } : {}),
        messageId: row.message_id,
        uuid: row.uuid,
        date: row.date,
        from: mail.from,
        tags: mail.tags,
      };
    }),
  });
}

/** GET /smtp/emails/{uuid}: the mail as sent to one recipient, with its body. */
export function getEmail(ctx: RouteContext): Reply {
  const row = ctx.db.prepare('SELECT * FROM outbox WHERE uuid = ?').get(ctx.params.uuid ?? '') as
    OutboxRow | undefined;
  if (!row) return brevoError(404, 'document_not_found', 'Email not found');
  const mail = JSON.parse(row.doc) as Obj;
  return json(200, {
    email: row.recipients,
    subject: mail.subject,
    ...(mail.templateId !== undefined ? { templateId: mail.templateId } : {}),
    date: row.date,
    events: [{ name: 'sent', time: row.date }],
    body: mail.body,
    ...(typeof mail.text === 'string' ? { textContent: mail.text } : {}),
    attachmentCount: 0,
  });
}
