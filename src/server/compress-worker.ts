/**
 * What a compressing thread does (encoding.ts runs it in a piscina pool): a body in, at the
 * server's on-the-fly levels (brotli 3 for renders and 4 for pages, in text mode; gzip 6), one
 * export per coding and use. The body and the result move between the threads, not copied.
 */
import { Piscina } from 'piscina';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** A compressed body with a memory of its own (a small one may sit in Buffer's shared pool). */
function moved(compressed: Buffer): Uint8Array {
  return Piscina.move(new Uint8Array(compressed)) as unknown as Uint8Array;
}

function brotli(body: Uint8Array, quality: number): Uint8Array {
  return moved(
    brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
  );
}

/** A render (brotli 3): often asked once, so compressed fast. */
export function br(body: Uint8Array): Uint8Array {
  return brotli(body, 3);
}

/** A pre-rendered page (brotli 4): compressed once, then served many times. */
export function brPage(body: Uint8Array): Uint8Array {
  return brotli(body, 4);
}

export function gzip(body: Uint8Array): Uint8Array {
  return moved(gzipSync(body, { level: 6 }));
}
