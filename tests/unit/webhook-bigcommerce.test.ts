/**
 * BigCommerce store webhooks (src/server/webhooks/bigcommerce.ts): the shared-secret header
 * (only the exact secret passes, whatever the length of a guess), the scopes the shop rebuilds
 * for, the payload's shape, store and age, and the replay key.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  BIGCOMMERCE_MAX_AGE_MS,
  hasSharedSecret,
  parseBigCommerceNotification,
  parseScope,
} from '../../src/server/webhooks/bigcommerce.ts';

const SECRET = 's'.repeat(40);
const NOW = 1_700_000_000_000;

const payload = (overrides: Record<string, unknown> = {}) => ({
  scope: 'store/product/updated',
  store_id: '1001',
  data: { type: 'product', id: 42 },
  hash: 'c3f5e5a5d4b1f0a9e8c7b6a5d4c3b2a1f0e9d8c7',
  created_at: NOW / 1000 - 2,
  producer: 'stores/sandbox',
  ...overrides,
});

const parse = (body: unknown, now = NOW, storeHash: string | undefined = 'sandbox') =>
  parseBigCommerceNotification(Buffer.from(JSON.stringify(body)), { now, storeHash });

describe('hasSharedSecret', () => {
  test('the exact secret passes', () => {
    expect(hasSharedSecret({ 'x-webhook-secret': SECRET }, SECRET)).toBe(true);
  });

  test.each([
    ['missing', {}],
    ['empty', { 'x-webhook-secret': '' }],
    ['a prefix', { 'x-webhook-secret': SECRET.slice(0, -1) }],
    ['longer', { 'x-webhook-secret': `${SECRET}s` }],
    ['another case', { 'x-webhook-secret': SECRET.toUpperCase() }],
    ['padded', { 'x-webhook-secret': ` ${SECRET}` }],
    ['huge', { 'x-webhook-secret': 'x'.repeat(5000) }],
  ])('%s is refused', (_name, headers) => {
    expect(hasSharedSecret(headers, SECRET)).toBe(false);
  });

  test('property: any other value is refused', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (value) => {
        fc.pre(value !== SECRET);
        expect(hasSharedSecret({ 'x-webhook-secret': value }, SECRET)).toBe(false);
      }),
    );
  });
});

describe('parseScope', () => {
  test.each([
    ['store/product/created', { resource: 'product', action: 'created' }],
    ['store/product/updated', { resource: 'product', action: 'updated' }],
    ['store/product/deleted', { resource: 'product', action: 'deleted' }],
    ['store/category/created', { resource: 'category', action: 'created' }],
    ['store/category/updated', { resource: 'category', action: 'updated' }],
    ['store/category/deleted', { resource: 'category', action: 'deleted' }],
    ['store/brand/created', { resource: 'brand', action: 'created' }],
    ['store/brand/updated', { resource: 'brand', action: 'updated' }],
    ['store/brand/deleted', { resource: 'brand', action: 'deleted' }],
  ])('%s', (scope, expected) => {
    expect(parseScope(scope)).toEqual(expected);
  });

  test.each([
    ['store/product/*'],
    ['store/product/inventory/updated'],
    ['store/order/created'],
    ['store/cart/updated'],
    ['store/product/updated/'],
    ['Store/product/updated'],
    ['store/product'],
    [''],
  ])('%s is not one the shop rebuilds for', (scope) => {
    expect(parseScope(scope)).toBeNull();
  });

  test('property: only the nine scopes parse', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (scope) => {
        const parsed = parseScope(scope);
        if (parsed !== null) expect(scope).toBe(`store/${parsed.resource}/${parsed.action}`);
      }),
    );
  });
});

describe('parseBigCommerceNotification', () => {
  test('a product update', () => {
    const result = parse(payload());
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.payload.data.id).toBe(42);
      expect(result.replayKey).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  test('the replay key names scope, id, hash and time', () => {
    const key = (body: unknown) => {
      const result = parse(body);
      return result.ok ? result.replayKey : null;
    };
    const base = key(payload());
    expect(key(payload())).toBe(base);
    expect(key(payload({ store_id: 7 }))).toBe(base);
    expect(key(payload({ scope: 'store/product/deleted' }))).not.toBe(base);
    expect(key(payload({ data: { type: 'product', id: 43 } }))).not.toBe(base);
    expect(key(payload({ hash: 'other' }))).not.toBe(base);
    expect(key(payload({ created_at: NOW / 1000 - 3 }))).not.toBe(base);
  });

  test('another store is refused', () => {
    expect(parse(payload({ producer: 'stores/other' }))).toEqual({
      ok: false,
      reason: 'wrong-store',
    });
    // Without a known store hash, the producer is not checked.
    const body = Buffer.from(JSON.stringify(payload({ producer: 'stores/other' })));
    expect(parseBigCommerceNotification(body, { now: NOW }).ok).toBe(true);
  });

  test('older than five minutes is stale, a minute ahead is refused', () => {
    const old = payload({ created_at: (NOW - BIGCOMMERCE_MAX_AGE_MS) / 1000 - 1 });
    expect(parse(old)).toMatchObject({ ok: false, reason: 'stale', offsetMs: -301_000 });
    const ahead = payload({ created_at: (NOW + 61_000) / 1000 });
    expect(parse(ahead)).toMatchObject({ ok: false, reason: 'future', offsetMs: 61_000 });
    // Its replay key comes with it (the clock watch tells different notifications apart).
    expect(parse(ahead)).toHaveProperty('replayKey', expect.stringMatching(/^[0-9a-f]{64}$/));
  });

  test.each([
    ['not JSON', 'nope'],
    ['an array', [payload()]],
    ['no scope', { ...payload(), scope: undefined }],
    ['a scope with odd characters', payload({ scope: 'store/product/<script>' })],
    ['no data', { ...payload(), data: undefined }],
    ['a negative id', payload({ data: { type: 'product', id: -1 } })],
    ['a text created_at', payload({ created_at: '1700000000' })],
    ['a fractional created_at', payload({ created_at: 1_700_000_000.5 })],
    ['no hash', { ...payload(), hash: undefined }],
    ['a huge hash', payload({ hash: 'h'.repeat(500) })],
  ])('%s is invalid', (_name, body) => {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    expect(parseBigCommerceNotification(Buffer.from(raw), { now: NOW })).toEqual({
      ok: false,
      reason: 'invalid-payload',
    });
  });

  test('property: arbitrary JSON never throws', () => {
    fc.assert(
      fc.property(fc.json(), (json) => {
        const result = parseBigCommerceNotification(Buffer.from(json), { now: NOW });
        expect(typeof result.ok).toBe('boolean');
      }),
    );
  });
});
