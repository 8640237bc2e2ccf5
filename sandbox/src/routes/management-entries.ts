/**
 * The Content Management API's entries: create or update a draft (PUT, or POST with a
 * generated id), publish, unpublish, delete, read and list; each event sent to the webhook
 * definitions whose topics match, signed when a signing secret is set (webhooks.ts).
 */
import type { DatabaseSync } from 'node:sqlite';
import {
  ctfJson,
  invalidate,
  readStoredEntry,
  spaceSys,
  tagLinks,
  type ContentfulConfig,
} from '../contentful-store.ts';
import type { Reply } from '../http.ts';
import {
  CONTENT_TYPE_BY_ID,
  CONTENTFUL_LOCALE,
  type ContentTypeDefinition,
  type PublishedEntry,
  type StoredEntry,
} from '../seed/contentful-model.ts';
import { signContentfulRequest } from '../webhooks.ts';
import {
  MANAGEMENT_TYPE,
  USER,
  type ManagementContext,
  type Obj,
  isObject,
  header,
  type ValidationError,
  validationFailed,
  badRequest,
  notFound,
  jsonBody,
  checkVersion,
} from './management-context.ts';
import { readFields, readTags } from './management-fields.ts';
import { listDefinitions, readSecret } from './management-webhooks.ts';

// ---------------------------------------------------------------------------------------------
// Entries

export function managementEntry(
  entry: StoredEntry,
  config: ContentfulConfig,
  extraSys: Obj = {},
): Obj {
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

export async function putEntry(ctx: ManagementContext, id: string): Promise<Reply> {
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

export function publish(ctx: ManagementContext, id: string): Reply {
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

export function unpublish(ctx: ManagementContext, id: string): Reply {
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

export function deleteEntry(ctx: ManagementContext, id: string): Reply {
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

export function listEntries(ctx: ManagementContext): Reply {
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
