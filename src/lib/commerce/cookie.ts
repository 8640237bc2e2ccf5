/**
 * Cookie strings, read and written the same way by the browser stores (`document.cookie`) and
 * anything else holding a `Cookie` header. Pure: no `document` here.
 */

/** The value of cookie `name` in a `Cookie` header / `document.cookie` string, decoded. */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header || name === '') return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index === -1) continue;
    if (part.slice(0, index).trim() !== name) continue;
    let raw = part.slice(index + 1).trim();
    // RFC 6265 allows a value in double quotes.
    if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) raw = raw.slice(1, -1);
    try {
      return decodeURIComponent(raw);
    } catch {
      // A malformed escape (`%E0%A4%A`) is not a value we wrote: treat as absent.
      return undefined;
    }
  }
  return undefined;
}

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie. */
  maxAge: number;
  /** Default `/`. */
  path?: string | undefined;
  /** Add `Secure` (pages served over https). */
  secure?: boolean | undefined;
  /** Add `HttpOnly` (the server's session cookie: scripts cannot read it). */
  httpOnly?: boolean | undefined;
}

/**
 * A `document.cookie` / `Set-Cookie` string: `name=value; Max-Age=n; Path=/; SameSite=Lax`
 * (every cookie of the shop is Lax), plus `HttpOnly` and `Secure` when asked.
 */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Max-Age=${String(Math.max(0, Math.floor(options.maxAge)))}`,
    `Path=${options.path ?? '/'}`,
  ];
  if (options.httpOnly === true) parts.push('HttpOnly');
  parts.push('SameSite=Lax');
  if (options.secure === true) parts.push('Secure');
  return parts.join('; ');
}
