import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compress, compressionThreads } from '../../src/server/encoding.ts';

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
        fc.constantFrom('render' as const, 'page' as const),
        async (text, coding, use) => {
          const original = Buffer.from(text);
          const copy = Buffer.from(original);
          const out = await compress(original, coding, use);
          const back = coding === 'br' ? brotliDecompressSync(out) : gunzipSync(out);
          expect(back.equals(copy)).toBe(true);
          // The body handed over is a copy: the caller's buffer is untouched (not detached).
          expect(original.equals(copy)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a pre-rendered page, served many times, is compressed harder than a render', async () => {
    // Real text (this repository's docs): generated markup is too regular to tell levels apart.
    const page = Buffer.concat(
      ['README.md', 'docs/architecture.md', 'src/server/README.md'].map((file) =>
        readFileSync(file),
      ),
    );
    const [render, kept] = await Promise.all([compress(page, 'br'), compress(page, 'br', 'page')]);
    expect(kept.length).toBeLessThan(render.length);
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

describe('compressionThreads', () => {
  test('one thread on 2 cores; processes and their threads fit the cores when there are enough', () => {
    expect(compressionThreads(2, 1)).toBe(1);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 256 }), fc.integer({ min: 1, max: 16 }), (cores, n) => {
        const threads = compressionThreads(cores, n);
        expect(threads).toBeGreaterThanOrEqual(1);
        if (cores >= 2 * n) expect(n * (threads + 1)).toBeLessThanOrEqual(cores);
        // No core is left unused by more than a process's share.
        expect(n * (threads + 2)).toBeGreaterThan(cores);
      }),
    );
  });
});
