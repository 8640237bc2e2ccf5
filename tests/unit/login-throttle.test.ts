/**
 * The login form shows the throttle's wait in words and warns before it. The wait in
 * French words (`waitInWords`, i18n/wait.ts) and the notice read from an error reply
 * (`throttleNotice`, commerce/login-throttle.ts).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import fr from '../../src/lib/i18n/fr.json' with { type: 'json' };
import { pickMessages } from '../../src/lib/i18n/index.ts';
import { createTranslator } from '../../src/lib/i18n/translate.ts';
import { WAIT_MESSAGES, waitInWords, waitUnit } from '../../src/lib/i18n/wait.ts';
import {
  LOGIN_WARNING_ATTEMPTS,
  MAX_WAIT_SECONDS,
  throttleNotice,
} from '../../src/lib/commerce/login-throttle.ts';
import { AUTH_FORMS_MESSAGES } from '../../src/islands/auth/AuthForms.tsx';

const t = createTranslator(pickMessages(WAIT_MESSAGES));
/** Seconds in one of each unit, stated here rather than read from the code under test. */
const UNIT_SECONDS = { seconds: 1, minutes: 60, hours: 3600 } as const;
const messages: Readonly<Record<string, string>> = fr;

describe('waitInWords', () => {
  test.each([
    [1, '1 seconde'],
    [2, '2 secondes'],
    [59, '59 secondes'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [240, '4 minutes'],
    [900, '15 minutes'],
    [3540, '59 minutes'],
    [3541, '1 heure'],
    [3600, '1 heure'],
    [3601, '2 heures'],
    [0.2, '1 seconde'],
  ])('%s s → %s', (seconds, words) => {
    expect(waitInWords(t, seconds)).toBe(words);
  });

  test('no wait, or not a number: no words', () => {
    for (const seconds of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(waitInWords(t, seconds)).toBe('');
    }
  });

  test('the words never promise less than the wait, and round up by less than one unit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_WAIT_SECONDS }), (seconds) => {
        const said = waitUnit(seconds);
        if (said === null) throw new Error(`no words for ${String(seconds)} s`);
        const size = UNIT_SECONDS[said.unit];
        expect(said.count * size).toBeGreaterThanOrEqual(seconds);
        expect(said.count * size - seconds).toBeLessThan(size);
        // The largest unit that fits: seconds under a minute, minutes under an hour.
        if (said.unit === 'seconds') expect(said.count).toBeLessThan(60);
        if (said.unit === 'minutes') expect(said.count).toBeLessThan(60);
        if (said.unit === 'hours') expect(seconds).toBeGreaterThan(59 * 60);
      }),
      { numRuns: 500 },
    );
  });

  test('French words with the right plural: "1 minute", "4 minutes", never a key', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: MAX_WAIT_SECONDS, noNaN: true }), (seconds) => {
        const said = waitUnit(seconds);
        if (said === null) throw new Error(`no words for ${String(seconds)} s`);
        const words = waitInWords(t, seconds);
        const noun = { seconds: 'seconde', minutes: 'minute', hours: 'heure' }[said.unit];
        expect(words).toBe(`${String(said.count)} ${noun}${said.count > 1 ? 's' : ''}`);
      }),
      { numRuns: 500 },
    );
  });
});

describe('throttleNotice', () => {
  const tooMany = (details?: Record<string, unknown>) => ({
    message: 'Too many attempts',
    statusCode: 429,
    details,
  });
  const invalid = (details?: Record<string, unknown>) => ({
    message: 'Invalid credentials',
    statusCode: 401,
    details,
  });

  test('a refused attempt with its wait', () => {
    expect(throttleNotice(tooMany({ retryAfter: 240 }))).toEqual({ kind: 'wait', seconds: 240 });
  });

  test('a wrong password with few attempts left', () => {
    for (let left = 0; left <= LOGIN_WARNING_ATTEMPTS; left += 1) {
      expect(throttleNotice(invalid({ attemptsLeft: left }))).toEqual({
        kind: 'warning',
        attemptsLeft: left,
      });
    }
  });

  test('no details, other errors, or hostile details: no notice (the spec text alone)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.double(),
          fc.integer({ min: -1e9, max: 0 }),
          fc.integer({ min: MAX_WAIT_SECONDS + 1 }),
        ),
        fc.constantFrom('retryAfter', 'attemptsLeft'),
        (value, field) => {
          const valid =
            typeof value === 'number' &&
            Number.isInteger(value) &&
            (field === 'retryAfter'
              ? value >= 1 && value <= MAX_WAIT_SECONDS
              : value >= 0 && value <= LOGIN_WARNING_ATTEMPTS);
          const error =
            field === 'retryAfter' ? tooMany({ [field]: value }) : invalid({ [field]: value });
          expect(throttleNotice(error) !== null).toBe(valid);
        },
      ),
      { numRuns: 500 },
    );
    expect(throttleNotice(null)).toBeNull();
    expect(throttleNotice(tooMany())).toBeNull();
    expect(throttleNotice(invalid({ attemptsLeft: LOGIN_WARNING_ATTEMPTS + 1 }))).toBeNull();
    // The wait of another error is not shown.
    expect(
      throttleNotice({
        message: 'Email already in use',
        statusCode: 409,
        details: { retryAfter: 5 },
      }),
    ).toBeNull();
  });

  test('the login form is handed every text it shows', () => {
    const keys: readonly string[] = AUTH_FORMS_MESSAGES;
    for (const key of [
      ...WAIT_MESSAGES,
      'throttle.wait',
      'login.attemptsLeft_one',
      'login.attemptsLeft_other',
      'login.attemptsLeftNone',
    ]) {
      expect(keys).toContain(key);
      expect(messages[key]).toBeTruthy();
    }
    const form = createTranslator(pickMessages(AUTH_FORMS_MESSAGES));
    expect(form('throttle.wait', { wait: waitInWords(form, 240) })).toBe(
      'Trop de tentatives. Veuillez réessayer dans 4 minutes.',
    );
    expect(form('login.attemptsLeft', { count: 2 })).toBe(
      'Attention : encore 2 tentatives avant un blocage temporaire.',
    );
  });
});
