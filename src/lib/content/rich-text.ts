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
 * (`rich-text-tree.ts`: reading targets, plain text, normalising.)
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
import {
  assetOf,
  childrenOf,
  entryOf,
  isRecord,
  MAX_RICH_TEXT_DEPTH,
  MAX_RICH_TEXT_NODES,
  NUL,
  str,
  type RichTextAsset,
  type RichTextEntry,
} from './rich-text-tree.ts';

export {
  normaliseRichText,
  richTextToPlainText,
  type RichTextAsset,
  type RichTextEntry,
} from './rich-text-tree.ts';

/** Width of pictures in rich text (CSS pixels), asked from Contentful's image API. */
export const RICH_TEXT_IMAGE_WIDTH = 800;
/** heading-1 renders as h2 (the page keeps its one h1), and no heading goes below h4 (as the sanitiser). */
const HEADING_OFFSET = 1;
const HEADING_MAX = 4;

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

/** A double-quoted attribute value: `&`, `<`, `>`, `"` escaped (text is the library's). */
function escapeAttribute(text: string): string {
  return text
    .replace(NUL, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
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
