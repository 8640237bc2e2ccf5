/**
 * What a webhook's timestamp out of its window says about this copy's clock. Only
 * authenticated requests come here (a Contentful signature that holds, the BigCommerce secret
 * header): an attacker without the secret cannot move this copy to 503.
 *
 * - A timestamp ahead of our clock by more than the tolerance: the sender stamped it in its
 *   present, so this copy's clock is behind. 503 with `Retry-After` (a sender retries a 5xx,
 *   never a 401), one rate-limited log line naming the skew in seconds.
 * - A timestamp older than the window: a captured request replayed late, or this copy's clock
 *   ahead; one request cannot tell. It is 401, unless several different authenticated requests
 *   in a row were all stale by about the same amount (within the window's width), with no
 *   request in the window between them: then the clock is off, 503 and the log line.
 *
 * Either way nothing out of the window is ever accepted: the verdict only picks the status of a
 * refusal, so a replay gains nothing from it.
 */

/** Different stale requests in a row, alike, that say this copy's clock is ahead. */
export const CONSISTENT_STALE_REQUESTS = 3;
/** Stale requests count together within this time. */
const STALE_MEMORY_MS = 10 * 60_000;
/** At most one skew line per this time (the others are counted in the next one). */
const SKEW_LOG_EVERY_MS = 60_000;

export type ClockVerdict =
  /** Stale, and nothing says the clock is off: refuse as stale (401). */
  | { clockOff: false }
  /** This copy's clock is off by `skewSeconds` (positive: behind the sender's): 503. */
  | { clockOff: true; skewSeconds: number; retryAfterSeconds: number };

export interface ClockWatch {
  /**
   * The verdict on an authenticated request whose timestamp is `offsetMs` from our clock
   * (timestamp minus now) and out of the window; `key` names the request (its replay key).
   */
  judge(offsetMs: number, key: string): ClockVerdict;
  /** A request in the window was authenticated: the clocks agree, stale requests so far count no more. */
  agreed(): void;
}

export interface ClockWatchOptions {
  /** `contentful` or `bigcommerce`, for the log line. */
  source: string;
  /** How far ahead of our clock a timestamp may be (ms). */
  aheadMs: number;
  /** How old a timestamp may be (ms): the window's other side. */
  maxAgeMs: number;
  now: () => number;
  log: (line: string) => void;
}

const seconds = (ms: number) => Math.round(ms / 1000);
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export function createClockWatch(options: ClockWatchOptions): ClockWatch {
  const { source, aheadMs, maxAgeMs, now } = options;
  let stale: { key: string; offsetMs: number; at: number }[] = [];
  let lastLine = -Infinity;
  let unlogged = 0;

  const logSkew = (skewMs: number, why: string) => {
    const at = now();
    if (at - lastLine < SKEW_LOG_EVERY_MS) {
      unlogged += 1;
      return;
    }
    const more = unlogged > 0 ? ` (${unlogged} more since the last line)` : '';
    lastLine = at;
    unlogged = 0;
    const direction = skewMs > 0 ? 'behind' : 'ahead of';
    options.log(
      `[webhooks] ${source}: this copy's clock is ${Math.abs(seconds(skewMs))} s ${direction} ` +
        `the sender's (${why}; tolerance ${seconds(skewMs > 0 ? aheadMs : maxAgeMs)} s): ` +
        `answering 503 so the sender retries; set this machine's clock (NTP)${more}`,
    );
  };

  return {
    judge(offsetMs, key) {
      if (offsetMs > aheadMs) {
        logSkew(offsetMs, 'an authenticated timestamp ahead of it');
        // When the sender resends the same timestamp, it fits once our clock has caught up.
        return {
          clockOff: true,
          skewSeconds: seconds(offsetMs),
          retryAfterSeconds: clamp(Math.ceil((offsetMs - aheadMs) / 1000), 5, 300),
        };
      }
      const at = now();
      stale = stale.filter((entry) => at - entry.at < STALE_MEMORY_MS && entry.key !== key);
      stale.push({ key, offsetMs, at });
      stale = stale.slice(-CONSISTENT_STALE_REQUESTS);
      const offsets = stale.map((entry) => entry.offsetMs);
      const alike = Math.max(...offsets) - Math.min(...offsets) <= maxAgeMs;
      if (stale.length < CONSISTENT_STALE_REQUESTS || !alike) return { clockOff: false };
      const skewMs = offsets.reduce((sum, value) => sum + value, 0) / offsets.length;
      logSkew(skewMs, `${CONSISTENT_STALE_REQUESTS} different authenticated requests stale alike`);
      return { clockOff: true, skewSeconds: seconds(skewMs), retryAfterSeconds: 60 };
    },
    agreed() {
      stale = [];
    },
  };
}
