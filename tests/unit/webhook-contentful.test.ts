/**
 * Contentful webhook verification (src/server/webhooks/contentful.ts): the upstream contract's
 * known-answer vector (copied here: tests read no file outside the repository), then properties: a correctly
 * signed request passes; any change to the method, path, a signed header's value, the body or
 * the signature is refused; stale and future timestamps, missing headers and a signed-headers
 * list lacking its required names are refused; the notification body is read only as far as
 * the rebuild needs.
 */
import type { IncomingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  CONTENTFUL_MAX_AGE_MS,
  parseContentfulNotification,
  signContentfulRequest,
  verifyContentfulRequest,
  type ContentfulRequest,
} from '../../src/server/webhooks/contentful.ts';

const SECRET = 'a'.repeat(64);
const TIMESTAMP = 1_700_000_000_000;
const BODY = '{"sys":{"id":"abc"}}';

// The vector of the upstream contract ("Webhook signing").
const VECTOR_HEADERS: IncomingHttpHeaders = {
  'content-type': 'application/vnd.contentful.management.v1+json',
  'x-contentful-topic': 'ContentManagement.Entry.publish',
  'x-contentful-timestamp': String(TIMESTAMP),
  'x-contentful-signed-headers':
    'content-type,x-contentful-signed-headers,x-contentful-timestamp,x-contentful-topic',
  'x-contentful-signature': '02da71f6e7eb090467f9ce781dbae8d58f6a1ce7561ff7b098e3e45c96d541a6',
};

const vectorRequest = (overrides: Partial<ContentfulRequest> = {}): ContentfulRequest => ({
  method: 'POST',
  path: '/webhooks/contentful',
  headers: { ...VECTOR_HEADERS },
  rawBody: Buffer.from(BODY),
  secret: SECRET,
  now: TIMESTAMP + 1_000,
  ...overrides,
});

/** A request signed by `signContentfulRequest`, as Node would hand it over (lower-case names). */
function signed(input: {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  timestamp: number;
}): ContentfulRequest {
  const headers = signContentfulRequest({ ...input, secret: SECRET });
  return {
    method: input.method,
    path: input.path,
    headers,
    rawBody: Buffer.from(input.body),
    secret: SECRET,
    now: input.timestamp,
  };
}

describe('the known-answer vector', () => {
  test('verifies', () => {
    expect(verifyContentfulRequest(vectorRequest())).toEqual({
      ok: true,
      signature: VECTOR_HEADERS['x-contentful-signature'],
      timestamp: TIMESTAMP,
    });
  });

  test('signContentfulRequest gives the same signature', () => {
    const headers = signContentfulRequest({
      method: 'POST',
      path: '/webhooks/contentful',
      headers: {
        'Content-Type': 'application/vnd.contentful.management.v1+json',
        'X-Contentful-Topic': 'ContentManagement.Entry.publish',
      },
      body: BODY,
      secret: SECRET,
      timestamp: TIMESTAMP,
    });
    expect(headers['x-contentful-signature']).toBe(VECTOR_HEADERS['x-contentful-signature']);
    expect(headers['x-contentful-signed-headers']).toBe(
      VECTOR_HEADERS['x-contentful-signed-headers'],
    );
  });

  test('an upper-case signature is the same signature', () => {
    const headers = {
      ...VECTOR_HEADERS,
      'x-contentful-signature': String(VECTOR_HEADERS['x-contentful-signature']).toUpperCase(),
    };
    expect(verifyContentfulRequest(vectorRequest({ headers })).ok).toBe(true);
  });

  test.each([
    ['another secret', { secret: 'b'.repeat(64) }],
    ['GET', { method: 'GET' }],
    ['another path', { path: '/webhooks/contentful?x=1' }],
    ['another body', { rawBody: Buffer.from('{"sys":{"id":"abd"}}') }],
    ['a body with a trailing newline', { rawBody: Buffer.from(`${BODY}\n`) }],
  ])('refused with %s', (_name, overrides) => {
    expect(verifyContentfulRequest(vectorRequest(overrides))).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
  });
});

describe('timestamps', () => {
  test("just under 30 s old passes; from 30 s on it is stale (Contentful's request TTL)", () => {
    expect(
      verifyContentfulRequest(vectorRequest({ now: TIMESTAMP + CONTENTFUL_MAX_AGE_MS - 1 })).ok,
    ).toBe(true);
    expect(
      verifyContentfulRequest(vectorRequest({ now: TIMESTAMP + CONTENTFUL_MAX_AGE_MS })),
    ).toEqual({ ok: false, reason: 'stale-timestamp', offsetMs: -CONTENTFUL_MAX_AGE_MS });
  });

  test('30 s ahead passes, further ahead is refused with its offset', () => {
    expect(verifyContentfulRequest(vectorRequest({ now: TIMESTAMP - 30_000 })).ok).toBe(true);
    expect(verifyContentfulRequest(vectorRequest({ now: TIMESTAMP - 31_000 }))).toEqual({
      ok: false,
      reason: 'future-timestamp',
      offsetMs: 31_000,
    });
  });

  test('a bad signature is bad-signature whatever its timestamp (no offset: says nothing of clocks)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 12), max: 10 ** 12 }), (offset) => {
        const headers = { ...VECTOR_HEADERS, 'x-contentful-signature': 'a'.repeat(64) };
        expect(
          verifyContentfulRequest(vectorRequest({ headers, now: TIMESTAMP + offset })),
        ).toEqual({ ok: false, reason: 'bad-signature' });
      }),
    );
  });

  test('property: stale or future by more than 30 s, whatever else, is refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 30_001, max: 10 ** 12 }), fc.boolean(), (offset, future) => {
        const now = future ? TIMESTAMP - offset : TIMESTAMP + offset - 1;
        const result = verifyContentfulRequest(vectorRequest({ now }));
        expect(result.ok).toBe(false);
      }),
    );
  });

  test.each([['-1'], ['1.5e12'], ['abc'], [''], ['17000000000000000']])(
    'malformed timestamp %j',
    (value) => {
      const headers = { ...VECTOR_HEADERS, 'x-contentful-timestamp': value };
      expect(verifyContentfulRequest(vectorRequest({ headers })).ok).toBe(false);
    },
  );
});

describe('headers', () => {
  test.each([
    ['x-contentful-signature', 'missing-signature'],
    ['x-contentful-timestamp', 'missing-timestamp'],
    ['x-contentful-signed-headers', 'missing-signed-headers'],
    ['content-type', 'missing-signed-header'],
    ['x-contentful-topic', 'missing-signed-header'],
  ])('without %s: %s', (name, reason) => {
    const headers = Object.fromEntries(
      Object.entries(VECTOR_HEADERS).filter(([key]) => key !== name),
    );
    expect(verifyContentfulRequest(vectorRequest({ headers }))).toEqual({ ok: false, reason });
  });

  test('a repeated signature header (joined by Node) is malformed', () => {
    const headers = {
      ...VECTOR_HEADERS,
      'x-contentful-signature': `${String(VECTOR_HEADERS['x-contentful-signature'])}, ${'0'.repeat(64)}`,
    };
    expect(verifyContentfulRequest(vectorRequest({ headers }))).toEqual({
      ok: false,
      reason: 'malformed-signature',
    });
  });

  test.each([
    ['without itself', 'content-type,x-contentful-timestamp,x-contentful-topic'],
    ['without the timestamp', 'content-type,x-contentful-signed-headers,x-contentful-topic'],
    [
      'with a duplicate',
      'x-contentful-signed-headers,x-contentful-timestamp,x-contentful-timestamp',
    ],
    ['with an empty name', 'x-contentful-signed-headers,,x-contentful-timestamp'],
    ['with a bad name', 'x-contentful-signed-headers,x-contentful-timestamp,a b'],
    [
      'too long',
      [
        'x-contentful-signed-headers',
        'x-contentful-timestamp',
        ...Array.from({ length: 40 }, (_, i) => `h${i}`),
      ].join(','),
    ],
  ])('a signed-headers list %s is refused', (_name, list) => {
    const headers = { ...VECTOR_HEADERS, 'x-contentful-signed-headers': list };
    expect(verifyContentfulRequest(vectorRequest({ headers }))).toEqual({
      ok: false,
      reason: 'malformed-signed-headers',
    });
  });

  test('a signed list of only the required two, properly signed, passes', () => {
    const request = signed({
      method: 'POST',
      path: '/webhooks/contentful',
      headers: {},
      body: BODY,
      timestamp: TIMESTAMP,
    });
    expect(request.headers['x-contentful-signed-headers']).toBe(
      'x-contentful-signed-headers,x-contentful-timestamp',
    );
    expect(verifyContentfulRequest(request).ok).toBe(true);
  });

  test('an unsigned header may change (it is not part of the signature)', () => {
    const headers = { ...VECTOR_HEADERS, 'user-agent': 'anything' };
    expect(verifyContentfulRequest(vectorRequest({ headers })).ok).toBe(true);
  });
});

// Arbitrary requests: header values without surrounding spaces (Node trims them) and printable.
const headerValue = fc
  .string({ minLength: 1, maxLength: 40 })
  .map((s) => s.replace(/[^\x21-\x7e]/g, 'x'));
const headerName = fc.stringMatching(/^x-[a-z]{1,10}$/);
const requestArb = fc.record({
  method: fc.constantFrom('POST', 'PUT', 'DELETE'),
  path: fc.stringMatching(/^\/[a-z/?=&]{0,30}$/),
  headers: fc.dictionary(headerName, headerValue, { maxKeys: 5 }),
  body: fc.string({ maxLength: 200 }),
  timestamp: fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
});

describe('properties', () => {
  test('whatever Contentful signs verifies', () => {
    fc.assert(
      fc.property(requestArb, (input) => {
        expect(verifyContentfulRequest(signed(input)).ok).toBe(true);
      }),
    );
  });

  test('any change to the method, path or body is refused', () => {
    fc.assert(
      fc.property(
        requestArb,
        fc.constantFrom('method', 'path', 'body'),
        fc.string({ minLength: 1, maxLength: 10 }),
        (input, part, extra) => {
          const request = signed(input);
          const changed: ContentfulRequest =
            part === 'method'
              ? { ...request, method: request.method === 'POST' ? 'PATCH' : 'POST' }
              : part === 'path'
                ? { ...request, path: `${request.path}${extra}` }
                : { ...request, rawBody: Buffer.concat([request.rawBody, Buffer.from(extra)]) };
          expect(verifyContentfulRequest(changed)).toEqual({ ok: false, reason: 'bad-signature' });
        },
      ),
    );
  });

  test('any change to a signed header value is refused', () => {
    fc.assert(
      fc.property(requestArb, fc.nat(), headerValue, (input, pick, value) => {
        const request = signed(input);
        const names = String(request.headers['x-contentful-signed-headers'])
          .split(',')
          .filter((name) => name !== 'x-contentful-signed-headers');
        const name = names[pick % names.length] ?? 'x-contentful-timestamp';
        const before = String(request.headers[name]);
        let after = name === 'x-contentful-timestamp' ? String(Number(before) + 1) : value;
        if (after === before) after = `${before}x`;
        const result = verifyContentfulRequest({
          ...request,
          headers: { ...request.headers, [name]: after },
        });
        expect(result.ok).toBe(false);
      }),
    );
  });

  test('any change to the signature is refused', () => {
    fc.assert(
      fc.property(requestArb, fc.nat(63), fc.integer({ min: 1, max: 15 }), (input, at, delta) => {
        const request = signed(input);
        const signature = String(request.headers['x-contentful-signature']);
        const digit = (parseInt(signature.charAt(at), 16) + delta) % 16;
        const forged = `${signature.slice(0, at)}${digit.toString(16)}${signature.slice(at + 1)}`;
        const result = verifyContentfulRequest({
          ...request,
          headers: { ...request.headers, 'x-contentful-signature': forged },
        });
        expect(result).toEqual({ ok: false, reason: 'bad-signature' });
      }),
    );
  });

  test('random signatures never pass', () => {
    fc.assert(
      fc.property(requestArb, fc.stringMatching(/^[0-9a-f]{64}$/), (input, signature) => {
        const request = signed(input);
        fc.pre(signature !== request.headers['x-contentful-signature']);
        const result = verifyContentfulRequest({
          ...request,
          headers: { ...request.headers, 'x-contentful-signature': signature },
        });
        expect(result.ok).toBe(false);
      }),
    );
  });
});

describe('parseContentfulNotification', () => {
  test('an entry publish is relevant', () => {
    expect(
      parseContentfulNotification('ContentManagement.Entry.publish', Buffer.from(BODY)),
    ).toEqual({ topic: 'Entry.publish', id: 'abc', relevant: true });
  });

  test.each([
    ['ContentManagement.Entry.unpublish', true],
    ['ContentManagement.Entry.delete', true],
    ['ContentManagement.Asset.publish', true],
    ['ContentManagement.Entry.save', false],
    ['ContentManagement.Entry.auto_save', false],
    ['ContentManagement.Entry.create', false],
    ['Something.else', false],
    [undefined, false],
  ])('%s relevant: %s', (topic, relevant) => {
    expect(parseContentfulNotification(topic, Buffer.from(BODY))?.relevant).toBe(relevant);
  });

  test.each([['not json'], ['{}'], ['{"sys":{"id":""}}'], ['[1]'], ['{"sys":{"id":5}}']])(
    'unreadable body %j is null',
    (body) => {
      expect(
        parseContentfulNotification('ContentManagement.Entry.publish', Buffer.from(body)),
      ).toBeNull();
    },
  );
});
