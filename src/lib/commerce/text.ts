/**
 * Plain text from the HTML authored upstream (product descriptions, banners).
 */

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  laquo: '«',
  raquo: '»',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  hellip: '…',
  ndash: '–',
  mdash: '—',
  euro: '€',
  deg: '°',
  times: '×',
  copy: '©',
  reg: '®',
  trade: '™',
  middot: '·',
  bull: '•',
  agrave: 'à',
  acirc: 'â',
  auml: 'ä',
  ccedil: 'ç',
  eacute: 'é',
  egrave: 'è',
  ecirc: 'ê',
  euml: 'ë',
  icirc: 'î',
  iuml: 'ï',
  ocirc: 'ô',
  ouml: 'ö',
  ugrave: 'ù',
  ucirc: 'û',
  uuml: 'ü',
  yuml: 'ÿ',
  oelig: 'œ',
  aelig: 'æ',
  Agrave: 'À',
  Acirc: 'Â',
  Ccedil: 'Ç',
  Eacute: 'É',
  Egrave: 'È',
  Ecirc: 'Ê',
  Icirc: 'Î',
  Ocirc: 'Ô',
  Ucirc: 'Û',
  OElig: 'Œ',
};

/** Decodes named (common ones), decimal and hexadecimal character references. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, body: string) => {
    if (body.startsWith('#')) {
      const code =
        body[1] === 'x' || body[1] === 'X'
          ? Number.parseInt(body.slice(2), 16)
          : Number.parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[body] ?? entity;
  });
}

/**
 * Text content of an HTML fragment: script, style and comments dropped, tags removed (block
 * tags and `<br>` become a space so words do not stick together), entities decoded, runs of
 * white space collapsed to one space, trimmed.
 */
export function stripHtml(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(
      /<\/?(?:p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|section|article|blockquote)\b[^>]*>/gi,
      ' ',
    )
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text).replace(/\s+/g, ' ').trim();
}

export const DESCRIPTION_MAX_LENGTH = 50;
export const ELLIPSIS = '…';

/**
 * spec §2 / §9: a description's text (its HTML stripped first, e.g. by the server's
 * `htmlToText`), at most `max` characters (default 50) counted in Unicode code points. A longer text is cut at the last word boundary
 * that leaves room for a one-character ellipsis `…` (included in `max`), trailing punctuation
 * before the cut removed; a single word longer than that is cut inside the word.
 */
export function truncateText(text: string, max: number = DESCRIPTION_MAX_LENGTH): string {
  const chars = Array.from(text);
  if (chars.length <= max) return chars.join('');
  if (max <= 1) return chars.slice(0, Math.max(max, 0)).join('');
  const room = chars.slice(0, max - 1);
  // Cut where the next character is a space: the word before it is whole.
  const nextIsSpace = chars[max - 1] === ' ';
  const lastSpace = room.lastIndexOf(' ');
  const kept = nextIsSpace ? room : lastSpace > 0 ? room.slice(0, lastSpace) : room;
  const cut = kept.join('').replace(/[\s.,;:!?'’"«»(–—-]+$/u, '');
  return `${cut || room.join('')}${ELLIPSIS}`;
}

/** Text made safe inside HTML text and quoted attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** A French phone number as a `tel:` link: digits and '+' only, a leading 0 as +33. */
export const telHref = (phone: string): string =>
  `tel:${phone.replace(/[^\d+]/g, '').replace(/^0/, '+33')}`;
