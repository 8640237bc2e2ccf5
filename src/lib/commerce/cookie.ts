/**
 * Cookie strings, read and written the same way by the browser stores (`document.cookie`) and
 * anything else holding a `Cookie` header. Pure: no `document` here.
 */

/** The value of cookie `name` in a `Cookie` header / `document.cookie` string, decoded. */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index === -1) continue;
    if (part.slice(0, index).trim() !== name) continue;
    const raw = part.slice(index + 1).trim();
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
  path?: string;
  /** Add `Secure` (pages served over https). */
  secure?: boolean;
}

/** A `document.cookie` / `Set-Cookie` string: `name=value; Max-Age=n; Path=/; SameSite=Lax`. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Max-Age=${String(Math.max(0, Math.floor(options.maxAge)))}`,
    `Path=${options.path ?? '/'}`,
    'SameSite=Lax',
  ];
  if (options.secure === true) parts.push('Secure');
  return parts.join('; ');
}
