/**
 * The rich-text renderer (`renderRichText`, Contentful's renderer with the shop's options): the
 * known node types by table, hostile input (script text, handlers in data, `javascript:` and
 * other schemes however written, unknown node types and marks, prototype keys as types, deep
 * and huge trees), and properties over generated trees: only the renderer's own tags, no
 * handler, no link outside http(s)/mailto/tel/local paths, well formed, and kept by the shop's
 * sanitiser (which only respells `&quot;` and `&#39;` in text). Also the plain text and the
 * normalisation of resolved documents.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  contentfulImageSrc,
  normaliseRichText,
  renderRichText,
  richTextToPlainText,
} from '../../src/lib/content/rich-text.ts';
import { MAX_RICH_TEXT_DEPTH } from '../../src/lib/content/rich-text-tree.ts';
import type { RichTextDocument, RichTextNode } from '../../src/lib/content/types.ts';
import { sanitizeHtml } from '../../src/shop/html/sanitize-html.ts';
import { anyUrl, HOSTILE_LINKS } from './hostile-urls.ts';

// --- builders ------------------------------------------------------------------------------

const text = (value: string, ...marks: string[]): RichTextNode => ({
  nodeType: 'text',
  value,
  marks: marks.map((type) => ({ type })),
  data: {},
});
const node = (
  nodeType: string,
  content: RichTextNode[] = [],
  data: Record<string, unknown> = {},
): RichTextNode => ({
  nodeType,
  data,
  content,
});
const doc = (...content: RichTextNode[]): RichTextDocument => ({
  nodeType: 'document',
  data: {},
  content,
});
const p = (...content: RichTextNode[]) => node('paragraph', content);
const entry = (contentType: string, fields: Record<string, unknown>, id = 'e1') => ({
  sys: {
    id,
    type: 'Entry',
    contentType: { sys: { type: 'Link', linkType: 'ContentType', id: contentType } },
  },
  fields,
});
const asset = (url: string, contentType = 'image/jpeg', width = 1600, height = 1200) => ({
  sys: { id: 'a1', type: 'Asset' },
  fields: {
    title: 'Chambre',
    description: 'Une chambre "calme"',
    file: { url, contentType, details: { image: { width, height } } },
  },
});
const link = (uri: unknown, label = 'lien') => node('hyperlink', [text(label)], { uri });

const render = (document: RichTextNode) => renderRichText(document);

// --- the renderer's grammar ----------------------------------------------------------------

const TAGS = new Set(
  [
    'p',
    'h2',
    'h3',
    'h4',
    'ul',
    'ol',
    'li',
    'blockquote',
    'table',
    'tbody',
    'tr',
    'td',
    'th',
  ].concat(['a', 'strong', 'em', 'u', 'code', 'sup', 'sub', 'figure']),
);
const VOID = new Set(['br', 'hr', 'img']);
const ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'rel'],
  img: ['src', 'alt', 'width', 'height', 'loading', 'decoding'],
};

/** Reads output by the renderer's grammar; throws on anything else (see sanitize-html.test.ts). */
function parseOutput(html: string): { tag: string; attributes: [string, string][] }[] {
  const token = /<\/([a-z][a-z0-9]*)>|<([a-z][a-z0-9]*)((?: [a-z-]+="[^"<>]*")*) ?(\/?)>|[^<>]+/y;
  const elements: { tag: string; attributes: [string, string][] }[] = [];
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
      if (!TAGS.has(tag) && !VOID.has(tag)) throw new Error(`unknown tag <${tag}>`);
      const pairs = [...attributes.matchAll(/ ([a-z-]+)="([^"]*)"/g)].map(
        ([, name = '', value = '']): [string, string] => [name, value],
      );
      for (const [name] of pairs) expect(ATTRIBUTES[tag] ?? []).toContain(name);
      elements.push({ tag, attributes: pairs });
      if (VOID.has(tag) !== (selfClosed === '/')) throw new Error(`<${tag}> closing`);
      if (!VOID.has(tag)) open.push(tag);
    }
    index += whole.length;
  }
  if (open.length > 0) throw new Error(`unclosed ${open.join(', ')}`);
  return elements;
}

function decode(value: string): string {
  return value
    .replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/**
 * Output as the sanitiser writes it: the library escapes `"` and `'` in text (`&quot;`,
 * `&#39;`), the sanitiser leaves them as they are there. Text holds no `<`: every `<...>` is a tag.
 */
function asSanitiserWrites(html: string): string {
  return html
    .split(/(<[^>]*>)/)
    .map((part) =>
      part.startsWith('<') ? part : part.replaceAll('&quot;', '"').replaceAll('&#39;', "'"),
    )
    .join('');
}

/** Every property of rendered output; returns it. */
function checkOutput(html: string): string {
  expect(html).not.toMatch(/<script/i);
  // Text holds no `<` (escaped): every `<...>` is a tag, and none carries a handler.
  for (const [tag] of html.matchAll(/<[^>]*>/g)) expect(tag).not.toMatch(/\son\w+=/i);
  for (const { tag, attributes } of parseOutput(html)) {
    for (const [name, raw] of attributes) {
      const value = decode(raw);
      if (name === 'href') {
        expect(value).toMatch(/^(https?:\/\/|mailto:|tel:|\/(?!\/))/i);
        expect(value).not.toMatch(/^\s*(javascript|vbscript|data):/i);
      }
      if (name === 'src') expect(value).toMatch(/^https?:\/\//);
      if (name === 'rel') expect(value).toBe('noopener noreferrer');
    }
    if (tag === 'a') {
      const href = attributes.find(([name]) => name === 'href')?.[1] ?? '';
      const external = /^https?:/.test(href);
      expect(attributes.some(([name]) => name === 'rel')).toBe(external);
    }
  }
  return html;
}

// --- tables --------------------------------------------------------------------------------

describe('known nodes', () => {
  test.each<[string, RichTextNode, string]>([
    ['paragraph', doc(p(text('Bonjour'))), '<p>Bonjour</p>'],
    ['empty paragraph', doc(p(text(''))), ''],
    ['heading-1 is h2', doc(node('heading-1', [text('T')])), '<h2>T</h2>'],
    [
      'heading-2 is h3 under a heading-1',
      doc(node('heading-1', [text('A')]), node('heading-2', [text('T')])),
      '<h2>A</h2><h3>T</h3>',
    ],
    [
      'heading-3 is h4 under h2 and h3',
      doc(
        node('heading-1', [text('A')]),
        node('heading-2', [text('B')]),
        node('heading-3', [text('T')]),
      ),
      '<h2>A</h2><h3>B</h3><h4>T</h4>',
    ],
    [
      'heading-6 stays h4',
      doc(
        node('heading-1', [text('A')]),
        node('heading-2', [text('B')]),
        node('heading-6', [text('T')]),
      ),
      '<h2>A</h2><h3>B</h3><h4>T</h4>',
    ],
    // The page's outline has no gap (WCAG heading order): a text opening on heading-3 starts at
    // h2, and a heading never comes more than one level below the one before it.
    ['a first heading-3 is h2', doc(node('heading-3', [text('T')])), '<h2>T</h2>'],
    [
      'no level skipped',
      doc(
        node('heading-1', [text('A')]),
        node('heading-4', [text('B')]),
        node('heading-1', [text('C')]),
      ),
      '<h2>A</h2><h3>B</h3><h2>C</h2>',
    ],
    [
      'marks',
      doc(p(text('x', 'bold'), text('y', 'italic'), text('z', 'underline'), text('c', 'code'))),
      '<p><strong>x</strong><em>y</em><u>z</u><code>c</code></p>',
    ],
    [
      'sup and sub',
      doc(p(text('2', 'superscript'), text('i', 'subscript'))),
      '<p><sup>2</sup><sub>i</sub></p>',
    ],
    ['stacked marks', doc(p(text('x', 'bold', 'italic'))), '<p><em><strong>x</strong></em></p>'],
    ['unknown mark', doc(p(text('x', 'blink'))), '<p>x</p>'],
    ['line break', doc(p(text('a\nb\r\nc'))), '<p>a<br />b<br />c</p>'],
    [
      'lists',
      doc(
        node('unordered-list', [node('list-item', [p(text('a'))])]),
        node('ordered-list', [node('list-item', [p(text('b'))])]),
      ),
      '<ul><li><p>a</p></li></ul><ol><li><p>b</p></li></ol>',
    ],
    ['blockquote', doc(node('blockquote', [p(text('q'))])), '<blockquote><p>q</p></blockquote>'],
    ['hr', doc(node('hr')), '<hr />'],
    [
      'table',
      doc(
        node('table', [
          node('table-row', [node('table-header-cell', [p(text('h'))])]),
          node('table-row', [node('table-cell', [p(text('c'))])]),
        ]),
      ),
      '<table><tbody><tr><th><p>h</p></th></tr><tr><td><p>c</p></td></tr></tbody></table>',
    ],
    [
      'external link',
      doc(p(link('https://exemple.fr/a?b=1&c=2'))),
      '<p><a href="https://exemple.fr/a?b=1&amp;c=2" rel="noopener noreferrer">lien</a></p>',
    ],
    [
      'mailto',
      doc(p(link('mailto:aide@exemple.fr'))),
      '<p><a href="mailto:aide@exemple.fr">lien</a></p>',
    ],
    ['tel', doc(p(link('tel:+33123456789'))), '<p><a href="tel:+33123456789">lien</a></p>'],
    [
      'local path',
      doc(p(link('/les-yeux-fermes?tag=podcast'))),
      '<p><a href="/les-yeux-fermes?tag=podcast">lien</a></p>',
    ],
    [
      'entry link to a content page',
      doc(
        p(
          node('entry-hyperlink', [text('CGV')], {
            target: entry('contentPage', { title: 'CGV', slug: 'cgv' }),
          }),
        ),
      ),
      '<p><a href="/cgv">CGV</a></p>',
    ],
    [
      'entry link to a sleep content',
      doc(
        p(
          node('entry-hyperlink', [text('Écouter')], {
            target: entry('sleepContent', { title: 'R', slug: 'respirer' }),
          }),
        ),
      ),
      '<p><a href="/les-yeux-fermes/respirer">Écouter</a></p>',
    ],
    [
      'entry link to another type: text',
      doc(
        p(
          node('entry-hyperlink', [text('Tech')], {
            target: entry('productContent', { title: 'T' }),
          }),
        ),
      ),
      '<p>Tech</p>',
    ],
    [
      'entry link left unresolved: text',
      doc(
        p(
          node('entry-hyperlink', [text('X')], {
            target: { sys: { type: 'Link', linkType: 'Entry', id: 'x' } },
          }),
        ),
      ),
      '<p>X</p>',
    ],
    [
      'embedded entry block',
      doc(
        node('embedded-entry-block', [], {
          target: entry('contentPage', { title: 'Aide & contact', slug: 'aide' }),
        }),
      ),
      '<p><a href="/aide">Aide &amp; contact</a></p>',
    ],
    [
      'embedded entry inline',
      doc(
        p(
          text('Voir '),
          node('embedded-entry-inline', [], {
            target: entry('contentPage', { title: 'CGV', slug: 'cgv' }),
          }),
        ),
      ),
      '<p>Voir <a href="/cgv">CGV</a></p>',
    ],
    [
      'embedded picture from Contentful',
      doc(
        node('embedded-asset-block', [], {
          target: asset('https://images.ctfassets.net/s/a1/h/chambre.jpg'),
        }),
      ),
      '<figure><img src="https://images.ctfassets.net/s/a1/h/chambre.jpg?w=800&amp;fm=webp&amp;q=70" alt="Une chambre &quot;calme&quot;" width="800" height="600" loading="lazy" decoding="async" /></figure>',
    ],
    [
      'embedded picture elsewhere, smaller than 800',
      doc(
        node('embedded-asset-block', [], {
          target: asset('http://127.0.0.1:4000/images/ctf/s/a1/h/c.png', 'image/png', 400, 300),
        }),
      ),
      '<figure><img src="http://127.0.0.1:4000/images/ctf/s/a1/h/c.png" alt="Une chambre &quot;calme&quot;" width="400" height="300" loading="lazy" decoding="async" /></figure>',
    ],
    [
      'embedded file',
      doc(
        node('embedded-asset-block', [], {
          target: asset('https://assets.ctfassets.net/s/a1/h/cgv.pdf', 'application/pdf'),
        }),
      ),
      '<p><a href="https://assets.ctfassets.net/s/a1/h/cgv.pdf" rel="noopener noreferrer">Chambre</a></p>',
    ],
    [
      'asset hyperlink',
      doc(
        p(
          node('asset-hyperlink', [text('PDF')], {
            target: asset('https://assets.ctfassets.net/x.pdf', 'application/pdf'),
          }),
        ),
      ),
      '<p><a href="https://assets.ctfassets.net/x.pdf" rel="noopener noreferrer">PDF</a></p>',
    ],
  ])('%s', (_name, input, expected) => {
    const html = render(input);
    expect(html).toBe(expected);
    checkOutput(html);
    expect(sanitizeHtml(html)).toBe(html);
  });

  test('options: entryPath and imageSrc are used, their results checked', () => {
    const target = entry('technology', { title: 'Ressorts', slug: 'ressorts' });
    const d = doc(p(node('entry-hyperlink', [text('R')], { target })));
    expect(renderRichText(d, { entryPath: (e) => `/tech/${e.slug ?? ''}` })).toBe(
      '<p><a href="/tech/ressorts">R</a></p>',
    );
    expect(renderRichText(d, { entryPath: () => '//evil.example/x' })).toBe('<p>R</p>');
    expect(renderRichText(d, { entryPath: () => 'javascript:alert(1)' })).toBe('<p>R</p>');
    const picture = doc(
      node('embedded-asset-block', [], { target: asset('https://images.ctfassets.net/p.jpg') }),
    );
    // A picture whose source is refused is offered as a link to its file.
    expect(renderRichText(picture, { imageSrc: () => 'javascript:alert(1)' })).toBe(
      '<p><a href="https://images.ctfassets.net/p.jpg" rel="noopener noreferrer">Chambre</a></p>',
    );
    expect(
      renderRichText(picture, {
        imageSrc: (_a, w) => `https://cdn.example/p.jpg?w=${w}`,
        imageWidth: 400,
      }),
    ).toContain(
      'src="https://cdn.example/p.jpg?w=400" alt="Une chambre &quot;calme&quot;" width="400" height="300"',
    );
  });

  test('contentfulImageSrc keeps other query parameters and hosts', () => {
    const a = {
      id: 'a',
      title: '',
      description: '',
      contentType: 'image/png',
      width: 10,
      height: 10,
    };
    expect(contentfulImageSrc({ ...a, url: 'https://images.ctfassets.net/a.png?x=1' }, 300)).toBe(
      'https://images.ctfassets.net/a.png?x=1&w=300&fm=webp&q=70',
    );
    expect(contentfulImageSrc({ ...a, url: 'https://cdn.example/a.png' }, 300)).toBe(
      'https://cdn.example/a.png',
    );
  });
});

describe('hostile input', () => {
  test.each(HOSTILE_LINKS.map((uri) => [uri]))('link %j is refused: text only', (uri) => {
    expect(render(doc(p(link(uri, 'cliquer'))))).toBe('<p>cliquer</p>');
  });

  test('script text and markup in text are escaped', () => {
    const html = render(doc(p(text('<script>alert(1)</script><img src=x onerror=alert(1)>'))));
    expect(html).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</p>',
    );
    checkOutput(html);
  });

  test('data never becomes attributes; unknown node types give their content only', () => {
    const html = render(
      doc(
        node('paragraph', [text('a')], { onclick: 'alert(1)', class: 'x', style: 'x' }),
        node('script', [text('alert(1)')]),
        node('iframe', [p(text('in'))], { src: 'javascript:alert(1)' }),
        node('html', [], { value: '<script>alert(1)</script>' }),
        { nodeType: 'raw', data: {}, value: '<b>raw</b>' },
      ),
    );
    expect(html).toBe('<p>a</p>alert(1)<p>in</p>');
    checkOutput(html);
  });

  test('types and marks the renderer does not show, prototype keys included, give their text', () => {
    const html = render(
      doc(
        node('constructor', [p(text('a'))]),
        node('__proto__', [p(text('b'))]),
        node('toString', [text('c')]),
        node('embedded-resource-block', [p(text('d'))], { target: { sys: { urn: 'x' } } }),
        p(
          node('resource-hyperlink', [text('e')], { target: { sys: { urn: 'x' } } }),
          node('line-break', [text('f')]),
          text('g', 'strikethrough', 'constructor', 'toString', '__proto__', 'bold', 'bold'),
        ),
        node('document', [p(text('h'))]),
      ),
    );
    expect(html).toBe('<p>a</p><p>b</p>c<p>d</p><p>ef<strong>g</strong></p><p>h</p>');
    checkOutput(html);
  });

  test('quotes in text are escaped by the library, line breaks keep their marks', () => {
    const html = render(doc(p(text(`l'"a"\nb`, 'bold'))));
    expect(html).toBe('<p><strong>l&#39;&quot;a&quot;</strong><br /><strong>b</strong></p>');
    expect(sanitizeHtml(html)).toBe(`<p><strong>l'"a"</strong><br /><strong>b</strong></p>`);
  });

  test('malformed nodes are skipped', () => {
    const bad = doc(
      null as unknown as RichTextNode,
      'text' as unknown as RichTextNode,
      { nodeType: 42 } as unknown as RichTextNode,
      node('paragraph', 'x' as unknown as RichTextNode[]),
      p({ nodeType: 'text', value: 42, data: {} } as unknown as RichTextNode, text('ok')),
    );
    expect(render(bad)).toBe('<p>ok</p>');
    expect(renderRichText(null)).toBe('');
    expect(renderRichText(undefined)).toBe('');
  });

  test('blocks out of place give their text (no block inside a paragraph, no link in a link)', () => {
    const html = render(
      doc(
        p(
          text('a'),
          node('heading-1', [text('b')]),
          node('unordered-list', [node('list-item', [p(text('c'))])]),
        ),
        node('heading-2', [
          p(text('d')),
          node('table', [node('table-row', [node('table-cell', [p(text('e'))])])]),
        ]),
        p(
          link('https://a.example', 'x'),
          node('hyperlink', [link('https://b.example', 'y')], { uri: 'https://c.example' }),
        ),
        node('unordered-list', [p(text('loose'))]),
      ),
    );
    expect(html).toBe(
      '<p>abc</p><h2>de</h2><p><a href="https://a.example/" rel="noopener noreferrer">x</a><a href="https://c.example/" rel="noopener noreferrer">y</a></p><ul><li><p>loose</p></li></ul>',
    );
    checkOutput(html);
    expect(sanitizeHtml(html)).toBe(html);
  });

  test('deep nesting is bounded', () => {
    let deep: RichTextNode = text('fond');
    for (let i = 0; i < 100_000; i++) deep = node(i % 2 ? 'blockquote' : 'unordered-list', [deep]);
    const html = render(doc(deep));
    checkOutput(html);
    expect(html).not.toContain('fond');
    let ok: RichTextNode = p(text('ici'));
    for (let i = 0; i < MAX_RICH_TEXT_DEPTH - 2; i++) ok = node('blockquote', [ok]);
    expect(render(doc(ok))).toContain('ici');
  });

  test('huge documents are bounded in size', () => {
    const many: RichTextDocument = {
      nodeType: 'document',
      data: {},
      content: Array.from({ length: 200_000 }, (_, i) => p(text(`x${i}`))),
    };
    const html = render(many);
    expect(html.length).toBeLessThan(400_000);
    checkOutput(html);
    const long = render(doc(p(text('<'.repeat(1_000_000)))));
    expect(long.length).toBe('<p></p>'.length + 4_000_000);
  });

  test('a cyclic tree is bounded', () => {
    const loop = p(text('boucle')) as RichTextNode & { content: RichTextNode[] };
    const quote = node('blockquote', [loop]);
    loop.content.push(quote);
    checkOutput(render(doc(quote)));
  });
});

// --- generated trees -----------------------------------------------------------------------

const HOSTILE_STRINGS = fc.constantFrom(
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  '&lt;script&gt;',
  '\u0000',
  '</p><p>',
  'javascript:alert(1)',
);
const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), HOSTILE_STRINGS);
const anyUri = fc.oneof(
  anyUrl,
  fc.constantFrom(
    'javascript:alert(1)',
    ' JaVaScRiPt:alert(1)',
    'java\tscript:x',
    'data:text/html,x',
    'vbscript:x',
    '//evil.example',
    'mailto:a@b.fr',
    'tel:+33 1 23',
    '/cgv',
    '/a"b<c>',
    'https://exemple.fr/?q="<x>"',
  ),
);
const NODE_TYPES = [
  'document',
  'paragraph',
  'heading-1',
  'heading-2',
  'heading-3',
  'heading-4',
  'heading-5',
  'heading-6',
  'unordered-list',
  'ordered-list',
  'list-item',
  'blockquote',
  'hr',
  'table',
  'table-row',
  'table-cell',
  'table-header-cell',
  'hyperlink',
  'entry-hyperlink',
  'asset-hyperlink',
  'embedded-entry-block',
  'embedded-entry-inline',
  'embedded-asset-block',
  'text',
];
const anyTarget = fc.oneof(
  fc.record({
    sys: fc.record({
      id: fc.string({ minLength: 1 }),
      type: fc.constant('Entry'),
      contentType: fc.record({
        sys: fc.record({
          id: fc.constantFrom('contentPage', 'sleepContent', 'page', 'brandCorner', 'x'),
        }),
      }),
    }),
    fields: fc.record({ title: anyText, slug: anyText }),
  }),
  fc.record({
    sys: fc.record({ id: fc.string({ minLength: 1 }), type: fc.constant('Asset') }),
    fields: fc.record({
      title: anyText,
      description: anyText,
      file: fc.record({
        url: anyUri,
        contentType: fc.constantFrom('image/jpeg', 'application/pdf', 'text/html'),
        details: fc.record({ image: fc.record({ width: fc.integer(), height: fc.integer() }) }),
      }),
    }),
  }),
  fc.record({ sys: fc.record({ type: fc.constant('Link'), id: fc.string() }) }),
  anyText,
);

const { tree } = fc.letrec<{ tree: RichTextNode }>((tie) => ({
  tree: fc.oneof(
    { maxDepth: 6, depthSize: 'small' },
    fc.record({
      nodeType: fc.constant('text'),
      value: anyText,
      marks: fc.constant<{ type: string }[]>([]),
      data: fc.constant({}),
    }),
    fc.record({
      nodeType: fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...NODE_TYPES) },
        { weight: 1, arbitrary: fc.string() },
      ),
      value: anyText,
      marks: fc.array(
        fc.record({
          type: fc.oneof(
            fc.constantFrom('bold', 'italic', 'underline', 'code', 'superscript', 'subscript'),
            fc.string(),
          ),
        }),
        { maxLength: 3 },
      ),
      data: fc.oneof(
        fc.record({ uri: anyUri }),
        fc.record({ target: anyTarget }),
        fc.dictionary(fc.string(), anyText, { maxKeys: 2 }),
      ),
      content: fc.array(tie('tree'), { maxLength: 4 }),
    }),
  ),
}));

describe('properties', () => {
  test('any tree: only the renderer tags, no handler, no unsafe URL, well formed', () => {
    fc.assert(
      fc.property(tree, (root) => {
        const html = checkOutput(renderRichText({ ...root, nodeType: 'document' }));
        const every = html.match(/</g)?.length ?? 0;
        const tags =
          html.match(
            /<\/?(?:p|h[2-4]|ul|ol|li|blockquote|hr|table|tbody|tr|td|th|a|strong|em|u|code|sup|sub|br|figure|img)[ />]/g,
          )?.length ?? 0;
        expect(tags).toBe(every);
        expect(html).not.toMatch(/href="\s*(?:javascript|vbscript|data):/i);
      }),
      { numRuns: 1_000 },
    );
  });

  test('any tree: the sanitiser gives the output back unchanged but for quotes in text', () => {
    fc.assert(
      fc.property(tree, (root) => {
        const html = renderRichText({ ...root, nodeType: 'document' });
        expect(sanitizeHtml(html)).toBe(asSanitiserWrites(html));
      }),
      { numRuns: 500 },
    );
  });

  test('the normalised document renders the same, is acyclic JSON and normalises to itself', () => {
    fc.assert(
      fc.property(tree, (root) => {
        const input = { ...root, nodeType: 'document' };
        const normalised = normaliseRichText(input);
        if (normalised === null) return;
        const json = JSON.parse(JSON.stringify(normalised)) as RichTextDocument;
        expect(json).toEqual(normalised);
        expect(normaliseRichText(json)).toEqual(normalised);
        expect(renderRichText(normalised)).toBe(renderRichText(input));
      }),
      { numRuns: 300 },
    );
  });

  test('plain text holds every text value, collapsed', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 5 }), (values) => {
        const plain = richTextToPlainText(doc(...values.map((v) => p(text(v)))));
        expect(plain).toBe(values.join(' ').replace(/\s+/g, ' ').trim());
      }),
    );
  });
});

describe('plain text and normalisation', () => {
  test('richTextToPlainText', () => {
    const d = doc(
      node('heading-1', [text('Titre')]),
      p(
        text('Un '),
        text('lit', 'bold'),
        text(' & <une> chambre.'),
        link('https://a.example', ' Lien'),
      ),
      node('embedded-asset-block', [], { target: asset('https://images.ctfassets.net/x.jpg') }),
      node('unordered-list', [
        node('list-item', [p(text('a'))]),
        node('list-item', [p(text('b'))]),
      ]),
    );
    expect(richTextToPlainText(d)).toBe('Titre Un lit & <une> chambre. Lien a b');
    expect(richTextToPlainText(null)).toBe('');
  });

  test('normaliseRichText keeps only what rendering needs and drops unresolved targets', () => {
    const big = {
      ...entry('contentPage', { title: 'CGV', slug: 'cgv', body: doc(p(text('long'))) }),
      metadata: { tags: [] },
    };
    const normalised = normaliseRichText({
      nodeType: 'document',
      data: { extra: 1 },
      content: [
        {
          nodeType: 'paragraph',
          data: {},
          content: [{ nodeType: 'entry-hyperlink', data: { target: big }, content: [text('x')] }],
        },
        {
          nodeType: 'embedded-entry-block',
          data: { target: { sys: { type: 'Link', linkType: 'Entry', id: 'gone' } } },
          content: [],
        },
        {
          nodeType: 'paragraph',
          data: { uri: 'https://a.example', onclick: 'x' },
          content: [{ nodeType: 'text', value: 'y', marks: [{ type: 'bold', x: 1 }, 3], data: {} }],
        },
      ],
    });
    expect(normalised).toEqual(
      doc(
        p(
          node('entry-hyperlink', [text('x')], {
            target: {
              sys: { id: 'e1', type: 'Entry', contentType: { sys: { id: 'contentPage' } } },
              fields: { title: 'CGV', slug: 'cgv' },
            },
          }),
        ),
        node('embedded-entry-block', [], {}),
        node('paragraph', [text('y', 'bold')], { uri: 'https://a.example' }),
      ),
    );
    expect(normaliseRichText({ nodeType: 'paragraph', content: [] })).toBeNull();
    expect(normaliseRichText({ nodeType: 'document', content: [] })).toBeNull();
    expect(normaliseRichText('x')).toBeNull();
  });
});
