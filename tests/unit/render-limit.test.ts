/**
 * The limit on tasks running at once (src/server/gate.ts `createGate`: the storefront
 * server's render slots, the picture proxy's fetches and encodes): never more than its size,
 * the others in their order of arrival, a failed task gives its place too.
 */
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/server/gate.ts';

const createLimit = (size: number) => {
  const gate = createGate(size);
  return <T>(task: () => Promise<T>): Promise<T> => gate.run(task);
};

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('createLimit', () => {
  test('runs at most its size at once, the others in their order of arrival', async () => {
    const limit = createLimit(2);
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const done = gates.map((gate, i) =>
      limit(async () => {
        started.push(i);
        running += 1;
        most = Math.max(most, running);
        await gate.promise;
        running -= 1;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    gates[1]?.resolve();
    await done[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(done)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  test('a task that fails gives its place to the next', async () => {
    const limit = createLimit(1);
    const failed = limit(() => Promise.reject(new Error('render failed')));
    const next = limit(() => Promise.resolve('next'));
    await expect(failed).rejects.toThrow('render failed');
    expect(await next).toBe('next');
    // And the limit is free again afterwards.
    expect(await limit(() => Promise.resolve('again'))).toBe('again');
  });
});
