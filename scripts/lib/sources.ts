/**
 * When the shop's sources last changed: `npm start` and `npm run bench:serve` rebuild when the
 * newest source is newer than their build.
 */
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** The newest modification time (ms) of a file or of anything below a folder; 0 when absent. */
export async function newestMtime(entry: string): Promise<number> {
  if (!existsSync(entry)) return 0;
  const info = await stat(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const child of await readdir(entry)) {
    newest = Math.max(newest, await newestMtime(path.join(entry, child)));
  }
  return newest;
}
