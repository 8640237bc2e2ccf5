import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compress } from '../../src/server/encoding.ts';

/** A page-like body: `size` bytes of varied, compressible markup. */
function body(seed: number, size: number): Buffer {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i += 1) {
    const part = `<li class="card" data-id="${String(seed * 7919 + i)}"><a href="/p/${String(i % 97)}">Matelas ${String((seed + i) % 13)}</a></li>`;
    parts.push(part);
    length += part.length;
  }
  return Buffer.from(parts.join('').slice(0, size));
}

describe('compress (the compression threads)', () => {
  test('a body comes back whole in either coding, and the caller keeps its own', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 3000 }),
        fc.constantFrom('br' as const, 'gzip' as const),
        async (text, coding) => {
          const original = Buffer.from(text);
          const copy = Buffer.from(original);
          const out = await compress(original, coding);
          const back = coding === 'br' ? brotliDecompressSync(out) : gunzipSync(out);
          expect(back.equals(copy)).toBe(true);
          // The body handed over is a copy: the caller's buffer is untouched (not detached).
          expect(original.equals(copy)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('bodies are compressed in the order they were given, however many wait', async () => {
    // Under load the pool cannot hand a task over at once. Piscina's default puts such a task
    // back at the tail of its queue, so a body could be passed over again and again (seconds
    // at 50 connections); the pool keeps first come, first served.
    const bodies = Array.from({ length: 40 }, (_, i) => body(i, 150_000));
    const finished: number[] = [];
    await Promise.all(
      bodies.map(async (b, i) => {
        await compress(b, 'br');
        finished.push(i);
      }),
    );
    expect(finished).toEqual(bodies.map((_, i) => i));
  });
});
