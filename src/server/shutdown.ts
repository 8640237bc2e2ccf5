/**
 * The drained stop of a copy of the shop (`npm start`, `npm run serve`): what SIGTERM does, in
 * this order (docs/operations.md, "Probes and the drained stop"):
 *
 * 1. At once, every worker's `/readyz` answers 503 `draining` (`health.ts`), while every worker
 *    keeps serving; the rebuilds stop: a full build under way is given up (its release is never
 *    made current, its events are not recorded as built), a publish under way may finish within
 *    the bound below, and the build lease is released so another copy builds at once.
 * 2. For `SHUTDOWN_DELAY_MS` (default 5 s) nothing else changes: a balancer polling `/readyz`
 *    stops sending new requests meanwhile.
 * 3. Then the workers stop accepting connections, close the idle kept-alive ones, answer the
 *    requests in flight with `Connection: close`, and have `SHUTDOWN_TIMEOUT_MS` (default 25 s)
 *    to finish them (cut past it).
 * 4. The process exits 0 once the workers have exited and the rebuilds have stopped.
 *
 * SIGINT (Ctrl-C at a terminal, where no balancer waits) skips the delay. A second SIGTERM or
 * SIGINT stops at once: the workers are killed, the process exits 1. Should a step hang past
 * both bounds and a margin, the process exits 1 too, with one line saying so.
 */

/** The settings of a drained stop (ms). */
export interface ShutdownSettings {
  /** `SHUTDOWN_DELAY_MS`: serving on, unready, before the drain. */
  delayMs: number;
  /** `SHUTDOWN_TIMEOUT_MS`: the drain's bound for the requests (and a publish) in flight. */
  timeoutMs: number;
}

/** What a drained stop acts on: the supervisor, and the process. */
export interface ShutdownSteps {
  /** Every worker's `/readyz` fails from now on; they keep serving. */
  unready(): void;
  /** The build given up, a publish finished within `limitMs` or given up, the lease released. */
  stopRebuilds(limitMs: number): Promise<void>;
  /** The workers stop accepting and finish the requests in flight within `limitMs`. */
  drain(limitMs: number): Promise<void>;
  /** What else the process holds (the sandbox of `npm start`), closed after the drain. */
  release?(): Promise<void>;
  /** Kills the workers at once. */
  kill(): void;
  exit(code: number): void;
  log(line: string): void;
  logError(line: string): void;
}

/** Margin past the delay and the timeout before a hung stop is cut (ms). */
export const SHUTDOWN_MARGIN_MS = 10_000;

/**
 * The handler of the stop signals: the first starts the drained stop (`SIGINT` without the
 * delay), the next one stops at once.
 */
export function createShutdown(
  settings: ShutdownSettings,
  steps: ShutdownSteps,
): (signal: NodeJS.Signals) => void {
  let stopping = false;
  return (signal) => {
    if (stopping) {
      steps.logError(`[serve] ${signal} again: stopping at once, requests in flight are cut`);
      steps.kill();
      steps.exit(1);
      return;
    }
    stopping = true;
    const delayMs = signal === 'SIGINT' ? 0 : settings.delayMs;
    const { timeoutMs } = settings;
    steps.log(
      `[serve] ${signal}: not ready from now on; serving ${String(delayMs)} ms more, then finishing the requests in flight (at most ${String(timeoutMs)} ms)`,
    );
    steps.unready();
    const hung = setTimeout(
      () => {
        steps.logError(
          `[serve] the stop did not end within ${String(delayMs + timeoutMs + SHUTDOWN_MARGIN_MS)} ms: exiting now`,
        );
        steps.kill();
        steps.exit(1);
      },
      delayMs + timeoutMs + SHUTDOWN_MARGIN_MS,
    );
    const rebuilds = steps.stopRebuilds(delayMs + timeoutMs);
    const drained = new Promise<void>((resolve) => {
      setTimeout(resolve, delayMs);
    }).then(() => {
      steps.log('[serve] draining: no new connections, finishing the requests in flight');
      return steps.drain(timeoutMs);
    });
    Promise.all([rebuilds, drained])
      .then(async () => {
        await steps.release?.();
        clearTimeout(hung);
        steps.log('[serve] drained: stopped');
        steps.exit(0);
      })
      .catch((error: unknown) => {
        clearTimeout(hung);
        steps.logError(
          `[serve] the stop failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        steps.kill();
        steps.exit(1);
      });
  };
}

/** The supervisor's side of a drained stop (`supervisor.ts`). */
interface Drainable {
  unready(): void;
  stopRebuilds(limitMs: number): Promise<void>;
  close(drainLimitMs?: number): Promise<void>;
  kill(): void;
}

/**
 * Installs the drained stop on SIGTERM and SIGINT for `supervisor`, closing `release` (what
 * else the process holds) after it.
 */
export function stopOnSignals(
  supervisor: Drainable,
  settings: ShutdownSettings,
  log: { info(line: string): void; error(line: string): void },
  release?: () => Promise<void>,
): void {
  const onSignal = createShutdown(settings, {
    unready: () => {
      supervisor.unready();
    },
    stopRebuilds: (limitMs) => supervisor.stopRebuilds(limitMs),
    drain: (limitMs) => supervisor.close(limitMs),
    ...(release === undefined ? {} : { release }),
    kill: () => {
      supervisor.kill();
    },
    exit: (code) => process.exit(code),
    log: (line) => {
      log.info(line);
    },
    logError: (line) => {
      log.error(line);
    },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, onSignal);
}
