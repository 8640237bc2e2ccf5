/**
 * Cookies of a request and of its reply, framework-free: the API middleware hands methods a
 * `ReplyCookies` whose `Set-Cookie` headers it adds to whatever it answers.
 */

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie. */
  maxAge?: number | undefined;
  path?: string | undefined;
  httpOnly?: boolean | undefined;
  secure?: boolean | undefined;
  sameSite?: 'Lax' | 'Strict' | 'None' | undefined;
}

// RFC 6265 cookie-name token and cookie-value octets: anything else is refused, not escaped.
const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const VALUE = /^[!#-+\--:<-[\]-~]*$/;

/** One `Set-Cookie` header value. Throws on a name or value that would need escaping. */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  if (!NAME.test(name)) throw new TypeError(`Invalid cookie name: ${name}`);
  if (!VALUE.test(value)) throw new TypeError(`Invalid value for cookie ${name}`);
  const parts = [`${name}=${value}`];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${Math.trunc(options.maxAge)}`);
  parts.push(`Path=${options.path ?? '/'}`);
  if (options.httpOnly === true) parts.push('HttpOnly');
  if (options.secure === true) parts.push('Secure');
  if (options.sameSite !== undefined) parts.push(`SameSite=${options.sameSite}`);
  return parts.join('; ');
}

/** The request's cookies by name (the first of a repeated name wins, as browsers send them). */
export function parseCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (header === null) return cookies;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    const name = pair.slice(0, at).trim();
    if (name === '') continue;
    let value = pair.slice(at + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
      value = value.slice(1, -1);
    }
    if (!cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

/** A cookie of the request, or undefined. */
export function readCookie(request: Request, name: string): string | undefined {
  return parseCookies(request.headers.get('cookie')).get(name);
}

/** Cookies a call sets on its reply; the last value set for a name wins. */
export class ReplyCookies {
  readonly #cookies = new Map<string, string>();

  set(name: string, value: string, options: CookieOptions = {}): void {
    this.#cookies.set(name, serializeCookie(name, value, options));
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
