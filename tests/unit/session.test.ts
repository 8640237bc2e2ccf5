import fc from 'fast-check';
import { SHOP_MODE_COOKIE } from '../../src/lib/commerce/shop-mode.ts';
import { describe, expect, test } from 'vitest';
import { readCookie, ReplyCookies, serializeCookie } from '../../src/shop/auth/cookies.ts';
import { deriveKey, signPayload, verifyPayload } from '../../src/shop/auth/keys.ts';
import { createResetTokens, RESET_TOKEN_TTL_SECONDS } from '../../src/shop/auth/password-reset.ts';
import {
  AUTHENTICATED_COOKIE,
  createSessionManager,
  generationKey,
  sessionRecordKey,
  SESSION_COOKIE,
  SESSION_MAX_AGE,
  type SessionManager,
} from '../../src/shop/auth/session.ts';
import { createMemoryStore } from '../../src/shop/state/memory.ts';
import type { SharedStore } from '../../src/shop/state/types.ts';

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

  test('seal → open gives the customer, generation, issued-at, 7-day expiry (ms), a random id', async () => {
    const time = clock(ms(T0));
    const sessions = createSessionManager({
      secret: SECRET,
      store: createMemoryStore(),
      now: time.now,
    });
    const a = await sessions.seal(42);
    const b = await sessions.seal(42);
    expect(a).not.toBe(b);
    expect(sessions.open(a)).toEqual({
      customerId: 42,
      generation: expect.stringMatching(/^[\w-]{22}$/) as unknown,
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
    const value = await sessions.seal(42);
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
      const value = await sessions.seal(1);
      const payload = JSON.parse(
        Buffer.from(value.split('.')[0] ?? '', 'base64url').toString(),
      ) as object;
      const forged = Buffer.from(JSON.stringify({ ...payload, customerId: 2 })).toString(
        'base64url',
      );
      cookie = `${SESSION_COOKIE}=${forged}.${value.split('.')[1] ?? ''}`;
    } else if (kind === 'other-secret') {
      const other = createSessionManager({ secret: `${SECRET}-other`, store });
      cookie = `${SESSION_COOKIE}=${await other.seal(1)}`;
    }
    expect(await sessions.read(requestWith(cookie))).toEqual({ customerId: null });
  });

  test('login sets an HttpOnly Lax session and the readable marker; logout clears both', async () => {
    const sessions = createSessionManager({ secret: SECRET, store: createMemoryStore() });
    const login = new ReplyCookies({ secure: false });
    await sessions.start(login, requestWith(''), 7);
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

  test('Secure when the browser uses https (ClientInfo.secure, behind a TLS proxy too)', async () => {
    const sessions = createSessionManager({ secret: SECRET, store: createMemoryStore() });
    const cookies = new ReplyCookies({ secure: true });
    await sessions.start(cookies, requestWith('', 'https://shop.test/api/x'), 7);
    expect(cookies.headers().every((c) => c.includes('; Secure'))).toBe(true);
  });
});

describe('sessions that end (issues 7 and 29)', () => {
  const cookieOf = (cookies: ReplyCookies) => {
    const header = cookies.headers().find((c) => c.startsWith(`${SESSION_COOKIE}=`)) ?? '';
    return header.slice(0, header.indexOf(';'));
  };
  const login = async (sessions: SessionManager, customerId: number) => {
    const cookies = new ReplyCookies({ secure: false });
    await sessions.start(cookies, requestWith(''), customerId);
    return cookieOf(cookies);
  };
  const logout = (sessions: SessionManager, cookie: string) =>
    sessions.end(new ReplyCookies({ secure: false }), requestWith(cookie));
  const reader = (sessions: SessionManager) => async (cookie: string) =>
    (await sessions.read(requestWith(cookie))).customerId;
  /** A server copy on the shared store whose clock is `skewMs` off (ms since the epoch). */
  const copy = (store: SharedStore, skewMs = 0) =>
    createSessionManager({ secret: SECRET, store, now: () => Date.now() + skewMs });

  test('logout ends this session only: its replayed cookie reads a visitor', async () => {
    const store = createMemoryStore();
    const sessions = createSessionManager({ secret: SECRET, store });
    const read = reader(sessions);
    const [laptop, phone] = [await login(sessions, 7), await login(sessions, 7)];
    await logout(sessions, laptop);
    expect([await read(laptop), await read(phone)]).toEqual([null, 7]);
    // Nothing of the ended session is kept: its record is gone.
    const id = sessions.open(laptop.slice(SESSION_COOKIE.length + 1))?.id ?? '';
    expect(await store.get(sessionRecordKey(id))).toBeNull();
  });

  test('a reset on a copy whose clock is 301 s behind ends a session another copy issued 2 s earlier', async () => {
    const store = createMemoryStore();
    const behind = copy(store, -301_000);
    const fine = copy(store, 2_000);
    const ahead = copy(store, 300_000);
    const [early, other] = [await login(fine, 7), await login(ahead, 8)];
    await behind.endAll(7);
    for (const reading of [behind, fine, ahead]) {
      expect([await reader(reading)(early), await reader(reading)(other)]).toEqual([null, 8]);
    }
    // The next login, on any copy, whatever its clock, is a session again.
    const fresh = await login(behind, 7);
    expect(await reader(ahead)(fresh)).toBe(7);
    expect(await reader(fine)(fresh)).toBe(7);
  });

  test('the store loses its data (a Redis restarted without persistence): no session comes back', async () => {
    const store = createMemoryStore();
    const sessions = createSessionManager({ secret: SECRET, store });
    const read = reader(sessions);
    const [kept, ended] = [await login(sessions, 7), await login(sessions, 7)];
    await logout(sessions, ended);
    await store.close(); // the memory store's FLUSHALL: every entry gone
    expect([await read(kept), await read(ended)]).toEqual([null, null]);
    expect(await read(await login(sessions, 7))).toBe(7);
  });

  test('a generation lost alone ends its sessions; the one made next never equals it', async () => {
    const store = createMemoryStore();
    const sessions = createSessionManager({ secret: SECRET, store });
    const read = reader(sessions);
    const before = await login(sessions, 7);
    await sessions.endAll(7);
    const afterReset = await login(sessions, 7);
    await store.delete(generationKey(7));
    expect([await read(before), await read(afterReset)]).toEqual([null, null]);
    const next = await login(sessions, 7);
    expect([await read(before), await read(afterReset), await read(next)]).toEqual([null, null, 7]);
  });

  test('a cookie issued before records existed (no generation, no record) reads a visitor', async () => {
    const sessions = createSessionManager({ secret: SECRET, store: createMemoryStore() });
    const legacy = signPayload(deriveKey(SECRET, 'session'), {
      customerId: 7,
      issuedAt: Date.now() - 1_000,
      expiresAt: Date.now() + 86_400_000,
      id: '4b0c8a44-5a2d-4c55-9f4e-1d2f3a4b5c6d',
    });
    expect(await reader(sessions)(`${SESSION_COOKIE}=${legacy}`)).toBeNull();
  });

  test('a valid signature with a record of another generation or customer reads a visitor', async () => {
    const store = createMemoryStore();
    const sessions = createSessionManager({ secret: SECRET, store });
    const cookie = await login(sessions, 7);
    const payload = sessions.open(cookie.slice(SESSION_COOKIE.length + 1));
    if (payload === null) throw new Error('a valid cookie expected');
    const key = sessionRecordKey(payload.id);
    for (const record of [
      { customerId: 8, generation: payload.generation },
      { customerId: 7, generation: 'another-generation' },
      'not json',
    ]) {
      await store.set(key, typeof record === 'string' ? record : JSON.stringify(record), 60_000);
      expect(await reader(sessions)(cookie)).toBeNull();
    }
  });

  test('an unreachable store fails the read and the login (never a session on a guess)', async () => {
    const store = createMemoryStore();
    const sessions = createSessionManager({ secret: SECRET, store });
    const cookie = await login(sessions, 7);
    const down = new Error('store unreachable');
    const broken: SharedStore = {
      ...store,
      get: () => Promise.reject(down),
      set: () => Promise.reject(down),
      setIfAbsent: () => Promise.reject(down),
      extendIfEquals: () => Promise.reject(down),
    };
    const failing = createSessionManager({ secret: SECRET, store: broken });
    await expect(failing.read(requestWith(cookie))).rejects.toBe(down);
    await expect(login(failing, 7)).rejects.toBe(down);
  });

  test('two store reads, at once, per request with a session cookie; none for a visitor', async () => {
    const store = createMemoryStore();
    let gets = 0;
    let inFlight = 0;
    let most = 0;
    const counted: SharedStore = {
      ...store,
      get: async (key: string) => {
        gets += 1;
        inFlight += 1;
        most = Math.max(most, inFlight);
        await Promise.resolve();
        inFlight -= 1;
        return store.get(key);
      },
    };
    const sessions = createSessionManager({ secret: SECRET, store });
    const counting = createSessionManager({ secret: SECRET, store: counted });
    const request = requestWith(await login(sessions, 7));
    expect(await Promise.all([counting.read(request), counting.read(request)])).toEqual([
      { customerId: 7 },
      { customerId: 7 },
    ]);
    await counting.read(requestWith(''));
    await counting.read(requestWith(`${SESSION_COOKIE}=forged.value`));
    expect([gets, most]).toEqual([2, 2]);
  });

  test('no spelling of a cookie but the one issued opens the session (property)', async () => {
    const sessions = createSessionManager({ secret: SECRET, store: createMemoryStore() });
    const issued = (await login(sessions, 7)).slice(SESSION_COOKIE.length + 1);
    const [body = '', signature = ''] = issued.split('.');
    const alphabet = Array.from(
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=.+/ %"',
    );
    const spelling = fc.oneof(
      // One character replaced, inserted or removed anywhere.
      fc
        .record({
          at: fc.nat({ max: issued.length }),
          char: fc.constantFrom(...alphabet),
          how: fc.constantFrom('replace', 'insert', 'remove'),
        })
        .map(({ at, char, how }) =>
          how === 'insert'
            ? issued.slice(0, at) + char + issued.slice(at)
            : issued.slice(0, at) + (how === 'replace' ? char : '') + issued.slice(at + 1),
        ),
      // Whole-value spellings: case, padding, encodings, the parts swapped or repeated.
      fc.constantFrom(
        issued.toUpperCase(),
        issued.toLowerCase(),
        `${issued}=`,
        `${issued}==`,
        `${body}.${signature}.`,
        `${signature}.${body}`,
        `${body}.${signature}${signature}`,
        `${body}.${Buffer.from(signature, 'base64url').toString('base64')}`,
        `${Buffer.from(body, 'base64url').toString('base64')}.${signature}`,
        encodeURIComponent(`${body}.${signature}`).replace('.', '%2E'),
        ` ${issued}`,
        `${body}.`,
        `.${signature}`,
      ),
      fc.string({ maxLength: 300 }),
    );
    await fc.assert(
      fc.asyncProperty(spelling, async (value) => {
        fc.pre(value !== issued);
        const cookie = `${SESSION_COOKIE}=${value}`;
        // Only a value the cookie reader gives back as the issued one (percent-decoded,
        // unquoted) opens the session: the same bytes, not another spelling of them.
        const same = readCookie(requestWith(cookie), SESSION_COOKIE) === issued;
        expect(await reader(sessions)(cookie)).toBe(same ? 7 : null);
      }),
      { numRuns: 400 },
    );
    expect(await reader(sessions)(`${SESSION_COOKIE}=${issued}`)).toBe(7);
  });

  test('model: logins, logouts, resets and data losses on copies with any clocks end exactly the right sessions', async () => {
    type Op =
      | { kind: 'login'; customer: number; copy: number }
      | { kind: 'logout'; pick: number; copy: number }
      | { kind: 'reset'; customer: number; copy: number }
      | { kind: 'flush' };
    const copyIndex = fc.integer({ min: 0, max: 2 });
    const customer = fc.integer({ min: 1, max: 3 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({ kind: fc.constant('login' as const), customer, copy: copyIndex }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('logout' as const),
          pick: fc.nat(),
          copy: copyIndex,
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({ kind: fc.constant('reset' as const), customer, copy: copyIndex }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('flush' as const) }) },
    );
    // Three copies' clocks, off by up to ten minutes either way.
    const skews = fc.tuple(...[0, 1, 2].map(() => fc.integer({ min: -600_000, max: 600_000 })));
    await fc.assert(
      fc.asyncProperty(skews, fc.array(op, { maxLength: 40 }), async (clocks, ops) => {
        let store = createMemoryStore();
        const shared: SharedStore = {
          ...store,
          get: (k) => store.get(k),
          set: (k, v, t) => store.set(k, v, t),
          setIfAbsent: (k, v, t) => store.setIfAbsent(k, v, t),
          extendIfEquals: (k, v, t) => store.extendIfEquals(k, v, t),
          delete: (k) => store.delete(k),
        };
        const copies = clocks.map((skew) => copy(shared, skew));
        const live: { cookie: string; customer: number; ended: boolean }[] = [];
        for (const step of ops) {
          if (step.kind === 'flush') {
            store = createMemoryStore();
            for (const s of live) s.ended = true;
          } else if (step.kind === 'login') {
            const manager = copies[step.copy] ?? copies[0];
            if (manager === undefined) continue;
            live.push({
              cookie: await login(manager, step.customer),
              customer: step.customer,
              ended: false,
            });
          } else if (step.kind === 'logout' && live.length > 0) {
            const session = live[step.pick % live.length];
            const manager = copies[step.copy];
            if (session === undefined || manager === undefined) continue;
            await logout(manager, session.cookie);
            session.ended = true;
          } else if (step.kind === 'reset') {
            await copies[step.copy]?.endAll(step.customer);
            for (const s of live) if (s.customer === step.customer) s.ended = true;
          }
        }
        const expected = live.map((s) => (s.ended ? null : s.customer));
        for (const manager of copies) {
          expect(await Promise.all(live.map((s) => reader(manager)(s.cookie)))).toEqual(expected);
        }
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

  test('a session cookie is not a reset token, nor the other way round', async () => {
    const store = createMemoryStore();
    const tokens = createResetTokens({ secret: SECRET, store });
    const sessions = createSessionManager({ secret: SECRET, store });
    expect(tokens.verify(await sessions.seal(5))).toBeNull();
    expect(sessions.open(tokens.create(customer))).toBeNull();
  });
});
