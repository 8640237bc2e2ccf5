/**
 * Writes Contentful rich text documents for the seed from a small line-based markup, so the
 * French texts stay readable here. Blocks, one per line: `# ` to `###### ` headings, `- ` and
 * `1. ` list items, `> ` quotes, `---` a rule, `| a | b |` table rows (a row followed by
 * `|---|` is a header row), `{{entry:ID}}` / `{{asset:ID}}` embedded blocks, anything else a
 * paragraph. Inline: `**bold**`, `*italic*`, `__underline__`, `` `code` ``, `^sup^`, `~sub~`,
 * `[text](https://...)` hyperlinks, `[text](entry:ID)` and `[text](asset:ID)` links to an entry
 * or asset, `[[entry:ID]]` an embedded inline entry.
 */
import { assetLink, entryLink } from './contentful-model.ts';

export interface RichNode {
  nodeType: string;
  data: Record<string, unknown>;
  content?: RichNode[];
  value?: string;
  marks?: { type: string }[];
}

export interface RichDocument extends RichNode {
  nodeType: 'document';
  content: RichNode[];
}

export function text(value: string, marks: readonly string[] = []): RichNode {
  return { nodeType: 'text', value, marks: marks.map((type) => ({ type })), data: {} };
}

const INLINE =
  /\*\*(.+?)\*\*|__(.+?)__|\*(.+?)\*|`(.+?)`|\^(.+?)\^|~(.+?)~|\[\[entry:([\w.-]+)\]\]|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** Inline nodes of one line; an inline node is framed by text nodes, as Contentful's editor does. */
export function inline(source: string, marks: readonly string[] = []): RichNode[] {
  const out: RichNode[] = [];
  let last = 0;
  for (const m of source.matchAll(INLINE)) {
    const index = m.index;
    if (index > last) out.push(text(source.slice(last, index), marks));
    const [, bold, underline, italic, code, sup, sub, embedded, label, target] = m;
    if (bold !== undefined) out.push(...inline(bold, [...marks, 'bold']));
    else if (underline !== undefined) out.push(...inline(underline, [...marks, 'underline']));
    else if (italic !== undefined) out.push(...inline(italic, [...marks, 'italic']));
    else if (code !== undefined) out.push(text(code, [...marks, 'code']));
    else if (sup !== undefined) out.push(text(sup, [...marks, 'superscript']));
    else if (sub !== undefined) out.push(text(sub, [...marks, 'subscript']));
    else if (embedded !== undefined) {
      out.push({
        nodeType: 'embedded-entry-inline',
        data: { target: entryLink(embedded) },
        content: [],
      });
    } else if (label !== undefined && target !== undefined) {
      const content = inline(label, marks);
      if (target.startsWith('entry:')) {
        out.push({
          nodeType: 'entry-hyperlink',
          data: { target: entryLink(target.slice(6)) },
          content,
        });
      } else if (target.startsWith('asset:')) {
        out.push({
          nodeType: 'asset-hyperlink',
          data: { target: assetLink(target.slice(6)) },
          content,
        });
      } else {
        out.push({ nodeType: 'hyperlink', data: { uri: target }, content });
      }
    }
    last = index + m[0].length;
  }
  if (last < source.length) out.push(text(source.slice(last), marks));
  if (out.length === 0 || out[0]?.nodeType !== 'text') out.unshift(text('', marks));
  if (out.at(-1)?.nodeType !== 'text') out.push(text('', marks));
  return out;
}

export function paragraph(source: string): RichNode {
  return { nodeType: 'paragraph', data: {}, content: inline(source) };
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());
}

/** A document from markup lines (see the file comment). */
export function richText(...lines: string[]): RichDocument {
  const content: RichNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = (lines[i] ?? '').trimEnd();
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (line.trim() === '') {
      i++;
    } else if (heading) {
      content.push({
        nodeType: `heading-${heading[1]?.length ?? 1}`,
        data: {},
        content: inline(heading[2] ?? ''),
      });
      i++;
    } else if (line === '---') {
      content.push({ nodeType: 'hr', data: {}, content: [] });
      i++;
    } else if (/^\{\{(entry|asset):[\w.-]+\}\}$/.test(line)) {
      const [kind, id] = line.slice(2, -2).split(':') as [string, string];
      content.push(
        kind === 'entry'
          ? { nodeType: 'embedded-entry-block', data: { target: entryLink(id) }, content: [] }
          : { nodeType: 'embedded-asset-block', data: { target: assetLink(id) }, content: [] },
      );
      i++;
    } else if (line.startsWith('> ')) {
      const quoted: RichNode[] = [];
      while ((lines[i] ?? '').startsWith('> ')) quoted.push(paragraph((lines[i++] ?? '').slice(2)));
      content.push({ nodeType: 'blockquote', data: {}, content: quoted });
    } else if (/^(- |\d+\. )/.test(line)) {
      const ordered = !line.startsWith('- ');
      const pattern = ordered ? /^\d+\. / : /^- /;
      const items: RichNode[] = [];
      while (pattern.test(lines[i] ?? '')) {
        items.push({
          nodeType: 'list-item',
          data: {},
          content: [paragraph((lines[i++] ?? '').replace(pattern, ''))],
        });
      }
      content.push({
        nodeType: ordered ? 'ordered-list' : 'unordered-list',
        data: {},
        content: items,
      });
    } else if (line.startsWith('|')) {
      const rows: RichNode[] = [];
      while ((lines[i] ?? '').startsWith('|')) {
        const row = lines[i++] ?? '';
        const header =
          /^\|[\s|:-]+\|$/.test((lines[i] ?? '').trim()) && (lines[i] ?? '').includes('---');
        if (header) i++;
        rows.push({
          nodeType: 'table-row',
          data: {},
          content: cells(row).map((cell) => ({
            nodeType: header ? 'table-header-cell' : 'table-cell',
            data: {},
            content: [paragraph(cell)],
          })),
        });
      }
      content.push({ nodeType: 'table', data: {}, content: rows });
    } else {
      content.push(paragraph(line));
      i++;
    }
  }
  return { nodeType: 'document', data: {}, content };
}
