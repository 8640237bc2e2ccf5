/**
 * The customer session (ARCHITECTURE.md: identity comes from a signed HttpOnly cookie, never
 * from a request body). The `session` cookie holds the customer id, when it was issued, when
 * it expires (7 days) and a random id, signed with HMAC-SHA256 under a key derived from
 * SESSION_SECRET. A tampered, malformed or expired cookie is no session.
 *
 * Beside it, the spec's `authenticated` marker (spec §4, §9: 1 or 0, 604800 s) is readable by
 * scripts and only a UI hint: nothing on the server trusts it.
 */
import { randomUUID } from 'node:crypto';
import { AUTHENTICATED_COOKIE_MAX_AGE, AUTHENTICATED_COOKIE_NAME } from '../commerce/account.ts';
import { readCookie, type CookieOptions, type ReplyCookies } from './cookies.ts';
import { deriveKey, signPayload, verifyPayload } from './keys.ts';

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
  /** Seconds since the epoch. */
  issuedAt: number;
  expiresAt: number;
  /** Random id of this login. */
  id: string;
}

export interface SessionManager {
  /** The session of a request: its valid cookie's customer, else a visitor. */
  read(request: Request): Session;
  /** The payload of a cookie value, or null when tampered, malformed or expired. */
  open(value: string | undefined): SessionPayload | null;
  /** A new cookie value for the customer (a new one at each login). */
  seal(customerId: number): string;
  /** Sets a new session and `authenticated=1` on the reply (login). */
  start(cookies: ReplyCookies, request: Request, customerId: number): void;
  /** Clears the session and sets `authenticated=0` (logout, failed login). */
  end(cookies: ReplyCookies, request: Request): void;
}

export interface SessionOptions {
  secret: string;
  /** Seconds since the epoch (tests). */
  now?: (() => number) | undefined;
  maxAge?: number | undefined;
}

const nowInSeconds = () => Math.floor(Date.now() / 1000);

/** Whether cookies of this request get `Secure`: the request URL is https. */
export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === 'https:';
}

export function createSessionManager(options: SessionOptions): SessionManager {
  const key = deriveKey(options.secret, 'session');
  const now = options.now ?? nowInSeconds;
  const maxAge = options.maxAge ?? SESSION_MAX_AGE;

  const open = (value: string | undefined): SessionPayload | null => {
    if (value === undefined || value === '' || value.length > 1024) return null;
    const payload = verifyPayload(key, value);
    if (!isPayload(payload)) return null;
    const at = now();
    if (payload.expiresAt <= at || payload.issuedAt > at + 60) return null;
    return payload;
  };

  const seal = (customerId: number): string => {
    const issuedAt = now();
    const payload: SessionPayload = {
      customerId,
      issuedAt,
      expiresAt: issuedAt + maxAge,
      id: randomUUID(),
    };
    return signPayload(key, payload);
  };

  const cookieOptions = (request: Request, httpOnly: boolean): Omit<CookieOptions, 'maxAge'> => ({
    path: '/',
    secure: isSecureRequest(request),
    httpOnly,
  });

  return {
    open,
    seal,
    read(request) {
      const payload = open(readCookie(request, SESSION_COOKIE));
      return { customerId: payload?.customerId ?? null };
    },
    start(cookies, request, customerId) {
      cookies.set(SESSION_COOKIE, seal(customerId), {
        ...cookieOptions(request, true),
        maxAge,
      });
      cookies.set(AUTHENTICATED_COOKIE, '1', {
        ...cookieOptions(request, false),
        maxAge: SESSION_MAX_AGE,
      });
    },
    end(cookies, request) {
      cookies.clear(SESSION_COOKIE, cookieOptions(request, true));
      cookies.set(AUTHENTICATED_COOKIE, '0', {
        ...cookieOptions(request, false),
        maxAge: SESSION_MAX_AGE,
      });
    },
  };
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
