/** /v2/store, /v2/banners, /v3/channels/{id}, /v3/storefront/redirects. */
import {
  collection,
  json,
  pagination,
  paging,
  placeholders,
  v2Error,
  v3Error,
  type Reply,
} from '../http.ts';
import type { RedirectRecord } from '../seed/types.ts';
import { assertValid, objectBody, str, type Errors } from '../validate.ts';
import type { RouteContext } from './context.ts';

interface DocRow {
  doc: string;
}

function document(ctx: RouteContext, name: string): string | undefined {
  const row = ctx.db.prepare('SELECT doc FROM documents WHERE name = ?').get(name) as
    DocRow | undefined;
  return row?.doc;
}

/** GET /v2/store: a bare object (store_information.v2.yml). */
export function getStore(ctx: RouteContext): Reply {
  const doc = document(ctx, 'store');
  return doc ? { status: 200, body: doc } : v2Error(404, 'The requested resource was not found.');
}

/** GET /v2/banners: a bare array; v2 answers 204 with no body when a list is empty. */
export function listBanners(ctx: RouteContext): Reply {
  const page = ctx.query.int('page') ?? 1;
  const limit = ctx.query.int('limit') ?? 50;
  if (page < 1 || limit < 1 || limit > 250)
    return v2Error(400, 'The field page or limit is invalid.');
  const rows = ctx.db
    .prepare('SELECT doc FROM banners ORDER BY id LIMIT ? OFFSET ?')
    .all(limit, (page - 1) * limit) as unknown as DocRow[];
  if (rows.length === 0) return { status: 204, body: '' };
  return { status: 200, body: `[${rows.map((r) => r.doc).join(',')}]` };
}

/** GET /v2/banners/{id} */
export function getBanner(ctx: RouteContext): Reply {
  const row = ctx.db.prepare('SELECT doc FROM banners WHERE id = ?').get(Number(ctx.params.id)) as
    DocRow | undefined;
  return row
    ? { status: 200, body: row.doc }
    : v2Error(404, 'The requested resource was not found.');
}

/** GET /v3/channels/{id}?include=currencies */
export function getChannel(ctx: RouteContext): Reply {
  const id = Number(ctx.params.id);
  const doc = document(ctx, `channel:${id}`);
  if (!doc) return v3Error(404, 'Channel not found.');
  const data = JSON.parse(doc) as Record<string, unknown>;
  const include = ctx.query.list('include') ?? [];
  if (include.includes('currencies')) {
    data.currencies = JSON.parse(document(ctx, `channel:${id}:currencies`) ?? 'null') as unknown;
  }
  return json(200, { data, meta: {} });
}

const REDIRECT_SORTS = ['from_path', 'type', 'site_id'] as const;

/** GET /v3/storefront/redirects (redirects.v3.yml); `to_url` only with include=to_url. */
export function listRedirects(ctx: RouteContext): Reply {
  const { db, query } = ctx;
  const clauses: string[] = [];
  const params: (string | number)[] = [];
  const siteId = query.int('site_id');
  if (siteId !== undefined) {
    clauses.push('site_id = ?');
    params.push(siteId);
  }
  const ids = query.intList('id:in');
  if (ids) {
    clauses.push(`id IN (${placeholders(ids.length)})`);
    params.push(...ids);
  }
  const keyword = query.string('keyword');
  if (keyword !== undefined) {
    clauses.push("from_path LIKE ? ESCAPE '\\'");
    params.push(`%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  const sort = query.oneOf('sort', REDIRECT_SORTS);
  const direction = query.oneOf('direction', ['asc', 'desc'] as const) ?? 'asc';
  const include = query.list('include') ?? [];
  const paged = paging(query, 100, 250);
  const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
  const total = (
    db.prepare(`SELECT COUNT(*) AS n FROM redirects ${where}`).get(...params) as { n: number }
  ).n;
  const order = sort ? `${sort} ${direction.toUpperCase()}, id` : `id ${direction.toUpperCase()}`;
  const rows = db
    .prepare(`SELECT doc FROM redirects ${where} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .all(...params, paged.limit, paged.offset) as unknown as DocRow[];
  const items = rows.map((r) => {
    const record = JSON.parse(r.doc) as RedirectRecord;
    if (include.includes('to_url')) return JSON.stringify(record);
    return JSON.stringify({ ...record, to_url: undefined });
  });
  return collection(items, { pagination: pagination(query, paged, total, items.length) });
}

/** GET /v3/channels/{id}/site (channels.v3.yml site_Resp). */
export function getChannelSite(ctx: RouteContext): Reply {
  const doc = document(ctx, `site:${Number(ctx.params.id)}`);
  if (!doc) return v3Error(404, 'Site not found for this channel.');
  return { status: 200, body: `{"data":${doc},"meta":{}}` };
}

/** PUT /v3/channels/{id}/site `{ url }`: a fully qualified http(s) URL. */
export function putChannelSite(ctx: RouteContext): Reply {
  const name = `site:${Number(ctx.params.id)}`;
  const doc = document(ctx, name);
  if (!doc) return v3Error(404, 'Site not found for this channel.');
  const body = objectBody(ctx.body);
  const errors: Errors = {};
  const url = str(body, 'url', errors, '', { required: true, min: 1, max: 255 });
  if (url !== undefined && !/^https?:\/\/[^/\s]+/.test(url)) {
    errors.url = 'url must be a fully qualified URL (scheme and host)';
  }
  assertValid(errors);
  const site = {
    ...(JSON.parse(doc) as Record<string, unknown>),
    url,
    updated_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
  ctx.db.prepare('UPDATE documents SET doc = ? WHERE name = ?').run(JSON.stringify(site), name);
  return json(200, { data: site, meta: {} });
}
