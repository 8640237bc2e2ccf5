/**
 * Password-reset tokens (spec §7 generateOttAndToken / sendResetPasswordEmail): the link
 * mailed to the shopper carries a token signed with a key of its own (HKDF of SESSION_SECRET,
 * purpose 'password-reset'), holding the customer id, an expiry (1 h) and a fingerprint of
 * the customer's `date_modified`. Setting the password changes `date_modified`, so a used
 * link no longer matches: each link works once, across restarts and server copies. As
 * `date_modified` counts whole seconds, each server also remembers the links used within
 * their hour (a reset in the very second the link was made leaves the date unchanged).
 */
import { createHash, randomUUID } from 'node:crypto';
import { deriveKey, signPayload, verifyPayload } from './keys.ts';

/** A link is valid for one hour. */
export const RESET_TOKEN_TTL_SECONDS = 3_600;

export interface ResetTokenClaims {
  customerId: number;
  /** Fingerprint of the customer's `date_modified` when the link was made. */
  fingerprint: string;
  /** Seconds since the epoch. */
  expiresAt: number;
  /** Random id of the link. */
  id: string;
}

export interface ResetTokens {
  create(customer: { id: number; dateModified: string }): string;
  /**
   * The claims of a valid, unexpired, unused token, else null. The fingerprint is the
   * caller's check.
   */
  verify(token: string): ResetTokenClaims | null;
  /** Marks the token's link as used (after the password was set). */
  consume(claims: ResetTokenClaims): void;
  fingerprint(dateModified: string): string;
}

// Links used within their hour; beyond this many, the oldest are forgotten (the date_modified
// fingerprint still refuses them).
const MAX_USED = 10_000;

export function createResetTokens(options: {
  secret: string;
  now?: (() => number) | undefined;
}): ResetTokens {
  const key = deriveKey(options.secret, 'password-reset');
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const used = new Map<string, number>();
  const fingerprint = (dateModified: string) =>
    createHash('sha256').update(dateModified).digest('base64url').slice(0, 22);
  return {
    fingerprint,
    create(customer) {
      const claims: ResetTokenClaims = {
        customerId: customer.id,
        fingerprint: fingerprint(customer.dateModified),
        expiresAt: now() + RESET_TOKEN_TTL_SECONDS,
        id: randomUUID(),
      };
      return signPayload(key, claims);
    },
    verify(token) {
      if (token.length > 1024) return null;
      const claims = verifyPayload(key, token);
      if (typeof claims !== 'object' || claims === null) return null;
      const c = claims as Record<string, unknown>;
      if (
        typeof c.customerId !== 'number' ||
        !Number.isSafeInteger(c.customerId) ||
        c.customerId <= 0 ||
        typeof c.fingerprint !== 'string' ||
        typeof c.expiresAt !== 'number' ||
        c.expiresAt <= now() ||
        typeof c.id !== 'string' ||
        used.has(c.id)
      ) {
        return null;
      }
      return {
        customerId: c.customerId,
        fingerprint: c.fingerprint,
        expiresAt: c.expiresAt,
        id: c.id,
      };
    },
    consume(claims) {
      const at = now();
      for (const [id, expiresAt] of used) if (expiresAt <= at) used.delete(id);
      if (used.size >= MAX_USED) {
        const oldest = used.keys().next();
        if (oldest.done !== true) used.delete(oldest.value);
      }
      used.set(claims.id, claims.expiresAt);
    },
  };
}
