/**
 * Contentful Content Delivery API emulation: `{sandbox}/contentful/spaces/{space}/
 * environments/{env}/...` (or `/spaces/{space}/...` for master) with a bearer token. Entries
 * with Contentful's search parameters (equality, `[ne|in|nin|all|exists|match|lt|lte|gt|gte]`
 * on `sys.*`, `fields.*` (needs `content_type`) and `metadata.tags.sys.id`, `query`, `order`,
 * `limit`/`skip`, `select`, `include` resolving links into `includes` and reporting unpublished
 * targets in `errors`), single entries, assets, public tags, content types, the space and its
 * locale. The search parameters are read and applied by delivery-query.ts; asset files are
 * served by contentful-assets.ts (pictures under `/images/ctf/`, sounds under `/ctf-assets/`).
 * Everything is read from the published snapshot of contentful-store.ts.
 */
import type { DatabaseSync } from 'node:sqlite';
import {
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
import {
  CONTENT_TYPE_BY_ID,
  CONTENT_TYPES,
  CONTENTFUL_LOCALE,
  type ContentTypeDefinition,
  type FieldDefinition,
  type PublishedEntry,
} from '../seed/contentful-model.ts';
import {
  DELIVERY_TYPE,
  MAX_LIMIT,
  MAX_INCLUDE,
  InvalidQuery,
  type Wire,
  ENTRY_SYS,
  intParam,
  locale,
  contentTypeOf,
  checkEntryPath,
  valuesAt,
  textOf,
  matches,
  passes,
  parseFilters,
  parseOrder,
  orderBy,
  select,
} from './delivery-query.ts';

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
