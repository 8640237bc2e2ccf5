/**
 * Throttling of the account methods over real HTTP against the sandbox (throttling
 * that does not lock shoppers out, `throttle.ts`): OWASP device cookies, progressive delays
 * answered 429 'Too many attempts' with `Retry-After`, registration and reset requests limited.
 * Shoppers come from the addresses given to the bridge as the TCP peer (CLIENT_IP_HEADER).
 * The shop's rules, but for lower per-address thresholds (each failed login costs the sandbox
 * a deliberately slow password check); the throttle and its store run on a clock the tests
 * move forward (no sleeping, and no wait ends while a test looks at it).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CUSTOMERS } from '@literie/sandbox/fixtures';
import { createMemoryStore } from '../../src/shop/state/memory.ts';
import { createAccountThrottle, THROTTLE_RULES } from '../../src/shop/throttle/throttle.ts';
import {
  BREVO_KEY,
  SESSION_SECRET,
  startShopApi,
  type Reply,
  type ShopApi,
} from './helpers/shop-api.ts';

let api: ShopApi;
const clock = { now: Date.now() };
const RULES = {
  ...THROTTLE_RULES,
  loginAddress: { ...THROTTLE_RULES.loginAddress, free: 6 },
  registrationAddress: { ...THROTTLE_RULES.registrationAddress, free: 4 },
};

beforeAll(async () => {
  const now = () => clock.now;
  const store = createMemoryStore({ now });
  api = await startShopApi({
    store,
    account: {
      throttle: createAccountThrottle({ store, secret: SESSION_SECRET, now, rules: RULES }),
    },
  });
});

afterAll(async () => {
  await api.close();
});

const { marie, reseller } = CUSTOMERS;
const INVALID = { status: 401, json: { message: 'Invalid credentials', statusCode: 401 } };
const TOO_MANY = { status: 429, json: { message: 'Too many attempts', statusCode: 429 } };

let emails = 0;
const newEmail = () => `throttle.${Date.now()}.${(emails += 1)}@example.fr`;
const retryAfter = (reply: Reply) => reply.headers.get('retry-after');
const wait = (seconds: number) => {
  clock.now += seconds * 1000;
};

/** Failed logins with new e-mails from `ip` until one is refused: how many failed. */
async function floodUntilRefused(ip: string): Promise<number> {
  for (let failed = 0; failed < 50; failed += 1) {
    const reply = await api
      .shopper({ ip })
      .call('loginCustomer', [{ email: newEmail(), password: 'Mauvais1' }]);
    if (reply.status === 429) return failed;
    expect(reply).toMatchObject(INVALID);
  }
  throw new Error(`no refusal from ${ip}`);
}

async function register(ip: string, email = newEmail()): Promise<Reply> {
  return api
    .shopper({ ip })
    .call('createCustomer', [
      { email, firstName: 'Léa', lastName: 'Petit', password: 'Dormir2025', createAccount: true },
    ]);
}

describe('login: progressive delays per account', () => {
  test('5 failures from anywhere → 429 Too many attempts with Retry-After: 1, then the right password logs in', async () => {
    const email = newEmail();
    expect((await register('198.51.100.1', email)).status).toBe(200);
    const warnings: unknown[] = [];
    for (let i = 0; i < 5; i += 1) {
      const reply = await api
        .shopper({ ip: `198.51.100.${10 + i}` })
        .call('loginCustomer', [{ email, password: 'Mauvais123' }]);
      expect(reply).toMatchObject(INVALID);
      warnings.push((reply.json as { details?: unknown }).details);
    }
    // From 2 attempts left before the waits, the reply says how many.
    expect(warnings).toEqual([
      undefined,
      undefined,
      { attemptsLeft: 2 },
      { attemptsLeft: 1 },
      { attemptsLeft: 0 },
    ]);
    const shopper = api.shopper({ ip: '198.51.100.99' });
    const limited = await shopper.call('loginCustomer', [
      { email: email.toUpperCase(), password: 'Dormir2025' },
    ]);
    expect(limited).toMatchObject(TOO_MANY);
    expect(retryAfter(limited)).toBe('1');
    // The wait in the reply too, for the form to say it in words.
    expect(limited.json).toMatchObject({ details: { retryAfter: 1 } });
    // Refused before the credentials are checked: no session, logged out.
    expect(limited.setCookies).toContain('authenticated=0; Max-Age=604800; Path=/; SameSite=Lax');
    // Other accounts are not affected.
    await api.shopper({ ip: '198.51.100.99' }).login(marie.email, marie.password);

    wait(1);
    await shopper.login(email, 'Dormir2025');
    expect(shopper.cookies.get('device')).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  test('an unknown e-mail is throttled exactly like an account (nothing told)', async () => {
    const unknown = newEmail();
    const replies: Reply[] = [];
    for (let i = 0; i < 6; i += 1) {
      replies.push(
        await api
          .shopper({ ip: `192.0.2.${i}` })
          .call('loginCustomer', [{ email: unknown, password: 'Mauvais123' }]),
      );
    }
    expect(replies.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 429]);
    // The same warnings as for an account: nothing says whether it exists.
    expect(replies.map((r) => (r.json as { details?: unknown }).details)).toEqual([
      undefined,
      undefined,
      { attemptsLeft: 2 },
      { attemptsLeft: 1 },
      { attemptsLeft: 0 },
      { retryAfter: 1 },
    ]);
    const [last] = replies.slice(-1);
    expect(last).toMatchObject(TOO_MANY);
    expect(last?.headers.get('retry-after')).toBe('1');
  });
});

describe('login: a flood from one address does not lock out shoppers with a device cookie', () => {
  test('random e-mails and wrong passwords from her address: untrusted clients wait, her browser logs in', async () => {
    const home = '203.0.113.7';
    // The reseller signed in from this browser before: it holds a device cookie for the account.
    const browser = api.shopper({ ip: home });
    await browser.login(reseller.email, reseller.password);
    expect(await browser.call('logoutCustomer', [])).toMatchObject({ status: 200 });
    expect(browser.cookies.has('device')).toBe(true);

    // Someone on the same address (a shared NAT, a proxy) floods random e-mails, and the
    // account from everywhere.
    expect(await floodUntilRefused(home)).toBe(RULES.loginAddress.free);
    for (let i = 0; i < 8; i += 1) {
      const flood = await api
        .shopper({ ip: `198.18.0.${i}` })
        .call('loginCustomer', [{ email: reseller.email, password: 'Mauvais1' }]);
      expect(flood.status).toBe(i < 5 ? 401 : 429);
    }
    // A browser that never signed in there waits (whatever the account)...
    expect(
      await api
        .shopper({ ip: home })
        .call('loginCustomer', [{ email: reseller.email, password: reseller.password }]),
    ).toMatchObject(TOO_MANY);
    expect(
      await api
        .shopper({ ip: home })
        .call('loginCustomer', [{ email: marie.email, password: marie.password }]),
    ).toMatchObject(TOO_MANY);
    // ...her own browser does not.
    const reply = await browser.call('loginCustomer', [
      { email: reseller.email, password: reseller.password },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.json.data).toMatchObject({ isValid: true, customer: { id: reseller.id } });
    // Another address is not slowed down by this one.
    await api.shopper({ ip: '203.0.113.8' }).login(marie.email, marie.password);
  });

  test('a device cookie of another account, or a forged one, is no pass', async () => {
    const home = '203.0.113.50';
    const browser = api.shopper({ ip: home });
    await browser.login(marie.email, marie.password);
    expect(await floodUntilRefused(home)).toBe(RULES.loginAddress.free);
    const device = browser.cookies.get('device') ?? '';
    const other = api.shopper({ ip: home });
    other.cookies.set('device', device);
    expect(
      await other.call('loginCustomer', [{ email: reseller.email, password: reseller.password }]),
    ).toMatchObject(TOO_MANY);
    const forged = api.shopper({ ip: home });
    forged.cookies.set('device', `${device.slice(0, -4)}AAAA`);
    expect(
      await forged.call('loginCustomer', [{ email: marie.email, password: marie.password }]),
    ).toMatchObject(TOO_MANY);
  });
});

describe('registration throttled', () => {
  test('the free registrations from one address, then 429 with Retry-After; another address goes on', async () => {
    const ip = '198.51.100.200';
    for (let i = 0; i < RULES.registrationAddress.free; i += 1) {
      expect((await register(ip)).status).toBe(200);
    }
    const limited = await register(ip);
    expect(limited).toMatchObject(TOO_MANY);
    expect(retryAfter(limited)).toBe('1');
    expect(limited.setCookies).toEqual([]);
    expect((await register('198.51.100.201')).status).toBe(200);
  });

  test('one e-mail: 3 attempts, then 429 before the e-mail is looked up', async () => {
    const email = newEmail();
    expect((await register('192.0.2.101', email)).status).toBe(200);
    expect((await register('192.0.2.102', email)).status).toBe(409);
    expect((await register('192.0.2.103', email)).status).toBe(409);
    api.clearUpstream();
    expect(await register('192.0.2.104', email)).toMatchObject(TOO_MANY);
    expect(api.upstream).toEqual([]);
  });
});

describe('password-reset requests keep their limits', () => {
  test('at most 3 e-mails per account in an hour; the reply is null either way', async () => {
    const email = newEmail();
    expect((await register('192.0.2.150', email)).status).toBe(200);
    for (let i = 0; i < 5; i += 1) {
      expect(
        await api.shopper({ ip: `192.0.2.${160 + i}` }).call('generateOttAndToken', [{ email }]),
      ).toMatchObject({ status: 200, json: { data: null } });
    }
    const response = await fetch(
      `${api.sandbox.url}/brevo/v3/smtp/emails?email=${encodeURIComponent(email)}`,
      { headers: { 'api-key': BREVO_KEY } },
    );
    expect(((await response.json()) as { count: number }).count).toBe(3);
  });
});
