/**
 * Password-reset tokens (spec §7 generateOttAndToken / sendResetPasswordEmail): the link
 * mailed to the shopper carries a token signed with a key of its own (HKDF of SESSION_SECRET,
 * purpose 'password-reset'), holding the customer id, an expiry (1 h) and a fingerprint of
 * the customer's `date_modified`. Setting the password changes `date_modified`, so a used
 * link no longer matches: each link works once.
 */
import { createHash } from 'node:crypto';
import { deriveKey, signPayload, verifyPayload } from './keys.ts';

/** A link is valid for one hour. */
export const RESET_TOKEN_TTL_SECONDS = 3_600;

export interface ResetTokenClaims {
  customerId: number;
  /** Fingerprint of the customer's `date_modified` when the link was made. */
  fingerprint: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

export interface ResetTokens {
  create(customer: { id: number; dateModified: string }): string;
  /** The claims of a valid, unexpired token, else null. The fingerprint is the caller's check. */
  verify(token: string): ResetTokenClaims | null;
  fingerprint(dateModified: string): string;
}

export function createResetTokens(options: {
  secret: string;
  now?: (() => number) | undefined;
}): ResetTokens {
  const key = deriveKey(options.secret, 'password-reset');
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const fingerprint = (dateModified: string) =>
    createHash('sha256').update(dateModified).digest('base64url').slice(0, 22);
  return {
    fingerprint,
    create(customer) {
      const claims: ResetTokenClaims = {
        customerId: customer.id,
        fingerprint: fingerprint(customer.dateModified),
        expiresAt: now() + RESET_TOKEN_TTL_SECONDS,
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
        c.expiresAt <= now()
      ) {
        return null;
      }
      return { customerId: c.customerId, fingerprint: c.fingerprint, expiresAt: c.expiresAt };
    },
  };
}
