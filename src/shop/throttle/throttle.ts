/**
 * Throttling of the account methods, which must not lock shoppers out,
 * kept in the `SharedStore` so every server copy counts the same attempts:
 * - login, per OWASP "Slow Down Online Guessing Attacks with Device Cookies": a browser that
 *   signed in to an account before holds a signed device cookie bound to it, and its attempts
 *   count against that cookie only; every other attempt (an untrusted client) counts against
 *   the account and against the client's address. Someone else's flood therefore never slows
 *   down a browser the shopper already used.
 * - progressive delays instead of a wall: after `free` counted attempts, each further one must
 *   wait a delay that doubles, up to a cap; one attempt at a time gets through per wait, even
 *   when many race on several copies (`setIfAbsent`).
 * - registration, per address and per e-mail; password-reset requests, per account and per
 *   address (fixed windows).
 * Addresses are grouped: IPv4 as they are, IPv6 by /64 (one subscriber's block).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { normaliseAddress } from '../auth/client.ts';
import { deriveKey, signPayload, verifyPayload } from '../auth/keys.ts';
import type { SharedStore } from '../state/types.ts';
import { recordThrottleRefusal } from '../config/metrics.ts';

/** A counter whose attempts beyond `free` wait a doubling delay. */
export interface ProgressiveRule {
  /** Attempts counted in the window without any wait. */
  free: number;
  /** Lifetime of the count, from its first attempt (a fixed window). */
  windowMs: number;
  /** Wait after the `free`-th counted attempt; each further one doubles it. */
  baseDelayMs: number;
  /** Longest wait. */
  maxDelayMs: number;
}

/** The names of the progressive rules of `ThrottleRules`. */
type ProgressiveName = {
  [K in keyof ThrottleRules]: ThrottleRules[K] extends ProgressiveRule ? K : never;
}[keyof ThrottleRules];

/** A plain count per fixed window. */
export interface WindowRule {
  limit: number;
  windowMs: number;
}

export interface ThrottleRules {
  /** Login attempts of untrusted clients against one account. */
  loginAccount: ProgressiveRule;
  /** Failed logins of untrusted clients from one address (group). */
  loginAddress: ProgressiveRule;
  /** Login attempts of one device cookie. */
  loginDevice: ProgressiveRule;
  /** Registrations from one address (group). */
  registrationAddress: ProgressiveRule;
  /** Registrations of one e-mail. */
  registrationEmail: ProgressiveRule;
  /** Newsletter sign-ups from one address (group). */
  newsletterAddress: ProgressiveRule;
  /** Newsletter sign-ups of one e-mail. */
  newsletterEmail: ProgressiveRule;
  /** Product reviews from one address (group). */
  reviewAddress: ProgressiveRule;
  /** Product reviews signed with one e-mail. */
  reviewEmail: ProgressiveRule;
  /** Carts sent by resellers from one address (group). */
  cartLinkAddress: ProgressiveRule;
  /** Carts sent to one client e-mail. */
  cartLinkEmail: ProgressiveRule;
  /** Wishlists created by one customer. */
  wishlistCustomer: ProgressiveRule;
  /** Password-reset e-mails per account. */
  resetAccount: WindowRule;
  /** Password-reset e-mails per address (group). */
  resetAddress: WindowRule;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const progressive = (free: number): ProgressiveRule => ({
  free,
  windowMs: HOUR,
  baseDelayMs: SECOND,
  maxDelayMs: 15 * MINUTE,
});

/**
 * The shop's limits. The fine work is done per account, e-mail and device cookie: 5 login
 * attempts per account or device cookie, 3 registrations or newsletter sign-ups per e-mail,
 * 5 reviews per e-mail, 5 carts sent per client e-mail, 10 wishlists created per customer, 3 reset e-mails per account. Per client
 * address the limits stop floods only: one address may be thousands of phones behind a
 * carrier-grade NAT, an office or a shop's Wi-Fi on a campaign day, so 500 registrations, 500
 * newsletter sign-ups, 200 failed logins, 100 reviews and 30 carts sent (resellers only) per
 * address; past the free ones each attempt waits 1 s, 2 s, 4 s... at most 15 minutes (a
 * flood of 2,000 registrations from one address cannot pass in an hour); 200 reset e-mails
 * per address (then silently none). Counts last an hour.
 */
export const THROTTLE_RULES: Readonly<ThrottleRules> = Object.freeze({
  loginAccount: progressive(5),
  loginAddress: progressive(200),
  loginDevice: progressive(5),
  registrationAddress: progressive(500),
  registrationEmail: progressive(3),
  newsletterAddress: progressive(500),
  newsletterEmail: progressive(3),
  reviewAddress: progressive(100),
  reviewEmail: progressive(5),
  cartLinkAddress: progressive(30),
  cartLinkEmail: progressive(5),
  wishlistCustomer: progressive(10),
  resetAccount: { limit: 3, windowMs: HOUR },
  resetAddress: { limit: 200, windowMs: HOUR },
});

/** Device cookie (OWASP): HttpOnly, sent to the API only, kept across logouts. */
export const DEVICE_COOKIE = 'device';
export const DEVICE_COOKIE_PATH = '/api/';
/** 180 days, in seconds. */
export const DEVICE_COOKIE_MAX_AGE = 180 * 24 * 60 * 60;

/** The wait before the next attempt once `attempts` are counted: 0, then doubling, capped. */
export function delayAfter(rule: ProgressiveRule, attempts: number): number {
  if (attempts < rule.free) return 0;
  // 2^40 ms already exceeds any sane cap: stop doubling there (no Infinity, no overflow).
  const doublings = Math.min(attempts - rule.free, 40);
  return Math.min(rule.maxDelayMs, rule.baseDelayMs * 2 ** doublings);
}

/** The seconds of a `Retry-After` header for a wait: at least 1, rounded up. */
export function retryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / SECOND));
}

/**
 * The key an address is counted under: an IPv4 address as is (an IPv4-mapped IPv6 one too),
 * an IPv6 address by its /64 (`2001:db8:1:2::/64`, every address a subscriber gets), '' when
 * it is not an IP address (nothing is counted then).
 */
export function addressGroup(address: string): string {
  const bare = normaliseAddress(address).split('%')[0] ?? '';
  const family = isIP(bare);
  if (family === 4) return bare;
  if (family !== 6) return '';
  const words = ipv6Words(bare);
  const mapped = words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff;
  if (mapped) {
    const [high = 0, low = 0] = words.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${words
    .slice(0, 4)
    .map((w) => w.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit words of a valid IPv6 address (`::` expanded, a dotted IPv4 tail split). */
function ipv6Words(address: string): number[] {
  let text = address;
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    const tail = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
    text = text.slice(0, dotted.index) + tail;
  }
  const [head = '', rest] = text.split('::');
  const split = (part: string) => (part === '' ? [] : part.split(':'));
  const start = split(head);
  const end = rest === undefined ? [] : split(rest);
  const zeros = rest === undefined ? [] : Array<string>(8 - start.length - end.length).fill('0');
  return [...start, ...zeros, ...end].map((w) => Number.parseInt(w, 16));
}

/** One counter of an attempt: its store key and rule, and what it counts. */
interface Counter {
  key: string;
  rule: ProgressiveRule;
  /** The rule's name in `ThrottleRules` (the metrics' `rule` label of a refusal). */
  name: keyof ThrottleRules;
  /**
   * 'attempts' counts every attempt as it starts (concurrent floods are counted exactly) and
   * forgets them after a success; 'failures' counts failed attempts only, for counters a
   * success must not clear (an address: an attacker's own account must not reset it).
   */
  counts: 'attempts' | 'failures';
}

export type Admission =
  | { allowed: true }
  | {
      allowed: false;
      /** How long to wait before trying again (milliseconds). */
      retryAfterMs: number;
    };

interface Ticket {
  admission: Admission;
  /**
   * Attempts still free of any wait once this one is counted as failed: the smallest of
   * `free - count` over the counters (0 when the next one may wait).
   */
  attemptsLeft: number;
  succeeded(): Promise<void>;
  failed(): Promise<void>;
}

const countKey = (key: string) => `${key}:n`;
const waitKey = (key: string) => `${key}:wait`;

/**
 * Lets an attempt through every counter, or says how long to wait. An attempt that would
 * bring a counter into its delays claims the counter's wait (`setIfAbsent`): of racing
 * attempts, one goes on and the others wait.
 */
async function admit(store: SharedStore, counters: readonly Counter[]): Promise<Ticket> {
  const token = randomBytes(12).toString('base64url');
  const waits = await Promise.all(counters.map((c) => store.ttl(waitKey(c.key))));
  const longest = Math.max(0, ...waits.map((w) => w ?? 0));
  const refused = (retryAfterMs: number, by: Counter): Ticket => {
    recordThrottleRefusal(by.name);
    return {
      admission: { allowed: false, retryAfterMs },
      attemptsLeft: 0,
      succeeded: () => Promise.resolve(),
      failed: () => Promise.resolve(),
    };
  };
  const waiting = counters[waits.findIndex((w) => (w ?? 0) === longest)];
  if (longest > 0 && waiting !== undefined) return refused(longest, waiting);

  const claimed: Counter[] = [];
  let attemptsLeft = Number.POSITIVE_INFINITY;
  for (const counter of counters) {
    const { key, rule } = counter;
    const count =
      counter.counts === 'attempts'
        ? await store.increment(countKey(key), rule.windowMs)
        : Number((await store.get(countKey(key))) ?? '0') + 1;
    attemptsLeft = Math.min(attemptsLeft, Math.max(0, rule.free - count));
    const delay = delayAfter(rule, count);
    if (delay === 0) continue;
    if (await store.setIfAbsent(waitKey(key), token, delay)) {
      claimed.push(counter);
      continue;
    }
    // Another attempt claimed this wait a moment ago: give back the waits this one took.
    await Promise.all(claimed.map((c) => store.deleteIfEquals(waitKey(c.key), token)));
    return refused((await store.ttl(waitKey(key))) ?? delay, counter);
  }

  return {
    admission: { allowed: true },
    attemptsLeft,
    async succeeded() {
      await Promise.all(
        counters.map(async ({ key, counts }) => {
          if (counts === 'attempts') {
            await Promise.all([store.delete(countKey(key)), store.delete(waitKey(key))]);
          } else {
            await store.deleteIfEquals(waitKey(key), token);
          }
        }),
      );
    },
    async failed() {
      await Promise.all(
        counters
          .filter((c) => c.counts === 'failures')
          .map((c) => store.increment(countKey(c.key), c.rule.windowMs)),
      );
    },
  };
}

/** A login attempt once admitted: say how the credentials turned out. */
export interface LoginTicket {
  /** Whether the attempt presented a valid device cookie for this account. */
  readonly trustedDevice: boolean;
  /**
   * If these credentials turn out invalid, how many more attempts go through before the next
   * one may have to wait (the login form warns from `LOGIN_WARNING_ATTEMPTS` left).
   * It reads the counters this attempt was counted under (the account's or the device
   * cookie's, and the address's), never whether the account exists.
   */
  readonly attemptsLeft: number;
  /**
   * Valid credentials: this browser's (or this account's untrusted) count is forgotten, and
   * the value of a new device cookie bound to the account is returned.
   */
  succeeded(): Promise<string>;
  /** Invalid credentials: counted (the attempt itself was counted already where it must). */
  failed(): Promise<void>;
}

export type LoginAdmission =
  ({ allowed: true } & LoginTicket) | { allowed: false; retryAfterMs: number };

export interface LoginAttemptInput {
  email: string;
  /** The client's address (`ClientInfo.address`). */
  address: string;
  /** The request's device cookie, if any. */
  deviceCookie: string | undefined;
}

export interface AccountThrottle {
  /** Before checking credentials: whether this login attempt may go on now. */
  login(input: LoginAttemptInput): Promise<LoginAdmission>;
  /** Before creating an account: whether this registration may go on now (counted). */
  registration(input: { email: string; address: string }): Promise<Admission>;
  /** Before a newsletter sign-up: whether it may go on now (counted). */
  newsletter(input: { email: string; address: string }): Promise<Admission>;
  /** Before a product review is posted: whether it may go on now (counted). */
  review(input: { email: string; address: string }): Promise<Admission>;
  /** Before a reseller's cart is mailed to a client: whether it may go on now (counted). */
  cartLink(input: { email: string; address: string }): Promise<Admission>;
  /** Before a customer creates a wishlist: whether it may go on now (counted). */
  wishlist(input: { customerId: number }): Promise<Admission>;
  /** Whether a reset e-mail may be sent for this request (counted). */
  resetRequest(input: { email: string; address: string }): Promise<boolean>;
}

export interface AccountThrottleOptions {
  store: SharedStore;
  /** SESSION_SECRET: device cookies are signed with a key derived from it. */
  secret: string;
  rules?: ThrottleRules | undefined;
  /** Milliseconds since the epoch (tests). */
  now?: (() => number) | undefined;
}

interface DevicePayload {
  /** The account's tag (never the e-mail itself). */
  a: string;
  /** Random id of this device cookie. */
  n: string;
  /** Expiry, seconds since the epoch. */
  e: number;
}

function isDevicePayload(value: unknown): value is DevicePayload {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  return (
    typeof p.a === 'string' &&
    typeof p.n === 'string' &&
    /^[\w-]{16,64}$/.test(p.n) &&
    typeof p.e === 'number'
  );
}

/** An e-mail as an account key: trimmed, lower case (as the login schema compares them). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function createAccountThrottle(options: AccountThrottleOptions): AccountThrottle {
  const { store } = options;
  const rules = options.rules ?? THROTTLE_RULES;
  const now = options.now ?? Date.now;
  const key = deriveKey(options.secret, 'device');
  // Store keys and cookies carry a keyed hash of the e-mail: no address book in Redis.
  const tag = (email: string) =>
    createHmac('sha256', key)
      .update(`account:${normaliseEmail(email)}`)
      .digest('base64url');

  const issueDevice = (email: string): string => {
    const payload: DevicePayload = {
      a: tag(email),
      n: randomBytes(16).toString('base64url'),
      e: Math.floor(now() / SECOND) + DEVICE_COOKIE_MAX_AGE,
    };
    return signPayload(key, payload);
  };

  /** The device cookie's id when it is valid, unexpired and bound to this account. */
  const deviceOf = (value: string | undefined, email: string): string | null => {
    if (value === undefined || value === '' || value.length > 512) return null;
    const payload = verifyPayload(key, value);
    if (!isDevicePayload(payload)) return null;
    if (payload.e <= Math.floor(now() / SECOND) || payload.a !== tag(email)) return null;
    return payload.n;
  };

  /** The counter of the rule `name` on `key`. */
  const counter = (
    name: ProgressiveName,
    key: string,
    counts: Counter['counts'] = 'attempts',
  ): Counter => ({ key, rule: rules[name], name, counts });

  /** Counts a sign-up of `email` from `address` (its group) against both rules. */
  const admitSignUp = async (
    kind: string,
    email: string,
    address: string,
    emailRule: ProgressiveName,
    addressRule: ProgressiveName,
  ): Promise<Admission> => {
    const group = addressGroup(address);
    const counters = [counter(emailRule, `limit:${kind}:email:${tag(email)}`)];
    if (group !== '') counters.push(counter(addressRule, `limit:${kind}:address:${group}`));
    return (await admit(store, counters)).admission;
  };

  return {
    async login({ email, address, deviceCookie }) {
      const device = deviceOf(deviceCookie, email);
      const group = addressGroup(address);
      const counters: Counter[] =
        device !== null
          ? [counter('loginDevice', `limit:login:device:${device}`)]
          : [
              counter('loginAccount', `limit:login:account:${tag(email)}`),
              ...(group === ''
                ? []
                : [counter('loginAddress', `limit:login:address:${group}`, 'failures')]),
            ];
      const ticket = await admit(store, counters);
      if (!ticket.admission.allowed) return ticket.admission;
      return {
        allowed: true,
        trustedDevice: device !== null,
        attemptsLeft: ticket.attemptsLeft,
        async succeeded() {
          await ticket.succeeded();
          return issueDevice(email);
        },
        failed: () => ticket.failed(),
      };
    },

    registration: ({ email, address }) =>
      // Every registration counts, successful or not: creating accounts is what is limited.
      admitSignUp('register', email, address, 'registrationEmail', 'registrationAddress'),

    // Every sign-up counts too: a script filling the list with strangers' addresses is limited.
    newsletter: ({ email, address }) =>
      admitSignUp('newsletter', email, address, 'newsletterEmail', 'newsletterAddress'),

    // Reviews are open to visitors (spec §2 form with name and e-mail): each one counts.
    review: ({ email, address }) =>
      admitSignUp('review', email, address, 'reviewEmail', 'reviewAddress'),

    // Each cart sent mails a stranger's address: counted like sign-ups.
    cartLink: ({ email, address }) =>
      admitSignUp('cart-link', email, address, 'cartLinkEmail', 'cartLinkAddress'),

    // Each wishlist created counts (creation was unlimited), per customer.
    wishlist: async ({ customerId }) =>
      (
        await admit(store, [
          counter('wishlistCustomer', `limit:wishlist:customer:${String(customerId)}`),
        ])
      ).admission,

    async resetRequest({ email, address }) {
      const group = addressGroup(address);
      const counts = await Promise.all([
        store.increment(`limit:reset:account:${tag(email)}`, rules.resetAccount.windowMs),
        group === ''
          ? Promise.resolve(0)
          : store.increment(`limit:reset:address:${group}`, rules.resetAddress.windowMs),
      ]);
      if (counts[0] > rules.resetAccount.limit) recordThrottleRefusal('resetAccount');
      else if (counts[1] > rules.resetAddress.limit) recordThrottleRefusal('resetAddress');
      else return true;
      return false;
    },
  };
}
