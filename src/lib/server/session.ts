/**
 * The customer session: identity comes from a signed HttpOnly cookie, never from a request
 * body. The `session` cookie holds the customer id, when it was issued, when
 * it expires (7 days) and a random id, signed with HMAC-SHA256 under a key derived from
 * SESSION_SECRET. A tampered, malformed or expired cookie is no session.
 *
 * Sessions end server-side (issue 7 "sessions that end"), across server copies and restarts:
 * the shared store keeps one record per customer, `session:customer:{id}`, holding the time
 * before which every session of the customer is ended (password reset) and the ids of the
 * sessions logged out since. Reading a session costs one store read, only for a request that
 * carries a valid cookie; a replayed cookie of an ended session is a visitor's.
 *
 * Beside it, the spec's `authenticated` marker (spec §4, §9: 1 or 0, 604800 s) is readable by
 * scripts and only a UI hint: nothing on the server trusts it.
 */
import { randomUUID } from 'node:crypto';
import { AUTHENTICATED_COOKIE_MAX_AGE, AUTHENTICATED_COOKIE_NAME } from '../commerce/account.ts';
import { SHOP_MODE_COOKIE, SHOP_MODE_RESELLER } from '../commerce/shop-mode.ts';
import { readCookie, type CookieOptions, type ReplyCookies } from './cookies.ts';
import { deriveKey, signPayload, verifyPayload } from './keys.ts';
import { withLock } from './store/lock.ts';
import type { SharedStore } from './store/types.ts';
import { log } from './log.ts';

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
  /** Milliseconds since the epoch: a reset ends the sessions issued before it, to the ms. */
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
  /** The payload of a cookie value, or null when tampered, malformed or expired. */
  open(value: string | undefined): SessionPayload | null;
  /** A new cookie value for the customer (a new one at each login). */
  seal(customerId: number): string;
  /** Sets a new session and `authenticated=1` on the reply (login). */
  start(cookies: ReplyCookies, request: Request, customerId: number): void;
  /**
   * Ends the request's session in the store (a replay of its cookie is refused), clears the
   * cookie and sets `authenticated=0` (logout, failed login).
   */
  end(cookies: ReplyCookies, request: Request): Promise<void>;
  /** Ends every session of the customer issued until now (password reset), on every copy. */
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
  /** Where ended sessions are recorded (shared by every server copy). */
  store: SharedStore;
  /** Milliseconds since the epoch (tests). */
  now?: (() => number) | undefined;
  /** Lifetime in seconds (default 7 days). */
  maxAge?: number | undefined;
  /** The reseller area is on (FEATURE_RESELLER_AREA): only then is a reseller mode cookie set. */
  resellerArea?: boolean | undefined;
}

/** What the store keeps of a customer's ended sessions. */
interface EndedSessions {
  /** Sessions issued at or before this time (ms) are ended. */
  before: number;
  /** Ids of logged-out sessions issued after `before`, with their issue time (ms). */
  ids: Record<string, number>;
}

/** Store key of a customer's ended sessions. */
export const endedSessionsKey = (customerId: number): string => `session:customer:${customerId}`;

// Past this many logged-out ids, the oldest are folded into `before` (ending, at worst, a
// few other sessions older than them): a customer's record stays small.
const MAX_ENDED_IDS = 100;

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
    const at = now();
    if (payload.expiresAt <= at || payload.issuedAt > at + 60_000) return null;
    return payload;
  };

  const seal = (customerId: number): string => {
    const issuedAt = now();
    const payload: SessionPayload = {
      customerId,
      issuedAt,
      expiresAt: issuedAt + maxAgeMs,
      id: randomUUID(),
    };
    return signPayload(key, payload);
  };

  const ended = async (customerId: number): Promise<EndedSessions> =>
    parseEnded(await store.get(endedSessionsKey(customerId)));

  const isEnded = (record: EndedSessions, payload: SessionPayload) =>
    payload.issuedAt <= record.before || Object.hasOwn(record.ids, payload.id);

  /** Rewrites a customer's record under a lock (two logouts at once both count). */
  const updateEnded = (customerId: number, change: (record: EndedSessions) => EndedSessions) =>
    withLock(
      store,
      endedSessionsKey(customerId),
      async () => {
        const at = now();
        const record = change(await ended(customerId));
        // Ids of sessions that have expired anyway are dropped; the oldest beyond the cap
        // are folded into `before`.
        const ids = Object.entries(record.ids)
          .filter(([, issuedAt]) => issuedAt + maxAgeMs > at && issuedAt > record.before)
          .sort(([, a], [, b]) => a - b);
        let before = record.before;
        while (ids.length > MAX_ENDED_IDS) before = ids.shift()?.[1] ?? before;
        const kept: EndedSessions = { before, ids: Object.fromEntries(ids) };
        const lastIssued = Math.max(before, ...ids.map(([, issuedAt]) => issuedAt));
        await store.set(
          endedSessionsKey(customerId),
          JSON.stringify(kept),
          Math.max(1, lastIssued + maxAgeMs - at),
        );
      },
      { ttlMs: 10_000, waitMs: 10_000 },
    );

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
    if (isEnded(await ended(payload.customerId), payload)) return { customerId: null };
    return { customerId: payload.customerId };
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
    start(cookies, _request, customerId) {
      cookies.set(SESSION_COOKIE, seal(customerId), {
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
      const payload = open(readCookie(request, SESSION_COOKIE));
      if (payload === null) return;
      await updateEnded(payload.customerId, (record) => ({
        before: record.before,
        ids: { ...record.ids, [payload.id]: payload.issuedAt },
      }));
    },
    mark(cookies, loggedIn) {
      cookies.set(AUTHENTICATED_COOKIE, loggedIn ? '1' : '0', {
        ...cookieOptions(false),
        maxAge: SESSION_MAX_AGE,
      });
    },
    markMode,
    endAll(customerId) {
      // Every id recorded so far was issued before now: the time alone ends them.
      return updateEnded(customerId, () => ({ before: now(), ids: {} }));
    },
  };
}

/**
 * A stored record, or nothing ended when absent. Only this module writes the key: an
 * unreadable value is logged and read as nothing ended (the next logout or reset rewrites it).
 */
function parseEnded(value: string | null): EndedSessions {
  const none: EndedSessions = { before: 0, ids: {} };
  if (value === null) return none;
  try {
    const parsed = JSON.parse(value) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return none;
    const { before, ids } = parsed as Record<string, unknown>;
    const safeIds: Record<string, number> = {};
    if (typeof ids === 'object' && ids !== null) {
      for (const [id, issuedAt] of Object.entries(ids)) {
        if (typeof issuedAt === 'number') safeIds[id] = issuedAt;
      }
    }
    return { before: typeof before === 'number' ? before : 0, ids: safeIds };
  } catch {
    log.error('[session] unreadable record of ended sessions in the store');
    return none;
  }
}

function isPayload(value: unknown): value is SessionPayload {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  return (
    typeof p.customerId === 'number' &&
    Number.isSafeInteger(p.customerId) &&
    p.customerId > 0 &&
    typeof p.issuedAt === 'number' &&
    typeof p.expiresAt === 'number' &&
    typeof p.id === 'string'
  );
}
