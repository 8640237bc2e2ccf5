/**
 * The one home of markup authored upstream (product and category descriptions, banners, menu
 * pushes, and the content service's rich text): every such string goes through `sanitizeHtml`
 * before it reaches a page, at build and at request time alike (`RichText.astro` renders it),
 * and through `htmlToText` where it becomes plain text (cards, meta descriptions, JSON-LD).
 *
 * The policy is an allow-list (sanitize-html, on htmlparser2): the formatting a description
 * needs, no raw-text, foreign (SVG, MathML) or template element, no event handler or style,
 * links in `http`/`https`/`mailto`/`tel` or relative, pictures in absolute `http(s)` only (the
 * schemes and the reading of a URL as the browser reads it come from `src/lib/url-safety.ts`).
 * The output is well formed (text escaped, attributes double-quoted and escaped, every element
 * closed), so a browser tokenises it as the sanitiser saw it, and sanitising it again gives it
 * back unchanged.
 */
import sanitize from 'sanitize-html';
import { stripHtml } from '../../lib/commerce/text.ts';
import {
  EXTERNAL_LINK_REL,
  IMAGE_SCHEMES,
  isAbsoluteHttp,
  LINK_SCHEMES,
} from '../../lib/url-safety.ts';

/** Elements kept (others are dropped, their text kept, except `DROPPED_WITH_CONTENT`). */
export const ALLOWED_TAGS: readonly string[] = [
  'p',
  'br',
  'hr',
  'div',
  'span',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'small',
  'sub',
  'sup',
  'mark',
  'abbr',
  'code',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'h2',
  'h3',
  'h4',
  'blockquote',
  'a',
  'img',
  // A picture of the content service's rich text (`renderRichText`) stands in a figure.
  'figure',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
];

/** Attributes kept, per element (no `on*`, `style`, `class`, `id`, `srcdoc`, `target`...). */
export const ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
  abbr: ['title'],
  ol: ['start'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
};

/**
 * Elements dropped with everything inside: their content is script, style, raw text, a
 * document of its own or foreign markup a browser parses by other rules than HTML's.
 */
export const DROPPED_WITH_CONTENT: readonly string[] = [
  'script',
  'style',
  'template',
  'noscript',
  'noembed',
  'noframes',
  'iframe',
  'object',
  'textarea',
  'select',
  'option',
  'title',
  'xmp',
  'plaintext',
  'svg',
  'math',
  'head',
];

const NUMBER = /^\d{1,4}$/;

function keepNumber(value: string | undefined, min: number, max: number): string | undefined {
  if (value === undefined || !NUMBER.test(value.trim())) return undefined;
  const n = Number(value.trim());
  return n >= min && n <= max ? String(n) : undefined;
}

function keepWord(value: string | undefined, words: readonly string[]): string | undefined {
  const word = value?.trim().toLowerCase();
  return word !== undefined && words.includes(word) ? word : undefined;
}

function withoutUndefined(attribs: Record<string, string | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(attribs))
    if (value !== undefined) result[name] = value;
  return result;
}

const cells = (tagName: string) => (_name: string, attribs: sanitize.Attributes) => ({
  tagName,
  attribs: withoutUndefined({
    ...attribs,
    colspan: keepNumber(attribs.colspan, 1, 1000),
    rowspan: keepNumber(attribs.rowspan, 0, 65534),
  }),
});

const OPTIONS: sanitize.IOptions = {
  allowedTags: [...ALLOWED_TAGS],
  allowedAttributes: Object.fromEntries(
    Object.entries(ALLOWED_ATTRIBUTES).map(([tag, names]) => [tag, [...names]]),
  ),
  allowedSchemes: [...LINK_SCHEMES],
  allowedSchemesByTag: { img: [...IMAGE_SCHEMES] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  nonTextTags: [...DROPPED_WITH_CONTENT],
  disallowedTagsMode: 'discard',
  // The page already has its h1: a heading authored upstream starts at h2 (and ends at h4).
  transformTags: {
    h1: 'h2',
    h5: 'h4',
    h6: 'h4',
    // Links leaving the shop get `rel` set here (whatever rel came from upstream).
    a: (_name, attribs) => {
      const rest = { ...attribs };
      delete rest.rel;
      const href = rest.href;
      return {
        tagName: 'a',
        attribs:
          href !== undefined && isAbsoluteHttp(href) ? { ...rest, rel: EXTERNAL_LINK_REL } : rest,
      };
    },
    // A picture without a text alternative is decorative to a screen reader.
    img: (_name, attribs) => ({
      tagName: 'img',
      attribs: withoutUndefined({
        ...attribs,
        alt: attribs.alt ?? '',
        width: keepNumber(attribs.width, 1, 4000),
        height: keepNumber(attribs.height, 1, 4000),
        // Loading hints of the rich-text renderer, kept for their known values only.
        loading: keepWord(attribs.loading, ['lazy', 'eager']),
        decoding: keepWord(attribs.decoding, ['async', 'sync', 'auto']),
      }),
    }),
    th: cells('th'),
    td: cells('td'),
  },
  // A picture whose source was refused (or was relative) is dropped rather than left empty.
  exclusiveFilter: (frame) =>
    frame.tag === 'img' && !(frame.attribs.src !== undefined && isAbsoluteHttp(frame.attribs.src)),
};

// Bounded: the same descriptions recur on many pages of a build and of a server's life.
const MAX_ENTRIES = 2_000;
const sanitised = new Map<string, string>();
const texts = new Map<string, string>();

function remember(cache: Map<string, string>, key: string, value: string): string {
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(key, value);
  return value;
}

// Dropping an element can bring together two that the parser then nests differently (a heading
// inside a dropped `<details>` inside a heading): passes repeat until the markup is stable.
const MAX_PASSES = 4;

function sanitiseToFixedPoint(html: string): string {
  // NUL has no place in text; browsers and htmlparser2 do not read it alike (U+FFFD, dropped).
  let output = sanitize(html.replaceAll('\u0000', ''), OPTIONS);
  for (let pass = 1; pass < MAX_PASSES; pass++) {
    const again = sanitize(output, OPTIONS);
    if (again === output) break;
    output = again;
  }
  return output;
}

/**
 * Markup authored upstream, reduced to the allow-list above: safe to insert in a page as
 * HTML. Idempotent: `sanitizeHtml(sanitizeHtml(x)) === sanitizeHtml(x)`.
 */
export function sanitizeHtml(html: string): string {
  return sanitised.get(html) ?? remember(sanitised, html, sanitiseToFixedPoint(html));
}

/**
 * The text a shopper reads in markup authored upstream (what `sanitizeHtml` keeps), tags
 * removed, entities decoded, white space collapsed: plain text, to be escaped where it is
 * inserted (Astro expressions, attributes and `scriptJson` do).
 */
export function htmlToText(html: string): string {
  return texts.get(html) ?? remember(texts, html, stripHtml(sanitizeHtml(html)));
}
