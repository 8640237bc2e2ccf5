/**
 * The drained stop's order (src/server/shutdown.ts), on fake timers: SIGTERM makes the workers
 * unready and stops the rebuilds at once, drains only after `SHUTDOWN_DELAY_MS` with
 * `SHUTDOWN_TIMEOUT_MS` as its bound, then releases the rest and exits 0; SIGINT skips the delay;
 * a second signal kills and exits 1 at once; a stop hung past its bounds exits 1. Also the two
 * settings' defaults and checks (src/server/rebuild/config.ts).
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createShutdown, SHUTDOWN_MARGIN_MS } from '../../src/server/shutdown.ts';
import { readServeConfig, ServeConfigError } from '../../src/server/rebuild/config.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Steps recording what happened when (fake clock), each promise settled by the test. */
function recorder() {
  const events: string[] = [];
  let finishDrain: () => void = () => undefined;
  let finishRebuilds: () => void = () => undefined;
  const exits: number[] = [];
  const steps = {
    unready: () => events.push(`unready@${String(Date.now())}`),
    stopRebuilds: (limitMs: number) => {
      events.push(`stopRebuilds(${String(limitMs)})@${String(Date.now())}`);
      return new Promise<void>((resolve) => {
        finishRebuilds = resolve;
      });
    },
    drain: (limitMs: number) => {
      events.push(`drain(${String(limitMs)})@${String(Date.now())}`);
      return new Promise<void>((resolve) => {
        finishDrain = resolve;
      });
    },
    release: () => {
      events.push(`release@${String(Date.now())}`);
      return Promise.resolve();
    },
    kill: () => events.push(`kill@${String(Date.now())}`),
    exit: (code: number) => {
      exits.push(code);
      events.push(`exit(${String(code)})@${String(Date.now())}`);
    },
    log: () => undefined,
    logError: () => undefined,
  };
  return {
    steps,
    events,
    exits,
    drained: () => {
      finishDrain();
    },
    rebuildsStopped: () => {
      finishRebuilds();
    },
  };
}

describe('the drained stop', () => {
  test('SIGTERM: unready and rebuilds at once, the drain after the delay, then exit 0', async () => {
    vi.setSystemTime(0);
    const r = recorder();
    const onSignal = createShutdown({ delayMs: 3_000, timeoutMs: 20_000 }, r.steps);
    onSignal('SIGTERM');
    expect(r.events).toEqual(['unready@0', 'stopRebuilds(23000)@0']);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(r.events).toHaveLength(2); // still serving, unready
    await vi.advanceTimersByTimeAsync(1);
    expect(r.events).toEqual(['unready@0', 'stopRebuilds(23000)@0', 'drain(20000)@3000']);
    r.drained();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(r.exits).toEqual([]); // a publish still finishing
    r.rebuildsStopped();
    await vi.advanceTimersByTimeAsync(0);
    expect(r.events.slice(3)).toEqual(['release@4000', 'exit(0)@4000']);
    // The guard against a hung stop was cleared.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(r.exits).toEqual([0]);
  });

  test('SIGINT drains without the delay', async () => {
    vi.setSystemTime(0);
    const r = recorder();
    createShutdown({ delayMs: 3_000, timeoutMs: 20_000 }, r.steps)('SIGINT');
    await vi.advanceTimersByTimeAsync(0);
    expect(r.events).toEqual(['unready@0', 'stopRebuilds(20000)@0', 'drain(20000)@0']);
    r.drained();
    r.rebuildsStopped();
    await vi.advanceTimersByTimeAsync(0);
    expect(r.exits).toEqual([0]);
  });

  test('a second signal stops at once: workers killed, exit 1', async () => {
    vi.setSystemTime(0);
    const r = recorder();
    const onSignal = createShutdown({ delayMs: 3_000, timeoutMs: 20_000 }, r.steps);
    onSignal('SIGTERM');
    await vi.advanceTimersByTimeAsync(1_000);
    onSignal('SIGINT');
    expect(r.events.slice(2)).toEqual(['kill@1000', 'exit(1)@1000']);
    expect(r.events).not.toContain('drain(20000)@1000');
  });

  test('a stop hung past the delay, the timeout and the margin exits 1', async () => {
    vi.setSystemTime(0);
    const r = recorder();
    createShutdown({ delayMs: 1_000, timeoutMs: 2_000 }, r.steps)('SIGTERM');
    await vi.advanceTimersByTimeAsync(3_000 + SHUTDOWN_MARGIN_MS - 1);
    expect(r.exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(r.exits).toEqual([1]);
    expect(r.events).toContain(`kill@${String(3_000 + SHUTDOWN_MARGIN_MS)}`);
  });
});

describe('the drain settings', () => {
  test('5 s of delay and 25 s of timeout by default, bad values named', () => {
    const config = readServeConfig({});
    expect([config.shutdownDelayMs, config.shutdownTimeoutMs]).toEqual([5_000, 25_000]);
    const set = readServeConfig({ SHUTDOWN_DELAY_MS: '200', SHUTDOWN_TIMEOUT_MS: '3000' });
    expect([set.shutdownDelayMs, set.shutdownTimeoutMs]).toEqual([200, 3_000]);
    expect(() => readServeConfig({ SHUTDOWN_DELAY_MS: '5s' })).toThrow(ServeConfigError);
    expect(() => readServeConfig({ SHUTDOWN_TIMEOUT_MS: '10' })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
  });
});
