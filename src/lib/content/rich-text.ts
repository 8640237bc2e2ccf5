/**
 * The content service's rich text (Contentful `document` nodes) made into HTML by an escaping
 * renderer, and into plain text (meta descriptions, card excerpts). Pure: usable anywhere.
 *
 * The renderer builds every tag itself: text is escaped, only the known node types make
 * elements (anything else gives its children, themselves rendered by these rules), links only
 * for `http(s)`, `mailto`, `tel` and local paths, pictures only from absolute `http(s)` URLs.
 * It follows the shop's sanitiser (`src/lib/server/sanitize-html.ts`), through which its output
 * still goes (`RichText.astro`): headings from h2 to h4 (the page has its h1), `rel="noopener
 * noreferrer"` and no `target` on links leaving the shop, void elements self-closed, text
 * escaped as the sanitiser writes it (`&`, `<`, `>`; in attributes also `"`), so that for
 * well-formed documents `sanitizeHtml(renderRichText(d)) === renderRichText(d)`. Blocks are
 * only rendered where HTML allows them (a block inside a paragraph or a heading gives its text),
 * so the markup never depends on a parser's repair. Depth and size are bounded.
 *
 * `normaliseRichText` turns a field as the connector resolved it (links replaced by entries
 * and assets, maybe cyclic) into a small, acyclic, JSON-safe `RichTextDocument` whose
 * embedded targets keep only what rendering needs.
 */
import { httpHref, linkHref, localPath, type LinkHref, EXTERNAL_LINK_REL } from '../url-safety.ts';
import { entryPath as defaultEntryPath } from './paths.ts';
import type { RichTextDocument, RichTextNode } from './types.ts';

/** Deepest node rendered (Contentful nests lists a few levels; deeper is dropped). */
export const MAX_RICH_TEXT_DEPTH = 32;
/** Most nodes rendered per document (beyond, the rest is dropped). */
export const MAX_RICH_TEXT_NODES = 20_000;
/** Width of pictures in rich text (CSS pixels), asked from Contentful's image API. */
export const RICH_TEXT_IMAGE_WIDTH = 800;
/** heading-1 renders as h2 (the page keeps its one h1), and no heading goes below h4 (as the sanitiser). */
const HEADING_OFFSET = 1;
const HEADING_MAX = 4;

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

export interface RichTextOptions {
  /**
   * Path of a linked or embedded entry (a local path), or null to render its text only.
   * Default: `contentPage` and `page` → `/{slug}`, `sleepContent` → `/les-yeux-fermes/{slug}`,
   * `brandCorner` → `/marque/{slug}`, others null. The result is checked as a local path.
   */
  entryPath?: (entry: RichTextEntry) => string | null;
  /**
   * URL of an embedded picture shown `width` CSS pixels wide. Default: Contentful's image API
   * (`?w=&fm=webp&q=70`) for `*.ctfassets.net`, the URL as is elsewhere. Checked as http(s).
   */
  imageSrc?: (asset: RichTextAsset, width: number) => string;
  /** Width of embedded pictures (default 800). */
  imageWidth?: number;
}

type Context = 'block' | 'inline' | 'link';

interface State {
  nodes: number;
  options: RichTextOptions;
  /** Level of the last heading written (1: the page's own h1), so none skips a level. */
  lastHeading: number;
}

// --- escaping ------------------------------------------------------------------------------

/** NUL has no place in text (browsers and parsers read it differently). */
// eslint-disable-next-line no-control-regex -- NUL is what is removed
const NUL = /\u0000/g;

/** Text content escaped as the sanitiser writes it: `&`, `<`, `>`. */
export function escapeText(text: string): string {
  return text.replace(NUL, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A double-quoted attribute value: `&`, `<`, `>`, `"` escaped. */
export function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}

// --- reading hostile trees -----------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function dimension(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 100_000
    ? value
    : null;
}

function childrenOf(node: Record<string, unknown>): unknown[] {
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

// --- URLs ----------------------------------------------------------------------------------

/** Contentful's image API for its own hosts: width, WebP, quality 70. */
export function contentfulImageSrc(asset: RichTextAsset, width: number): string {
  const url = httpHref(asset.url);
  if (url === null) return asset.url;
  const parsed = new URL(url);
  if (!parsed.hostname.endsWith('.ctfassets.net')) return url;
  parsed.searchParams.set('w', String(width));
  parsed.searchParams.set('fm', 'webp');
  parsed.searchParams.set('q', '70');
  return parsed.href;
}

// --- rendering -----------------------------------------------------------------------------

function renderChildren(
  node: Record<string, unknown>,
  context: Context,
  state: State,
  depth: number,
): string {
  let html = '';
  for (const child of childrenOf(node)) html += renderNode(child, context, state, depth + 1);
  return html;
}

const MARK_TAGS: Readonly<Record<string, string>> = {
  bold: 'strong',
  italic: 'em',
  underline: 'u',
  code: 'code',
  superscript: 'sup',
  subscript: 'sub',
};

function renderText(node: Record<string, unknown>): string {
  const value = str(node.value).replace(/\r\n?/g, '\n');
  if (value === '') return '';
  let html = value.split('\n').map(escapeText).join('<br />');
  const marks = Array.isArray(node.marks) ? node.marks : [];
  const seen = new Set<string>();
  for (const mark of marks) {
    const type = isRecord(mark) ? str(mark.type) : '';
    const tag = Object.hasOwn(MARK_TAGS, type) ? MARK_TAGS[type] : undefined;
    if (tag === undefined || seen.has(tag)) continue;
    seen.add(tag);
    html = `<${tag}>${html}</${tag}>`;
  }
  return html;
}

function anchor(href: LinkHref, inner: string): string {
  if (inner === '') return '';
  const rel = href.external ? ` rel="${EXTERNAL_LINK_REL}"` : '';
  return `<a href="${escapeAttribute(href.href)}"${rel}>${inner}</a>`;
}

/** A link to a node's target, or its content alone when it may not or cannot be a link. */
function link(
  href: LinkHref | null,
  node: Record<string, unknown>,
  context: Context,
  state: State,
  depth: number,
): string {
  if (context === 'link' || href === null) {
    return renderChildren(node, context === 'block' ? 'inline' : context, state, depth);
  }
  return anchor(href, renderChildren(node, 'link', state, depth));
}

function entryHref(entry: RichTextEntry | null, state: State) {
  if (entry === null) return null;
  const path = (state.options.entryPath ?? defaultPath)(entry);
  const local = typeof path === 'string' ? localPath(path) : null;
  return local === null ? null : { href: local, external: false };
}

function defaultPath(entry: RichTextEntry): string | null {
  return defaultEntryPath(entry.contentType, entry.slug);
}

function assetHref(asset: RichTextAsset | null) {
  const url = asset === null ? null : httpHref(asset.url);
  return url === null ? null : { href: url, external: true };
}

function picture(asset: RichTextAsset, state: State): string | null {
  if (!asset.contentType.toLowerCase().startsWith('image/')) return null;
  const wanted = Math.max(
    1,
    Math.min(4000, Math.trunc(state.options.imageWidth ?? RICH_TEXT_IMAGE_WIDTH)),
  );
  const width = asset.width === null ? null : Math.min(asset.width, wanted);
  const height =
    width === null || asset.width === null || asset.height === null
      ? null
      : Math.max(1, Math.round((asset.height * width) / asset.width));
  const src = httpHref((state.options.imageSrc ?? contentfulImageSrc)(asset, width ?? wanted));
  if (src === null) return null;
  const size =
    width !== null && height !== null && height <= 4000
      ? ` width="${width}" height="${height}"`
      : '';
  const alt = asset.description || asset.title;
  return `<img src="${escapeAttribute(src)}" alt="${escapeAttribute(alt)}"${size} loading="lazy" decoding="async" />`;
}

function embeddedAsset(node: Record<string, unknown>, context: Context, state: State): string {
  const asset = assetOf(node.data);
  if (asset === null) return '';
  const label = escapeText(asset.title || asset.description);
  if (context === 'link') return label;
  const image = picture(asset, state);
  if (image !== null) return context === 'block' ? `<figure>${image}</figure>` : image;
  const href = assetHref(asset);
  const file = href === null ? label : anchor(href, label);
  return context === 'block' && file !== '' ? `<p>${file}</p>` : file;
}

function embeddedEntry(node: Record<string, unknown>, context: Context, state: State): string {
  const entry = entryOf(node.data);
  if (entry === null || entry.title === '') return '';
  const title = escapeText(entry.title);
  const href = context === 'link' ? null : entryHref(entry, state);
  const html = href === null ? title : anchor(href, title);
  return context === 'block' ? `<p>${html}</p>` : html;
}

/**
 * The level a heading is written at: its own plus the offset, at most h4, and never more than
 * one below the heading before it (a text opening on heading-3 still starts at h2), so the
 * page's outline has no gap (WCAG heading order).
 */
function headingLevel(nodeType: string, state: State): number {
  const level = Number(nodeType.slice('heading-'.length));
  const wanted = Math.min(HEADING_MAX, level + HEADING_OFFSET);
  const written = Math.max(2, Math.min(wanted, state.lastHeading + 1));
  state.lastHeading = written;
  return written;
}

function list(
  tag: 'ul' | 'ol',
  node: Record<string, unknown>,
  state: State,
  depth: number,
): string {
  let items = '';
  for (const child of childrenOf(node)) {
    const item = isRecord(child) && child.nodeType === 'list-item' ? child : { content: [child] };
    if (depth + 1 > MAX_RICH_TEXT_DEPTH) break;
    state.nodes++;
    items += `<li>${renderChildren(item, 'block', state, depth + 1)}</li>`;
  }
  return items === '' ? '' : `<${tag}>${items}</${tag}>`;
}

function table(node: Record<string, unknown>, state: State, depth: number): string {
  let rows = '';
  for (const row of childrenOf(node)) {
    if (!isRecord(row) || row.nodeType !== 'table-row' || depth + 2 > MAX_RICH_TEXT_DEPTH) continue;
    state.nodes++;
    let cells = '';
    for (const cell of childrenOf(row)) {
      if (!isRecord(cell) || state.nodes >= MAX_RICH_TEXT_NODES) continue;
      const tag =
        cell.nodeType === 'table-header-cell' ? 'th' : cell.nodeType === 'table-cell' ? 'td' : null;
      if (tag === null) continue;
      state.nodes++;
      cells += `<${tag}>${renderChildren(cell, 'block', state, depth + 2)}</${tag}>`;
    }
    rows += `<tr>${cells}</tr>`;
  }
  return rows === '' ? '' : `<table><tbody>${rows}</tbody></table>`;
}

function renderNode(value: unknown, context: Context, state: State, depth: number): string {
  if (!isRecord(value) || depth > MAX_RICH_TEXT_DEPTH) return '';
  if (state.nodes >= MAX_RICH_TEXT_NODES) return '';
  state.nodes++;
  const node = value;
  const nodeType = str(node.nodeType);
  const block = context === 'block';
  switch (nodeType) {
    case 'text':
      return renderText(node);
    case 'paragraph': {
      const inner = renderChildren(node, block ? 'inline' : context, state, depth);
      return block ? (inner === '' ? '' : `<p>${inner}</p>`) : inner;
    }
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
    case 'heading-4':
    case 'heading-5':
    case 'heading-6': {
      const inner = renderChildren(node, block ? 'inline' : context, state, depth);
      if (!block || inner === '') return inner;
      const tag = `h${headingLevel(nodeType, state)}`;
      return `<${tag}>${inner}</${tag}>`;
    }
    case 'unordered-list':
    case 'ordered-list':
      return block
        ? list(nodeType === 'ordered-list' ? 'ol' : 'ul', node, state, depth)
        : renderChildren(node, context, state, depth);
    case 'blockquote': {
      if (!block) return renderChildren(node, context, state, depth);
      const inner = renderChildren(node, 'block', state, depth);
      return inner === '' ? '' : `<blockquote>${inner}</blockquote>`;
    }
    case 'hr':
      return block ? '<hr />' : '';
    case 'table':
      return block ? table(node, state, depth) : renderChildren(node, context, state, depth);
    case 'hyperlink': {
      const data = isRecord(node.data) ? node.data : {};
      return link(linkHref(data.uri), node, context, state, depth);
    }
    case 'entry-hyperlink':
      return link(entryHref(entryOf(node.data), state), node, context, state, depth);
    case 'asset-hyperlink':
      return link(assetHref(assetOf(node.data)), node, context, state, depth);
    case 'embedded-entry-block':
    case 'embedded-entry-inline':
      return embeddedEntry(node, context, state);
    case 'embedded-asset-block':
      return embeddedAsset(node, context, state);
    default:
      // `document`, `list-item` and table parts out of place, unknown types: their content only.
      return renderChildren(node, context, state, depth);
  }
}

/**
 * The HTML of a rich-text document (see the file comment): safe to insert as is, and still
 * passed through the shop's sanitiser by `RichText.astro`. Empty for an empty or unusable
 * document.
 */
export function renderRichText(
  document: RichTextDocument | RichTextNode | null | undefined,
  options: RichTextOptions = {},
): string {
  if (!isRecord(document)) return '';
  return renderNode(document, 'block', { nodes: 0, options, lastHeading: 1 }, 0);
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
