/**
 * The sandbox's Contentful space as the Delivery and Management emulations read it: a parsed
 * snapshot of the published entries, assets and tags (cached per database, dropped by every
 * management write), the wire shapes of entries, assets and tags, and Contentful's error shape.
 */
import { createHash, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { Reply } from './http.ts';
import { wavSize } from './media.ts';
import {
  CONTENTFUL_LOCALE,
  type PublishedEntry,
  type StoredAsset,
  type StoredEntry,
  type StoredTag,
} from './seed/contentful-model.ts';

/** Where and how the space is reached. */
export interface ContentfulConfig {
  spaceId: string;
  environment: string;
  deliveryToken: string;
  managementToken: string;
  /** Pictures of the pool (`{imagesDir}/{size}/{key}.jpg`). */
  imagesDir: string;
}

export const CONTENTFUL_DEFAULTS = {
  spaceId: 'sandbox',
  environment: 'master',
  deliveryToken: 'sandbox-cda-token',
  managementToken: 'sandbox-cma-token',
} as const;

export interface Snapshot {
  entries: PublishedEntry[];
  entryById: Map<string, PublishedEntry>;
  assets: StoredAsset[];
  assetById: Map<string, StoredAsset>;
  tags: StoredTag[];
  publicTags: Set<string>;
}

const snapshots = new WeakMap<DatabaseSync, Snapshot>();

/** The published content, parsed once per database until the next management write. */
export function snapshot(db: DatabaseSync): Snapshot {
  const cached = snapshots.get(db);
  if (cached) return cached;
  const entries = (
    db
      .prepare('SELECT published FROM ctf_entries WHERE published IS NOT NULL ORDER BY seq')
      .all() as { published: string }[]
  ).map((row) => JSON.parse(row.published) as PublishedEntry);
  const assets = (
    db.prepare('SELECT doc FROM ctf_assets ORDER BY seq').all() as { doc: string }[]
  ).map((row) => JSON.parse(row.doc) as StoredAsset);
  const tags = (db.prepare('SELECT doc FROM ctf_tags ORDER BY id').all() as { doc: string }[]).map(
    (row) => JSON.parse(row.doc) as StoredTag,
  );
  const built: Snapshot = {
    entries,
    entryById: new Map(entries.map((e) => [e.id, e])),
    assets,
    assetById: new Map(assets.map((a) => [a.id, a])),
    tags,
    publicTags: new Set(tags.filter((t) => t.visibility === 'public').map((t) => t.id)),
  };
  snapshots.set(db, built);
  return built;
}

/** Drops the cached snapshot (after a management write). */
export function invalidate(db: DatabaseSync): void {
  snapshots.delete(db);
}

export function readStoredEntry(db: DatabaseSync, id: string): StoredEntry | undefined {
  const row = db.prepare('SELECT doc FROM ctf_entries WHERE id = ?').get(id) as
    { doc: string } | undefined;
  return row ? (JSON.parse(row.doc) as StoredEntry) : undefined;
}

function link(
  linkType: string,
  id: string,
): { sys: { type: 'Link'; linkType: string; id: string } } {
  return { sys: { type: 'Link', linkType, id } };
}

export function spaceSys(config: ContentfulConfig): Record<string, unknown> {
  return {
    space: link('Space', config.spaceId),
    environment: link('Environment', config.environment),
  };
}

/** Tag links of an entry's metadata (`public` tags only on the Delivery API). */
export function tagLinks(ids: readonly string[], visible?: Set<string>): unknown[] {
  return ids.filter((id) => !visible || visible.has(id)).map((id) => link('Tag', id));
}

/** An entry as the Delivery API sends it; `locale` '*' gives fields per locale. */
export function entryView(
  entry: PublishedEntry,
  config: ContentfulConfig,
  snap: Snapshot,
  locale: string,
): Record<string, unknown> {
  return {
    metadata: { tags: tagLinks(entry.tags, snap.publicTags), concepts: [] },
    sys: {
      ...spaceSys(config),
      id: entry.id,
      type: 'Entry',
      createdAt: entry.createdAt,
      updatedAt: entry.updatedAt,
      publishedVersion: entry.publishedVersion,
      revision: entry.revision,
      contentType: link('ContentType', entry.contentType),
      ...(locale === '*' ? {} : { locale: CONTENTFUL_LOCALE }),
    },
    fields:
      locale === '*'
        ? Object.fromEntries(
            Object.entries(entry.fields).map(([k, v]) => [k, { [CONTENTFUL_LOCALE]: v }]),
          )
        : entry.fields,
  };
}

/** The hash segment of an asset URL (stable per asset and file). */
export function assetHash(asset: StoredAsset): string {
  return createHash('sha1')
    .update(`${asset.id}/${asset.source}/${asset.fileName}`)
    .digest('hex')
    .slice(0, 32);
}

/** Path of an asset's file below the sandbox origin. */
export function assetPath(asset: StoredAsset, config: ContentfulConfig): string {
  const root = asset.kind === 'image' ? '/images/ctf' : '/ctf-assets';
  return `${root}/${config.spaceId}/${asset.id}/${assetHash(asset)}/${encodeURIComponent(asset.fileName)}`;
}

const sizes = new Map<string, number>();

/** Bytes of an asset's file (pictures: the 1280 px JPEG of the pool). */
export function assetSize(asset: StoredAsset, config: ContentfulConfig): number {
  if (asset.kind !== 'image') return wavSize(asset.seconds ?? 3);
  const file = join(config.imagesDir, '1280x1280', `${asset.source}.jpg`);
  let size = sizes.get(file);
  if (size === undefined) {
    try {
      size = statSync(file).size;
      sizes.set(file, size);
    } catch {
      return 0;
    }
  }
  return size;
}

/** An asset as the Delivery API sends it; its URL is protocol-relative on the sandbox's host. */
export function assetView(
  asset: StoredAsset,
  config: ContentfulConfig,
  host: string,
  locale: string,
): Record<string, unknown> {
  const file = {
    url: `//${host}${assetPath(asset, config)}`,
    details: {
      size: assetSize(asset, config),
      ...(asset.kind === 'image' ? { image: { width: asset.width, height: asset.height } } : {}),
    },
    fileName: asset.fileName,
    contentType: asset.contentType,
  };
  const fields = { title: asset.title, description: asset.description, file };
  return {
    metadata: { tags: [], concepts: [] },
    sys: {
      ...spaceSys(config),
      id: asset.id,
      type: 'Asset',
      createdAt: asset.createdAt,
      updatedAt: asset.updatedAt,
      publishedVersion: 1,
      revision: 1,
      ...(locale === '*' ? {} : { locale: CONTENTFUL_LOCALE }),
    },
    fields:
      locale === '*'
        ? Object.fromEntries(
            Object.entries(fields).map(([k, v]) => [k, { [CONTENTFUL_LOCALE]: v }]),
          )
        : fields,
  };
}

export function tagView(tag: StoredTag, config: ContentfulConfig): Record<string, unknown> {
  return {
    name: tag.name,
    sys: {
      id: tag.id,
      type: 'Tag',
      visibility: tag.visibility,
      createdAt: tag.createdAt,
      updatedAt: tag.createdAt,
      version: 1,
      ...spaceSys(config),
      createdBy: link('User', 'sandbox-editor'),
      updatedBy: link('User', 'sandbox-editor'),
    },
  };
}

/** Contentful's error body `{ sys: { type: 'Error', id }, message, details?, requestId }`. */
export function ctfError(
  status: number,
  id: string,
  message: string,
  details?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Reply {
  const requestId = randomBytes(12).toString('hex');
  return {
    status,
    body: JSON.stringify({
      sys: { type: 'Error', id },
      message,
      ...(details ? { details } : {}),
      requestId,
    }),
    headers: {
      'Content-Type': 'application/vnd.contentful.delivery.v1+json',
      'X-Contentful-Request-Id': requestId,
      ...headers,
    },
  };
}

/** The error id Contentful uses for a status (injected faults on the Contentful paths). */
export function ctfFaultError(status: number, message: string): Reply {
  const id =
    status === 401
      ? 'AccessTokenInvalid'
      : status === 404
        ? 'NotFound'
        : status === 429
          ? 'RateLimitExceeded'
          : status === 503
            ? 'ServiceUnavailable'
            : status >= 500
              ? 'ServerError'
              : 'BadRequest';
  // Contentful says when to try again after a rate limit (seconds).
  return ctfError(
    status,
    id,
    message,
    undefined,
    status === 429 ? { 'X-Contentful-RateLimit-Reset': '1' } : {},
  );
}

export function ctfJson(status: number, value: unknown, contentType: string): Reply {
  return {
    status,
    body: JSON.stringify(value),
    headers: {
      'Content-Type': contentType,
      'X-Contentful-Request-Id': randomBytes(12).toString('hex'),
    },
  };
}

/** The bearer token of a request (`Authorization: Bearer x` or `?access_token=x`). */
export function bearer(
  authorization: string | undefined,
  query: URLSearchParams,
): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1] ?? query.get('access_token') ?? undefined;
}
