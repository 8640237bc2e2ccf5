/**
 * The reading side of rich text (`rich-text.ts`): a node's entry or asset read from a hostile
 * tree, the plain text of a document, and `normaliseRichText`, which turns a field as the
 * connector resolved it into a small, acyclic, JSON-safe `RichTextDocument`. Pure.
 */
import { httpHref } from '../url-safety.ts';
import type { RichTextDocument, RichTextNode } from './types.ts';

/** Deepest node rendered (Contentful nests lists a few levels; deeper is dropped). */
export const MAX_RICH_TEXT_DEPTH = 32;
/** Most nodes rendered per document (beyond, the rest is dropped). */
export const MAX_RICH_TEXT_NODES = 20_000;

/** An entry a rich text links to or embeds, as the renderer reads it. */
export interface RichTextEntry {
  id: string;
  /** Content type id (`contentPage`, `sleepContent`...). */
  contentType: string;
  title: string;
  slug: string | null;
}

/** An asset a rich text links to or embeds, as the renderer reads it. */
export interface RichTextAsset {
  id: string;
  title: string;
  description: string;
  /** Absolute URL as stored (checked again before use). */
  url: string;
  contentType: string;
  width: number | null;
  height: number | null;
}

/** NUL has no place in text (browsers and parsers read it differently). */
// eslint-disable-next-line no-control-regex -- NUL is what is removed
export const NUL = /\u0000/g;

// --- reading hostile trees -----------------------------------------------------------------

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function dimension(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 100_000
    ? value
    : null;
}

export function childrenOf(node: Record<string, unknown>): unknown[] {
  return Array.isArray(node.content) ? node.content : [];
}

/** The entry of a node's `data.target` (resolved by the connector), or null. */
export function entryOf(data: unknown): RichTextEntry | null {
  const target = isRecord(data) ? data.target : undefined;
  if (!isRecord(target) || !isRecord(target.sys) || target.sys.type !== 'Entry') return null;
  const id = str(target.sys.id);
  const type = isRecord(target.sys.contentType) ? target.sys.contentType.sys : undefined;
  const contentType = isRecord(type) ? str(type.id) : '';
  const fields = isRecord(target.fields) ? target.fields : {};
  if (id === '' || contentType === '') return null;
  return {
    id,
    contentType,
    title: str(fields.title).trim(),
    slug: typeof fields.slug === 'string' ? fields.slug : null,
  };
}

/** The asset of a node's `data.target` (resolved by the connector, with an http(s) URL), or null. */
export function assetOf(data: unknown): RichTextAsset | null {
  const target = isRecord(data) ? data.target : undefined;
  if (!isRecord(target) || !isRecord(target.sys) || target.sys.type !== 'Asset') return null;
  const fields = isRecord(target.fields) ? target.fields : {};
  const file = isRecord(fields.file) ? fields.file : {};
  const details = isRecord(file.details) ? file.details : {};
  const image = isRecord(details.image) ? details.image : {};
  const id = str(target.sys.id);
  // An asset is only of use with an absolute http(s) URL (the connector resolves `//host/...`).
  const url = httpHref(file.url);
  if (id === '' || url === null) return null;
  return {
    id,
    title: str(fields.title).trim(),
    description: str(fields.description).trim(),
    url,
    contentType: str(file.contentType),
    width: dimension(image.width),
    height: dimension(image.height),
  };
}

// --- plain text ----------------------------------------------------------------------------

const INLINE_TYPES = new Set([
  'text',
  'hyperlink',
  'entry-hyperlink',
  'asset-hyperlink',
  'embedded-entry-inline',
]);

/**
 * The text a reader reads in a document (embedded entries and assets left out), blocks
 * separated by a space, white space collapsed: for meta descriptions and card excerpts, to be
 * escaped where it is inserted.
 */
export function richTextToPlainText(
  document: RichTextDocument | RichTextNode | null | undefined,
): string {
  const parts: string[] = [];
  let nodes = 0;
  const walk = (value: unknown, depth: number) => {
    if (!isRecord(value) || depth > MAX_RICH_TEXT_DEPTH || nodes >= MAX_RICH_TEXT_NODES) return;
    nodes++;
    const nodeType = str(value.nodeType);
    if (nodeType === 'text') {
      parts.push(str(value.value));
      return;
    }
    if (nodeType.startsWith('embedded-')) return;
    for (const child of childrenOf(value)) walk(child, depth + 1);
    if (!INLINE_TYPES.has(nodeType)) parts.push(' ');
  };
  walk(document, 0);
  return parts.join('').replace(NUL, '').replace(/\s+/g, ' ').trim();
}

// --- normalising what the connector resolved -----------------------------------------------

function compactTarget(target: unknown): Record<string, unknown> | undefined {
  const holder = { target };
  const entry = entryOf(holder);
  if (entry !== null) {
    return {
      sys: { id: entry.id, type: 'Entry', contentType: { sys: { id: entry.contentType } } },
      fields: { title: entry.title, ...(entry.slug === null ? {} : { slug: entry.slug }) },
    };
  }
  const asset = assetOf(holder);
  if (asset !== null) {
    return {
      sys: { id: asset.id, type: 'Asset' },
      fields: {
        title: asset.title,
        description: asset.description,
        file: {
          url: asset.url,
          contentType: asset.contentType,
          ...(asset.width === null || asset.height === null
            ? {}
            : { details: { image: { width: asset.width, height: asset.height } } }),
        },
      },
    };
  }
  return undefined;
}

function normaliseNode(
  value: unknown,
  depth: number,
  budget: { nodes: number },
): RichTextNode | null {
  if (!isRecord(value) || depth > MAX_RICH_TEXT_DEPTH || budget.nodes >= MAX_RICH_TEXT_NODES)
    return null;
  // An unknown or unreadable type is kept as such: it renders its content only.
  const nodeType = typeof value.nodeType === 'string' ? value.nodeType.slice(0, 64) : '';
  budget.nodes++;
  const data: Record<string, unknown> = {};
  const source = isRecord(value.data) ? value.data : {};
  if (typeof source.uri === 'string') data.uri = source.uri;
  if ('target' in source) {
    const target = compactTarget(source.target);
    if (target !== undefined) data.target = target;
  }
  const node: RichTextNode = { nodeType, data };
  if (nodeType === 'text') {
    node.value = str(value.value);
    node.marks = (Array.isArray(value.marks) ? value.marks : [])
      .filter((mark): mark is { type: string } => isRecord(mark) && typeof mark.type === 'string')
      .map((mark) => ({ type: mark.type }));
    return node;
  }
  const content: RichTextNode[] = [];
  for (const child of childrenOf(value)) {
    const normalised = normaliseNode(child, depth + 1, budget);
    if (normalised !== null) content.push(normalised);
  }
  node.content = content;
  return node;
}

/**
 * A rich-text field as the connector resolved it, made into a `RichTextDocument`: known
 * shape only (`nodeType`, `data.uri`, `data.target` reduced to the entry's id, type, title and
 * slug or the asset's file, `content`, `value`, `marks`), unresolved targets removed, depth
 * and size bounded, acyclic. Null when the value is no document or holds no node.
 */
export function normaliseRichText(value: unknown): RichTextDocument | null {
  if (!isRecord(value) || value.nodeType !== 'document') return null;
  const node = normaliseNode(value, 0, { nodes: 0 });
  if (node?.content === undefined || node.content.length === 0) return null;
  return { ...node, nodeType: 'document', content: node.content };
}
