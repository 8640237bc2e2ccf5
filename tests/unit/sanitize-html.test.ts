/**
 * The sanitiser of markup authored upstream: over generated HTML (arbitrary strings and trees
 * mixing allowed and forbidden elements, attributes, obfuscated URL schemes, comments, CDATA,
 * foreign and raw-text elements), the output is well formed, holds only allowed elements and
 * attributes, no handler, no URL outside the allowed schemes, and is its own sanitised form.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decodeEntities } from '../../src/lib/commerce/text.ts';
import { htmlToText, sanitizeHtml } from '../../src/shop/html/sanitize-html.ts';
import { EXTERNAL_LINK_REL } from '../../src/lib/url-safety.ts';

// The policy of the module, restated here so that widening the module's lists fails these tests.
const POLICY_TAGS = [
  ...['p', 'br', 'hr', 'div', 'span', 'strong', 'b', 'em', 'i', 'u', 's', 'small', 'sub', 'sup'],
  ...['mark', 'abbr', 'code', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'h2', 'h3', 'h4', 'blockquote'],
  ...['a', 'img', 'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td'],
  // The content service's rich-text pictures (renderRichText).
  'figure',
];
const POLICY_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
  abbr: ['title'],
  ol: ['start'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
};
const LINK_SCHEMES = ['http', 'https', 'mailto', 'tel'];
const IMAGE_SCHEMES = ['http', 'https'];

const VOID = new Set(['br', 'hr', 'img']);
const RUNS = { numRuns: 2_000 };

interface Element {
  tag: string;
  attributes: [string, string][];
}

/**
 * Reads sanitised output by a grammar stricter than HTML's: text without `<` or `>`, start
 * tags of lowercase names with double-quoted values free of `"`, `<` and `>`, end tags, and
 * void elements self-closed. In a browser's data state only `<` opens markup, so output that
 * passes is tokenised exactly like this. Throws on anything else, and on unbalanced nesting.
 */
function parseOutput(html: string): Element[] {
  const token = /<\/([a-z][a-z0-9]*)>|<([a-z][a-z0-9]*)((?: [a-z-]+="[^"<>]*")*) ?(\/?)>|[^<>]+/y;
  const elements: Element[] = [];
  const open: string[] = [];
  let index = 0;
  while (index < html.length) {
    token.lastIndex = index;
    const match = token.exec(html);
    if (!match) throw new Error(`not well formed at ${index}: ${html.slice(index, index + 40)}`);
    const [whole, closing, tag, attributes = '', selfClosed] = match;
    if (closing !== undefined) {
      if (open.pop() !== closing) throw new Error(`unbalanced </${closing}>`);
    } else if (tag !== undefined) {
      const pairs = [...attributes.matchAll(/ ([a-z-]+)="([^"]*)"/g)].map(
        ([, name = '', value = '']): [string, string] => [name, value],
      );
      elements.push({ tag, attributes: pairs });
      if (VOID.has(tag) !== (selfClosed === '/')) throw new Error(`<${tag}> closing`);
      if (!VOID.has(tag)) open.push(tag);
    }
    index += whole.length;
  }
  if (open.length > 0) throw new Error(`unclosed ${open.join(', ')}`);
  return elements;
}

/** An attribute value as the browser's URL parser reads it (see urlAsParsed in the module). */
function asParsed(value: string): string {
  const decoded = decodeEntities(value).replaceAll('\u0000', '\uFFFD');
  let start = 0;
  let end = decoded.length;
  while (start < end && decoded.charCodeAt(start) <= 0x20) start++;
  while (end > start && decoded.charCodeAt(end - 1) <= 0x20) end--;
  return decoded.slice(start, end).replace(/[\t\n\r]/g, '');
}

/** The scheme a browser sees in an attribute value, or null for a relative URL. */
function schemeOf(value: string): string | null {
  return /^([a-z][a-z0-9+.-]*):/i.exec(asParsed(value))?.[1]?.toLowerCase() ?? null;
}

function isProtocolRelative(value: string): boolean {
  return /^[/\\]{2}/.test(asParsed(value));
}

/** Every property the sanitised form of `input` must have (throws with the reason). */
function checkSanitised(input: string): string {
  const output = sanitizeHtml(input);
  for (const { tag, attributes } of parseOutput(output)) {
    expect(POLICY_TAGS).toContain(tag);
    for (const [name, value] of attributes) {
      expect(POLICY_ATTRIBUTES[tag] ?? []).toContain(name);
      expect(name.startsWith('on')).toBe(false);
      if (name === 'href') {
        const scheme = schemeOf(value);
        if (scheme === null) expect(isProtocolRelative(value)).toBe(false);
        else expect(LINK_SCHEMES).toContain(scheme);
      }
      if (name === 'src') expect(IMAGE_SCHEMES).toContain(schemeOf(value));
      if (name === 'rel') expect(value).toBe(EXTERNAL_LINK_REL);
    }
    if (tag === 'img') expect(attributes.map(([name]) => name)).toContain('src');
  }
  expect(sanitizeHtml(output)).toBe(output);
  return output;
}

// --- generators ------------------------------------------------------------------------------

const FORBIDDEN_TAGS = [
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'form',
  'input',
  'button',
  'meta',
  'base',
  'link',
  'svg',
  'math',
  'mtext',
  'mglyph',
  'foreignObject',
  'noscript',
  'template',
  'textarea',
  'title',
  'xmp',
  'details',
  'summary',
  'video',
  'audio',
  'source',
  'frameset',
  'html',
  'body',
  'head',
  'select',
  'option',
  'marquee',
  'animate',
  'set',
  'use',
  'h1',
  'h6',
];

const ATTRIBUTES = [
  ...new Set(Object.values(POLICY_ATTRIBUTES).flat()),
  'onerror',
  'onload',
  'ontoggle',
  'onmouseover',
  'OnClick',
  'style',
  'class',
  'id',
  'srcdoc',
  'srcset',
  'target',
  'formaction',
  'action',
  'data',
  'xlink:href',
  'http-equiv',
  'content',
  'open',
  'values',
  'attributeName',
];

const SCHEMES = [
  'javascript',
  'JaVaScRiPt',
  'vbscript',
  'data',
  'DATA',
  'http',
  'https',
  'HTTPS',
  'mailto',
  'tel',
  'ftp',
  'file',
];

/** Each character as itself or as a decimal, hexadecimal or zero-padded reference. */
const encodedChar = (c: string) =>
  fc.constantFrom(
    c,
    `&#${c.codePointAt(0)};`,
    `&#x${(c.codePointAt(0) ?? 0).toString(16)};`,
    `&#X${(c.codePointAt(0) ?? 0).toString(16).toUpperCase()}`,
    `&#0000${c.codePointAt(0)}`,
  );

/** Noise a browser ignores inside or around a scheme. */
const noise = fc.constantFrom(
  '',
  '',
  '\t',
  '\n',
  '&#x09;',
  '&#10;',
  '&Tab;',
  '&NewLine;',
  ' ',
  '\u0000',
);

/** A word with its characters encoded or not, and noise slipped between some of them. */
const encodedWord = (word: string) =>
  fc
    .tuple(
      ...Array.from(word).map((c) =>
        fc.tuple(
          fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: noise }),
          encodedChar(c),
        ),
      ),
    )
    .map((parts) => parts.map(([n, c]) => n + c).join(''));

const url = fc.oneof(
  fc
    .tuple(
      noise,
      fc.constantFrom(...SCHEMES).chain(encodedWord),
      noise,
      fc.constantFrom(':', '&colon;', '&#58;', '%3a'),
      fc.constantFrom(
        'alert(1)',
        '//evil.example/x',
        'text/html,<script>alert(1)</script>',
        'a@b.fr',
        '+33100',
      ),
    )
    .map(([before, scheme, between, colon, rest]) => `${before}${scheme}${between}${colon}${rest}`),
  fc.constantFrom(
    '/matelas',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'x',
    '#haut',
    '?q=1',
    'https://cdn11.bigcommerce.com/p.jpg',
    '',
  ),
);

const handlerValue = fc.constantFrom(
  'alert(1)',
  'fetch(`/xss`)',
  '" onerror="alert(1)',
  "' onload='x",
);

/** URL-carrying attributes get URLs, handlers get script, others anything. */
const attribute = fc
  .oneof(
    {
      weight: 4,
      arbitrary: fc.tuple(
        fc.constantFrom('href', 'src', 'HREF', 'SrC', 'action', 'formaction', 'xlink:href', 'data'),
        url,
      ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(
        fc.constantFrom(
          'onerror',
          'onload',
          'ontoggle',
          'OnMouseOver',
          'onclick',
          'srcdoc',
          'style',
        ),
        handlerValue,
      ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(
        fc.constantFrom(...ATTRIBUTES),
        fc.oneof(url, fc.string({ maxLength: 12 }), fc.constantFrom('1', '99999')),
      ),
    },
  )
  .chain(([name, value]) =>
    fc
      .constantFrom('"', "'", '')
      .map((quote) =>
        quote === ''
          ? `${name}=${value.replace(/[\s>]/g, '')}`
          : `${name}=${quote}${value}${quote}`,
      ),
  );

const mixedCase = (name: string) =>
  fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }).map((upper) =>
    Array.from(name)
      .map((c, i) => (upper[i] ? c.toUpperCase() : c))
      .join(''),
  );

const tagName = fc
  .oneof(
    { weight: 3, arbitrary: fc.constantFrom('a', 'img') },
    { weight: 2, arbitrary: fc.constantFrom(...POLICY_TAGS) },
    { weight: 3, arbitrary: fc.constantFrom(...FORBIDDEN_TAGS) },
  )
  .chain(mixedCase);

const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(
    '&lt;script&gt;',
    '&amp;',
    '&#60;img src=x onerror=alert(1)&#62;',
    'é',
    '<',
    '>',
    '"',
    '&',
  ),
);

const { node } = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.constantFrom(
      '<!-- <script>alert(1)</script> -->',
      '<!--><img src=x onerror=alert(1)>-->',
      '<![CDATA[<img src=x onerror=alert(1)>]]>',
      '<?xml x?>',
      '<!DOCTYPE html>',
      '</p>',
      '</div>',
      '</table>',
      '<br/>',
      '<',
      '</',
      '<a',
      '<img src=x onerror=alert(1)//',
    ),
    fc
      .tuple(
        tagName,
        fc.array(attribute, { maxLength: 3 }),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.boolean(),
      )
      .map(
        ([name, attributes, children, closed]) =>
          `<${[name, ...attributes].join(' ')}>${children.join('')}${closed ? `</${name}>` : ''}`,
      ),
  ),
}));

const html = fc.array(node, { maxLength: 6 }).map((nodes) => nodes.join(''));

/** Trees whose every element is closed and every attribute quoted: nothing spills over. */
const { closedNode } = fc.letrec<{ closedNode: string }>((tie) => ({
  closedNode: fc.oneof(
    { depthSize: 'small' },
    fc.string({ maxLength: 8 }).map((s) => s.replace(/[<&]/g, '')),
    fc
      .tuple(
        tagName,
        fc.array(fc.tuple(fc.constantFrom(...ATTRIBUTES), url), { maxLength: 2 }),
        fc.array(tie('closedNode'), { maxLength: 3 }),
      )
      .map(([name, attributes, children]) => {
        const attrs = attributes.map(([a, v]) => ` ${a}="${v.replace(/"/g, '')}"`).join('');
        return `<${name}${attrs}>${children.join('')}</${name}>`;
      }),
  ),
}));
const closedHtml = fc.array(closedNode, { maxLength: 4 }).map((nodes) => nodes.join(''));

// Characters that matter to an HTML tokenizer, mixed with arbitrary ones.
const markupChar = fc.constantFrom(
  ...'<>/="\'&#;:! -[]?abcdefghijklmnopqrstuvwxyzSCRIPT\t\n'.split(''),
);
const soup = fc.string({
  unit: fc.oneof(markupChar, fc.string({ minLength: 1, maxLength: 1, unit: 'binary' })),
  maxLength: 80,
});

// --- tests -----------------------------------------------------------------------------------

describe('sanitizeHtml, properties', () => {
  test('arbitrary strings: allowed elements and attributes only, idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => void checkSanitised(s)),
      RUNS,
    );
  });

  test('markup soup: allowed elements and attributes only, idempotent', () => {
    fc.assert(
      fc.property(soup, (s) => void checkSanitised(s)),
      RUNS,
    );
  });

  test('generated trees (forbidden tags, handlers, obfuscated schemes, comments, CDATA, foreign content)', () => {
    fc.assert(
      fc.property(html, (s) => void checkSanitised(s)),
      RUNS,
    );
  });

  test('nothing inside script, style, template, noscript, iframe, svg or math reaches the output', () => {
    const container = fc.constantFrom(
      'script',
      'style',
      'template',
      'noscript',
      'iframe',
      'svg',
      'math',
      'textarea',
      'title',
      'xmp',
      'object',
      'select',
    );
    fc.assert(
      fc.property(closedHtml, container, closedHtml, (before, tag, after) => {
        const input = `${before}<${tag}><p>SECRET</p>SECRET<img src="https://a.example/SECRET.png"></${tag}>${after}`;
        fc.pre(!`${before}${after}`.includes('SECRET'));
        expect(sanitizeHtml(input)).not.toContain('SECRET');
        expect(htmlToText(input)).not.toContain('SECRET');
      }),
      RUNS,
    );
  });

  test('text of allowed markup is kept (NUL dropped), escaped', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        const escaped = s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
        const expected = s.replaceAll('\u0000', '').replace(/\s+/g, ' ').trim();
        expect(htmlToText(`<p>${escaped}</p>`)).toBe(expected);
      }),
      RUNS,
    );
  });

  test('htmlToText of any input is the text of its sanitised form', () => {
    fc.assert(
      fc.property(html, (s) => {
        expect(htmlToText(s)).toBe(htmlToText(sanitizeHtml(s)));
      }),
      RUNS,
    );
  });
});

describe('sanitizeHtml, known payloads', () => {
  test.each([
    ['script element', '<script>alert(1)</script><p>ok</p>', '<p>ok</p>'],
    ['img onerror with a relative source', '<img src=x onerror=alert(1)>', ''],
    [
      'img onerror with an allowed source',
      '<img src="https://cdn11.bigcommerce.com/a.jpg" onerror=alert(1)>',
      '<img src="https://cdn11.bigcommerce.com/a.jpg" alt="" />',
    ],
    ['javascript: link', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['mixed-case scheme', '<a href="JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['tab inside the scheme', '<a href="java&#x09;script:alert(1)">x</a>', '<a>x</a>'],
    ['entity-encoded scheme', '<a href="&#106;avascript:alert(1)">x</a>', '<a>x</a>'],
    ['data: link', '<a href="data:text/html,<script>alert(1)</script>">x</a>', '<a>x</a>'],
    ['vbscript: link', '<a href="vbscript:msgbox(1)">x</a>', '<a>x</a>'],
    ['protocol-relative link', '<a href="//evil.example">x</a>', '<a>x</a>'],
    [
      'external link gets rel, target dropped',
      '<a href="https://evil.example" rel="opener" target="_blank">x</a>',
      `<a href="https://evil.example" rel="${EXTERNAL_LINK_REL}">x</a>`,
    ],
    [
      'local link kept',
      '<a href="/matelas" title="Voir">x</a>',
      '<a href="/matelas" title="Voir">x</a>',
    ],
    [
      'mailto and tel kept',
      '<a href="mailto:a@b.fr">m</a><a href="tel:+33100">t</a>',
      '<a href="mailto:a@b.fr">m</a><a href="tel:+33100">t</a>',
    ],
    ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>après', 'après'],
    ['svg onload', '<svg onload=alert(1)><p>dans svg</p></svg>après', 'après'],
    ['svg script', '<svg><script>alert(1)</script></svg>', ''],
    ['details ontoggle', '<details open ontoggle=alert(1)><summary>s</summary>d</details>', 'sd'],
    [
      'math namespace confusion',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
      '',
    ],
    [
      'noscript attribute breakout',
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
      '',
    ],
    ['template content', '<template><img src=x onerror=alert(1)></template>t', 't'],
    [
      'object and embed',
      '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
      '',
    ],
    [
      'form with a javascript: action',
      '<form action="javascript:alert(1)"><button>go</button></form>',
      'go',
    ],
    ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', ''],
    ['base href', '<base href="https://evil.example/">', ''],
    ['style @import', '<style>@import url(/xss.css)</style>', ''],
    ['link rel=import', '<link rel="import" href="/xss.html">', ''],
    [
      'style, class and id attributes',
      '<p style="background:url(javascript:alert(1))" class="x" id="y">s</p>',
      '<p>s</p>',
    ],
    [
      'comment and CDATA',
      '<!-- <script>x</script> --><![CDATA[ <img src=x onerror=alert(1)> ]]>texte',
      'texte',
    ],
    [
      'unclosed elements closed',
      '<p>non fermé <strong>gras',
      '<p>non fermé <strong>gras</strong></p>',
    ],
    ['stray end tags dropped', '</div></div>texte', 'texte'],
    ['headings start at h2', '<h1>T</h1><h5>u</h5><h6>v</h6>', '<h2>T</h2><h4>u</h4><h4>v</h4>'],
    [
      'numeric table spans only',
      '<table><tr><td colspan="2x" rowspan="3">c</td></tr></table>',
      '<table><tr><td rowspan="3">c</td></tr></table>',
    ],
    [
      'escaped markup stays text',
      '&lt;script&gt;alert(1)&lt;/script&gt;',
      '&lt;script&gt;alert(1)&lt;/script&gt;',
    ],
  ])('%s', (_case, input, expected) => {
    expect(checkSanitised(input)).toBe(expected);
  });
});

describe('htmlToText', () => {
  test.each([
    ['formatting removed', '<p>Un <strong>matelas</strong> ferme</p>', 'Un matelas ferme'],
    ['script text dropped', '<p>a</p><script>alert(1)</script>b', 'a b'],
    ['unclosed script dropped to the end', 'a<script>alert(1)', 'a'],
    ['noscript and template text dropped', '<noscript>n</noscript><template>t</template>x', 'x'],
    ['escaped markup decoded as text', '&lt;b&gt;gras&lt;/b&gt;', '<b>gras</b>'],
    ['attributes never become text', '<img src="https://a.example/x.png" alt="photo">x', 'x'],
  ])('%s', (_case, input, expected) => {
    expect(htmlToText(input)).toBe(expected);
  });
});
