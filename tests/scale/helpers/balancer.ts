/**
 * A small load balancer for the tests, as an operator's would use the shop's probes
 * (`balancer-thread.ts`, in a thread of its own): round robin over the copies whose `/readyz`
 * answered 200 at its last poll, polled every `pollMs`, no retry, so every failure shows in the
 * load's figures (502: a copy failed the request; 503: no copy was ready).
 */
import { Worker } from 'node:worker_threads';
import type { BalancerData, BalancerReport } from './balancer-thread.ts';

export interface TestBalancer {
  url: string;
  /** Whether the balancer's last poll of `base` said ready. */
  ready(base: string): boolean;
  /** Requests sent to `base` so far (updated every poll interval). */
  sent(base: string): number;
  /** Each change of a copy's readiness as the balancer saw it: when, which, why. */
  changes(): string[];
  /** Requests answered 502 (a copy failed them) and 503 (no copy ready). */
  failures(): { proxied: number; noCopy: number };
  /** Stops it; its counts are final once this resolves. */
  close(): Promise<void>;
}

/** Starts a balancer over `bases` (`http://127.0.0.1:PORT` of each copy). */
export async function startBalancer(
  bases: string[],
  pollMs = 100,
  timeoutMs = 2_000,
): Promise<TestBalancer> {
  const data: BalancerData = { bases, pollMs, timeoutMs };
  const thread = new Worker(new URL('./balancer-thread.ts', import.meta.url), { workerData: data });
  const readiness = new Map<string, boolean>();
  const changes: string[] = [];
  let closing: Promise<void> | null = null;
  let counts = { sent: {} as Record<string, number>, proxied: 0, noCopy: 0 };
  const port = await new Promise<number>((resolve, reject) => {
    thread.on('message', (message: BalancerReport) => {
      if (message.type === 'listening') resolve(message.port);
      else if (message.type === 'change') {
        readiness.set(message.base, message.ready);
        changes.push(message.line);
      } else counts = message;
    });
    thread.once('error', reject);
  });
  return {
    url: `http://127.0.0.1:${String(port)}`,
    ready: (base) => readiness.get(base) === true,
    sent: (base) => counts.sent[base] ?? 0,
    changes: () => [...changes],
    failures: () => ({ proxied: counts.proxied, noCopy: counts.noCopy }),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        thread.once('exit', () => {
          resolve();
        });
        thread.postMessage('stop');
      });
      return closing;
    },
  };
}
