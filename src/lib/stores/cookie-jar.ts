/**
 * The cookies the stores read and write (`cart-id`, `authenticated`), behind a small jar so that
 * the stores run on the server (no cookies: nothing read, nothing written) and in unit tests
 * (`setCookieJar` with an in-memory jar).
 */
import { readCookie } from '../commerce/cookie.ts';

export interface CookieJar {
  /** The value of cookie `name`, or undefined. */
  get(name: string): string | undefined;
  /** Writes one `document.cookie` string (`name=value; Max-Age=...; Path=/; SameSite=Lax`). */
  set(cookie: string): void;
  /** Whether the page is served over https (cookies then carry `Secure`). */
  readonly secure: boolean;
}

/** `document.cookie`, or an empty jar where there is no document (server rendering). */
export const documentCookieJar: CookieJar = {
  get: (name) => (typeof document === 'undefined' ? undefined : readCookie(document.cookie, name)),
  set: (cookie) => {
    if (typeof document !== 'undefined') document.cookie = cookie;
  },
  get secure() {
    return typeof location !== 'undefined' && location.protocol === 'https:';
  },
};

let current: CookieJar = documentCookieJar;

export function cookieJar(): CookieJar {
  return current;
}

/**
 * Replaces the jar; `setCookieJar()` puts `document.cookie` back.
 * @internal The tests' seam: they run the stores against a jar of their own, without a DOM.
 */
export function setCookieJar(jar: CookieJar = documentCookieJar): void {
  current = jar;
}
