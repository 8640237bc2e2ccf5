/**
 * Hostile URLs for the property tests of the URL-safety module and of its callers (the
 * rich-text renderer): dangerous schemes in any case with white space, control characters and
 * entities around and inside, protocol-relative `//host`, backslashes, `/\\host`, encoded
 * slashes, dots and controls, userinfo.
 */
import fc from 'fast-check';

/** Values no link may be made of (each is refused by `linkHref`). */
export const HOSTILE_LINKS: readonly unknown[] = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  '\u0001javascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'java\u0000script:alert(1)',
  'javascript&#58;alert(1)',
  'javascript&colon;alert(1)',
  '&#106;avascript:alert(1)',
  'jav&#x09;ascript:alert(1)',
  'javascript\u0085:alert(1)',
  'vbscript:msgbox(1)',
  'data:text/html,<script>alert(1)</script>',
  'DATA:text/html;base64,PHNjcmlwdD4=',
  'file:///etc/passwd',
  '//evil.example/x',
  ' //evil.example/x',
  '\t//evil.example/x',
  '/\\evil.example',
  '\\/evil.example',
  '\\\\evil.example',
  '/\t/evil.example',
  'https://user:pass@evil.example/',
  'https://exemple.fr@evil.example/',
  'https://exemple.fr\\@evil.example/',
  'http://',
  'mailto:',
  'tel: ',
  'relative/path',
  '#anchor',
  '?q=1',
  '',
  42,
  null,
  { toString: () => 'javascript:alert(1)' },
  `https://exemple.fr/${'a'.repeat(2048)}`,
];

/** Characters a browser drops or trims around and inside a URL, and ones it keeps. */
const NOISE = [
  '\t',
  '\n',
  '\r',
  ' ',
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\ufeff',
];
const SCHEMES = [
  'javascript',
  'vbscript',
  'data',
  'file',
  'blob',
  'ftp',
  'ws',
  'about',
  'http',
  'https',
  'mailto',
  'tel',
];
/** A scheme's colon as written, and as HTML entities a naive decoder might read as one. */
const COLONS = [':', '&#58;', '&colon;', '&#x3a;', '%3a', '\\u003a'];
const TAILS = [
  'alert(1)',
  '//evil.example/x',
  '//www.literie.test@evil.example/',
  '/\\evil.example',
  '\\\\evil.example',
  'evil.example',
  'text/html,<script>alert(1)</script>',
  'aide@exemple.fr',
  '+33123456789',
  '',
];
const PATHS = [
  '/',
  '//',
  '/\\',
  '\\/',
  '\\',
  '/.',
  '/..',
  '/%2e%2e',
  '/%2e',
  '/%2f',
  '/%5c',
  '/%0d%0a',
  '/%00',
  '/evil.example',
  '/cgv',
  '/a/../b',
  '?q=1',
  '#h',
  '@evil.example',
  '／',
  '．',
];

/** `text` with `noise` inserted at generated positions. */
function sprinkle(text: string, noise: [number, string][]): string {
  let out = text;
  for (const [at, piece] of noise) {
    const index = at % (out.length + 1);
    out = out.slice(0, index) + piece + out.slice(index);
  }
  return out;
}

const noise = fc.array(fc.tuple(fc.nat(), fc.constantFrom(...NOISE)), { maxLength: 4 });
/** An ASCII scheme with the letters `flips` marks in capitals. */
const mixedCase = (text: string, flips: boolean[]) =>
  text.replace(/[a-z]/g, (c, i: number) =>
    flips[i % Math.max(1, flips.length)] ? c.toUpperCase() : c,
  );

/** A scheme, in any case, its colon in any spelling, noise anywhere, then a tail. */
export const schemeUrl: fc.Arbitrary<string> = fc
  .record({
    scheme: fc.constantFrom(...SCHEMES),
    flips: fc.array(fc.boolean(), { maxLength: 12 }),
    colon: fc.constantFrom(...COLONS),
    tail: fc.constantFrom(...TAILS),
    before: noise,
    inside: noise,
  })
  .map(({ scheme, flips, colon, tail, before, inside }) =>
    sprinkle(sprinkle(mixedCase(scheme, flips) + colon + tail, inside), before),
  );
/** Paths glued from hostile pieces, with noise. */
const pathUrl = fc
  .tuple(fc.array(fc.constantFrom(...PATHS), { minLength: 1, maxLength: 6 }), noise)
  .map(([parts, extra]) => sprinkle(parts.join(''), extra));
/** Generated hostile URLs, any strings and ordinary URLs and paths. */
export const anyUrl: fc.Arbitrary<string> = fc.oneof(
  schemeUrl,
  pathUrl,
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.webPath(),
);
