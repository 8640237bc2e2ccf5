/**
 * Cookies of a request and of its reply, framework-free: the API middleware hands methods a
 * `ReplyCookies` whose `Set-Cookie` headers it adds to whatever it answers.
 */
import {
  readCookie as readCookieHeader,
  serializeCookie as formatCookie,
  type CookieOptions,
} from '../../lib/commerce/cookie.ts';

export type { CookieOptions };

// RFC 6265 cookie-name token and cookie-value octets: the server's cookies (signed session,
// marker, cart id) never need escaping, so anything else is a bug, refused rather than escaped.
const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const VALUE = /^[!#-+\--:<-[\]-~]*$/;

/** One `Set-Cookie` header value (`commerce/cookie.ts` format). Throws on a name or value that would need escaping. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  if (!NAME.test(name)) throw new TypeError(`Invalid cookie name: ${name}`);
  if (!VALUE.test(value)) throw new TypeError(`Invalid value for cookie ${name}`);
  return formatCookie(name, value, options);
}

/** A cookie of the request, or undefined. */
export function readCookie(request: Request, name: string): string | undefined {
  return readCookieHeader(request.headers.get('cookie'), name);
}

/**
 * Cookies a call sets on its reply; the last value set for a name wins. Over https (the
 * browser's scheme, `ClientInfo.secure`: https behind a trusted TLS proxy too) every cookie
 * gets `Secure`.
 */
export class ReplyCookies {
  readonly #cookies = new Map<string, string>();
  readonly #secure: boolean;

  constructor(options: { secure: boolean }) {
    this.#secure = options.secure;
  }

  set(name: string, value: string, options: CookieOptions): void {
    const secure = this.#secure || options.secure === true;
    this.#cookies.set(name, serializeCookie(name, value, { ...options, secure }));
  }

  /** Deletes the cookie in the browser (same path, Max-Age 0). */
  clear(name: string, options: Omit<CookieOptions, 'maxAge'> = {}): void {
    this.set(name, '', { ...options, maxAge: 0 });
  }

  /** The `Set-Cookie` header values. */
  headers(): string[] {
    return [...this.#cookies.values()];
  }
}
