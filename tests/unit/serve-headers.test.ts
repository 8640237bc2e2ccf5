import type { OutgoingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ifRangeHolds, notModified } from '../../src/server/conditional.ts';
import { isCompressibleType, negotiateCoding } from '../../src/server/encoding.ts';
import {
  sharedHead,
  FRAME_ANCESTORS,
  HSTS,
  securityHeaders,
  withSecurityHeaders,
} from '../../src/server/headers.ts';
import { sharedLifetime } from '../../src/server/on-demand.ts';

describe('negotiateCoding (Accept-Encoding with q-values)', () => {
  test.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip, br', 'br'],
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0', 'identity'],
    ['gzip;q=0.5, br;q=1', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['gzip;q=0.9, br;q=0.5', 'gzip'],
    ['*', 'br'],
    ['*;q=0.1, gzip', 'gzip'],
    ['identity', 'identity'],
    ['deflate', 'identity'],
    ['zstd, gzip', 'gzip'],
    ['br;q=0, gzip;q=0, identity;q=0', 'identity'],
    ['BR', 'br'],
  ] as const)('%j gives %s', (header, coding) => {
    expect(negotiateCoding(header)).toBe(coding);
  });

  test('only the codings offered are chosen', () => {
    expect(negotiateCoding('br, gzip', ['gzip', 'identity'])).toBe('gzip');
    expect(negotiateCoding('br', ['gzip', 'identity'])).toBe('identity');
  });

  test('a coding refused with q=0 is never chosen', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('br', 'gzip'),
        fc.array(fc.constantFrom('br', 'gzip', 'identity', '*', 'deflate'), { maxLength: 4 }),
        fc.array(fc.double({ min: 0.001, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 }),
        (refused, others, qs) => {
          const parts = others
            .filter((c) => c !== refused)
            .map((c, i) => `${c};q=${(qs[i] ?? 1).toFixed(3)}`);
          const header = [`${refused};q=0`, ...parts].join(', ');
          expect(negotiateCoding(header)).not.toBe(refused);
        },
      ),
    );
  });

  test.each([
    ['text/html', true],
    ['text/html; charset=utf-8', true],
    ['application/json; charset=utf-8', true],
    ['image/svg+xml', true],
    ['application/xml', true],
    ['image/webp', false],
    ['application/octet-stream', false],
    [undefined, false],
  ] as const)('%s compressible: %s', (type, expected) => {
    expect(isCompressibleType(type)).toBe(expected);
  });
});

describe('security headers', () => {
  const REQUIRED = [
    ['x-content-type-options', 'nosniff'],
    ['x-frame-options', 'SAMEORIGIN'],
    ['referrer-policy', 'strict-origin-when-cross-origin'],
  ] as const;

  test('the same set on every reply; HSTS only over https', () => {
    const plain = securityHeaders(false);
    const tls = securityHeaders(true);
    expect(plain['Strict-Transport-Security']).toBeUndefined();
    expect(tls['Strict-Transport-Security']).toBe(HSTS);
    expect(plain['Content-Security-Policy']).toBe(FRAME_ANCESTORS);
    expect(plain['Permissions-Policy']).toContain('camera=()');
  });

  const lower = (headers: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

  test('any reply gets each security header once, its own values kept', () => {
    const name = fc.constantFrom(
      'content-type',
      'X-Content-Type-Options',
      'x-frame-options',
      'Referrer-Policy',
      'cache-control',
      'x-robots-tag',
      'set-cookie',
    );
    fc.assert(
      fc.property(
        fc.dictionary(name, fc.stringMatching(/^[ -~]{0,20}$/)),
        fc.boolean(),
        (headers, secure) => {
          const out = withSecurityHeaders(headers, secure);
          const names = Object.keys(out).map((n) => n.toLowerCase());
          expect(new Set(names).size).toBe(names.length);
          const merged = lower(out);
          for (const [header, value] of REQUIRED) {
            const own = Object.entries(headers).find(([n]) => n.toLowerCase() === header);
            expect(merged[header]).toBe(own ? own[1] : value);
          }
          expect(merged['strict-transport-security'] !== undefined).toBe(secure);
        },
      ),
    );
  });

  test.each([
    ['no CSP: the framing rule alone', undefined, FRAME_ANCESTORS],
    [
      'a page CSP: kept, the framing rule a second policy',
      "script-src 'self'",
      ["script-src 'self'", FRAME_ANCESTORS],
    ],
    [
      'a CSP with frame-ancestors: left alone',
      "default-src 'self'; frame-ancestors 'none'",
      "default-src 'self'; frame-ancestors 'none'",
    ],
    [
      'two policies, one with frame-ancestors: left alone',
      ["img-src 'self'", "frame-ancestors 'self'"],
      ["img-src 'self'", "frame-ancestors 'self'"],
    ],
  ])('CSP: %s', (_case, own, expected) => {
    // Node's types say one string; a reply may carry several policies (string[]).
    const headers = (
      own === undefined ? {} : { 'content-security-policy': own }
    ) as OutgoingHttpHeaders;
    expect(lower(withSecurityHeaders(headers, false))['content-security-policy']).toEqual(expected);
  });
});

describe('conditional requests', () => {
  const etag = '"abc-1"';
  test.each([
    ['the same ETag', { 'if-none-match': '"abc-1"' }, true],
    ['the weak form', { 'if-none-match': 'W/"abc-1"' }, true],
    ['in a list', { 'if-none-match': '"x", "abc-1", "y"' }, true],
    ['a list without it', { 'if-none-match': '"x", "y"' }, false],
    ['*', { 'if-none-match': '*' }, true],
    [
      'with no-cache (addressed to caches, RFC 9111)',
      { 'if-none-match': '"abc-1"', 'cache-control': 'no-cache' },
      true,
    ],
    ['no condition', {}, false],
    ['modified since', { 'if-modified-since': 'Mon, 01 Jan 2024 00:00:00 GMT' }, false],
    ['not modified since', { 'if-modified-since': 'Mon, 01 Jan 2035 00:00:00 GMT' }, true],
    [
      'If-None-Match wins over the date',
      { 'if-none-match': '"x"', 'if-modified-since': 'Mon, 01 Jan 2035 00:00:00 GMT' },
      false,
    ],
  ])('If-None-Match / If-Modified-Since: %s', (_case, headers, expected) => {
    expect(notModified(headers, etag, 'Sun, 01 Jan 2034 00:00:00 GMT')).toBe(expected);
  });

  const lastModified = 'Sun, 01 Jan 2034 00:00:00 GMT';
  test.each([
    ['absent', undefined, true],
    ['the strong ETag', '"abc-1"', true],
    ['another ETag', '"abc-2"', false],
    ['a weak ETag (never for ranges)', 'W/"abc-1"', false],
    ['the date', lastModified, true],
    ['another date', 'Mon, 01 Jan 2024 00:00:00 GMT', false],
    ['garbage', 'yesterday', false],
  ])('If-Range: %s', (_case, value, expected) => {
    expect(ifRangeHolds(value === undefined ? {} : { 'if-range': value }, etag, lastModified)).toBe(
      expected,
    );
  });
});

describe('sharedLifetime: what the API lets the server keep', () => {
  test.each([
    ['public, s-maxage=30', { freshMs: 30_000, staleMs: 0 }],
    [
      'public, max-age=0, s-maxage=60, stale-while-revalidate=300',
      { freshMs: 60_000, staleMs: 300_000 },
    ],
    ['PUBLIC, S-MAXAGE=5', { freshMs: 5_000, staleMs: 0 }],
    ['no-store', null],
    ['public, max-age=60', null],
    ['s-maxage=60', null],
    ['public, s-maxage=60, private', null],
    ['public, no-cache, s-maxage=60', null],
    ['public, s-maxage=0', null],
    ['', null],
  ])('%j', (header, expected) => {
    expect(sharedLifetime(header)).toEqual(expected);
  });
});

describe('sharedHead', () => {
  test('one head per owner and name, made once, frozen; other owners and names get their own', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom('br', 'gzip', 'br s')), {
          maxLength: 40,
        }),
        (asks) => {
          const owners = [{}, {}, {}, {}];
          const made = new Map<string, number>();
          const seen = new Map<string, OutgoingHttpHeaders>();
          for (const [owner, name] of asks) {
            const id = `${String(owner)}|${name}`;
            const head = sharedHead(owners[owner] ?? {}, name, () => {
              made.set(id, (made.get(id) ?? 0) + 1);
              return { 'x-made-for': id };
            });
            expect(head['x-made-for']).toBe(id);
            expect(Object.isFrozen(head)).toBe(true);
            if (seen.has(id)) expect(head).toBe(seen.get(id));
            seen.set(id, head);
          }
          for (const count of made.values()) expect(count).toBe(1);
        },
      ),
    );
  });
});
