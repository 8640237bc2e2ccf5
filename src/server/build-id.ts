/** A build's identity for the render cache (`http-server.ts`). */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The build's identity: a hash of `dist/server` (code, manifest and asset names), so renders
 * cached by one build are never served by another, and copies of one build share them.
 */
export async function buildIdOf(serverDir: string): Promise<string> {
  const hash = createHash('sha256');
  const entries = await readdir(serverDir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) {
    hash.update(path.relative(serverDir, file)).update('\0');
    hash.update(await readFile(file)).update('\0');
  }
  return hash.digest('base64url').slice(0, 12);
}
