/**
 * The content model of the sandbox's Contentful space (content types and their fields, as the
 * shop's Contentful connector reads them), the tables the space is stored in, and the shapes of the
 * seed's entries, assets and tags. Locale `fr` only.
 */

export const CONTENTFUL_LOCALE = 'fr';

export type FieldType =
  'Symbol' | 'Text' | 'Integer' | 'Number' | 'Boolean' | 'Date' | 'RichText' | 'Link' | 'Array';

export interface FieldDefinition {
  id: string;
  name: string;
  type: FieldType;
  /** Link fields and Array-of-Link items. */
  linkType?: 'Entry' | 'Asset';
  items?: { type: 'Symbol' | 'Link'; linkType?: 'Entry' | 'Asset' };
  required: boolean;
  localized: false;
  disabled: false;
  omitted: false;
}

export interface ContentTypeDefinition {
  id: string;
  name: string;
  description: string;
  displayField: string;
  fields: FieldDefinition[];
}

function field(
  id: string,
  name: string,
  type: FieldType,
  options: {
    required?: boolean;
    linkType?: 'Entry' | 'Asset';
    items?: FieldDefinition['items'];
  } = {},
): FieldDefinition {
  return {
    id,
    name,
    type,
    ...(options.linkType ? { linkType: options.linkType } : {}),
    ...(options.items ? { items: options.items } : {}),
    required: options.required ?? false,
    localized: false,
    disabled: false,
    omitted: false,
  };
}

const ENTRY_LINKS = { type: 'Link', linkType: 'Entry' } as const;

export const CONTENT_TYPES: readonly ContentTypeDefinition[] = [
  {
    id: 'navigation',
    name: 'Navigation',
    description:
      'A named navigation (Main Navigation, Sidebar Navigation, Footer) or a nested group.',
    displayField: 'title',
    fields: [
      field('identifier', 'Identifier', 'Symbol'),
      field('title', 'Title', 'Symbol', { required: true }),
      field('childrens', 'Childrens', 'Array', { items: ENTRY_LINKS }),
    ],
  },
  {
    id: 'page',
    name: 'Page',
    description: 'A shop route: link `/` + slug.',
    displayField: 'title',
    fields: [
      field('title', 'Title', 'Symbol', { required: true }),
      field('slug', 'Slug', 'Symbol'),
    ],
  },
  {
    id: 'brandCorner',
    name: 'Brand corner',
    description: 'A brand page: link `/marque/{slug}`.',
    displayField: 'title',
    fields: [
      field('title', 'Title', 'Symbol', { required: true }),
      field('slug', 'Slug', 'Symbol', { required: true }),
    ],
  },
  {
    id: 'categoryPage',
    name: 'Category page',
    description: 'A BigCommerce category, with the mega menu push of a root category.',
    displayField: 'title',
    fields: [
      field('title', 'Title', 'Symbol', { required: true }),
      field('categoryId', 'Category id', 'Integer', { required: true }),
      field('titlePush', 'Title push', 'Symbol'),
      field('contentPush', 'Content push', 'RichText'),
    ],
  },
  {
    id: 'callToAction',
    name: 'Call to action',
    description:
      'external: absolute http(s) URL; internal: a shop path; free: a local path with query.',
    displayField: 'title',
    fields: [
      field('title', 'Title', 'Symbol', { required: true }),
      field('type', 'Type', 'Symbol', { required: true }),
      field('url', 'URL', 'Symbol', { required: true }),
    ],
  },
  {
    id: 'contentPage',
    name: 'Content page',
    description: 'A page of the catch-all route `/{slug}` (legal pages, help...).',
    displayField: 'title',
    fields: [
      field('title', 'Title', 'Symbol', { required: true }),
      field('slug', 'Slug', 'Symbol', { required: true }),
      field('description', 'Description', 'Text'),
      field('body', 'Body', 'RichText'),
    ],
  },
  {
    id: 'sleepContent',
    name: 'Les yeux fermés',
    description: 'Podcasts, bedtime stories, videos and articles about sleep.',
    displayField: 'title',
    fields: [
      field('title', 'Title', 'Symbol', { required: true }),
      field('slug', 'Slug', 'Symbol', { required: true }),
      field('excerpt', 'Excerpt', 'Text'),
      field('episode', 'Episode', 'Integer'),
      field('duration', 'Duration (minutes)', 'Integer'),
      field('image', 'Image', 'Link', { linkType: 'Asset' }),
      field('audio', 'Audio', 'Link', { linkType: 'Asset' }),
      field('video', 'Video', 'Link', { linkType: 'Asset' }),
      field('body', 'Body', 'RichText'),
      field('related', 'Related', 'Array', { items: ENTRY_LINKS }),
      field('publishedAt', 'Published at', 'Date', { required: true }),
    ],
  },
  {
    id: 'productContent',
    name: 'Product content',
    description: 'Blocks of product pages; component ProductContentTechnologies = a technology.',
    displayField: 'title',
    fields: [
      field('component', 'Component', 'Symbol', { required: true }),
      field('name', 'Name', 'Symbol', { required: true }),
      field('title', 'Title', 'Symbol'),
      field('description', 'Description', 'RichText'),
      field('image', 'Image', 'Link', { linkType: 'Asset' }),
    ],
  },
];

export const CONTENT_TYPE_BY_ID: ReadonlyMap<string, ContentTypeDefinition> = new Map(
  CONTENT_TYPES.map((t) => [t.id, t]),
);

/** Tables of the space, created with the rest of the sandbox's schema (db.ts). */
export const CONTENTFUL_SCHEMA = `
CREATE TABLE ctf_entries (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  content_type TEXT NOT NULL,
  doc TEXT NOT NULL,
  published TEXT
);
CREATE TABLE ctf_assets (id TEXT PRIMARY KEY, seq INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE TABLE ctf_tags (id TEXT PRIMARY KEY, doc TEXT NOT NULL);
CREATE TABLE ctf_webhooks (id TEXT PRIMARY KEY, seq INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE TABLE hooks (id INTEGER PRIMARY KEY, doc TEXT NOT NULL);
`;

/** A link as Contentful writes it. */
export interface Link<T extends string = 'Entry' | 'Asset'> {
  sys: { type: 'Link'; linkType: T; id: string };
}

export function entryLink(id: string): Link<'Entry'> {
  return { sys: { type: 'Link', linkType: 'Entry', id } };
}

export function assetLink(id: string): Link<'Asset'> {
  return { sys: { type: 'Link', linkType: 'Asset', id } };
}

/** Field values of one locale (`fr`), as the Delivery API sends them. */
export type Fields = Record<string, unknown>;

/**
 * The stored state of an entry (column `doc`): the management view. `fields` are per locale
 * (`{ title: { fr: '...' } }`), as the Management API reads and writes them.
 */
export interface StoredEntry {
  sys: {
    id: string;
    contentType: string;
    createdAt: string;
    updatedAt: string;
    version: number;
    publishedVersion?: number;
    publishedCounter: number;
    publishedAt?: string;
    firstPublishedAt?: string;
  };
  fields: Record<string, Record<string, unknown>>;
  /** Tag ids. */
  tags: string[];
}

/** The published snapshot of an entry (column `published`): what the Delivery API serves. */
export interface PublishedEntry {
  id: string;
  contentType: string;
  /** First publication. */
  createdAt: string;
  /** Last publication. */
  updatedAt: string;
  /** Times published (the Delivery API's `sys.revision`). */
  revision: number;
  publishedVersion: number;
  fields: Fields;
  tags: string[];
}

export type AssetKind = 'image' | 'audio' | 'video';

/** An asset (always published). Pictures come from the sandbox's picture pool, audio is a generated WAV. */
export interface StoredAsset {
  id: string;
  title: string;
  description: string;
  kind: AssetKind;
  /** Picture: pool key (`matelas-blanc-a`); audio and video: the tone's frequency in Hz. */
  source: string;
  /** Seconds of audio (audio and video). */
  seconds?: number;
  fileName: string;
  contentType: string;
  width?: number;
  height?: number;
  createdAt: string;
  updatedAt: string;
}

export interface StoredTag {
  id: string;
  name: string;
  visibility: 'public' | 'private';
  createdAt: string;
}
