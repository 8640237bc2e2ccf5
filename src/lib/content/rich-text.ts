/**
 * The content service's rich text (Contentful `document` nodes) made into HTML by Contentful's
 * own renderer (`@contentful/rich-text-html-renderer`), and into plain text (meta descriptions,
 * card excerpts). Pure: usable anywhere.
 *
 * The library walks the tree, escapes every text (`&`, `<`, `>`, `"`, `'`) and applies the
 * marks. The shop's rules come before it and in its options:
 * - `shape` gives the library only what it may read: known node types (an unknown one, or a
 *   nested `document`, gives its content in its place, so neither the library's defaults nor a
 *   prototype key like `constructor` is ever reached), text values as strings without NUL, a
 *   line break (`\n`, shift+enter in Contentful) as a `<br />` node, the six known marks once
 *   each, lists holding list items only (anything else wrapped in one), depth and size bounded
 *   (cycles are cut by the depth).
 * - `renderNode` overrides every node type it lets through, since the shop's markup differs
 *   for each: links only for `http(s)`, `mailto`, `tel` and local paths (`linkHref`, the shop's
 *   URL-safety module), `rel="noopener noreferrer"` and no `target` on links leaving the shop,
 *   no link inside a link; entries linked or embedded as links to their page, assets as
 *   pictures in a `<figure>` (Contentful's image API) or links to their file; headings from h2
 *   to h4 (the page has its h1) without skipping a level; `<tbody>` in tables; void elements
 *   self-closed; empty blocks left out; and a block only where HTML allows it (a block inside
 *   a paragraph or a heading gives its content), so the markup never depends on a parser's
 *   repair.
 * - `renderMark`: bold as `<strong>`, italic as `<em>` (underline, code, sup and sub are the
 *   library's `<u>`, `<code>`, `<sup>`, `<sub>`).
 *
 * The output still goes through the shop's sanitiser (`src/shop/html/sanitize-html.ts`) in
 * `RichText.astro`, and is within its allow-list: for well-formed documents
 * `sanitizeHtml(renderRichText(d))` is `renderRichText(d)` but for `&#39;` and `&quot;` in text,
 * which the sanitiser writes as `'` and `"`.
 *
 * `normaliseRichText` turns a field as the connector resolved it (links replaced by entries
 * and assets, maybe cyclic) into a small, acyclic, JSON-safe `RichTextDocument` whose
 * embedded targets keep only what rendering needs.
 */
import {
  documentToHtmlString,
  type CommonNode,
  type Next,
  type NodeRenderer,
  type RenderNode,
} from '@contentful/rich-text-html-renderer';
import { BLOCKS, INLINES, MARKS, type Block, type Document } from '@contentful/rich-text-types';
import { EXTERNAL_LINK_REL, httpHref, linkHref, localPath, type LinkHref } from '../url-safety.ts';
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

// --- escaping ------------------------------------------------------------------------------

/** NUL has no place in text (browsers and parsers read it differently). */
// eslint-disable-next-line no-control-regex -- NUL is what is removed
const NUL = /\u0000/g;

/** A double-quoted attribute value: `&`, `<`, `>`, `"` escaped (text is the library's). */
function escapeAttribute(text: string): string {
  return text
    .replace(NUL, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
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

// --- shaping: what the library may read ----------------------------------------------------

/** The shop's own node: a line break inside a text (never read from a document). */
const LINE_BREAK = 'line-break';
/** Marks shown (others, `strikethrough` included, leave their text as it is). */
const MARKS_SHOWN: ReadonlySet<string> = new Set([
  MARKS.BOLD,
  MARKS.ITALIC,
  MARKS.UNDERLINE,
  MARKS.CODE,
  MARKS.SUPERSCRIPT,
  MARKS.SUBSCRIPT,
]);
const LISTS: ReadonlySet<string> = new Set([BLOCKS.UL_LIST, BLOCKS.OL_LIST]);

/** A text node as the library reads it: a string without NUL (marks as `textPieces` keeps them). */
function textNode(value: string, marks: { type: string }[] = []): CommonNode {
  return { nodeType: 'text', value: value.replace(NUL, ''), marks, data: {} };
}

function nodeOf(nodeType: string, data: Record<string, unknown>, content: CommonNode[]) {
  // The library types nodes by its enums; `shape` lets through only the types it renders.
  return { nodeType, data, content } as unknown as Block;
}

/** A text's pieces: its lines as text nodes, a line-break node between two. */
function textPieces(node: Record<string, unknown>): CommonNode[] {
  const marks: { type: string }[] = [];
  for (const mark of Array.isArray(node.marks) ? node.marks : []) {
    const type = isRecord(mark) ? str(mark.type) : '';
    if (MARKS_SHOWN.has(type) && !marks.some((m) => m.type === type)) marks.push({ type });
  }
  const pieces: CommonNode[] = [];
  str(node.value)
    .split(/\r\n?|\n/)
    .forEach((line, index) => {
      if (index > 0) pieces.push(nodeOf(LINE_BREAK, {}, []));
      if (line !== '') pieces.push(textNode(line, marks));
    });
  return pieces;
}

interface Shaping {
  nodes: number;
  /** Whether the renderer has a renderer of its own for a node type. */
  known: (nodeType: string) => boolean;
}

/** The children of a node as the library may read them (in a list: list items only). */
function shapeContent(
  node: Record<string, unknown>,
  depth: number,
  shaping: Shaping,
): CommonNode[] {
  const list = LISTS.has(str(node.nodeType));
  const content: CommonNode[] = [];
  for (const child of childrenOf(node)) {
    if (list && !(isRecord(child) && child.nodeType === BLOCKS.LIST_ITEM)) {
      // A list holds list items: anything else stands in one of its own.
      if (depth + 1 > MAX_RICH_TEXT_DEPTH || shaping.nodes >= MAX_RICH_TEXT_NODES) break;
      shaping.nodes++;
      content.push(nodeOf(BLOCKS.LIST_ITEM, {}, shape(child, depth + 2, shaping)));
    } else {
      content.push(...shape(child, depth + 1, shaping));
    }
  }
  return content;
}

/** A node as the library may read it (see the file comment): itself, or its content in its place. */
function shape(value: unknown, depth: number, shaping: Shaping): CommonNode[] {
  if (!isRecord(value) || depth > MAX_RICH_TEXT_DEPTH) return [];
  if (shaping.nodes >= MAX_RICH_TEXT_NODES) return [];
  shaping.nodes++;
  const nodeType = str(value.nodeType);
  if (nodeType === 'text') return textPieces(value);
  const content = shapeContent(value, depth, shaping);
  if (!shaping.known(nodeType)) return content;
  return [nodeOf(nodeType, isRecord(value.data) ? value.data : {}, content)];
}

// --- rendering: the library's options ------------------------------------------------------

/**
 * Where a node is rendered: a block place (the document, a quote, a list item, a cell), an
 * inline one (a paragraph, a heading), inside a link, or directly in a list, a table or a row.
 */
type Place = 'block' | 'inline' | 'link' | 'list' | 'table' | 'row';

/** Which children of a table or a row it shows (the others are left out). */
type Keep = (node: CommonNode) => boolean;
const always: Keep = () => true;
const isRow: Keep = (node) => node.nodeType === BLOCKS.TABLE_ROW;
const isCell: Keep = (node) =>
  node.nodeType === BLOCKS.TABLE_CELL || node.nodeType === BLOCKS.TABLE_HEADER_CELL;

function entryHref(entry: RichTextEntry | null, options: RichTextOptions): LinkHref | null {
  if (entry === null) return null;
  const path = (options.entryPath ?? defaultPath)(entry);
  const local = typeof path === 'string' ? localPath(path) : null;
  return local === null ? null : { href: local, external: false };
}

function defaultPath(entry: RichTextEntry): string | null {
  return defaultEntryPath(entry.contentType, entry.slug);
}

function assetHref(asset: RichTextAsset | null): LinkHref | null {
  const url = asset === null ? null : httpHref(asset.url);
  return url === null ? null : { href: url, external: true };
}

function anchor(href: LinkHref, inner: string): string {
  if (inner === '') return '';
  const rel = href.external ? ` rel="${EXTERNAL_LINK_REL}"` : '';
  return `<a href="${escapeAttribute(href.href)}"${rel}>${inner}</a>`;
}

function picture(asset: RichTextAsset, options: RichTextOptions): string | null {
  if (!asset.contentType.toLowerCase().startsWith('image/')) return null;
  const wanted = Math.max(
    1,
    Math.min(4000, Math.trunc(options.imageWidth ?? RICH_TEXT_IMAGE_WIDTH)),
  );
  const width = asset.width === null ? null : Math.min(asset.width, wanted);
  const height =
    width === null || asset.width === null || asset.height === null
      ? null
      : Math.max(1, Math.round((asset.height * width) / asset.width));
  const src = httpHref((options.imageSrc ?? contentfulImageSrc)(asset, width ?? wanted));
  if (src === null) return null;
  const size =
    width !== null && height !== null && height <= 4000
      ? ` width="${width}" height="${height}"`
      : '';
  const alt = asset.description || asset.title;
  return `<img src="${escapeAttribute(src)}" alt="${escapeAttribute(alt)}"${size} loading="lazy" decoding="async" />`;
}

/** The shop's node renderers for one document: they share where they are and the last heading. */
function shopRenderers(options: RichTextOptions): RenderNode {
  let place: Place = 'block';
  /** Level of the last heading written (1: the page's own h1), so none skips a level. */
  let lastHeading = 1;

  /** `nodes` rendered in `inner`, then back where we were. */
  const within = (inner: Place, next: Next, nodes: CommonNode[]): string => {
    const outer = place;
    place = inner;
    try {
      return next(nodes);
    } finally {
      place = outer;
    }
  };
  /** Text the shop writes (an entry's or an asset's title), escaped by the library. */
  const label = (value: string, next: Next) => next([textNode(value)]);

  /** A block element around its content read in `inner`; out of place its content only. */
  const block =
    (open: string, close: string, inner: Place, keep: Keep = always): NodeRenderer =>
    (node, next) => {
      if (place !== 'block') return next(node.content);
      const html = within(inner, next, node.content.filter(keep));
      return html === '' ? '' : open + html + close;
    };
  /** A list item, a row or a cell: an element where its container put it, else its content. */
  const part =
    (tag: string, where: Place, inner: Place, keep: Keep = always): NodeRenderer =>
    (node, next) =>
      place === where
        ? `<${tag}>${within(inner, next, node.content.filter(keep))}</${tag}>`
        : next(node.content);

  /**
   * The level a heading is written at: its own plus the offset, at most h4, and never more
   * than one below the heading before it (a text opening on heading-3 still starts at h2), so
   * the page's outline has no gap (WCAG heading order).
   */
  const heading: NodeRenderer = (node, next) => {
    if (place !== 'block') return next(node.content);
    const html = within('inline', next, node.content);
    if (html === '') return '';
    const wanted = Math.min(HEADING_MAX, Number(node.nodeType.slice(-1)) + HEADING_OFFSET);
    lastHeading = Math.max(2, Math.min(wanted, lastHeading + 1));
    return `<h${lastHeading}>${html}</h${lastHeading}>`;
  };

  /** A link to `href`, or its content alone when it may not or cannot be a link. */
  const link =
    (hrefOf: (data: Record<string, unknown>) => LinkHref | null): NodeRenderer =>
    (node, next) => {
      const href = place === 'link' ? null : hrefOf(node.data);
      if (href === null) return within(place === 'block' ? 'inline' : place, next, node.content);
      return anchor(href, within('link', next, node.content));
    };

  const embeddedEntry: NodeRenderer = (node, next) => {
    const entry = entryOf(node.data);
    if (entry === null || entry.title === '') return '';
    const title = label(entry.title, next);
    const href = place === 'link' ? null : entryHref(entry, options);
    const html = href === null ? title : anchor(href, title);
    return place === 'block' ? `<p>${html}</p>` : html;
  };

  /** A picture (in a figure in a block place), else a link to the file. */
  const embeddedAsset: NodeRenderer = (node, next) => {
    const asset = assetOf(node.data);
    if (asset === null) return '';
    const text = label(asset.title || asset.description, next);
    if (place === 'link') return text;
    const image = picture(asset, options);
    if (image !== null) return place === 'block' ? `<figure>${image}</figure>` : image;
    const href = assetHref(asset);
    const file = href === null ? text : anchor(href, text);
    return place === 'block' && file !== '' ? `<p>${file}</p>` : file;
  };

  return {
    [BLOCKS.PARAGRAPH]: block('<p>', '</p>', 'inline'),
    [BLOCKS.HEADING_1]: heading,
    [BLOCKS.HEADING_2]: heading,
    [BLOCKS.HEADING_3]: heading,
    [BLOCKS.HEADING_4]: heading,
    [BLOCKS.HEADING_5]: heading,
    [BLOCKS.HEADING_6]: heading,
    [BLOCKS.UL_LIST]: block('<ul>', '</ul>', 'list'),
    [BLOCKS.OL_LIST]: block('<ol>', '</ol>', 'list'),
    [BLOCKS.LIST_ITEM]: part('li', 'list', 'block'),
    [BLOCKS.QUOTE]: block('<blockquote>', '</blockquote>', 'block'),
    [BLOCKS.HR]: () => (place === 'block' ? '<hr />' : ''),
    [BLOCKS.TABLE]: block('<table><tbody>', '</tbody></table>', 'table', isRow),
    [BLOCKS.TABLE_ROW]: part('tr', 'table', 'row', isCell),
    [BLOCKS.TABLE_HEADER_CELL]: part('th', 'row', 'block'),
    [BLOCKS.TABLE_CELL]: part('td', 'row', 'block'),
    [INLINES.HYPERLINK]: link((data) => linkHref(data.uri)),
    [INLINES.ENTRY_HYPERLINK]: link((data) => entryHref(entryOf(data), options)),
    [INLINES.ASSET_HYPERLINK]: link((data) => assetHref(assetOf(data))),
    [BLOCKS.EMBEDDED_ENTRY]: embeddedEntry,
    [INLINES.EMBEDDED_ENTRY]: embeddedEntry,
    [BLOCKS.EMBEDDED_ASSET]: embeddedAsset,
    [LINE_BREAK]: () => '<br />',
  };
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
  const renderNode = shopRenderers(options);
  const known = (nodeType: string) =>
    nodeType !== LINE_BREAK && Object.hasOwn(renderNode, nodeType);
  const content = shape(document, 0, { nodes: 0, known });
  if (content.length === 0) return '';
  const shaped = { nodeType: BLOCKS.DOCUMENT, data: {}, content } as unknown as Document;
  return documentToHtmlString(shaped, {
    renderNode,
    renderMark: {
      [MARKS.BOLD]: (text) => `<strong>${text}</strong>`,
      [MARKS.ITALIC]: (text) => `<em>${text}</em>`,
    },
  });
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
