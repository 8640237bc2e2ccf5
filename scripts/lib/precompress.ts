/**
 * Writes `.br` and `.gz` siblings of every compressible file of the static output, so the
 * server sends them without compressing on each request.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export const COMPRESSIBLE = /\.(html|css|js|mjs|json|svg|xml|txt|webmanifest)$/;

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

/** Compresses every compressible file below `dir`; returns the number of files. */
export async function precompress(dir: string, concurrency = 8): Promise<number> {
  const files: string[] = [];
  for await (const file of walk(dir)) files.push(file);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < files.length) {
      const file = files[next++];
      if (!file) return;
      const body = await readFile(file);
      if (body.length < 512) continue;
      // Hashed assets are few and cached for a year: compress them hardest.
      const quality = file.includes(`${path.sep}_astro${path.sep}`) ? 11 : 6;
      const [br, gzBody] = await Promise.all([
        brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } }),
        gz(body, { level: 9 }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzBody)]);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return files.length;
}
