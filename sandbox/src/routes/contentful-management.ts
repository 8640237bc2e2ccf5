/**
 * Contentful Content Management API emulation (issue 8), at `{sandbox}/contentful-management/
 * spaces/{space}[/environments/{env}]/...` with the management bearer token: entries (create
 * or update a draft with PUT, POST with a generated id, publish, unpublish, delete, read and
 * list), content types, tags (public and private), webhook definitions and the webhook signing
 * secret. Entry events are sent to the webhook definitions whose topics match
 * (`Entry.create`, `Entry.save`, `Entry.publish`, `Entry.unpublish`, `Entry.delete`, wildcards),
 * signed when a signing secret is set, in the background (webhooks.ts).
 */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import {
  bearer,
  ctfError,
  ctfJson,
  invalidate,
  readStoredEntry,
  snapshot,
  spaceSys,
  tagLinks,
  tagView,
  type ContentfulConfig,
} from '../contentful-store.ts';
import type { Reply } from '../http.ts';
import {
  CONTENT_TYPE_BY_ID,
  CONTENT_TYPES,
  CONTENTFUL_LOCALE,
  type ContentTypeDefinition,
  type FieldDefinition,
  type PublishedEntry,
  type StoredEntry,
} from '../seed/contentful-model.ts';
import { signContentfulRequest, type Webhooks } from '../webhooks.ts';
import { contentTypeView } from './contentful.ts';

const MANAGEMENT_TYPE = 'application/vnd.contentful.management.v1+json';
const ID = /^[a-zA-Z0-9._-]{1,64}$/;
const SECRET_DOCUMENT = 'contentful:signing-secret';
const USER = { sys: { type: 'Link', linkType: 'User', id: 'sandbox-editor' } };

export interface ManagementContext {
  db: DatabaseSync;
  config: ContentfulConfig;
  webhooks: Webhooks;
  method: string;
  url: URL;
  headers: Record<string, string | string[] | undefined>;
  readBody: () => Promise<string | undefined>;
}

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function header(ctx: ManagementContext, name: string): string | undefined {
  const value = ctx.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

interface ValidationError {
  name: string;
  path: (string | number)[];
  details: string;
  value?: unknown;
}

function validationFailed(errors: ValidationError[]): Reply {
  return ctfError(422, 'ValidationFailed', 'Validation error', { errors });
}

function badRequest(message: string): Reply {
  return ctfError(400, 'BadRequest', message);
}

function notFound(type: string, id: string): Reply {
  return ctfError(404, 'NotFound', 'The resource could not be found.', { type, id });
}

async function jsonBody(ctx: ManagementContext): Promise<{ body?: unknown; error?: Reply }> {
  const raw = await ctx.readBody();
  if (raw === undefined)
    return { error: ctfError(413, 'PayloadTooLarge', 'The request body is too large.') };
  if (raw.trim() === '') return { body: {} };
  try {
    return { body: JSON.parse(raw) as unknown };
  } catch {
    return { error: badRequest('The request body is not valid JSON.') };
  }
}

/** The version a write names (`X-Contentful-Version`), or undefined; NaN when unreadable. */
function versionHeader(ctx: ManagementContext): number | undefined {
  const raw = header(ctx, 'x-contentful-version');
  if (raw === undefined) return undefined;
  return /^\d{1,9}$/.test(raw.trim()) ? Number(raw) : Number.NaN;
}

function versionMismatch(): Reply {
  return ctfError(409, 'VersionMismatch', 'Version mismatch');
}

// ---------------------------------------------------------------------------------------------
// Field validation

function isLink(value: unknown, linkType: string): boolean {
  if (!isObject(value) || !isObject(value.sys)) return false;
  const sys = value.sys;
  return (
    sys.type === 'Link' &&
    sys.linkType === linkType &&
    typeof sys.id === 'string' &&
    ID.test(sys.id)
  );
}

const MAX_DEPTH = 40;

function isRichNode(value: unknown, depth: number): boolean {
  if (!isObject(value) || typeof value.nodeType !== 'string' || depth > MAX_DEPTH) return false;
  if (value.data !== undefined && !isObject(value.data)) return false;
  if (value.nodeType === 'text') {
    return (
      typeof value.value === 'string' &&
      (value.marks === undefined ||
        (Array.isArray(value.marks) &&
          value.marks.every((m) => isObject(m) && typeof m.type === 'string')))
    );
  }
  return (
    value.content === undefined ||
    (Array.isArray(value.content) && value.content.every((c) => isRichNode(c, depth + 1)))
  );
}

function checkValue(
  field: FieldDefinition,
  value: unknown,
  path: (string | number)[],
  errors: ValidationError[],
): void {
  const fail = (details: string): void => {
    errors.push({ name: 'type', path, details, value });
  };
  switch (field.type) {
    case 'Symbol':
      if (typeof value !== 'string') fail('Symbol expected');
      else if (value.length > 256)
        errors.push({ name: 'size', path, details: 'At most 256 characters' });
      return;
    case 'Text':
      if (typeof value !== 'string') fail('Text expected');
      else if (value.length > 50_000)
        errors.push({ name: 'size', path, details: 'At most 50000 characters' });
      return;
    case 'Integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) fail('Integer expected');
      return;
    case 'Number':
      if (typeof value !== 'number' || !Number.isFinite(value)) fail('Number expected');
      return;
    case 'Boolean':
      if (typeof value !== 'boolean') fail('Boolean expected');
      return;
    case 'Date':
      if (
        typeof value !== 'string' ||
        !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(
          value,
        ) ||
        Number.isNaN(Date.parse(value))
      ) {
        fail('Date expected (ISO 8601)');
      }
      return;
    case 'RichText':
      if (
        !isObject(value) ||
        value.nodeType !== 'document' ||
        !Array.isArray(value.content) ||
        !isRichNode(value, 0)
      ) {
        fail('Rich text document expected');
      }
      return;
    case 'Link':
      if (!isLink(value, field.linkType ?? 'Entry'))
        fail(`Link to ${field.linkType ?? 'Entry'} expected`);
      return;
    case 'Array': {
      if (!Array.isArray(value)) {
        fail('Array expected');
        return;
      }
      if (value.length > 1000) errors.push({ name: 'size', path, details: 'At most 1000 items' });
      const items = field.items;
      value.forEach((item: unknown, index) => {
        if (
          items?.type === 'Symbol'
            ? typeof item !== 'string'
            : !isLink(item, items?.linkType ?? 'Entry')
        ) {
          errors.push({
            name: 'type',
            path: [...path, index],
            details: `${items?.type ?? 'Link'} expected`,
            value: item,
          });
        }
      });
      return;
    }
  }
}

/** Localized fields of a write body, validated against the content type. */
function readFields(
  type: ContentTypeDefinition,
  raw: unknown,
  errors: ValidationError[],
): StoredEntry['fields'] {
  const fields: StoredEntry['fields'] = {};
  if (raw === undefined) return fields;
  if (!isObject(raw)) {
    errors.push({ name: 'type', path: ['fields'], details: 'Object expected' });
    return fields;
  }
  for (const [name, perLocale] of Object.entries(raw)) {
    const field = type.fields.find((f) => f.id === name);
    if (!field) {
      errors.push({
        name: 'unknown',
        path: ['fields', name],
        details: `The field "${name}" is not in the content type ${type.id}`,
      });
      continue;
    }
    if (!isObject(perLocale)) {
      errors.push({
        name: 'type',
        path: ['fields', name],
        details: 'An object of values per locale expected',
      });
      continue;
    }
    for (const [code, value] of Object.entries(perLocale)) {
      if (code !== CONTENTFUL_LOCALE) {
        errors.push({
          name: 'unknown',
          path: ['fields', name, code],
          details: `Unknown locale ${code}`,
        });
        continue;
      }
      if (value === null) continue;
      checkValue(field, value, ['fields', name, code], errors);
      fields[name] = { [CONTENTFUL_LOCALE]: value };
    }
  }
  return fields;
}

function readTags(
  db: DatabaseSync,
  metadata: unknown,
  errors: ValidationError[],
): string[] | undefined {
  if (metadata === undefined) return undefined;
  if (!isObject(metadata) || (metadata.tags !== undefined && !Array.isArray(metadata.tags))) {
    errors.push({ name: 'type', path: ['metadata'], details: '{ tags: [Link<Tag>] } expected' });
    return undefined;
  }
  const known = new Set(snapshot(db).tags.map((t) => t.id));
  const ids: string[] = [];
  ((metadata.tags as unknown[] | undefined) ?? []).forEach((tag, index) => {
    if (!isLink(tag, 'Tag')) {
      errors.push({
        name: 'type',
        path: ['metadata', 'tags', index],
        details: 'Link to a Tag expected',
      });
      return;
    }
    const id = (tag as { sys: { id: string } }).sys.id;
    if (!known.has(id))
      errors.push({
        name: 'notResolvable',
        path: ['metadata', 'tags', index],
        details: `Unknown tag ${id}`,
      });
    else if (!ids.includes(id)) ids.push(id);
  });
  return ids;
}

// ---------------------------------------------------------------------------------------------
// Entries

function managementEntry(entry: StoredEntry, config: ContentfulConfig, extraSys: Obj = {}): Obj {
  const { sys } = entry;
  return {
    metadata: { tags: tagLinks(entry.tags), concepts: [] },
    sys: {
      ...spaceSys(config),
      id: sys.id,
      type: 'Entry',
      createdAt: sys.createdAt,
      updatedAt: sys.updatedAt,
      createdBy: USER,
      updatedBy: USER,
      publishedCounter: sys.publishedCounter,
      version: sys.version,
      ...(sys.publishedVersion !== undefined
        ? {
            publishedVersion: sys.publishedVersion,
            publishedAt: sys.publishedAt,
            publishedBy: USER,
          }
        : {}),
      ...(sys.firstPublishedAt !== undefined ? { firstPublishedAt: sys.firstPublishedAt } : {}),
      automationTags: [],
      contentType: { sys: { type: 'Link', linkType: 'ContentType', id: sys.contentType } },
      ...extraSys,
    },
    fields: entry.fields,
  };
}

/** The tombstone Contentful sends on unpublish and delete. */
function deletedEntry(entry: StoredEntry, config: ContentfulConfig, now: string): Obj {
  return {
    sys: {
      type: 'DeletedEntry',
      id: entry.sys.id,
      ...spaceSys(config),
      revision: entry.sys.publishedCounter,
      createdAt: entry.sys.createdAt,
      updatedAt: now,
      deletedAt: now,
      deletedBy: USER,
      contentType: { sys: { type: 'Link', linkType: 'ContentType', id: entry.sys.contentType } },
    },
  };
}

function writeEntry(
  db: DatabaseSync,
  entry: StoredEntry,
  published: PublishedEntry | null | undefined,
): void {
  const exists = db.prepare('SELECT 1 FROM ctf_entries WHERE id = ?').get(entry.sys.id);
  if (exists) {
    if (published === undefined) {
      db.prepare('UPDATE ctf_entries SET doc = ? WHERE id = ?').run(
        JSON.stringify(entry),
        entry.sys.id,
      );
    } else {
      db.prepare('UPDATE ctf_entries SET doc = ?, published = ? WHERE id = ?').run(
        JSON.stringify(entry),
        published ? JSON.stringify(published) : null,
        entry.sys.id,
      );
    }
  } else {
    const seq = (
      db.prepare('SELECT COALESCE(MAX(seq), -1) + 1 AS n FROM ctf_entries').get() as { n: number }
    ).n;
    db.prepare('INSERT INTO ctf_entries VALUES (?, ?, ?, ?, ?)').run(
      entry.sys.id,
      seq,
      entry.sys.contentType,
      JSON.stringify(entry),
      published ? JSON.stringify(published) : null,
    );
  }
  invalidate(db);
}

/** Sends an entry event to every active webhook definition whose topics match. */
function notify(ctx: ManagementContext, action: string, entryId: string, payload: Obj): void {
  const topic = `ContentManagement.Entry.${action}`;
  const secret = readSecret(ctx.db);
  const body = JSON.stringify(payload);
  for (const definition of listDefinitions(ctx.db)) {
    if (!definition.active || !topicMatches(definition.topics, 'Entry', action)) continue;
    let path: string;
    try {
      const target = new URL(definition.url);
      path = `${target.pathname}${target.search}`;
    } catch {
      continue;
    }
    ctx.webhooks.enqueue({
      source: 'contentful',
      hookId: definition.sys.id,
      url: definition.url,
      topic,
      resourceId: entryId,
      build: () => {
        const headers: Record<string, string> = {};
        for (const h of definition.headers) headers[h.key.toLowerCase()] = h.value;
        Object.assign(headers, {
          'content-type': MANAGEMENT_TYPE,
          'x-contentful-topic': topic,
          'x-contentful-webhook-name': definition.name,
        });
        return {
          headers: secret
            ? signContentfulRequest(secret, { method: 'POST', path, headers, body })
            : headers,
          body,
        };
      },
    });
  }
}

function topicMatches(topics: readonly string[], type: string, action: string): boolean {
  return topics.some((topic) => {
    const [t, a] = topic.split('.');
    return (t === '*' || t === type) && (a === '*' || a === action);
  });
}

function checkVersion(ctx: ManagementContext, current: number): Reply | undefined {
  const version = versionHeader(ctx);
  if (version === undefined) return undefined;
  return version === current ? undefined : versionMismatch();
}

async function putEntry(ctx: ManagementContext, id: string): Promise<Reply> {
  const { body, error } = await jsonBody(ctx);
  if (error) return error;
  if (!isObject(body)) return badRequest('The request body must be an object.');
  const existing = readStoredEntry(ctx.db, id);
  const typeId = existing?.sys.contentType ?? header(ctx, 'x-contentful-content-type');
  if (!typeId) {
    return validationFailed([
      {
        name: 'required',
        path: ['sys', 'contentType'],
        details: 'X-Contentful-Content-Type is required to create an entry',
      },
    ]);
  }
  const type = CONTENT_TYPE_BY_ID.get(typeId);
  if (!type)
    return validationFailed([
      {
        name: 'unknownContentType',
        path: ['sys', 'contentType'],
        details: `Unknown content type ${typeId}`,
        value: typeId,
      },
    ]);
  if (existing) {
    const mismatch = checkVersion(ctx, existing.sys.version);
    if (mismatch) return mismatch;
  }
  const errors: ValidationError[] = [];
  const fields = readFields(type, body.fields, errors);
  const tags = readTags(ctx.db, body.metadata, errors);
  if (errors.length > 0) return validationFailed(errors);
  const now = new Date().toISOString();
  const entry: StoredEntry = existing
    ? {
        ...existing,
        sys: { ...existing.sys, version: existing.sys.version + 1, updatedAt: now },
        fields,
        tags: tags ?? existing.tags,
      }
    : {
        sys: {
          id,
          contentType: type.id,
          createdAt: now,
          updatedAt: now,
          version: 1,
          publishedCounter: 0,
        },
        fields,
        tags: tags ?? [],
      };
  writeEntry(ctx.db, entry, undefined);
  const view = managementEntry(entry, ctx.config);
  notify(ctx, existing ? 'save' : 'create', id, view);
  return ctfJson(existing ? 200 : 201, view, MANAGEMENT_TYPE);
}

function missingRequired(type: ContentTypeDefinition, entry: StoredEntry): ValidationError[] {
  return type.fields
    .filter((f) => f.required && entry.fields[f.id]?.[CONTENTFUL_LOCALE] === undefined)
    .map((f) => ({ name: 'required', path: ['fields', f.id], details: 'Required field missing' }));
}

function publish(ctx: ManagementContext, id: string): Reply {
  const entry = readStoredEntry(ctx.db, id);
  if (!entry) return notFound('Entry', id);
  const mismatch = checkVersion(ctx, entry.sys.version);
  if (mismatch) return mismatch;
  const type = CONTENT_TYPE_BY_ID.get(entry.sys.contentType);
  const missing = type ? missingRequired(type, entry) : [];
  if (missing.length > 0) return validationFailed(missing);
  const now = new Date().toISOString();
  const revision = entry.sys.publishedCounter + 1;
  const published: PublishedEntry = {
    id,
    contentType: entry.sys.contentType,
    createdAt: entry.sys.firstPublishedAt ?? now,
    updatedAt: now,
    revision,
    publishedVersion: entry.sys.version,
    fields: Object.fromEntries(
      Object.entries(entry.fields).flatMap(([name, values]) =>
        values[CONTENTFUL_LOCALE] === undefined ? [] : [[name, values[CONTENTFUL_LOCALE]]],
      ),
    ),
    tags: entry.tags,
  };
  const next: StoredEntry = {
    ...entry,
    sys: {
      ...entry.sys,
      version: entry.sys.version + 1,
      publishedVersion: entry.sys.version,
      publishedCounter: revision,
      publishedAt: now,
      firstPublishedAt: entry.sys.firstPublishedAt ?? now,
      updatedAt: now,
    },
  };
  writeEntry(ctx.db, next, published);
  const view = managementEntry(next, ctx.config);
  notify(ctx, 'publish', id, managementEntry(next, ctx.config, { revision }));
  return ctfJson(200, view, MANAGEMENT_TYPE);
}

function unpublish(ctx: ManagementContext, id: string): Reply {
  const entry = readStoredEntry(ctx.db, id);
  if (!entry) return notFound('Entry', id);
  const mismatch = checkVersion(ctx, entry.sys.version);
  if (mismatch) return mismatch;
  if (entry.sys.publishedVersion === undefined) return badRequest('Not published');
  const now = new Date().toISOString();
  const sys = { ...entry.sys };
  delete sys.publishedVersion;
  delete sys.publishedAt;
  const next: StoredEntry = {
    ...entry,
    sys: { ...sys, version: entry.sys.version + 1, updatedAt: now },
  };
  writeEntry(ctx.db, next, null);
  notify(ctx, 'unpublish', id, deletedEntry(entry, ctx.config, now));
  return ctfJson(200, managementEntry(next, ctx.config), MANAGEMENT_TYPE);
}

function deleteEntry(ctx: ManagementContext, id: string): Reply {
  const entry = readStoredEntry(ctx.db, id);
  if (!entry) return notFound('Entry', id);
  const mismatch = checkVersion(ctx, entry.sys.version);
  if (mismatch) return mismatch;
  if (entry.sys.publishedVersion !== undefined) return badRequest('Cannot delete published');
  ctx.db.prepare('DELETE FROM ctf_entries WHERE id = ?').run(id);
  invalidate(ctx.db);
  notify(ctx, 'delete', id, deletedEntry(entry, ctx.config, new Date().toISOString()));
  return { status: 204, body: '' };
}

function listEntries(ctx: ManagementContext): Reply {
  const params = ctx.url.searchParams;
  const limit = Math.min(Number(params.get('limit') ?? 100) || 100, 1000);
  const skip = Math.max(Number(params.get('skip') ?? 0) || 0, 0);
  const type = params.get('content_type');
  const ids = params.get('sys.id[in]')?.split(',');
  const rows = ctx.db.prepare('SELECT doc FROM ctf_entries ORDER BY seq').all() as {
    doc: string;
  }[];
  const entries = rows
    .map((r) => JSON.parse(r.doc) as StoredEntry)
    .filter((e) => (!type || e.sys.contentType === type) && (!ids || ids.includes(e.sys.id)));
  return ctfJson(
    200,
    {
      sys: { type: 'Array' },
      total: entries.length,
      skip,
      limit,
      items: entries.slice(skip, skip + limit).map((e) => managementEntry(e, ctx.config)),
    },
    MANAGEMENT_TYPE,
  );
}

// ---------------------------------------------------------------------------------------------
// Webhook definitions and the signing secret

interface WebhookDefinition {
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

function listDefinitions(db: DatabaseSync): WebhookDefinition[] {
  return (db.prepare('SELECT doc FROM ctf_webhooks ORDER BY seq').all() as { doc: string }[]).map(
    (r) => JSON.parse(r.doc) as WebhookDefinition,
  );
}

function definitionView(d: WebhookDefinition, config: ContentfulConfig): Obj {
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

async function createDefinition(ctx: ManagementContext, id?: string): Promise<Reply> {
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

function readSecret(db: DatabaseSync): string | undefined {
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

async function signingSecret(ctx: ManagementContext): Promise<Reply> {
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

function methodNotAllowed(allow: string): Reply {
  return ctfError(405, 'MethodNotAllowed', 'Method not allowed', undefined, { Allow: allow });
}

// ---------------------------------------------------------------------------------------------
// Routing

const PREFIX = /^\/contentful-management\/spaces\/([^/]+)(\/.*)?$/;

/** Answers a request below `/contentful-management`. */
export async function handleManagement(ctx: ManagementContext): Promise<Reply> {
  if (bearer(header(ctx, 'authorization'), ctx.url.searchParams) !== ctx.config.managementToken) {
    return ctfError(
      401,
      'AccessTokenInvalid',
      'The access token you sent could not be found or is invalid.',
    );
  }
  const match = PREFIX.exec(ctx.url.pathname);
  if (!match) return ctfError(404, 'NotFound', 'The resource could not be found.');
  const [, space, rawRest = ''] = match;
  if (space !== ctx.config.spaceId) return notFound('Space', space ?? '');
  let rest = rawRest.replace(/\/$/, '');
  const method = ctx.method;

  if (rest === '/webhook_definitions' || rest.startsWith('/webhook_definitions/')) {
    const id = rest.split('/')[2];
    if (id === undefined) {
      if (method === 'GET') {
        const items = listDefinitions(ctx.db).map((d) => definitionView(d, ctx.config));
        return ctfJson(
          200,
          { sys: { type: 'Array' }, total: items.length, skip: 0, limit: 100, items },
          MANAGEMENT_TYPE,
        );
      }
      return method === 'POST' ? createDefinition(ctx) : methodNotAllowed('GET, POST');
    }
    if (!ID.test(id) || rest.split('/').length > 3) return notFound('WebhookDefinition', id);
    const row = ctx.db.prepare('SELECT doc FROM ctf_webhooks WHERE id = ?').get(id) as
      { doc: string } | undefined;
    if (method === 'PUT') return createDefinition(ctx, id);
    if (!row) return notFound('WebhookDefinition', id);
    if (method === 'GET')
      return ctfJson(
        200,
        definitionView(JSON.parse(row.doc) as WebhookDefinition, ctx.config),
        MANAGEMENT_TYPE,
      );
    if (method === 'DELETE') {
      ctx.db.prepare('DELETE FROM ctf_webhooks WHERE id = ?').run(id);
      return { status: 204, body: '' };
    }
    return methodNotAllowed('GET, PUT, DELETE');
  }
  if (rest === '/webhook_settings/signing_secret') return signingSecret(ctx);

  const environment = /^\/environments\/([^/]+)(\/.*)?$/.exec(rest);
  if (environment) {
    if (environment[1] !== ctx.config.environment)
      return notFound('Environment', environment[1] ?? '');
    rest = environment[2] ?? '';
  }
  const parts = rest.split('/').slice(1);
  const [resource, id, sub, extra] = parts;
  if (extra !== undefined) return ctfError(404, 'NotFound', 'The resource could not be found.');
  if (resource === 'entries') {
    if (id === undefined) {
      if (method === 'GET') return listEntries(ctx);
      if (method === 'POST')
        return putEntry(
          ctx,
          randomBytes(16).toString('base64url').replace(/[-_]/g, 'x').slice(0, 22),
        );
      return methodNotAllowed('GET, POST');
    }
    if (!ID.test(id)) return badRequest('Invalid entry id: 1 to 64 characters of [a-zA-Z0-9._-].');
    if (sub === 'published') {
      if (method === 'PUT') return publish(ctx, id);
      if (method === 'DELETE') return unpublish(ctx, id);
      return methodNotAllowed('PUT, DELETE');
    }
    if (sub !== undefined) return ctfError(404, 'NotFound', 'The resource could not be found.');
    if (method === 'GET') {
      const entry = readStoredEntry(ctx.db, id);
      return entry
        ? ctfJson(200, managementEntry(entry, ctx.config), MANAGEMENT_TYPE)
        : notFound('Entry', id);
    }
    if (method === 'PUT') return putEntry(ctx, id);
    if (method === 'DELETE') return deleteEntry(ctx, id);
    return methodNotAllowed('GET, PUT, DELETE');
  }
  if (method !== 'GET') return methodNotAllowed('GET');
  if (resource === 'content_types' && sub === undefined) {
    if (id === undefined) {
      const items = CONTENT_TYPES.map((t) => contentTypeView(t, ctx.config));
      return ctfJson(
        200,
        { sys: { type: 'Array' }, total: items.length, skip: 0, limit: 100, items },
        MANAGEMENT_TYPE,
      );
    }
    const type = CONTENT_TYPE_BY_ID.get(id);
    return type
      ? ctfJson(200, contentTypeView(type, ctx.config), MANAGEMENT_TYPE)
      : notFound('ContentType', id);
  }
  if (resource === 'tags' && id === undefined) {
    const items = snapshot(ctx.db).tags.map((t) => tagView(t, ctx.config));
    return ctfJson(
      200,
      { sys: { type: 'Array' }, total: items.length, skip: 0, limit: 100, items },
      MANAGEMENT_TYPE,
    );
  }
  return ctfError(404, 'NotFound', 'The resource could not be found.');
}
