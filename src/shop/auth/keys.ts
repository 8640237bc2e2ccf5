/**
 * Keys derived from the shop's one secret (`SESSION_SECRET`): one per purpose (HKDF-SHA256),
 * so a session cookie can never pass for a password-reset token, and HMAC signing helpers
 * with constant-time verification.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

// 'device': OWASP device cookies of the login throttle (src/shop/throttle/throttle.ts);
// 'cart-link': cart-link tokens (cart-redirect.ts); 'checkout': the checkout cookie
// (checkout-holder.ts).
export type KeyPurpose = 'session' | 'password-reset' | 'device' | 'cart-link' | 'checkout';

/** Shortest accepted secret (256 bits of text). */
export const MIN_SECRET_LENGTH = 32;

/** A 32-byte key for one purpose. Throws when the secret is shorter than MIN_SECRET_LENGTH. */
export function deriveKey(secret: string, purpose: KeyPurpose): Buffer {
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new RangeError(`SESSION_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  return Buffer.from(hkdfSync('sha256', secret, 'literie-storefront', purpose, 32));
}

/** `base64url(payload JSON).base64url(HMAC-SHA256)`. */
export function signPayload(key: Buffer, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(key, body)}`;
}

/**
 * The payload of a value made by `signPayload` with this key, or undefined when the value is
 * malformed or its signature does not match (compared in constant time).
 */
export function verifyPayload(key: Buffer, value: string): unknown {
  const dot = value.indexOf('.');
  if (dot <= 0 || dot !== value.lastIndexOf('.')) return undefined;
  const body = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  const given = Buffer.from(signature, 'base64url');
  // One spelling only: base64url decoding skips stray characters and a last character's
  // spare bits, so another spelling of the same bytes is refused here.
  if (given.toString('base64url') !== signature) return undefined;
  const expected = Buffer.from(mac(key, body), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function mac(key: Buffer, data: string): string {
  return createHmac('sha256', key).update(data).digest('base64url');
}
