import fc from 'fast-check';
import { HTTPError, NetworkError, TimeoutError } from 'ky';
import { describe, expect, test } from 'vitest';
import {
  codeOfStatus,
  redactor,
  schemaMismatchMessage,
  transportFailure,
} from '../../src/shop/connectors/http/upstream-error.ts';

describe('upstream errors shared by the connectors', () => {
  test('every HTTP error status has a code; 5xx are upstream errors, other 4xx failed requests', () => {
    const named: Record<number, string> = {
      400: 'BAD_REQUEST',
      401: 'UNAUTHORIZED',
      403: 'FORBIDDEN',
      404: 'NOT_FOUND',
      409: 'CONFLICT',
      422: 'UNPROCESSABLE_ENTITY',
      429: 'RATE_LIMITED',
    };
    fc.assert(
      fc.property(fc.integer({ min: 400, max: 599 }), (status) => {
        const expected = named[status] ?? (status >= 500 ? 'UPSTREAM_ERROR' : 'REQUEST_FAILED');
        expect(codeOfStatus(status)).toBe(expected);
      }),
    );
  });

  test('a failure without a reply never quotes what was thrown (URLs, tokens)', () => {
    const request = new Request('https://api.example.test/stores/secret-hash/v3/x?token=t0k3n');
    const thrown = (text: string): unknown[] => [
      new TypeError(text),
      new Error(text),
      new SyntaxError(text),
      new TimeoutError(request),
      new NetworkError(request, { cause: new Error(text) }),
      text,
      { message: text },
      null,
    ];
    fc.assert(
      fc.property(fc.string({ minLength: 6 }), (text) => {
        for (const error of thrown(`fetch ${text} https://api.example.test/secret-hash`)) {
          const failure = transportFailure('BigCommerce', 'GET v3/x', error);
          expect(failure.message.startsWith('BigCommerce GET v3/x ')).toBe(true);
          expect(failure.message).not.toContain(text);
          expect(failure.message).not.toContain('secret-hash');
          expect(failure.status).toBe(failure.code === 'TIMEOUT' ? 504 : 502);
        }
      }),
    );
    expect(transportFailure('Contentful', 'GET entries', new TimeoutError(request)).code).toBe(
      'TIMEOUT',
    );
    expect(transportFailure('Brevo', 'POST smtp/email', new SyntaxError('x')).code).toBe(
      'INVALID_RESPONSE',
    );
    const response = new Response('', { status: 500 });
    // An HTTP error is the connector's to read (its body, its service's details).
    expect(
      transportFailure(
        'Brevo',
        'POST smtp/email',
        new HTTPError(response, request, {} as ConstructorParameters<typeof HTTPError>[2]),
      ).code,
    ).toBe('NETWORK_ERROR');
  });

  test('redaction leaves no secret in any text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 4, maxLength: 12 }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.string(), { maxLength: 4 }),
        (secrets, parts) => {
          const text = parts
            .flatMap((part, i) => [part, secrets[i % secrets.length] ?? ''])
            .join('');
          const redacted = redactor(secrets)(text);
          // A secret could only survive as a piece of '[redacted]' or of another secret's cut.
          for (const secret of secrets) {
            if (!'[redacted]'.includes(secret)) expect(redacted).not.toContain(secret);
          }
        },
      ),
    );
    expect(redactor([''])('abc')).toBe('abc');
  });

  test('a schema mismatch names the first offending field', () => {
    expect(
      schemaMismatchMessage('Contentful', 'GET entries', [{ path: ['items', 0, 'sys'] }]),
    ).toBe('Unexpected Contentful reply for GET entries at items.0.sys');
    expect(schemaMismatchMessage('Brevo', 'POST smtp/email', [{ path: [] }])).toBe(
      'Unexpected Brevo reply for POST smtp/email at (root)',
    );
    expect(schemaMismatchMessage('BigCommerce', 'GET v3/x', [])).toBe(
      'Unexpected BigCommerce reply for GET v3/x',
    );
  });
});
