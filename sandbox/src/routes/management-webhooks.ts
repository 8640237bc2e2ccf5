/**
 * The Content Management API's webhook definitions (list, create, read, update, delete) and
 * the space's webhook signing secret.
 */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { ctfJson, spaceSys, type ContentfulConfig } from '../contentful-store.ts';
import type { Reply } from '../http.ts';
import {
  MANAGEMENT_TYPE,
  SECRET_DOCUMENT,
  USER,
  type ManagementContext,
  type Obj,
  isObject,
  type ValidationError,
  validationFailed,
  badRequest,
  notFound,
  jsonBody,
  checkVersion,
  methodNotAllowed,
} from './management-context.ts';

// ---------------------------------------------------------------------------------------------
// Webhook definitions and the signing secret

export interface WebhookDefinition {
  sys: { id: string; version: number; createdAt: string; updatedAt: string };
  name: string;
  url: string;
  topics: string[];
  headers: { key: string; value: string; secret?: boolean }[];
  filters: unknown;
  active: boolean;
}

const TOPIC =
  /^(\*|Entry|Asset|ContentType|Task|Comment|Release|ReleaseAction|BulkAction|Workflow)\.(\*|create|save|auto_save|archive|unarchive|publish|unpublish|delete|complete|execute)$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,256}$/;

export function listDefinitions(db: DatabaseSync): WebhookDefinition[] {
  return (db.prepare('SELECT doc FROM ctf_webhooks ORDER BY seq').all() as { doc: string }[]).map(
    (r) => JSON.parse(r.doc) as WebhookDefinition,
  );
}

export function definitionView(d: WebhookDefinition, config: ContentfulConfig): Obj {
  return {
    sys: {
      type: 'WebhookDefinition',
      id: d.sys.id,
      version: d.sys.version,
      space: spaceSys(config).space,
      createdAt: d.sys.createdAt,
      updatedAt: d.sys.updatedAt,
      createdBy: USER,
      updatedBy: USER,
    },
    name: d.name,
    url: d.url,
    topics: d.topics,
    headers: d.headers.map((h) =>
      h.secret ? { key: h.key, secret: true } : { key: h.key, value: h.value },
    ),
    filters: d.filters,
    active: d.active,
    httpBasicUsername: null,
  };
}

function readDefinition(body: Obj, errors: ValidationError[]): Omit<WebhookDefinition, 'sys'> {
  const name = body.name;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 100) {
    errors.push({
      name: 'required',
      path: ['name'],
      details: 'A name of 1 to 100 characters is required',
    });
  }
  const url = body.url;
  let urlOk = false;
  if (typeof url === 'string' && url.length <= 2048) {
    try {
      const parsed = new URL(url);
      urlOk =
        (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
        parsed.username === '' &&
        parsed.password === '';
    } catch {
      urlOk = false;
    }
  }
  if (!urlOk)
    errors.push({
      name: 'invalid',
      path: ['url'],
      details: 'An absolute http(s) URL without credentials is required',
    });
  const topics = body.topics;
  if (!Array.isArray(topics) || topics.length === 0) {
    errors.push({ name: 'required', path: ['topics'], details: 'At least one topic is required' });
  } else {
    topics.forEach((topic: unknown, index) => {
      if (typeof topic !== 'string' || !TOPIC.test(topic)) {
        errors.push({
          name: 'invalid',
          path: ['topics', index],
          details: 'Topics look like Entry.publish or *.*',
          value: topic,
        });
      }
    });
  }
  const headers: WebhookDefinition['headers'] = [];
  const rawHeaders = body.headers;
  const pairs: [unknown, unknown, unknown][] = Array.isArray(rawHeaders)
    ? rawHeaders.map((h: unknown) =>
        isObject(h) ? [h.key, h.value, h.secret] : [undefined, undefined, undefined],
      )
    : isObject(rawHeaders)
      ? Object.entries(rawHeaders).map(([k, v]) => [k, v, false])
      : [];
  if (rawHeaders !== undefined && !Array.isArray(rawHeaders) && !isObject(rawHeaders)) {
    errors.push({
      name: 'type',
      path: ['headers'],
      details: 'An array of { key, value } expected',
    });
  }
  pairs.forEach(([key, value, secret], index) => {
    if (
      typeof key !== 'string' ||
      !HEADER_NAME.test(key) ||
      typeof value !== 'string' ||
      value.length > 1000 ||
      /[\r\n\0]/.test(value) ||
      key.toLowerCase().startsWith('x-contentful-') ||
      ['content-type', 'content-length', 'host', 'transfer-encoding', 'connection'].includes(
        key.toLowerCase(),
      )
    ) {
      errors.push({
        name: 'invalid',
        path: ['headers', index],
        details: 'A header { key, value } the sandbox may send',
      });
      return;
    }
    headers.push({ key, value: value.trim(), ...(secret === true ? { secret: true } : {}) });
  });
  return {
    name: typeof name === 'string' ? name : '',
    url: typeof url === 'string' ? url : '',
    topics: Array.isArray(topics) ? topics.filter((t): t is string => typeof t === 'string') : [],
    headers,
    filters: body.filters ?? null,
    active: body.active !== false,
  };
}

export async function createDefinition(ctx: ManagementContext, id?: string): Promise<Reply> {
  const { body, error } = await jsonBody(ctx);
  if (error) return error;
  if (!isObject(body)) return badRequest('The request body must be an object.');
  const errors: ValidationError[] = [];
  const fields = readDefinition(body, errors);
  if (errors.length > 0) return validationFailed(errors);
  const now = new Date().toISOString();
  const existing = id
    ? (ctx.db.prepare('SELECT doc FROM ctf_webhooks WHERE id = ?').get(id) as
        { doc: string } | undefined)
    : undefined;
  if (existing) {
    const before = JSON.parse(existing.doc) as WebhookDefinition;
    const mismatch = checkVersion(ctx, before.sys.version);
    if (mismatch) return mismatch;
    const updated: WebhookDefinition = {
      ...fields,
      sys: { ...before.sys, version: before.sys.version + 1, updatedAt: now },
    };
    ctx.db
      .prepare('UPDATE ctf_webhooks SET doc = ? WHERE id = ?')
      .run(JSON.stringify(updated), before.sys.id);
    return ctfJson(200, definitionView(updated, ctx.config), MANAGEMENT_TYPE);
  }
  const definition: WebhookDefinition = {
    ...fields,
    sys: {
      id: id ?? randomBytes(11).toString('base64url'),
      version: 1,
      createdAt: now,
      updatedAt: now,
    },
  };
  const seq = (
    ctx.db.prepare('SELECT COALESCE(MAX(seq), -1) + 1 AS n FROM ctf_webhooks').get() as {
      n: number;
    }
  ).n;
  ctx.db
    .prepare('INSERT INTO ctf_webhooks VALUES (?, ?, ?)')
    .run(definition.sys.id, seq, JSON.stringify(definition));
  return ctfJson(201, definitionView(definition, ctx.config), MANAGEMENT_TYPE);
}

export function readSecret(db: DatabaseSync): string | undefined {
  const row = db.prepare('SELECT doc FROM documents WHERE name = ?').get(SECRET_DOCUMENT) as
    { doc: string } | undefined;
  return row ? (JSON.parse(row.doc) as { value: string }).value : undefined;
}

function secretView(value: string, config: ContentfulConfig): Obj {
  return {
    redactedValue: `${'*'.repeat(60)}${value.slice(-4)}`,
    sys: { type: 'WebhookSigningSecret', id: 'signing_secret', space: spaceSys(config).space },
  };
}

export async function signingSecret(ctx: ManagementContext): Promise<Reply> {
  if (ctx.method === 'GET') {
    const value = readSecret(ctx.db);
    return value
      ? ctfJson(200, secretView(value, ctx.config), MANAGEMENT_TYPE)
      : notFound('WebhookSigningSecret', 'signing_secret');
  }
  if (ctx.method === 'DELETE') {
    ctx.db.prepare('DELETE FROM documents WHERE name = ?').run(SECRET_DOCUMENT);
    return { status: 204, body: '' };
  }
  if (ctx.method !== 'PUT') return methodNotAllowed('GET, PUT, DELETE');
  const { body, error } = await jsonBody(ctx);
  if (error) return error;
  const value = isObject(body) ? body.value : undefined;
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{64}$/.test(value)) {
    return validationFailed([
      { name: 'invalid', path: ['value'], details: 'The secret is 64 characters of [A-Za-z0-9_-]' },
    ]);
  }
  ctx.db
    .prepare('INSERT OR REPLACE INTO documents VALUES (?, ?)')
    .run(SECRET_DOCUMENT, JSON.stringify({ value }));
  return ctfJson(200, secretView(value, ctx.config), MANAGEMENT_TYPE);
}
