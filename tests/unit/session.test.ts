import { describe, expect, test } from 'vitest';
import { readCookie, ReplyCookies, serializeCookie } from '../../src/lib/server/cookies.ts';
import { deriveKey, signPayload, verifyPayload } from '../../src/lib/server/keys.ts';
import { createResetTokens, RESET_TOKEN_TTL_SECONDS } from '../../src/lib/server/password-reset.ts';
import {
  AUTHENTICATED_COOKIE,
  createSessionManager,
  SESSION_COOKIE,
  SESSION_MAX_AGE,
} from '../../src/lib/server/session.ts';

const SECRET = 'a-session-secret-of-at-least-32-chars';
const T0 = 1_700_000_000;

function clock(start = T0) {
  let now = start;
  return { now: () => now, advance: (seconds: number) => (now += seconds) };
}

const requestWith = (cookie: string, url = 'http://shop.test/api/bigcommerce/getCustomers') =>
  new Request(url, { headers: { cookie } });

describe('keys: one key per purpose, constant-time HMAC check', () => {
  test('a secret shorter than 32 characters is refused', () => {
    expect(() => deriveKey('short', 'session')).toThrow(/at least 32/);
  });

  test('session and password-reset keys differ', () => {
    expect(deriveKey(SECRET, 'session').equals(deriveKey(SECRET, 'password-reset'))).toBe(false);
  });

  test.each([
    ['the signed value', (v: string) => v, { a: 1 }],
    [
      'a changed payload',
      (v: string) => `${Buffer.from('{"a":2}').toString('base64url')}${v.slice(v.indexOf('.'))}`,
      undefined,
    ],
    ['a changed signature', (v: string) => `${v.slice(0, -2)}AA`, undefined],
    ['no signature', (v: string) => v.slice(0, v.indexOf('.')), undefined],
    ['an extra part', (v: string) => `${v}.x`, undefined],
    ['garbage', () => '!!!.???', undefined],
  ])('%s', (_case, change, expected) => {
    const key = deriveKey(SECRET, 'session');
    expect(verifyPayload(key, change(signPayload(key, { a: 1 })))).toEqual(expected);
  });

  test('a value signed with another purpose is refused', () => {
    const value = signPayload(deriveKey(SECRET, 'password-reset'), { a: 1 });
    expect(verifyPayload(deriveKey(SECRET, 'session'), value)).toBeUndefined();
  });
});

describe('session cookie', () => {
  test('seal → open gives the customer, issued-at, 7-day expiry and a random id', () => {
    const time = clock();
    const sessions = createSessionManager({ secret: SECRET, now: time.now });
    const a = sessions.seal(42);
    const b = sessions.seal(42);
    expect(a).not.toBe(b);
    expect(sessions.open(a)).toEqual({
      customerId: 42,
      issuedAt: T0,
      expiresAt: T0 + SESSION_MAX_AGE,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
    });
  });

  test.each([
    ['valid until the last second', SESSION_MAX_AGE - 1, 42],
    ['expired at 7 days', SESSION_MAX_AGE, null],
    ['long expired', SESSION_MAX_AGE * 10, null],
  ])('%s', (_case, later, customerId) => {
    const time = clock();
    const sessions = createSessionManager({ secret: SECRET, now: time.now });
    const value = sessions.seal(42);
    time.advance(later);
    expect(sessions.read(requestWith(`${SESSION_COOKIE}=${value}`)).customerId).toBe(customerId);
  });

  test.each([
    ['no cookie', ''],
    ['empty cookie', `${SESSION_COOKIE}=`],
    ['tampered customer', 'tamper'],
    ['another secret', 'other-secret'],
    ['marker only', `${AUTHENTICATED_COOKIE}=1`],
  ])('%s → visitor', (_case, kind) => {
    const sessions = createSessionManager({ secret: SECRET });
    let cookie = kind;
    if (kind === 'tamper') {
      const value = sessions.seal(1);
      const payload = JSON.parse(
        Buffer.from(value.split('.')[0] ?? '', 'base64url').toString(),
      ) as object;
      const forged = Buffer.from(JSON.stringify({ ...payload, customerId: 2 })).toString(
        'base64url',
      );
      cookie = `${SESSION_COOKIE}=${forged}.${value.split('.')[1] ?? ''}`;
    } else if (kind === 'other-secret') {
      const other = createSessionManager({ secret: `${SECRET}-other` });
      cookie = `${SESSION_COOKIE}=${other.seal(1)}`;
    }
    expect(sessions.read(requestWith(cookie))).toEqual({ customerId: null });
  });

  test('login sets an HttpOnly Lax session and the readable marker; logout clears both', () => {
    const sessions = createSessionManager({ secret: SECRET });
    const login = new ReplyCookies();
    sessions.start(login, requestWith(''), 7);
    const [session, marker] = login.headers();
    expect(session).toMatch(
      new RegExp(`^${SESSION_COOKIE}=[^;]+; Max-Age=604800; Path=/; HttpOnly; SameSite=Lax$`),
    );
    expect(marker).toBe(`${AUTHENTICATED_COOKIE}=1; Max-Age=604800; Path=/; SameSite=Lax`);

    const logout = new ReplyCookies();
    sessions.end(logout, requestWith(''));
    expect(logout.headers()).toEqual([
      `${SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`,
      `${AUTHENTICATED_COOKIE}=0; Max-Age=604800; Path=/; SameSite=Lax`,
    ]);
  });

  test('Secure over https', () => {
    const sessions = createSessionManager({ secret: SECRET });
    const cookies = new ReplyCookies();
    sessions.start(cookies, requestWith('', 'https://shop.test/api/x'), 7);
    expect(cookies.headers().every((c) => c.includes('; Secure'))).toBe(true);
  });
});

describe('cookies', () => {
  test('read: first of a repeated name, quoted values, junk ignored', () => {
    const request = new Request('http://shop.test/', {
      headers: { cookie: 'a=1; b="two"; a=3; junk; =x; c=' },
    });
    const read = (name: string) => readCookie(request, name);
    expect(['a', 'b', 'c', 'junk', ''].map(read)).toEqual(['1', 'two', '', undefined, undefined]);
  });

  test('values that would need escaping are refused', () => {
    expect(() => serializeCookie('a', 'x;y', { maxAge: 1 })).toThrow(TypeError);
    expect(() => serializeCookie('a b', 'x', { maxAge: 1 })).toThrow(TypeError);
  });
});

describe('password-reset token', () => {
  const customer = { id: 5, dateModified: '2024-11-04T09:12:00Z' };

  test('valid for one hour, then refused', () => {
    const time = clock();
    const tokens = createResetTokens({ secret: SECRET, now: time.now });
    const token = tokens.create(customer);
    expect(tokens.verify(token)).toEqual({
      customerId: 5,
      fingerprint: tokens.fingerprint(customer.dateModified),
      expiresAt: T0 + RESET_TOKEN_TTL_SECONDS,
      id: expect.any(String) as unknown,
    });
    time.advance(RESET_TOKEN_TTL_SECONDS);
    expect(tokens.verify(token)).toBeNull();
  });

  test('single use: the fingerprint changes with date_modified', () => {
    const tokens = createResetTokens({ secret: SECRET });
    const claims = tokens.verify(tokens.create(customer));
    expect(claims?.fingerprint).toBe(tokens.fingerprint(customer.dateModified));
    expect(claims?.fingerprint).not.toBe(tokens.fingerprint('2024-11-05T10:00:00Z'));
  });

  test('a consumed link is refused, even within the same second', () => {
    const tokens = createResetTokens({ secret: SECRET });
    const token = tokens.create(customer);
    const other = tokens.create(customer);
    const claims = tokens.verify(token);
    if (claims === null) throw new Error('valid token expected');
    tokens.consume(claims);
    expect(tokens.verify(token)).toBeNull();
    expect(tokens.verify(other)).not.toBeNull();
  });

  test('a session cookie is not a reset token, nor the other way round', () => {
    const tokens = createResetTokens({ secret: SECRET });
    const sessions = createSessionManager({ secret: SECRET });
    expect(tokens.verify(sessions.seal(5))).toBeNull();
    expect(sessions.open(tokens.create(customer))).toBeNull();
  });
});
