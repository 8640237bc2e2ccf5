/**
 * A first-come, first-served limit on tasks running at once: at most `size` run, the others
 * wait in their order of arrival, and a finished task hands its place to the first waiting
 * one. With `maxWaiting`, a task arriving when that many wait is refused at once
 * (`GateFullError`) rather than queued without end. Used by the render slots of the storefront
 * server (`src/server/on-demand.ts`) and the picture proxy's fetches and encodes
 * (`image-proxy.ts`).
 */
export class GateFullError extends Error {
  constructor() {
    super('too many tasks waiting');
    this.name = 'GateFullError';
  }
}

export interface Gate {
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a place. */
  readonly waiting: number;
  /** Runs `task` once a place is free; rejects with GateFullError when the queue is full. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createGate(size: number, maxWaiting = Number.POSITIVE_INFINITY): Gate {
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    get active() {
      return active;
    },
    get waiting() {
      return waiting.length;
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active < size) active += 1;
      else if (waiting.length >= maxWaiting) throw new GateFullError();
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else active -= 1;
      }
    },
  };
}
