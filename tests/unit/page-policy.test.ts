/**
 * A pre-rendered page's policy, read for the reply's header (src/server/page-policy.ts), over
 * generated documents: the policy is taken only from the meta that directly follows
 * `<meta charset>` at the document's opening, so it always comes before the first script,
 * JSON-LD, style, link or comment; nothing the page carries (scripts, JSON-LD holding
 * `</script>`-like text, comments, attributes with a policy-like text) is ever taken for it.
 */
import fc from 'fast-check';
import { escape } from 'html-escaper';
import { describe, expect, test } from 'vitest';
import { resellerPage } from '../../src/lib/commerce/shop-mode.ts';
import { scriptJson } from '../../src/lib/script-json.ts';
import { FRAME_ANCESTORS, pageSecurityHeaders } from '../../src/server/headers.ts';
import { leadingPolicyMeta, pagePolicy } from '../../src/server/page-policy.ts';

const FAKE = "script-src * 'unsafe-inline'";
const fakeMeta = `<meta http-equiv="content-security-policy" content="${FAKE}">`;
/** A whole fake opening, as text a page might carry in a comment or a script. */
const fakeOpening = `<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8">${fakeMeta}`;
const metaOf = (policy: string) =>
  `<meta http-equiv="content-security-policy" content="${escape(policy)}">`;

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
});
/** Any text, policy-like markup and the sequences that end or confuse a script element. */
const hostile = fc.oneof(
  fc.string(),
  fc.constantFrom(
    fakeMeta,
    fakeOpening,
    '</script>',
    '</SCRIPT >',
    '<!--',
    '-->',
    '<script>',
    '"><meta ',
  ),
  fc
    .array(fc.oneof(fc.string(), fc.constantFrom(fakeMeta, fakeOpening, '</script>')))
    .map((parts) => parts.join('')),
);

/** A policy as Astro writes it: directives, sources and hashes (no `&`, `"`, `<` or `>`). */
const policy = fc
  .array(
    fc.tuple(
      fc.constantFrom('default-src', 'script-src', 'style-src', 'img-src', 'form-action'),
      fc.array(
        fc.oneof(
          fc.constantFrom("'self'", "'none'", 'https://cdn11.bigcommerce.com', 'data:'),
          fc.base64String({ minLength: 44, maxLength: 44 }).map((hash) => `'sha256-${hash}'`),
          printable.filter((text) => !/[&"<>;\s]/.test(text) && text !== ''),
        ),
        { maxLength: 4 },
      ),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((directives) =>
    directives.map(([name, sources]) => [name, ...sources].join(' ')).join('; '),
  );

/** What a head holds after the policy: every kind of element, each with hostile text. */
const headPiece = fc.oneof(
  hostile.map((data) => `<script type="application/ld+json">${scriptJson({ data })}</script>`),
  hostile.map((text) => `<script>${text.replaceAll(/<\/script/gi, '')}</script>`),
  hostile.map((text) => `<!--${text.replaceAll('-->', '')}-->`),
  hostile.map((text) => `<meta name="description" content="${escape(text)}">`),
  hostile.map((text) => `<title>${escape(text)}</title>`),
  fc.constant('<link rel="stylesheet" href="/_astro/DefaultLayout.css">'),
  fc.constant('<style>body{margin:0}</style>'),
  fc.constant('<link rel="expect" href="#contenu" blocking="render">'),
  fc.constant(fakeMeta),
);

/** The `<html>` tag: the shop's attributes, their values escaped, in any order. */
const htmlTag = fc
  .record({
    lang: fc.constantFrom('fr', 'fr-FR'),
    currency: hostile,
    reseller: fc.boolean(),
  })
  .map(
    ({ lang, currency, reseller }) =>
      `<html lang="${lang}" data-currency="${escape(currency)}"${reseller ? ' data-reseller' : ''}>`,
  );

const doctype = fc.constantFrom('<!DOCTYPE html>', '<!doctype html>', '<!doctype html>\n');

const firstIndexOf = (html: string, tags: readonly string[]) =>
  Math.min(
    ...tags.map((tag) => {
      const at = html.toLowerCase().indexOf(tag);
      return at === -1 ? Infinity : at;
    }),
  );
const SCRIPT_LIKE = ['<script', '<style', '<link', '<!--'];

describe('pagePolicy', () => {
  test('reads the policy of a page opening as the layouts write it: before every script', () => {
    fc.assert(
      fc.property(doctype, htmlTag, policy, fc.array(headPiece), (open, html, text, rest) => {
        const page = `${open}${html}<head><meta charset="utf-8">${metaOf(text)}${rest.join('')}</head><body></body></html>`;
        const found = leadingPolicyMeta(page);
        expect(found?.policy).toBe(text.trim());
        expect(found?.end).toBeLessThanOrEqual(firstIndexOf(page, SCRIPT_LIKE));
        // A reseller's copy of the page (src/server/serve.ts) keeps it.
        expect(pagePolicy(resellerPage(page))).toBe(text.trim());
      }),
    );
  });

  test('never takes a policy that comes after any other element, nor text of the page', () => {
    fc.assert(
      fc.property(
        doctype,
        htmlTag,
        policy,
        fc.array(headPiece, { minLength: 1 }),
        fc.nat(),
        fc.boolean(),
        (open, html, text, pieces, at, charsetFirst) => {
          // The real meta somewhere after at least one piece (or before the charset).
          const split = at % pieces.length;
          const before = pieces.slice(0, split + 1).join('');
          const after = pieces.slice(split + 1).join('');
          const charset = '<meta charset="utf-8">';
          const page = charsetFirst
            ? `${open}${html}<head>${charset}${before}${metaOf(text)}${after}</head>`
            : `${open}${html}<head>${metaOf(text)}${charset}${before}${after}</head>`;
          const found = pagePolicy(page);
          // Only a fake meta placed right after the charset is a policy at the opening, and
          // then it is the page's first policy, which the browser also applies first.
          if (charsetFirst && before.startsWith(fakeMeta)) expect(found).toBe(FAKE);
          else expect(found).toBeNull();
        },
      ),
    );
  });

  test('hostile text around the opening is never read as the policy', () => {
    fc.assert(
      fc.property(
        // Text before the doctype that is not itself a document's opening.
        hostile.filter((lead) => !/^\s*<!doctype/i.test(lead)),
        policy,
        hostile,
        (lead, text, trail) => {
          const page = `${lead}<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8">${metaOf(text)}${trail}`;
          // Text before the doctype (nothing the layouts write) leaves the page without one,
          // unless it is only whitespace.
          expect(pagePolicy(page)).toBe(lead.trim() === '' ? text.trim() : null);
        },
      ),
    );
  });

  test.each([
    ['no policy meta', '<!DOCTYPE html><html><head><meta charset="utf-8"><title>x</title>'],
    ['an empty policy', '<!DOCTYPE html><html><head><meta charset="utf-8">' + metaOf(' ')],
    [
      'a line break (not a header value)',
      '<!DOCTYPE html><html><head><meta charset="utf-8">' + metaOf("default-src 'self'\nx"),
    ],
    [
      'a character reference a browser would decode',
      '<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="content-security-policy" content="default-src &#39;self&#39;&#10;">',
    ],
    [
      'a script before it',
      '<!DOCTYPE html><html><head><meta charset="utf-8"><script>x</script>' +
        metaOf("default-src 'self'"),
    ],
    [
      'JSON-LD before the charset',
      '<!DOCTYPE html><html><head><script type="application/ld+json">{}</script><meta charset="utf-8">' +
        metaOf("default-src 'self'"),
    ],
    ['no doctype', '<html><head><meta charset="utf-8">' + metaOf("default-src 'self'")],
  ])('none for %s', (_, page) => {
    expect(pagePolicy(page)).toBeNull();
  });

  test('reads the policy Astro writes (quotes as they are, entities of the five)', () => {
    expect(
      pagePolicy(
        `<!DOCTYPE html><html lang="fr" data-currency="EUR" data-country="FR"><head><meta charset="utf-8"><meta http-equiv="content-security-policy" content="default-src 'self';base-uri 'none'; script-src 'self' 'sha256-AAAA';"><link rel="stylesheet" href="/_astro/a.css">`,
      ),
    ).toBe("default-src 'self';base-uri 'none'; script-src 'self' 'sha256-AAAA';");
  });
});

describe('pageSecurityHeaders', () => {
  test('the page policy and the framing rule, both; the framing rule alone without one', () => {
    expect(pageSecurityHeaders(false, "default-src 'self'")['Content-Security-Policy']).toEqual([
      "default-src 'self'",
      FRAME_ANCESTORS,
    ]);
    expect(pageSecurityHeaders(true, null)['Content-Security-Policy']).toBe(FRAME_ANCESTORS);
    expect(pageSecurityHeaders(true, null)['Strict-Transport-Security']).toBeDefined();
  });
});
