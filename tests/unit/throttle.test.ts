import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/shop/state/memory.ts';
import {
  addressGroup,
  createAccountThrottle,
  delayAfter,
  retryAfterSeconds,
  THROTTLE_RULES,
  type AccountThrottle,
  type LoginAdmission,
  type ProgressiveRule,
} from '../../src/shop/throttle/throttle.ts';
import { deriveKey, signPayload } from '../../src/shop/auth/keys.ts';

const SECRET = 'unit-tests-throttle-secret-0123456789abcdef';
const START = Date.UTC(2025, 0, 1);
const CAP = 15 * 60_000;
const VICTIM = 'marie@example.fr';
const HOME = '198.51.100.7';

/** A throttle on a memory store, both on one fake clock. */
function setup() {
  const clock = { now: START };
  const now = () => clock.now;
  const store = createMemoryStore({ now });
  const throttle = createAccountThrottle({ store, secret: SECRET, now });
  return { clock, store, throttle };
}

async function loginOnce(
  throttle: AccountThrottle,
  input: { email: string; address: string; deviceCookie?: string | undefined },
  outcome: 'fail' | 'succeed',
): Promise<{ admission: LoginAdmission; cookie?: string }> {
  const admission = await throttle.login({ deviceCookie: undefined, ...input });
  if (!admission.allowed) return { admission };
  if (outcome === 'fail') {
    await admission.failed();
    return { admission };
  }
  return { admission, cookie: await admission.succeeded() };
}

/** A device cookie for `email` (VICTIM by default), got by logging in from HOME. */
async function victimCookie(throttle: AccountThrottle, email = VICTIM): Promise<string> {
  const { cookie } = await loginOnce(throttle, { email, address: HOME }, 'succeed');
  if (cookie === undefined) throw new Error('the first login was refused');
  return cookie;
}

describe('delayAfter (progressive delays)', () => {
  const rule: ProgressiveRule = {
    free: 5,
    windowMs: 3_600_000,
    baseDelayMs: 1000,
    maxDelayMs: CAP,
  };
  test.each([
    ['no attempt', 0, 0],
    ['below the free attempts', 4, 0],
    ['at the free attempts: the base delay', 5, 1000],
    ['one more: doubled', 6, 2000],
    ['two more: doubled again', 7, 4000],
    ['ten more: 1024 s is over the cap', 15, CAP],
    ['a huge count stays at the cap', 1e9, CAP],
  ])('%s', (_case, attempts, expected) => {
    expect(delayAfter(rule, attempts)).toBe(expected);
  });

  test('never above the cap, never below 0, and never shorter after more attempts', () => {
    fc.assert(
      fc.property(
        fc.record({
          free: fc.integer({ min: 0, max: 50 }),
          baseDelayMs: fc.integer({ min: 1, max: 60_000 }),
          maxDelayMs: fc.integer({ min: 1, max: 86_400_000 }),
        }),
        fc.nat({ max: 1e6 }),
        (r, attempts) => {
          const full = { ...r, windowMs: 3_600_000 };
          const delay = delayAfter(full, attempts);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(r.maxDelayMs);
          expect(delayAfter(full, attempts + 1)).toBeGreaterThanOrEqual(delay);
        },
      ),
    );
  });

  test.each([
    [1, 1],
    [999, 1],
    [1000, 1],
    [1001, 2],
    [CAP, 900],
  ])('Retry-After of %i ms is %i s', (ms, seconds) => {
    expect(retryAfterSeconds(ms)).toBe(seconds);
  });
});

describe('addressGroup', () => {
  test.each([
    ['IPv4 as is', '203.0.113.9', '203.0.113.9'],
    ['IPv4-mapped IPv6 is the IPv4 address', '::ffff:203.0.113.9', '203.0.113.9'],
    ['IPv4-mapped in full form', '0:0:0:0:0:ffff:cb00:7109', '203.0.113.9'],
    ['IPv6 by /64', '2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['IPv6 compressed', '2001:db8::1', '2001:db8:0:0::/64'],
    ['IPv6 upper case and leading zeros', '2001:0DB8:0001:0002::1', '2001:db8:1:2::/64'],
    ['IPv6 in brackets', '[2001:db8:1:2::5]', '2001:db8:1:2::/64'],
    ['IPv6 with a zone', 'fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['IPv6 with a dotted tail', '64:ff9b::198.51.100.1', '64:ff9b:0:0::/64'],
    ['loopback', '::1', '0:0:0:0::/64'],
    ['empty', '', ''],
    ['not an address', 'unknown', ''],
    ['a name', 'proxy.example', ''],
  ])('%s', (_case, address, expected) => {
    expect(addressGroup(address)).toBe(expected);
  });

  const words = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 });
  const text = (w: number[]) => w.map((x) => x.toString(16)).join(':');

  test('two IPv6 addresses share a group exactly when their first 64 bits are equal', () => {
    fc.assert(
      fc.property(words, words, (a, b) => {
        // IPv4-mapped addresses group as IPv4: out of this property.
        fc.pre(a[5] !== 0xffff && b[5] !== 0xffff);
        const same = a.slice(0, 4).join() === b.slice(0, 4).join();
        expect(addressGroup(text(a)) === addressGroup(text(b))).toBe(same);
      }),
    );
  });

  test('the last 64 bits never change the group; compressed forms group like full ones', () => {
    fc.assert(
      fc.property(fc.ipV6(), words, (address, tail) => {
        const group = addressGroup(address);
        fc.pre(group.endsWith('/64'));
        const prefix = group.replace('::/64', '');
        expect(addressGroup(`${prefix}:${text(tail.slice(4))}`)).toBe(group);
      }),
    );
  });
});

describe('login throttle: untrusted clients', () => {
  test('5 attempts go through; then 1 s, 2 s, 4 s between attempts, Retry-After rounded up', async () => {
    const { clock, throttle } = setup();
    for (let i = 0; i < 5; i += 1) {
      const { admission } = await loginOnce(
        throttle,
        { email: VICTIM, address: `203.0.113.${i}` },
        'fail',
      );
      expect(admission.allowed).toBe(true);
    }
    const waits: number[] = [];
    for (const expected of [1000, 2000, 4000, 8000]) {
      const refused = await throttle.login({
        email: VICTIM,
        address: '203.0.113.99',
        deviceCookie: undefined,
      });
      expect(refused).toEqual({ allowed: false, retryAfterMs: expected });
      waits.push(expected);
      clock.now += expected;
      const { admission } = await loginOnce(
        throttle,
        { email: ` ${VICTIM.toUpperCase()} `, address: '203.0.113.99' },
        'fail',
      );
      expect(admission.allowed).toBe(true);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
  });

  test('attemptsLeft counts down to the first wait, the same for an account or an unknown e-mail', async () => {
    const { throttle } = setup();
    const lefts = async (email: string) => {
      const seen: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const { admission } = await loginOnce(throttle, { email, address: HOME }, 'fail');
        if (!admission.allowed) throw new Error('refused within the free attempts');
        seen.push(admission.attemptsLeft);
      }
      return seen;
    };
    // After the 5th failure the next attempt waits (1 s): none left.
    expect(await lefts(VICTIM)).toEqual([4, 3, 2, 1, 0]);
    // Counted per e-mail (the account's key), whether an account exists or not.
    expect(await lefts('nobody.here@example.fr')).toEqual([4, 3, 2, 1, 0]);
  });

  test('a browser with a device cookie counts down on its own counter', async () => {
    const { throttle } = setup();
    const cookie = await victimCookie(throttle);
    // Someone else's failures on the account do not touch the device's count.
    for (let i = 0; i < 3; i += 1) {
      await loginOnce(throttle, { email: VICTIM, address: `203.0.113.${i}` }, 'fail');
    }
    const { admission } = await loginOnce(
      throttle,
      { email: VICTIM, address: HOME, deviceCookie: cookie },
      'fail',
    );
    expect(admission).toMatchObject({ allowed: true, trustedDevice: true, attemptsLeft: 4 });
  });

  test('the count lasts an hour from its first attempt', async () => {
    const { clock, throttle } = setup();
    for (let i = 0; i < 5; i += 1) {
      await loginOnce(throttle, { email: VICTIM, address: `203.0.113.${i}` }, 'fail');
    }
    clock.now += 60 * 60_000;
    for (let i = 0; i < 4; i += 1) {
      const { admission } = await loginOnce(throttle, { email: VICTIM, address: HOME }, 'fail');
      expect(admission.allowed).toBe(true);
    }
  });

  test('a success of an untrusted client forgets the account count', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 4; i += 1) {
      await loginOnce(throttle, { email: VICTIM, address: HOME }, 'fail');
    }
    await loginOnce(throttle, { email: VICTIM, address: HOME }, 'succeed');
    for (let i = 0; i < 4; i += 1) {
      const { admission } = await loginOnce(throttle, { email: VICTIM, address: HOME }, 'fail');
      expect(admission.allowed).toBe(true);
    }
  });

  test('200 failures from one address with random e-mails: delays for untrusted clients there only', async () => {
    const { throttle } = setup();
    for (let i = 0; i < THROTTLE_RULES.loginAddress.free; i += 1) {
      const { admission } = await loginOnce(
        throttle,
        { email: `x${i}@example.fr`, address: HOME },
        'fail',
      );
      expect(admission.allowed).toBe(true);
    }
    expect(await throttle.login({ email: VICTIM, address: HOME, deviceCookie: undefined })).toEqual(
      { allowed: false, retryAfterMs: 1000 },
    );
    // Another address of the same /64 is the same subscriber; another /64 is not.
    const v6 = setup().throttle;
    for (let i = 0; i < THROTTLE_RULES.loginAddress.free; i += 1) {
      await loginOnce(v6, { email: `y${i}@example.fr`, address: `2001:db8:1:2::${i}` }, 'fail');
    }
    expect(
      (await v6.login({ email: VICTIM, address: '2001:db8:1:2:ffff::1', deviceCookie: undefined }))
        .allowed,
    ).toBe(false);
    expect(
      (await v6.login({ email: VICTIM, address: '2001:db8:1:3::1', deviceCookie: undefined }))
        .allowed,
    ).toBe(true);
  });

  test('successful logins from one address never count against it', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 50; i += 1) {
      const { admission } = await loginOnce(
        throttle,
        { email: `s${i}@example.fr`, address: HOME },
        'succeed',
      );
      expect(admission.allowed).toBe(true);
    }
  });

  test('of attempts racing into the delays, exactly one goes on', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 4; i += 1) {
      await loginOnce(throttle, { email: VICTIM, address: `203.0.113.${i}` }, 'fail');
    }
    const racing = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        throttle.login({ email: VICTIM, address: `192.0.2.${i}`, deviceCookie: undefined }),
      ),
    );
    expect(racing.filter((a) => a.allowed)).toHaveLength(1);
  });
});

describe('login throttle: device cookies (OWASP)', () => {
  test('a flood against the account and from the address does not slow down the device', async () => {
    const { throttle } = setup();
    const cookie = await victimCookie(throttle);
    for (let i = 0; i < 40; i += 1) {
      await loginOnce(throttle, { email: VICTIM, address: HOME }, 'fail');
      await loginOnce(throttle, { email: `z${i}@example.fr`, address: HOME }, 'fail');
    }
    const untrusted = await throttle.login({
      email: VICTIM,
      address: HOME,
      deviceCookie: undefined,
    });
    expect(untrusted.allowed).toBe(false);
    const trusted = await throttle.login({ email: VICTIM, address: HOME, deviceCookie: cookie });
    expect(trusted).toMatchObject({ allowed: true, trustedDevice: true });
  });

  test("the device's own failures slow it down, and only it", async () => {
    const { throttle } = setup();
    const cookie = await victimCookie(throttle);
    const other = await victimCookie(throttle);
    for (let i = 0; i < 5; i += 1) {
      const { admission } = await loginOnce(
        throttle,
        { email: VICTIM, address: HOME, deviceCookie: cookie },
        'fail',
      );
      expect(admission).toMatchObject({ allowed: true, trustedDevice: true });
    }
    expect(await throttle.login({ email: VICTIM, address: HOME, deviceCookie: cookie })).toEqual({
      allowed: false,
      retryAfterMs: 1000,
    });
    expect(
      (await throttle.login({ email: VICTIM, address: HOME, deviceCookie: other })).allowed,
    ).toBe(true);
    expect(
      (await throttle.login({ email: VICTIM, address: HOME, deviceCookie: undefined })).allowed,
    ).toBe(true);
  });

  test('each success hands out a new cookie; the device count is forgotten', async () => {
    const { throttle } = setup();
    const first = await victimCookie(throttle);
    for (let i = 0; i < 4; i += 1) {
      await loginOnce(throttle, { email: VICTIM, address: HOME, deviceCookie: first }, 'fail');
    }
    const { cookie: second } = await loginOnce(
      throttle,
      { email: VICTIM, address: HOME, deviceCookie: first },
      'succeed',
    );
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    for (let i = 0; i < 4; i += 1) {
      const { admission } = await loginOnce(
        throttle,
        { email: VICTIM, address: HOME, deviceCookie: second },
        'fail',
      );
      expect(admission.allowed).toBe(true);
    }
  });

  test.each([
    ['no cookie', () => undefined],
    ['garbage', () => 'garbage'],
    ['another account', (c: { other: string }) => c.other],
    ['a tampered signature', (c: { victim: string }) => `${c.victim.slice(0, -2)}AA`],
    ['expired (181 days)', (c: { victim: string }) => c.victim, 181 * 86_400_000],
    [
      'signed with another key',
      () =>
        signPayload(deriveKey(`${SECRET}-other`, 'device'), {
          a: 'x',
          n: 'AAAAAAAAAAAAAAAAAAAAAA',
          e: 2e9,
        }),
    ],
    [
      'signed for another purpose',
      () =>
        signPayload(deriveKey(SECRET, 'session'), { a: 'x', n: 'AAAAAAAAAAAAAAAAAAAAAA', e: 2e9 }),
    ],
  ])('%s: the attempt is an untrusted client', async (_case, pick, elapsed = 0) => {
    const { clock, throttle } = setup();
    const cookies = {
      victim: await victimCookie(throttle),
      other: await victimCookie(throttle, 'paul@example.fr'),
    };
    clock.now += elapsed;
    const admission = await throttle.login({
      email: VICTIM,
      address: HOME,
      deviceCookie: pick(cookies),
    });
    expect(admission).toMatchObject({ allowed: true, trustedDevice: false });
  });

  interface Attack {
    email: 'victim' | number;
    address: 'home' | number;
    cookie: 'none' | 'garbage' | 'sibling' | 'other-account';
    outcome: 'fail' | 'succeed';
    advanceMs: number;
  }
  // Mostly bursts (no time or a few seconds between attempts), now and then a long pause.
  const attack: fc.Arbitrary<Attack> = fc.record({
    email: fc.oneof(fc.constant('victim' as const), fc.nat({ max: 30 })),
    address: fc.oneof(fc.constant('home' as const), fc.nat({ max: 30 })),
    cookie: fc.constantFrom('none', 'garbage', 'sibling', 'other-account'),
    outcome: fc.constantFrom('fail', 'fail', 'fail', 'succeed'),
    advanceMs: fc.oneof(
      { arbitrary: fc.constant(0), weight: 6 },
      { arbitrary: fc.integer({ min: 0, max: 5_000 }), weight: 3 },
      { arbitrary: fc.integer({ min: 0, max: 20 * 60_000 }), weight: 1 },
    ),
  });

  test('no sequence of attempts of other browsers or addresses ever refuses a browser holding a valid device cookie', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(attack, { minLength: 30, maxLength: 150, size: 'max' }),
        async (attacks) => {
          const { clock, throttle } = setup();
          let cookie = await victimCookie(throttle);
          // Another browser of the account (valid cookie) that fails as often as it likes.
          const sibling = await victimCookie(throttle);
          const otherAccount = await victimCookie(throttle, 'paul@example.fr');
          for (const a of attacks) {
            const email = a.email === 'victim' ? VICTIM : `attacker${a.email}@example.fr`;
            // Only the real owner can succeed on the victim's account (with the password).
            const outcome = a.email === 'victim' ? 'fail' : a.outcome;
            const deviceCookie = {
              none: undefined,
              garbage: 'a.b',
              sibling,
              'other-account': otherAccount,
            }[a.cookie];
            await loginOnce(
              throttle,
              {
                email,
                address: a.address === 'home' ? HOME : `203.0.113.${a.address}`,
                deviceCookie,
              },
              outcome,
            );
            clock.now += a.advanceMs;
            const mine = await throttle.login({
              email: VICTIM,
              address: HOME,
              deviceCookie: cookie,
            });
            expect(mine).toMatchObject({ allowed: true, trustedDevice: true });
            if (mine.allowed) cookie = await mine.succeeded();
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);

  test('whatever the attempts, a wait is never longer than the cap', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(attack, { minLength: 30, maxLength: 150, size: 'max' }),
        async (attacks) => {
          const { clock, throttle } = setup();
          const sibling = await victimCookie(throttle);
          for (const a of attacks) {
            const email = a.email === 'victim' ? VICTIM : `u${a.email}@example.fr`;
            const address = a.address === 'home' ? HOME : `203.0.113.${a.address}`;
            const deviceCookie = a.cookie === 'sibling' ? sibling : undefined;
            const { admission } = await loginOnce(
              throttle,
              { email, address, deviceCookie },
              a.outcome,
            );
            if (!admission.allowed) {
              expect(admission.retryAfterMs).toBeGreaterThan(0);
              expect(admission.retryAfterMs).toBeLessThanOrEqual(CAP);
            }
            const registration = await throttle.registration({ email, address });
            if (!registration.allowed) {
              expect(registration.retryAfterMs).toBeLessThanOrEqual(CAP);
            }
            clock.now += a.advanceMs;
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);
});

describe('registration throttle', () => {
  test('500 registrations from one address, then delays; other addresses go on', async () => {
    const { clock, throttle } = setup();
    for (let i = 0; i < THROTTLE_RULES.registrationAddress.free; i += 1) {
      expect(await throttle.registration({ email: `n${i}@example.fr`, address: HOME })).toEqual({
        allowed: true,
      });
    }
    expect(await throttle.registration({ email: 'late@example.fr', address: HOME })).toEqual({
      allowed: false,
      retryAfterMs: 1000,
    });
    expect(await throttle.registration({ email: 'late@example.fr', address: '192.0.2.5' })).toEqual(
      { allowed: true },
    );
    clock.now += 1000;
    expect(await throttle.registration({ email: 'later@example.fr', address: HOME })).toEqual({
      allowed: true,
    });
  });

  test('3 registrations of one e-mail, from anywhere, then delays', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 3; i += 1) {
      expect(
        (await throttle.registration({ email: 'Lea@example.fr', address: `192.0.2.${i}` })).allowed,
      ).toBe(true);
    }
    expect(
      await throttle.registration({ email: ' lea@EXAMPLE.fr', address: '192.0.2.200' }),
    ).toEqual({ allowed: false, retryAfterMs: 1000 });
  });
});

describe('newsletter sign-up throttle', () => {
  test('500 sign-ups from one address and 3 of one e-mail, then delays; counted apart from registrations', async () => {
    const { clock, throttle } = setup();
    for (let i = 0; i < THROTTLE_RULES.newsletterAddress.free; i += 1) {
      expect(await throttle.newsletter({ email: `s${i}@example.fr`, address: HOME })).toEqual({
        allowed: true,
      });
    }
    expect(await throttle.newsletter({ email: 'late@example.fr', address: HOME })).toEqual({
      allowed: false,
      retryAfterMs: 1000,
    });
    // Registrations from the same address have their own count.
    expect(await throttle.registration({ email: 'late@example.fr', address: HOME })).toEqual({
      allowed: true,
    });
    for (let i = 0; i < 3; i += 1) {
      expect(
        (await throttle.newsletter({ email: 'Zoe@example.fr', address: `192.0.2.${i}` })).allowed,
      ).toBe(true);
    }
    expect(await throttle.newsletter({ email: ' zoe@EXAMPLE.fr', address: '192.0.2.99' })).toEqual({
      allowed: false,
      retryAfterMs: 1000,
    });
    clock.now += 60 * 60_000;
    expect((await throttle.newsletter({ email: 'zoe@example.fr', address: HOME })).allowed).toBe(
      true,
    );
  });
});

describe('password-reset requests', () => {
  test('3 per account and 200 per address in an hour', async () => {
    const { clock, throttle } = setup();
    const seen: boolean[] = [];
    for (let i = 0; i < 4; i += 1) {
      seen.push(await throttle.resetRequest({ email: VICTIM, address: `192.0.2.${i}` }));
    }
    expect(seen).toEqual([true, true, true, false]);
    const fromHome: boolean[] = [];
    for (let i = 0; i < 201; i += 1) {
      fromHome.push(await throttle.resetRequest({ email: `r${i}@example.fr`, address: HOME }));
    }
    expect(fromHome).toEqual([...Array<boolean>(200).fill(true), false]);
    clock.now += 60 * 60_000;
    expect(await throttle.resetRequest({ email: VICTIM, address: HOME })).toBe(true);
  });
});

test('the shop rules are the ones documented', () => {
  expect(THROTTLE_RULES.loginAccount).toEqual({
    free: 5,
    windowMs: 3_600_000,
    baseDelayMs: 1000,
    maxDelayMs: CAP,
  });
  // Per address: floods only (carrier-grade NAT puts thousands of phones behind one address).
  expect(THROTTLE_RULES.loginAddress.free).toBe(200);
  expect(THROTTLE_RULES.registrationAddress.free).toBe(500);
  expect(THROTTLE_RULES.newsletterAddress.free).toBe(500);
  expect(THROTTLE_RULES.reviewAddress.free).toBe(100);
  expect(THROTTLE_RULES.resetAddress.limit).toBe(200);
  // Per e-mail, account and device cookie: the fine work.
  expect(THROTTLE_RULES.registrationEmail.free).toBe(3);
  expect(THROTTLE_RULES.newsletterEmail.free).toBe(3);
  expect(THROTTLE_RULES.loginDevice.free).toBe(5);
  expect(THROTTLE_RULES.resetAccount.limit).toBe(3);
});
