/**
 * What the login form says about the throttle, from the API's error reply: the wait
 * of a refused attempt (429 'Too many attempts', `details.retryAfter` in seconds), and a
 * warning once few attempts are left before the waits start (401 'Invalid credentials',
 * `details.attemptsLeft`, sent from `LOGIN_WARNING_ATTEMPTS` left). Anything else in the
 * details (absent, not a whole number, out of range) is ignored: the spec text alone shows.
 */

/** The form warns when this many attempts (or fewer) are left before a wait. */
export const LOGIN_WARNING_ATTEMPTS = 2;

/** The longest wait shown in words: a day (the throttle's waits are at most 15 minutes). */
export const MAX_WAIT_SECONDS = 24 * 60 * 60;

export type ThrottleNotice =
  { kind: 'wait'; seconds: number } | { kind: 'warning'; attemptsLeft: number };

export interface ThrottledError {
  message: string;
  statusCode: number;
  details?: Readonly<Record<string, unknown>> | undefined;
}

const wholeNumber = (value: unknown, min: number, max: number): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
    ? value
    : null;

/** The notice a login (or any throttled form's) error carries, or null. */
export function throttleNotice(error: ThrottledError | null | undefined): ThrottleNotice | null {
  if (error === null || error === undefined) return null;
  if (error.statusCode === 429 && error.message === 'Too many attempts') {
    const seconds = wholeNumber(error.details?.retryAfter, 1, MAX_WAIT_SECONDS);
    return seconds === null ? null : { kind: 'wait', seconds };
  }
  if (error.statusCode === 401 && error.message === 'Invalid credentials') {
    const left = wholeNumber(error.details?.attemptsLeft, 0, LOGIN_WARNING_ATTEMPTS);
    return left === null ? null : { kind: 'warning', attemptsLeft: left };
  }
  return null;
}
