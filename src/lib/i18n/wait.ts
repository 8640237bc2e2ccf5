/**
 * A wait in French words ("Trop de tentatives. Veuillez réessayer dans 4 minutes."):
 * seconds under a minute, else whole minutes under an hour, else whole hours, always rounded
 * up so the words never promise less than the real wait. Islands use it with the texts they
 * are handed (`WAIT_MESSAGES`).
 */
import type { Translate } from './translate.ts';

export type WaitUnit = 'seconds' | 'minutes' | 'hours';

/** Message keys of the words (plural forms by `count`). */
export const WAIT_MESSAGES = [
  'wait.seconds_one',
  'wait.seconds_other',
  'wait.minutes_one',
  'wait.minutes_other',
  'wait.hours_one',
  'wait.hours_other',
] as const;

const UNIT_SECONDS: Readonly<Record<WaitUnit, number>> = { seconds: 1, minutes: 60, hours: 3600 };

/** The unit and count a wait of `seconds` is said in; null for no wait or a non-number. */
export function waitUnit(seconds: number): { unit: WaitUnit; count: number } | null {
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  const whole = Math.ceil(seconds);
  if (whole < 60) return { unit: 'seconds', count: whole };
  const minutes = Math.ceil(whole / UNIT_SECONDS.minutes);
  if (minutes < 60) return { unit: 'minutes', count: minutes };
  return { unit: 'hours', count: Math.ceil(whole / UNIT_SECONDS.hours) };
}

/** "4 minutes", "1 seconde", "2 heures"; '' for no wait. */
export function waitInWords(t: Translate, seconds: number): string {
  const said = waitUnit(seconds);
  return said === null ? '' : t(`wait.${said.unit}`, { count: said.count });
}
