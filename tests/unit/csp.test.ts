import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { INLINE_SCRIPTS } from '../../src/shop/view-models/layout/inline-scripts.ts';
import {
  cspConfig,
  CspSettingsError,
  DEFAULT_CHECKOUT_ORIGINS,
  parseCheckoutOrigins,
  scriptHash,
} from '../../src/shop/html/csp.ts';

const settings = {
  imageOrigins: ['https://cdn11.bigcommerce.com', 'http://127.0.0.1:4392'],
  checkoutOrigins: ['http://127.0.0.1:4392'],
  inlineScripts: Object.values(INLINE_SCRIPTS),
};

describe('cspConfig', () => {
  const csp = cspConfig(settings);
  const directive = (name: string) =>
    csp.directives?.find((d) => d.startsWith(`${name} `))?.slice(name.length + 1);

  test('scripts: hashes of our inline scripts only, never unsafe-inline or a host', () => {
    expect(csp.scriptDirective?.resources).toBeUndefined();
    expect(csp.scriptDirective?.hashes).toEqual(
      Object.values(INLINE_SCRIPTS).map(
        (code) => `sha256-${createHash('sha256').update(code).digest('base64')}`,
      ),
    );
    expect(JSON.stringify(csp.scriptDirective)).not.toContain('unsafe');
  });

  test.each([
    ['default-src', "'self'"],
    ['base-uri', "'none'"],
    ['object-src', "'none'"],
    ['img-src', "'self' data: https://cdn11.bigcommerce.com http://127.0.0.1:4392"],
    ['connect-src', "'self'"],
    ['frame-src', "'none'"],
    ['form-action', "'self' http://127.0.0.1:4392"],
  ])('%s %s', (name, value) => {
    expect(directive(name)).toBe(value);
  });

  test('frame-src lists the reviews carousel origin when given, else none', () => {
    const withFrames = cspConfig({
      imageOrigins: [],
      checkoutOrigins: [],
      inlineScripts: [],
      frameOrigins: ['https://www.societe-des-avis-garantis.fr'],
    });
    expect(withFrames.directives).toContain('frame-src https://www.societe-des-avis-garantis.fr');
  });

  test('no tag manager unless the container is set: no Google origin anywhere', () => {
    expect(JSON.stringify(csp)).not.toMatch(/google/);
    expect(JSON.stringify(cspConfig({ ...settings, tagManager: false }))).not.toMatch(/google/);
  });

  describe('with the tag-manager container set (GTM_CONTAINER_ID)', () => {
    const tagged = cspConfig({ ...settings, tagManager: true });
    const of = (name: string) =>
      tagged.directives?.find((d) => d.startsWith(`${name} `))?.slice(name.length + 1);

    test('scripts: the shop, its hashes and the container origin, still no unsafe-inline', () => {
      expect(tagged.scriptDirective?.resources).toEqual([
        "'self'",
        'https://www.googletagmanager.com',
      ]);
      expect(tagged.scriptDirective?.hashes).toEqual(csp.scriptDirective?.hashes);
      expect(JSON.stringify(tagged.scriptDirective)).not.toContain('unsafe');
      expect(tagged.scriptDirective?.strictDynamic).toBeUndefined();
    });

    test.each([
      [
        'connect-src',
        "'self' https://www.googletagmanager.com https://www.google.com https://*.google-analytics.com https://*.analytics.google.com",
      ],
      [
        'img-src',
        "'self' data: https://cdn11.bigcommerce.com http://127.0.0.1:4392 https://www.googletagmanager.com https://*.google-analytics.com",
      ],
      ['frame-src', "'none'"],
      ['default-src', "'self'"],
      ['form-action', "'self' http://127.0.0.1:4392"],
    ])('%s %s', (name, value) => {
      expect(of(name)).toBe(value);
    });
  });

  test('property: whatever the settings, scripts never get unsafe-inline, eval or another host', () => {
    const origin = fc.webUrl().map((url) => new URL(url).origin);
    fc.assert(
      fc.property(
        fc.array(origin),
        fc.array(origin),
        fc.array(fc.string()),
        fc.option(fc.boolean(), { nil: undefined }),
        (imageOrigins, checkoutOrigins, inlineScripts, tagManager) => {
          const { scriptDirective } = cspConfig({
            imageOrigins,
            checkoutOrigins,
            inlineScripts,
            tagManager,
          });
          expect(JSON.stringify(scriptDirective)).not.toMatch(/unsafe|\*/);
          const allowed = tagManager === true ? ["'self'", 'https://www.googletagmanager.com'] : [];
          expect(scriptDirective?.resources ?? []).toEqual(allowed);
        },
      ),
    );
  });

  test('nothing a meta element ignores (frame-ancestors, report-uri, sandbox)', () => {
    for (const name of ['frame-ancestors', 'report-uri', 'report-to', 'sandbox']) {
      expect(directive(name)).toBeUndefined();
    }
  });

  test('style attributes allowed by style-src-attr only', () => {
    expect(csp.styleDirective?.resources).toEqual([
      "'self'",
      { resource: "'unsafe-inline'", kind: 'attribute' },
    ]);
  });

  test('scriptHash is the base64 SHA-256 a browser computes', () => {
    // Known vector: the empty script.
    expect(scriptHash('')).toBe('sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
  });
});

describe('parseCheckoutOrigins', () => {
  test.each([
    ['BigCommerce by default', undefined, null, DEFAULT_CHECKOUT_ORIGINS],
    ['the sandbox', undefined, 'http://127.0.0.1:4392', ['http://127.0.0.1:4392']],
    [
      'configured, trailing slash dropped',
      'https://paiement.example.fr/, https://store-x.mybigcommerce.com',
      null,
      ['https://paiement.example.fr', 'https://store-x.mybigcommerce.com'],
    ],
  ])('%s', (_case, value, sandbox, origins) => {
    expect(parseCheckoutOrigins(value, sandbox)).toEqual(origins);
  });

  test.each([
    ['a path', 'https://paiement.example.fr/checkout'],
    ['a scheme other than http(s)', 'javascript:alert(1)'],
    ['a keyword', "'unsafe-inline'"],
    ['a bare host', 'paiement.example.fr'],
  ])('refuses %s', (_case, value) => {
    expect(() => parseCheckoutOrigins(value, null)).toThrow(CspSettingsError);
  });
});
