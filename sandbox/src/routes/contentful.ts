/**
 * Contentful Content Delivery API emulation (issue 8): `{sandbox}/contentful/spaces/{space}/
 * environments/{env}/...` (or `/spaces/{space}/...` for master) with a bearer token. Entries
 * with Contentful's search parameters (equality, `[ne|in|nin|all|exists|match|lt|lte|gt|gte]`
 * on `sys.*`, `fields.*` (needs `content_type`) and `metadata.tags.sys.id`, `query`, `order`,
 * `limit`/`skip`, `select`, `include` resolving links into `includes` and reporting unpublished
 * targets in `errors`), single entries, assets, public tags, content types, the space and its
 * locale. Asset files are served by serveAsset (pictures under `/images/ctf/`, sounds under
 * `/ctf-assets/`). Everything is read from the published snapshot of contentful-store.ts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import {
  assetHash,
  assetView,
  bearer,
  ctfError,
  ctfJson,
  entryView,
  snapshot,
  tagView,
  type ContentfulConfig,
  type Snapshot,
} from '../contentful-store.ts';
import type { Reply } from '../http.ts';
import { toneWav } from '../media.ts';
import { IMAGE_SIZES } from '../seed/image-pool.ts';
import {
  CONTENT_TYPE_BY_ID,
  CONTENT_TYPES,
  CONTENTFUL_LOCALE,
  type ContentTypeDefinition,
  type FieldDefinition,
  type PublishedEntry,
} from '../seed/contentful-model.ts';
import { fold } from '../seed/random.ts';

const DELIVERY_TYPE = 'application/vnd.contentful.delivery.v1+json';
const MAX_LIMIT = 1000;
const MAX_INCLUDE = 10;
const INVALID_QUERY =
  'The query you sent was invalid. Probably a filter or ordering specification is not applicable to the type of a field.';

/** Thrown while reading the query; becomes a 400 InvalidQuery (or the given error id). */
class InvalidQuery extends Error {
  readonly errors: Record<string, unknown>[];
  readonly id: string;
  constructor(errors: Record<string, unknown>[], message = INVALID_QUERY, id = 'InvalidQuery') {
    super(message);
    this.errors = errors;
    this.id = id;
  }
}

type Wire = Record<string, unknown>;

interface Filter {
  key: string;
  path: string[];
  op: string;
  value: string;
}

const OPERATORS = new Set(['ne', 'in', 'nin', 'all', 'exists', 'match', 'lt', 'lte', 'gt', 'gte']);
const RESERVED = new Set([
  'content_type',
  'limit',
  'skip',
  'include',
  'order',
  'locale',
  'select',
  'query',
  'access_token',
  'links_to_entry',
  'links_to_asset',
  'mimetype_group',
]);
const ENTRY_SYS = new Set(['id', 'createdAt', 'updatedAt', 'revision', 'type', 'publishedVersion']);
const ORDERABLE: ReadonlySet<string> = new Set(['Symbol', 'Integer', 'Number', 'Date', 'Boolean']);

function intParam(params: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = params.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) {
    throw new InvalidQuery([
      { name: 'type', path: [name], value: raw, details: `${name} must be a non-negative integer` },
    ]);
  }
  const n = Number(raw);
  if (n > max) {
    throw new InvalidQuery([
      { name: 'size', path: [name], max, value: n, details: `${name} must be at most ${max}` },
    ]);
  }
  return n;
}

function locale(params: URLSearchParams): string {
  const value = params.get('locale');
  if (value === null || value === '' || value === CONTENTFUL_LOCALE || value === '*')
    return value === '*' ? value : CONTENTFUL_LOCALE;
  throw new InvalidQuery([], `Unknown locale: ${value}`, 'BadRequest');
}

function contentTypeOf(params: URLSearchParams): ContentTypeDefinition | undefined {
  const id = params.get('content_type');
  if (id === null) return undefined;
  const type = CONTENT_TYPE_BY_ID.get(id);
  if (!type) throw new InvalidQuery([{ name: 'unknownContentType', value: id }]);
  return type;
}

function fieldOf(
  type: ContentTypeDefinition | undefined,
  name: string,
  key: string,
): FieldDefinition {
  if (!type) {
    throw new InvalidQuery([
      {
        name: 'unknownContentType',
        path: key.split('.'),
        details: 'A content_type is required to filter or order on fields.',
      },
    ]);
  }
  const field = type.fields.find((f) => f.id === name);
  if (!field) {
    throw new InvalidQuery([
      { name: 'unknown', path: key.split('.'), details: `No field with id "${name}" found.` },
    ]);
  }
  return field;
}

function isLinkField(field: FieldDefinition): boolean {
  return field.type === 'Link' || (field.type === 'Array' && field.items?.type === 'Link');
}

/** Validates a filter or order path of an entry search. */
function checkEntryPath(
  path: string[],
  key: string,
  type: ContentTypeDefinition | undefined,
): FieldDefinition | undefined {
  const [root, name, ...rest] = path;
  if (root === 'sys') {
    if (name === 'contentType' && rest.join('.') === 'sys.id') return undefined;
    if (name !== undefined && ENTRY_SYS.has(name) && rest.length === 0) return undefined;
  } else if (root === 'metadata') {
    if (name === 'tags' && (rest.length === 0 || rest.join('.') === 'sys.id')) return undefined;
  } else if (root === 'fields' && name !== undefined) {
    const field = fieldOf(type, name, key);
    if (rest.length === 0) return field;
    if (rest.join('.') === 'sys.id' && isLinkField(field)) return field;
  }
  throw new InvalidQuery([
    { name: 'unknown', path, details: `The path "${key}" is not recognized.` },
  ]);
}

/** Values at `path` in a wire object, arrays flattened at every step. */
function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  let current: unknown[] = [value];
  for (const key of path) {
    const next: unknown[] = [];
    for (const item of current) {
      if (item === null || typeof item !== 'object') continue;
      const child = (item as Record<string, unknown>)[key];
      if (Array.isArray(child)) next.push(...(child as unknown[]));
      else if (child !== undefined) next.push(child);
    }
    current = next;
  }
  return current;
}

/** Plain text of a field value (rich text: its text nodes). */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value && typeof value === 'object') {
    const node = value as { value?: unknown; content?: unknown };
    const parts: string[] = [];
    if (typeof node.value === 'string') parts.push(node.value);
    if (Array.isArray(node.content)) for (const child of node.content) parts.push(textOf(child));
    return parts.join(' ');
  }
  return '';
}

function matches(haystack: string, needle: string): boolean {
  const text = fold(haystack);
  return fold(needle)
    .split(/\s+/)
    .filter(Boolean)
    .every((term) => text.includes(term));
}

function compare(a: unknown, b: string): number {
  if (typeof a === 'number') return a - Number(b);
  const left = String(a);
  const dateA = Date.parse(left);
  const dateB = Date.parse(b);
  if (/^\d{4}-\d{2}-\d{2}/.test(left) && !Number.isNaN(dateA) && !Number.isNaN(dateB))
    return dateA - dateB;
  return left < b ? -1 : left > b ? 1 : 0;
}

function same(a: unknown, b: string): boolean {
  return typeof a === 'number' ? a === Number(b) : String(a) === b;
}

function passes(values: unknown[], filter: Filter): boolean {
  const list = filter.value.split(',').map((v) => v.trim());
  switch (filter.op) {
    case 'eq':
      return values.some((v) => same(v, filter.value));
    case 'ne':
      return !values.some((v) => same(v, filter.value));
    case 'in':
      return values.some((v) => list.some((item) => same(v, item)));
    case 'nin':
      return !values.some((v) => list.some((item) => same(v, item)));
    case 'all':
      return list.every((item) => values.some((v) => same(v, item)));
    case 'exists':
      return filter.value === 'false' ? values.length === 0 : values.length > 0;
    case 'match':
      return values.some((v) => matches(textOf(v), filter.value));
    case 'lt':
      return values.some((v) => compare(v, filter.value) < 0);
    case 'lte':
      return values.some((v) => compare(v, filter.value) <= 0);
    case 'gt':
      return values.some((v) => compare(v, filter.value) > 0);
    case 'gte':
      return values.some((v) => compare(v, filter.value) >= 0);
    default:
      return false;
  }
}

function parseFilters(
  params: URLSearchParams,
  check: (path: string[], key: string) => void,
): Filter[] {
  const filters: Filter[] = [];
  for (const [key, value] of params) {
    if (RESERVED.has(key)) continue;
    const match = /^((?:sys|fields|metadata)(?:\.[\w-]+)+)(?:\[(\w+)\])?$/.exec(key);
    if (!match) {
      if (key.includes('.') || key.includes('[')) {
        throw new InvalidQuery([
          { name: 'unknown', path: [key], details: `The path "${key}" is not recognized.` },
        ]);
      }
      continue; // Other parameters are ignored, as by the Delivery API.
    }
    const path = (match[1] ?? '').split('.');
    const op = match[2] ?? 'eq';
    if (op !== 'eq' && !OPERATORS.has(op)) {
      throw new InvalidQuery([{ name: 'unknownOperator', path, value: op }]);
    }
    if (op === 'exists' && value !== 'true' && value !== 'false') {
      throw new InvalidQuery([
        { name: 'type', path, value, details: 'exists takes true or false' },
      ]);
    }
    check(path, match[1] ?? '');
    filters.push({ key, path, op, value });
  }
  return filters;
}

interface OrderKey {
  path: string[];
  descending: boolean;
}

function parseOrder(
  params: URLSearchParams,
  check: (path: string[], key: string) => FieldDefinition | undefined,
): OrderKey[] {
  const raw = params.get('order');
  if (raw === null || raw.trim() === '') return [];
  return raw.split(',').map((item) => {
    const trimmed = item.trim();
    const descending = trimmed.startsWith('-');
    const key = descending ? trimmed.slice(1) : trimmed;
    const path = key.split('.');
    const field = check(path, key);
    if (field && (!ORDERABLE.has(field.type) || path.length > 2)) {
      throw new InvalidQuery([{ name: 'unsupported', path, details: `Cannot order by ${key}.` }]);
    }
    if (path[0] === 'metadata') {
      throw new InvalidQuery([{ name: 'unsupported', path, details: `Cannot order by ${key}.` }]);
    }
    return { path, descending };
  });
}

function orderBy(items: Wire[], keys: OrderKey[]): Wire[] {
  if (keys.length === 0) return items;
  const indexed = items.map((item, index) => ({ item, index }));
  indexed.sort((a, b) => {
    for (const key of keys) {
      const va = valuesAt(a.item, key.path)[0];
      const vb = valuesAt(b.item, key.path)[0];
      if (va === vb) continue;
      // Missing values last, whatever the direction.
      if (va === undefined) return 1;
      if (vb === undefined) return -1;
      const diff =
        typeof va === 'number' && typeof vb === 'number'
          ? va - vb
          : compare(va, typeof vb === 'string' ? vb : JSON.stringify(vb));
      if (diff !== 0) return key.descending ? -diff : diff;
    }
    return a.index - b.index;
  });
  return indexed.map((e) => e.item);
}

function select(item: Wire, params: URLSearchParams): Wire {
  const raw = params.get('select');
  if (raw === null || raw.trim() === '') return item;
  const out: Wire = { sys: item.sys };
  for (const path of raw.split(',').map((p) => p.trim().split('.'))) {
    if (path.length > 2 || !['sys', 'fields', 'metadata'].includes(path[0] ?? '')) {
      throw new InvalidQuery([{ name: 'select', path, details: 'Select depth is at most 2.' }]);
    }
    const [root, name] = path as [string, string | undefined];
    const source = item[root] as Record<string, unknown> | undefined;
    if (!source) continue;
    if (name === undefined) out[root] = source;
    else if (source[name] !== undefined) {
      out[root] = {
        ...(out[root] ?? {}),
        [name]: source[name],
      };
    }
  }
  return out;
}

interface LinkRef {
  linkType: 'Entry' | 'Asset';
  id: string;
}

/** Entry and asset links anywhere in a value (fields, rich text `data.target`). */
function linksIn(value: unknown, out: LinkRef[] = []): LinkRef[] {
  if (Array.isArray(value)) {
    for (const item of value) linksIn(item, out);
  } else if (value && typeof value === 'object') {
    const sys = (value as { sys?: { type?: unknown; linkType?: unknown; id?: unknown } }).sys;
    if (
      sys?.type === 'Link' &&
      (sys.linkType === 'Entry' || sys.linkType === 'Asset') &&
      typeof sys.id === 'string'
    ) {
      out.push({ linkType: sys.linkType, id: sys.id });
      return out;
    }
    for (const child of Object.values(value)) linksIn(child, out);
  }
  return out;
}

interface Context {
  db: DatabaseSync;
  config: ContentfulConfig;
  host: string;
  params: URLSearchParams;
}

/** `includes` and `errors` of a list: `depth` levels of links from the items. */
function resolve(
  items: PublishedEntry[],
  depth: number,
  snap: Snapshot,
  ctx: Context,
  loc: string,
): { includes?: Wire; errors?: Wire[] } {
  if (depth === 0) return {};
  const seen = new Set(items.map((e) => `Entry:${e.id}`));
  const entries: Wire[] = [];
  const assets: Wire[] = [];
  const errors = new Map<string, Wire>();
  let frontier = items;
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const next: PublishedEntry[] = [];
    for (const entry of frontier) {
      for (const link of linksIn(entry.fields)) {
        const key = `${link.linkType}:${link.id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (link.linkType === 'Entry') {
          const target = snap.entryById.get(link.id);
          if (target) {
            entries.push(entryView(target, ctx.config, snap, loc));
            next.push(target);
            continue;
          }
        } else {
          const asset = snap.assetById.get(link.id);
          if (asset) {
            assets.push(assetView(asset, ctx.config, ctx.host, loc));
            continue;
          }
        }
        errors.set(key, {
          sys: { id: 'notResolvable', type: 'error' },
          details: { type: 'Link', linkType: link.linkType, id: link.id },
        });
      }
    }
    frontier = next;
  }
  const includes: Wire = {
    ...(entries.length > 0 ? { Entry: entries } : {}),
    ...(assets.length > 0 ? { Asset: assets } : {}),
  };
  return {
    ...(Object.keys(includes).length > 0 ? { includes } : {}),
    ...(errors.size > 0 ? { errors: [...errors.values()] } : {}),
  };
}

function listEntries(ctx: Context): Reply {
  const { params } = ctx;
  const snap = snapshot(ctx.db);
  const loc = locale(params);
  const type = contentTypeOf(params);
  const check = (path: string[], key: string): FieldDefinition | undefined =>
    checkEntryPath(path, key, type);
  const filters = parseFilters(params, check);
  const order = parseOrder(params, check);
  const limit = intParam(params, 'limit', 100, MAX_LIMIT);
  const skip = intParam(params, 'skip', 0, Number.MAX_SAFE_INTEGER);
  const include = intParam(params, 'include', 1, MAX_INCLUDE);
  const query = params.get('query');
  const linksToEntry = params.get('links_to_entry');
  const linksToAsset = params.get('links_to_asset');

  let candidates = snap.entries.filter((e) => !type || e.contentType === type.id);
  if (query) {
    candidates = candidates.filter((e) =>
      matches(Object.values(e.fields).map(textOf).join(' '), query),
    );
  }
  if (linksToEntry || linksToAsset) {
    candidates = candidates.filter((e) =>
      linksIn(e.fields).some((l) =>
        l.linkType === 'Entry' ? l.id === linksToEntry : l.id === linksToAsset,
      ),
    );
  }
  const wire = new Map<Wire, PublishedEntry>();
  let views = candidates.map((e) => {
    const view = entryView(e, ctx.config, snap, CONTENTFUL_LOCALE);
    wire.set(view, e);
    return view;
  });
  views = views.filter((view) => filters.every((f) => passes(valuesAt(view, f.path), f)));
  views = orderBy(views, order);
  const page = views.slice(skip, skip + limit).flatMap((v) => {
    const entry = wire.get(v);
    return entry ? [entry] : [];
  });
  const items = page.map((e) => select(entryView(e, ctx.config, snap, loc), params));
  return ctfJson(
    200,
    {
      sys: { type: 'Array' },
      total: views.length,
      skip,
      limit,
      items,
      ...resolve(page, include, snap, ctx, loc),
    },
    DELIVERY_TYPE,
  );
}

function notFound(type: string, id: string, ctx: Context): Reply {
  return ctfError(404, 'NotFound', 'The resource could not be found.', {
    type,
    id,
    environment: ctx.config.environment,
    space: ctx.config.spaceId,
  });
}

function getEntry(ctx: Context, id: string): Reply {
  const snap = snapshot(ctx.db);
  const loc = locale(ctx.params);
  const entry = snap.entryById.get(id);
  if (!entry) return notFound('Entry', id, ctx);
  return ctfJson(200, entryView(entry, ctx.config, snap, loc), DELIVERY_TYPE);
}

const MIME_GROUPS: Record<string, (contentType: string) => boolean> = {
  image: (t) => t.startsWith('image/'),
  audio: (t) => t.startsWith('audio/'),
  video: (t) => t.startsWith('video/'),
};

function listAssets(ctx: Context): Reply {
  const { params } = ctx;
  const snap = snapshot(ctx.db);
  const loc = locale(params);
  const check = (path: string[], key: string): FieldDefinition | undefined => {
    const [root, name, ...rest] = path;
    if (root === 'sys' && name !== undefined && ENTRY_SYS.has(name) && rest.length === 0)
      return undefined;
    if (root === 'fields' && (name === 'title' || name === 'description') && rest.length === 0)
      return undefined;
    if (
      root === 'fields' &&
      name === 'file' &&
      ['contentType', 'fileName', 'url'].includes(rest.join('.'))
    )
      return undefined;
    throw new InvalidQuery([
      { name: 'unknown', path, details: `The path "${key}" is not recognized.` },
    ]);
  };
  const filters = parseFilters(params, check);
  const order = parseOrder(params, check);
  const limit = intParam(params, 'limit', 100, MAX_LIMIT);
  const skip = intParam(params, 'skip', 0, Number.MAX_SAFE_INTEGER);
  const group = params.get('mimetype_group');
  if (group !== null && !MIME_GROUPS[group]) {
    throw new InvalidQuery([{ name: 'unknown', path: ['mimetype_group'], value: group }]);
  }
  let views = snap.assets
    .filter((a) => !group || (MIME_GROUPS[group]?.(a.contentType) ?? false))
    .map((a) => assetView(a, ctx.config, ctx.host, CONTENTFUL_LOCALE));
  views = views.filter((view) => filters.every((f) => passes(valuesAt(view, f.path), f)));
  views = orderBy(views, order);
  const items = views.slice(skip, skip + limit).map((view) => {
    const asset = snap.assetById.get((view.sys as { id: string }).id);
    return asset && loc === '*' ? assetView(asset, ctx.config, ctx.host, loc) : view;
  });
  return ctfJson(
    200,
    { sys: { type: 'Array' }, total: views.length, skip, limit, items },
    DELIVERY_TYPE,
  );
}

function getAsset(ctx: Context, id: string): Reply {
  const asset = snapshot(ctx.db).assetById.get(id);
  if (!asset) return notFound('Asset', id, ctx);
  return ctfJson(200, assetView(asset, ctx.config, ctx.host, locale(ctx.params)), DELIVERY_TYPE);
}

function listTags(ctx: Context): Reply {
  const snap = snapshot(ctx.db);
  const limit = intParam(ctx.params, 'limit', 100, MAX_LIMIT);
  const skip = intParam(ctx.params, 'skip', 0, Number.MAX_SAFE_INTEGER);
  const ids = ctx.params.get('sys.id[in]')?.split(',');
  const name = ctx.params.get('name[match]');
  const tags = snap.tags
    .filter((t) => t.visibility === 'public')
    .filter((t) => !ids || ids.includes(t.id))
    .filter((t) => !name || matches(t.name, name));
  return ctfJson(
    200,
    {
      sys: { type: 'Array' },
      total: tags.length,
      skip,
      limit,
      items: tags.slice(skip, skip + limit).map((t) => tagView(t, ctx.config)),
    },
    DELIVERY_TYPE,
  );
}

function getTag(ctx: Context, id: string): Reply {
  const tag = snapshot(ctx.db).tags.find((t) => t.id === id && t.visibility === 'public');
  if (!tag) return notFound('Tag', id, ctx);
  return ctfJson(200, tagView(tag, ctx.config), DELIVERY_TYPE);
}

export function contentTypeView(type: ContentTypeDefinition, config: ContentfulConfig): Wire {
  return {
    sys: {
      space: { sys: { type: 'Link', linkType: 'Space', id: config.spaceId } },
      environment: { sys: { type: 'Link', linkType: 'Environment', id: config.environment } },
      id: type.id,
      type: 'ContentType',
      createdAt: '2024-01-02T08:00:00.000Z',
      updatedAt: '2024-01-02T08:00:00.000Z',
      revision: 1,
    },
    displayField: type.displayField,
    name: type.name,
    description: type.description,
    fields: type.fields.map((f) => ({ ...f, validations: [] })),
  };
}

function listContentTypes(ctx: Context): Reply {
  const limit = intParam(ctx.params, 'limit', 100, MAX_LIMIT);
  const skip = intParam(ctx.params, 'skip', 0, Number.MAX_SAFE_INTEGER);
  return ctfJson(
    200,
    {
      sys: { type: 'Array' },
      total: CONTENT_TYPES.length,
      skip,
      limit,
      items: CONTENT_TYPES.slice(skip, skip + limit).map((t) => contentTypeView(t, ctx.config)),
    },
    DELIVERY_TYPE,
  );
}

const LOCALE_VIEW = {
  code: CONTENTFUL_LOCALE,
  name: 'French',
  default: true,
  fallbackCode: null,
  sys: { id: 'sandbox-locale-fr', type: 'Locale', version: 1 },
};

/** Answers a Delivery API request below `/contentful`; undefined when the path is not one. */
export function handleDelivery(
  method: string,
  url: URL,
  authorization: string | undefined,
  db: DatabaseSync,
  config: ContentfulConfig,
  host: string,
): Reply {
  const match = /^\/contentful\/spaces\/([^/]+)(?:\/environments\/([^/]+))?(\/.*)?$/.exec(
    url.pathname,
  );
  if (bearer(authorization, url.searchParams) !== config.deliveryToken) {
    return ctfError(
      401,
      'AccessTokenInvalid',
      'The access token you sent could not be found or is invalid.',
    );
  }
  if (!match) return ctfError(404, 'NotFound', 'The resource could not be found.');
  const [, space, environment = 'master', rest = ''] = match;
  const ctx: Context = { db, config, host, params: url.searchParams };
  if (space !== config.spaceId) return notFound('Space', space ?? '', ctx);
  if (environment !== config.environment) return notFound('Environment', environment, ctx);
  if (method !== 'GET' && method !== 'HEAD') {
    return ctfError(
      405,
      'MethodNotAllowed',
      `${method} is not allowed on the Content Delivery API.`,
      undefined,
      { Allow: 'GET, HEAD' },
    );
  }
  const path = rest.replace(/\/$/, '');
  const [, resource, id, extra] = path.split('/');
  try {
    if (extra !== undefined) return ctfError(404, 'NotFound', 'The resource could not be found.');
    if (resource === undefined) {
      return ctfJson(
        200,
        {
          sys: { type: 'Space', id: config.spaceId },
          name: 'Literie Lumière (bac à sable)',
          locales: [LOCALE_VIEW],
        },
        DELIVERY_TYPE,
      );
    }
    const decoded = id === undefined ? undefined : decodeURIComponent(id);
    switch (resource) {
      case 'entries':
        return decoded === undefined ? listEntries(ctx) : getEntry(ctx, decoded);
      case 'assets':
        return decoded === undefined ? listAssets(ctx) : getAsset(ctx, decoded);
      case 'tags':
        return decoded === undefined ? listTags(ctx) : getTag(ctx, decoded);
      case 'content_types': {
        if (decoded === undefined) return listContentTypes(ctx);
        const type = CONTENT_TYPE_BY_ID.get(decoded);
        return type
          ? ctfJson(200, contentTypeView(type, config), DELIVERY_TYPE)
          : notFound('ContentType', decoded, ctx);
      }
      case 'locales':
        if (decoded !== undefined)
          return ctfError(404, 'NotFound', 'The resource could not be found.');
        return ctfJson(
          200,
          { sys: { type: 'Array' }, total: 1, skip: 0, limit: 1000, items: [LOCALE_VIEW] },
          DELIVERY_TYPE,
        );
      default:
        return ctfError(404, 'NotFound', 'The resource could not be found.');
    }
  } catch (caught) {
    if (caught instanceof InvalidQuery) {
      return ctfError(
        400,
        caught.id,
        caught.message,
        caught.errors.length > 0 ? { errors: caught.errors } : undefined,
      );
    }
    if (caught instanceof URIError)
      return ctfError(400, 'BadRequest', 'The request path is not valid.');
    throw caught;
  }
}

const ASSET_PATH = /^\/(images\/ctf|ctf-assets)\/([^/]+)\/([^/]+)\/([0-9a-f]{32})\/([^/]+)$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves an asset's file: pictures (`/images/ctf/...`, the pool JPEG; `w`/`h` pick the smallest
 * pool size at least that large, as a stand-in for the Images API) and sounds (`/ctf-assets/...`,
 * a WAV). No token, like Contentful's asset CDN.
 */
export async function serveAsset(
  path: string,
  params: URLSearchParams,
  db: DatabaseSync,
  config: ContentfulConfig,
): Promise<Reply | undefined> {
  const match = ASSET_PATH.exec(path);
  if (!match) return undefined;
  const [, root, space, id = '', hash, file] = match;
  const asset = snapshot(db).assetById.get(id);
  let fileName: string;
  try {
    fileName = decodeURIComponent(file ?? '');
  } catch {
    return undefined;
  }
  if (
    !asset ||
    space !== config.spaceId ||
    hash !== assetHash(asset) ||
    fileName !== asset.fileName ||
    (root === 'images/ctf') !== (asset.kind === 'image')
  ) {
    return undefined;
  }
  if (asset.kind !== 'image') {
    return {
      status: 200,
      body: toneWav(Number(asset.source), asset.seconds ?? 3),
      headers: {
        'Content-Type': asset.contentType,
        'Cache-Control': IMMUTABLE,
        'Accept-Ranges': 'none',
      },
    };
  }
  const wanted = Math.max(Number(params.get('w')) || 0, Number(params.get('h')) || 0);
  const sizes = [...IMAGE_SIZES].reverse(); // smallest first
  const size =
    (wanted > 0 ? sizes.find((s) => Number(s.split('x')[0]) >= wanted) : undefined) ?? '1280x1280';
  try {
    const body = await readFile(join(config.imagesDir, size, `${asset.source}.jpg`));
    return {
      status: 200,
      body,
      headers: { 'Content-Type': 'image/jpeg', 'Cache-Control': IMMUTABLE },
    };
  } catch {
    return undefined;
  }
}
