/**
 * The customer session: identity comes from a signed HttpOnly cookie, never from a request
 * body. The `session` cookie holds the customer id, the customer's session generation it was
 * issued under, when it was issued, when it expires (7 days) and a random id, signed with
 * HMAC-SHA256 under a key derived from SESSION_SECRET. A tampered, malformed or expired cookie
 * is no session.
 *
 * A signed cookie alone opens nothing (a session must not depend on luck): a
 * session is valid only while the shared store holds its record, `session:id:{id}` (made at
 * login with the session's lifetime, deleted at logout), and while the customer's generation,
 * `session:generation:{customerId}`, still holds the value the session was issued under. A
 * password reset replaces the generation with a new random value: every earlier session of
 * the customer ends on every copy, whatever the copies' clocks say. Values are random, never
 * counted, so a generation lost and made again never equals an old one; a lost record or a
 * lost generation ends sessions, never revives one (a Redis restarted empty logs everybody
 * out). Reading a session costs two store reads, in parallel, only for a request that carries
 * a valid cookie; an unreachable store fails the read (never a session on a guess).
 *
 * Beside it, the spec's `authenticated` marker (spec §4, §9: 1 or 0, 604800 s) is readable by
 * scripts and only a UI hint: nothing on the server trusts it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  AUTHENTICATED_COOKIE_MAX_AGE,
  AUTHENTICATED_COOKIE_NAME,
} from '../../lib/commerce/account.ts';
import { SHOP_MODE_COOKIE, SHOP_MODE_RESELLER } from '../../lib/commerce/shop-mode.ts';
import { readCookie, type CookieOptions, type ReplyCookies } from './cookies.ts';
import { deriveKey, signPayload, verifyPayload } from './keys.ts';
import type { SharedStore } from '../state/types.ts';
import { log } from '../config/log.ts';

export const SESSION_COOKIE = 'session';
/** spec §4 authentication marker (the name and lifetime the browser store reads too). */
export const AUTHENTICATED_COOKIE = AUTHENTICATED_COOKIE_NAME;
/** spec §9: 604800 s (7 days), for the session and the marker alike. */
export const SESSION_MAX_AGE = AUTHENTICATED_COOKIE_MAX_AGE;

/** What a method knows of the caller. */
export interface Session {
  /** The logged-in customer, or null for a visitor. */
  customerId: number | null;
}

export interface SessionPayload {
  customerId: number;
  /** The customer's generation when the session was issued (`session:generation:{id}`). */
  generation: string;
  /** Milliseconds since the epoch, by the issuing copy's clock (information only). */
  issuedAt: number;
  expiresAt: number;
  /** Random id of this login. */
  id: string;
}

export interface SessionManager {
  /**
   * The session of a request: its valid cookie's customer unless that session was ended,
   * else a visitor. Read once per request (later calls with the same Request share it).
   */
  read(request: Request): Promise<Session>;
  /**
   * The payload of a cookie value, or null when tampered, malformed or expired. Says nothing
   * of whether the session was ended: `read` does.
   */
  open(value: string | undefined): SessionPayload | null;
  /** A new session of the customer: its record in the store, and its cookie value. */
  seal(customerId: number): Promise<string>;
  /** Starts a new session and sets it and `authenticated=1` on the reply (login). */
  start(cookies: ReplyCookies, request: Request, customerId: number): Promise<void>;
  /**
   * Deletes the request's session record (a replay of its cookie is refused), clears the
   * cookie and sets `authenticated=0` (logout, failed login).
   */
  end(cookies: ReplyCookies, request: Request): Promise<void>;
  /**
   * Ends every session of the customer issued until now, on every copy (password reset): a
   * new generation.
   */
  endAll(customerId: number): Promise<void>;
  /**
   * spec §4 "set to 1 on login and on load": the `authenticated` marker set again from the
   * session read at page load, 1 or 0, so an ended or expired session no longer shows "Connecté".
   */
  mark(cookies: ReplyCookies, loggedIn: boolean): void;
  /**
   * The reseller mode cookie (spec §6, `shop-mode.ts`) from what the server knows of the
   * session's customer: set for a reseller while the area is on, cleared otherwise. Login,
   * registration and the shell's load set it; logout and an ended session clear it.
   */
  markMode(cookies: ReplyCookies, request: Request, reseller: boolean): void;
}

export interface SessionOptions {
  secret: string;
  /** Where sessions and generations are kept (shared by every server copy). */
  store: SharedStore;
  /** Milliseconds since the epoch (tests). */
  now?: (() => number) | undefined;
  /** Lifetime in seconds (default 7 days). */
  maxAge?: number | undefined;
  /** The reseller area is on (FEATURE_RESELLER_AREA): only then is a reseller mode cookie set. */
  resellerArea?: boolean | undefined;
}

/** Store key of a session's record: it exists while the session may be used. */
export const sessionRecordKey = (id: string): string => `session:id:${id}`;
/** Store key of a customer's session generation. */
export const generationKey = (customerId: number): string => `session:generation:${customerId}`;

/** What the store keeps of one session. */
interface SessionRecord {
  customerId: number;
  generation: string;
}

// The generation outlives the sessions issued under it by this much (their records expire first).
const GENERATION_MARGIN_MS = 60_000;

const newGeneration = (): string => randomBytes(16).toString('base64url');

export function createSessionManager(options: SessionOptions): SessionManager {
  const key = deriveKey(options.secret, 'session');
  const { store } = options;
  const now = options.now ?? Date.now;
  const maxAge = options.maxAge ?? SESSION_MAX_AGE;
  const maxAgeMs = maxAge * 1000;
  const reads = new WeakMap<Request, Promise<Session>>();

  const open = (value: string | undefined): SessionPayload | null => {
    if (value === undefined || value === '' || value.length > 1024) return null;
    const payload = verifyPayload(key, value);
    if (!isPayload(payload)) return null;
    // The local clock only shortens a cookie's life; the record's lifetime in the store ends it.
    if (payload.expiresAt <= now()) return null;
    return payload;
  };

  /**
   * The customer's generation, made when absent (of two logins at once, one value wins), kept
   * alive past the session about to be issued without ever being written back: a reset that
   * replaced it meanwhile stays in force, and this login's session is then ended at once.
   */
  const generationFor = async (customerId: number): Promise<string> => {
    const genKey = generationKey(customerId);
    const lifetime = maxAgeMs + GENERATION_MARGIN_MS;
    let generation = await store.get(genKey);
    if (generation === null) {
      const made = newGeneration();
      generation = (await store.setIfAbsent(genKey, made, lifetime))
        ? made
        : ((await store.get(genKey)) ?? made);
    }
    await store.extendIfEquals(genKey, generation, lifetime);
    return generation;
  };

  const seal = async (customerId: number): Promise<string> => {
    const generation = await generationFor(customerId);
    const issuedAt = now();
    const payload: SessionPayload = {
      customerId,
      generation,
      issuedAt,
      expiresAt: issuedAt + maxAgeMs,
      id: randomUUID(),
    };
    const record: SessionRecord = { customerId, generation };
    await store.set(sessionRecordKey(payload.id), JSON.stringify(record), maxAgeMs);
    return signPayload(key, payload);
  };

  // `Secure` comes from the reply's cookies: the browser's scheme (ClientInfo), behind a TLS
  // proxy too.
  const cookieOptions = (httpOnly: boolean): Omit<CookieOptions, 'maxAge'> => ({
    path: '/',
    httpOnly,
  });

  const markMode = (cookies: ReplyCookies, request: Request, reseller: boolean): void => {
    if (reseller && options.resellerArea === true) {
      cookies.set(SHOP_MODE_COOKIE, SHOP_MODE_RESELLER, {
        ...cookieOptions(false),
        maxAge: SESSION_MAX_AGE,
      });
    } else if (readCookie(request, SHOP_MODE_COOKIE) !== undefined) {
      cookies.clear(SHOP_MODE_COOKIE, cookieOptions(false));
    }
  };

  const readSession = async (request: Request): Promise<Session> => {
    const payload = open(readCookie(request, SESSION_COOKIE));
    if (payload === null) return { customerId: null };
    const [stored, generation] = await Promise.all([
      store.get(sessionRecordKey(payload.id)),
      store.get(generationKey(payload.customerId)),
    ]);
    const record = parseRecord(stored);
    const valid =
      record !== null &&
      generation !== null &&
      record.customerId === payload.customerId &&
      record.generation === payload.generation &&
      generation === payload.generation;
    return { customerId: valid ? payload.customerId : null };
  };

  return {
    open,
    seal,
    read(request) {
      let session = reads.get(request);
      if (session === undefined) {
        session = readSession(request);
        reads.set(request, session);
      }
      return session;
    },
    async start(cookies, _request, customerId) {
      cookies.set(SESSION_COOKIE, await seal(customerId), {
        ...cookieOptions(true),
        maxAge,
      });
      cookies.set(AUTHENTICATED_COOKIE, '1', {
        ...cookieOptions(false),
        maxAge: SESSION_MAX_AGE,
      });
    },
    async end(cookies, request) {
      cookies.clear(SESSION_COOKIE, cookieOptions(true));
      markMode(cookies, request, false);
      cookies.set(AUTHENTICATED_COOKIE, '0', {
        ...cookieOptions(false),
        maxAge: SESSION_MAX_AGE,
      });
      // The record of any cookie this key signed is deleted, expired or not.
      const value = readCookie(request, SESSION_COOKIE);
      if (value === undefined || value === '' || value.length > 1024) return;
      const payload = verifyPayload(key, value);
      if (!isPayload(payload)) return;
      await store.delete(sessionRecordKey(payload.id));
    },
    mark(cookies, loggedIn) {
      cookies.set(AUTHENTICATED_COOKIE, loggedIn ? '1' : '0', {
        ...cookieOptions(false),
        maxAge: SESSION_MAX_AGE,
      });
    },
    markMode,
    endAll(customerId) {
      // A new random value: no session issued before it carries it. No clock is compared.
      return store.set(generationKey(customerId), newGeneration(), maxAgeMs + GENERATION_MARGIN_MS);
    },
  };
}

/**
 * A stored session record, or null when absent or unreadable (only this module writes the
 * key: anything else is no session).
 */
function parseRecord(value: string | null): SessionRecord | null {
  if (value === null) return null;
  try {
    const parsed = JSON.parse(value) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { customerId, generation } = parsed as Record<string, unknown>;
    if (typeof customerId !== 'number' || typeof generation !== 'string') return null;
    return { customerId, generation };
  } catch {
    log.error('[session] unreadable session record in the store');
    return null;
  }
}

function isPayload(value: unknown): value is SessionPayload {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  return (
    typeof p.customerId === 'number' &&
    Number.isSafeInteger(p.customerId) &&
    p.customerId > 0 &&
    typeof p.generation === 'string' &&
    p.generation.length > 0 &&
    p.generation.length <= 64 &&
    typeof p.issuedAt === 'number' &&
    typeof p.expiresAt === 'number' &&
    typeof p.id === 'string' &&
    p.id.length > 0 &&
    p.id.length <= 64
  );
}
