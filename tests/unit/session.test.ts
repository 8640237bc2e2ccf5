import fc from 'fast-check';
import { SHOP_MODE_COOKIE } from '../../src/lib/commerce/shop-mode.ts';
import { describe, expect, test } from 'vitest';
import { readCookie, ReplyCookies, serializeCookie } from '../../src/lib/server/cookies.ts';
import { deriveKey, signPayload, verifyPayload } from '../../src/lib/server/keys.ts';
import { createResetTokens, RESET_TOKEN_TTL_SECONDS } from '../../src/lib/server/password-reset.ts';
import {
  AUTHENTICATED_COOKIE,
  createSessionManager,
  endedSessionsKey,
  SESSION_COOKIE,
  SESSION_MAX_AGE,
  type SessionManager,
} from '../../src/lib/server/session.ts';
import { createMemoryStore } from '../../src/lib/server/store/memory.ts';

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
  const ms = (seconds: number) => seconds * 1000;

  test('seal → open gives the customer, issued-at, 7-day expiry (ms) and a random id', () => {
    const time = clock(ms(T0));
    const sessions = createSessionManager({
      secret: SECRET,
      store: createMemoryStore(),
      now: time.now,
    });
    const a = sessions.seal(42);
    const b = sessions.seal(42);
    expect(a).not.toBe(b);
    expect(sessions.open(a)).toEqual({
      customerId: 42,
      issuedAt: ms(T0),
      expiresAt: ms(T0 + SESSION_MAX_AGE),
      id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
    });
  });

  test.each([
    ['valid until the last second', SESSION_MAX_AGE - 1, 42],
    ['expired at 7 days', SESSION_MAX_AGE, null],
    ['long expired', SESSION_MAX_AGE * 10, null],
  ])('%s', async (_case, later, customerId) => {
    const time = clock(ms(T0));
    const sessions = createSessionManager({
      secret: SECRET,
      store: createMemoryStore(),
      now: time.now,
    });
    const value = sessions.seal(42);
    time.advance(ms(later));
    expect((await sessions.read(requestWith(`${SESSION_COOKIE}=${value}`))).customerId).toBe(
      customerId,
    );
  });

  test.each([
    ['no cookie', ''],
    ['empty cookie', `${SESSION_COOKIE}=`],
    ['tampered customer', 'tamper'],
    ['another secret', 'other-secret'],
    ['marker only', `${AUTHENTICATED_COOKIE}=1`],
  ])('%s → visitor', async (_case, kind) => {
    const store = createMemoryStore();
    const sessions = createSessionManager({ secret: SECRET, store });
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
      const other = createSessionManager({ secret: `${SECRET}-other`, store });
      cookie = `${SESSION_COOKIE}=${other.seal(1)}`;
    }
    expect(await sessions.read(requestWith(cookie))).toEqual({ customerId: null });
  });

  test('login sets an HttpOnly Lax session and the readable marker; logout clears both', async () => {
    const sessions = createSessionManager({ secret: SECRET, store: createMemoryStore() });
    const login = new ReplyCookies({ secure: false });
    sessions.start(login, requestWith(''), 7);
    const [session, marker] = login.headers();
    expect(session).toMatch(
      new RegExp(`^${SESSION_COOKIE}=[^;]+; Max-Age=604800; Path=/; HttpOnly; SameSite=Lax$`),
    );
    expect(marker).toBe(`${AUTHENTICATED_COOKIE}=1; Max-Age=604800; Path=/; SameSite=Lax`);

    const logout = new ReplyCookies({ secure: false });
    await sessions.end(logout, requestWith(''));
    expect(logout.headers()).toEqual([
      `${SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`,
      `${AUTHENTICATED_COOKIE}=0; Max-Age=604800; Path=/; SameSite=Lax`,
    ]);
  });

  test.each([
    [
      'a reseller, area on: the readable mode cookie',
      true,
      true,
      '',
      [`${SHOP_MODE_COOKIE}=1; Max-Age=604800; Path=/; SameSite=Lax`],
    ],
    ['a reseller, area off: nothing to clear', false, true, '', []],
    [
      'a reseller, area off: the stale cookie cleared',
      false,
      true,
      `${SHOP_MODE_COOKIE}=1`,
      [`${SHOP_MODE_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`],
    ],
    [
      'a customer with the cookie: cleared',
      true,
      false,
      `${SHOP_MODE_COOKIE}=1`,
      [`${SHOP_MODE_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`],
    ],
    ['a customer without it: nothing', true, false, '', []],
  ])('reseller mode cookie (spec §6): %s', (_, resellerArea, reseller, cookie, expected) => {
    const sessions = createSessionManager({
      secret: SECRET,
      store: createMemoryStore(),
      resellerArea,
    });
    const cookies = new ReplyCookies({ secure: false });
    sessions.markMode(cookies, requestWith(cookie), reseller);
    expect(cookies.headers()).toEqual(expected);
  });

  test('logout clears the reseller mode cookie a browser holds', async () => {
    const sessions = createSessionManager({
      secret: SECRET,
      store: createMemoryStore(),
      resellerArea: true,
    });
    const cookies = new ReplyCookies({ secure: false });
    await sessions.end(cookies, requestWith(`${SHOP_MODE_COOKIE}=1`));
    expect(cookies.headers()).toContain(`${SHOP_MODE_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`);
  });

  test('Secure when the browser uses https (ClientInfo.secure, behind a TLS proxy too)', () => {
    const sessions = createSessionManager({ secret: SECRET, store: createMemoryStore() });
    const cookies = new ReplyCookies({ secure: true });
    sessions.start(cookies, requestWith('', 'https://shop.test/api/x'), 7);
    expect(cookies.headers().every((c) => c.includes('; Secure'))).toBe(true);
  });
});

describe('sessions that end (issue 7)', () => {
  const cookieOf = (cookies: ReplyCookies) => {
    const header = cookies.headers().find((c) => c.startsWith(`${SESSION_COOKIE}=`)) ?? '';
    return header.slice(0, header.indexOf(';'));
  };
  const login = (sessions: SessionManager, customerId: number) => {
    const cookies = new ReplyCookies({ secure: false });
    sessions.start(cookies, requestWith(''), customerId);
    return cookieOf(cookies);
  };
  const reader = (sessions: SessionManager) => async (cookie: string) =>
    (await sessions.read(requestWith(cookie))).customerId;

  test('logout ends this session only: its replayed cookie reads a visitor', async () => {
    const sessions = createSessionManager({ secret: SECRET, store: createMemoryStore() });
    const read = reader(sessions);
    const [laptop, phone] = [login(sessions, 7), login(sessions, 7)];
    await sessions.end(new ReplyCookies({ secure: false }), requestWith(laptop));
    expect([await read(laptop), await read(phone)]).toEqual([null, 7]);
  });

  test('a reset ends every earlier session of the customer, not later ones nor others', async () => {
    const time = clock(1_700_000_000_000);
    const sessions = createSessionManager({
      secret: SECRET,
      store: createMemoryStore(),
      now: time.now,
    });
    const read = reader(sessions);
    const [a, b, other] = [login(sessions, 7), login(sessions, 7), login(sessions, 8)];
    time.advance(5);
    await sessions.endAll(7);
    // The very next millisecond, the shopper logs in with the new password.
    time.advance(1);
    const fresh = login(sessions, 7);
    expect(await Promise.all([a, b, other, fresh].map(read))).toEqual([null, null, 8, 7]);
  });

  test('ended for every server copy sharing the store (and a restarted one)', async () => {
    const store = createMemoryStore();
    const one = createSessionManager({ secret: SECRET, store });
    const cookie = login(one, 7);
    const two = createSessionManager({ secret: SECRET, store });
    expect(await reader(two)(cookie)).toBe(7);
    await one.end(new ReplyCookies({ secure: false }), requestWith(cookie));
    expect(await reader(two)(cookie)).toBeNull();
  });

  test('one store read per request with a session cookie, none for a visitor', async () => {
    const store = createMemoryStore();
    let gets = 0;
    const counted = { ...store, get: (key: string) => ((gets += 1), store.get(key)) };
    const sessions = createSessionManager({ secret: SECRET, store: counted });
    const request = requestWith(login(sessions, 7));
    await Promise.all([sessions.read(request), sessions.read(request)]);
    await sessions.read(requestWith(''));
    await sessions.read(requestWith(`${SESSION_COOKIE}=forged.value`));
    expect(gets).toBe(1);
  });

  test('the record of a customer stays bounded: 500 logouts keep at most 100 ids', async () => {
    const store = createMemoryStore();
    const sessions = createSessionManager({ secret: SECRET, store });
    const read = reader(sessions);
    const active = login(sessions, 7);
    for (let i = 0; i < 500; i += 1) {
      await sessions.end(new ReplyCookies({ secure: false }), requestWith(login(sessions, 7)));
    }
    const record = JSON.parse((await store.get(endedSessionsKey(7))) ?? '{}') as {
      ids: Record<string, number>;
    };
    expect(Object.keys(record.ids).length).toBeLessThanOrEqual(100);
    // The oldest logouts folded into the cut-off end, at worst, older sessions too.
    expect(await read(active)).toBeNull();
    const later = login(sessions, 7);
    expect(await read(later)).toBe(7);
  });

  test('model: any sequence of logins, logouts and resets ends exactly the right sessions', async () => {
    type Op =
      | { kind: 'login'; customer: number }
      | { kind: 'logout'; pick: number }
      | { kind: 'reset'; customer: number }
      | { kind: 'wait'; ms: number };
    const op = fc.oneof(
      fc.record({ kind: fc.constant('login' as const), customer: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('logout' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('reset' as const), customer: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops: Op[]) => {
        const time = clock(1_700_000_000_000);
        const sessions = createSessionManager({
          secret: SECRET,
          store: createMemoryStore(),
          now: time.now,
        });
        const read = reader(sessions);
        const live: { cookie: string; customer: number; ended: boolean }[] = [];
        for (const step of ops) {
          if (step.kind === 'wait') time.advance(step.ms);
          if (step.kind === 'login') {
            // A login is at least a millisecond after anything before it (a round trip).
            time.advance(1);
            live.push({
              cookie: login(sessions, step.customer),
              customer: step.customer,
              ended: false,
            });
          }
          if (step.kind === 'logout' && live.length > 0) {
            const session = live[step.pick % live.length];
            if (session === undefined) continue;
            await sessions.end(new ReplyCookies({ secure: false }), requestWith(session.cookie));
            session.ended = true;
          }
          if (step.kind === 'reset') {
            await sessions.endAll(step.customer);
            for (const s of live) if (s.customer === step.customer) s.ended = true;
          }
        }
        const expected = live.map((s) => (s.ended ? null : s.customer));
        expect(await Promise.all(live.map((s) => read(s.cookie)))).toEqual(expected);
      }),
      { numRuns: 200 },
    );
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
    const tokens = createResetTokens({ secret: SECRET, store: createMemoryStore(), now: time.now });
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
    const tokens = createResetTokens({ secret: SECRET, store: createMemoryStore() });
    const claims = tokens.verify(tokens.create(customer));
    expect(claims?.fingerprint).toBe(tokens.fingerprint(customer.dateModified));
    expect(claims?.fingerprint).not.toBe(tokens.fingerprint('2024-11-05T10:00:00Z'));
  });

  test('a link is claimed once, even by 20 simultaneous uses; other links stay free', async () => {
    const tokens = createResetTokens({ secret: SECRET, store: createMemoryStore() });
    const claims = tokens.verify(tokens.create(customer));
    const other = tokens.verify(tokens.create(customer));
    if (claims === null || other === null) throw new Error('valid tokens expected');
    const wins = await Promise.all(Array.from({ length: 20 }, () => tokens.claim(claims)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(await tokens.claim(other)).toBe(true);
  });

  test('a released claim (the password could not be set) may be tried again', async () => {
    const tokens = createResetTokens({ secret: SECRET, store: createMemoryStore() });
    const claims = tokens.verify(tokens.create(customer));
    if (claims === null) throw new Error('valid token expected');
    expect(await tokens.claim(claims)).toBe(true);
    await tokens.release(claims);
    expect(await tokens.claim(claims)).toBe(true);
    expect(await tokens.claim(claims)).toBe(false);
  });

  test('a session cookie is not a reset token, nor the other way round', () => {
    const store = createMemoryStore();
    const tokens = createResetTokens({ secret: SECRET, store });
    const sessions = createSessionManager({ secret: SECRET, store });
    expect(tokens.verify(sessions.seal(5))).toBeNull();
    expect(sessions.open(tokens.create(customer))).toBeNull();
  });
});
