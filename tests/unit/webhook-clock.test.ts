/**
 * The clock watch of the webhooks (src/server/webhooks/clock.ts): an authenticated timestamp
 * ahead of the tolerance says this copy's clock is behind (503, a log line naming the skew in
 * seconds, at most one a minute); stale ones say so only when several different requests in a
 * row are stale alike; a replayed request, however often, never moves the verdict.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CONSISTENT_STALE_REQUESTS, createClockWatch } from '../../src/server/webhooks/clock.ts';

const AHEAD = 30_000;
const AGE = 30_000;

function watch() {
  let now = 1_800_000_000_000;
  const lines: string[] = [];
  const clock = createClockWatch({
    source: 'contentful',
    aheadMs: AHEAD,
    maxAgeMs: AGE,
    now: () => now,
    log: (line) => lines.push(line),
  });
  return { clock, lines, advance: (ms: number) => (now += ms) };
}

describe('a timestamp ahead of this copy', () => {
  test('301 s ahead: clock off by 301 s, retry when it fits, one line naming the skew', () => {
    const { clock, lines } = watch();
    expect(clock.judge(301_000, 'sig-1')).toEqual({
      clockOff: true,
      skewSeconds: 301,
      retryAfterSeconds: 271,
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[webhooks\] contentful: this copy's clock is 301 s behind/);
    expect(lines[0]).toContain('tolerance 30 s');
  });

  test('the skew line is rate-limited: one a minute, the rest counted in the next', () => {
    const { clock, lines, advance } = watch();
    for (let i = 0; i < 50; i += 1) {
      clock.judge(300_000 + i, `sig-${i}`);
      advance(1_000);
    }
    expect(lines).toHaveLength(1);
    advance(10_000);
    clock.judge(300_000, 'sig-last');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('(49 more since the last line)');
  });
});

describe('stale timestamps', () => {
  test('one stale request is a refusal as stale, not a clock verdict', () => {
    const { clock, lines } = watch();
    expect(clock.judge(-300_000, 'sig-1')).toEqual({ clockOff: false });
    expect(lines).toEqual([]);
  });

  test(`${CONSISTENT_STALE_REQUESTS} different requests stale alike: this copy is ahead`, () => {
    const { clock, lines, advance } = watch();
    expect(clock.judge(-300_000, 'sig-1')).toEqual({ clockOff: false });
    advance(5_000);
    expect(clock.judge(-300_500, 'sig-2')).toEqual({ clockOff: false });
    advance(5_000);
    expect(clock.judge(-299_800, 'sig-3')).toMatchObject({ clockOff: true, skewSeconds: -300 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('300 s ahead of');
  });

  test('stale by different amounts (old requests replayed) is no clock verdict', () => {
    const { clock } = watch();
    expect(
      [-60_000, -3_600_000, -86_400_000].map((o, i) => clock.judge(o, `sig-${i}`).clockOff),
    ).toEqual([false, false, false]);
  });

  test('a request in the window between them: the clocks agree, the count starts again', () => {
    const { clock } = watch();
    clock.judge(-300_000, 'sig-1');
    clock.judge(-300_000, 'sig-2');
    clock.agreed();
    expect(clock.judge(-300_000, 'sig-3')).toEqual({ clockOff: false });
  });

  test('property: one captured request replayed any number of times never says the clock is off', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.integer({ min: 0, max: 120_000 }), fc.integer({ min: 30_001, max: 10 ** 9 })),
          {
            maxLength: 50,
          },
        ),
        (replays) => {
          const { clock, advance } = watch();
          for (const [wait, age] of replays) {
            advance(wait);
            expect(clock.judge(-age, 'the-captured-signature')).toEqual({ clockOff: false });
          }
        },
      ),
    );
  });
});
