/**
 * The sandbox's outgoing webhooks: Contentful's management emulation (draft, publish,
 * unpublish, delete, versions, validation), its webhook definitions and signing secret, signed
 * deliveries checked with a verifier written here from Contentful's documentation (known-answer
 * vector included), retries and the delivery log; BigCommerce's `/v3/hooks` and the store
 * webhooks sent on product writes.
 *
 * This file: Contentful's request signing, checked against its documented algorithm.
 */
import { verify } from './webhooks.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentfulSignature, signContentfulRequest } from '../src/webhooks.ts';

describe('Contentful request signing', () => {
  const vector = {
    method: 'POST',
    path: '/webhooks/contentful',
    headers: {
      'Content-Type': 'application/vnd.contentful.management.v1+json',
      'X-Contentful-Topic': 'ContentManagement.Entry.publish',
    },
    body: '{"sys":{"id":"abc"}}',
  };
  const expected = '02da71f6e7eb090467f9ce781dbae8d58f6a1ce7561ff7b098e3e45c96d541a6';

  it('reproduces the known-answer vector of the Contentful documentation', () => {
    const headers = signContentfulRequest('a'.repeat(64), vector, 1_700_000_000_000);
    expect(headers['x-contentful-signed-headers']).toBe(
      'content-type,x-contentful-signed-headers,x-contentful-timestamp,x-contentful-topic',
    );
    expect(headers['x-contentful-timestamp']).toBe('1700000000000');
    expect(headers['x-contentful-signature']).toBe(expected);
    expect(
      contentfulSignature(
        'a'.repeat(64),
        { ...vector, headers: headers },
        (headers['x-contentful-signed-headers'] ?? '').split(','),
      ),
    ).toBe(expected);
    expect(verify('a'.repeat(64), { ...vector, headers }, 1_700_000_000_000)).toBe(true);
    expect(verify('a'.repeat(64), { ...vector, headers }, 1_700_000_031_000)).toBe(false);
  });

  it('signs any request so that the README verifier accepts it, and only it', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 64, maxLength: 64 }),
        fc.webPath(),
        fc.string(),
        fc.dictionary(fc.stringMatching(/^x-[a-z]{1,10}$/), fc.stringMatching(/^[ -:<-~]{0,20}$/)),
        (secret, path, body, extra) => {
          const request = {
            method: 'POST',
            path: path || '/',
            headers: { ...extra, 'content-type': 'application/json' },
            body,
          };
          const now = Date.now();
          const headers = signContentfulRequest(secret, request, now);
          expect(verify(secret, { ...request, headers }, now)).toBe(true);
          expect(verify(secret, { ...request, body: `${body}x`, headers }, now)).toBe(false);
          expect(verify(`${secret.slice(1)}!`, { ...request, headers }, now)).toBe(
            secret === `${secret.slice(1)}!`,
          );
        },
      ),
      { numRuns: 100 },
    );
  });
});
