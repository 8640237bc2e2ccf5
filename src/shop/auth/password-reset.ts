/**
 * Password-reset tokens (spec §7 generateOttAndToken / sendResetPasswordEmail): the link
 * mailed to the shopper carries a token signed with a key of its own (HKDF of SESSION_SECRET,
 * purpose 'password-reset'), holding the customer id, an expiry (1 h) and a fingerprint of
 * the customer's `date_modified`. A link is claimed in the shared store (`SET NX`) before the
 * password is set, so of two uses at the same moment, on one server copy or two, exactly one
 * goes through; the claim lasts as long as the link. Setting the password also changes
 * `date_modified`, so a used link no longer matches: a second check, that holds even if the
 * store forgot the claim.
 */
import { createHash, randomUUID } from 'node:crypto';
import { deriveKey, signPayload, verifyPayload } from './keys.ts';
import type { SharedStore } from '../state/types.ts';

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
   * The claims of a valid, unexpired token, else null. The fingerprint is the caller's check;
   * whether the link was used is `claim`'s.
   */
  verify(token: string): ResetTokenClaims | null;
  /**
   * Claims the link for one use, atomically across server copies: true for the one caller
   * that may set the password, false when the link was claimed before.
   */
  claim(claims: ResetTokenClaims): Promise<boolean>;
  /** Gives a claimed link back (the password could not be set: the shopper may try again). */
  release(claims: ResetTokenClaims): Promise<void>;
  fingerprint(dateModified: string): string;
}

/** Store key of a claimed reset link. */
export const usedResetKey = (id: string): string => `reset:used:${id}`;

export function createResetTokens(options: {
  secret: string;
  /** Where claimed links are recorded (shared by every server copy). */
  store: SharedStore;
  /** Seconds since the epoch (tests). */
  now?: (() => number) | undefined;
}): ResetTokens {
  const key = deriveKey(options.secret, 'password-reset');
  const { store } = options;
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
        typeof c.id !== 'string'
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
    claim(claims) {
      // Kept until the link expires (and a minute more, for clocks apart between copies).
      const ttlMs = (claims.expiresAt - now() + 60) * 1000;
      return store.setIfAbsent(usedResetKey(claims.id), String(claims.customerId), ttlMs);
    },
    release(claims) {
      return store.delete(usedResetKey(claims.id));
    },
  };
}
