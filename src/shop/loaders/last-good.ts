/**
 * The last good copy of data a build reads from the content service ("navigations keep
 * working when the content service is down at build"). Each successful read is saved as JSON
 * under `lastGoodDirectory()` (written to a temporary file, then renamed: a build never reads
 * half a copy); when a read fails, the saved copy is used and the build log says so on one
 * line. With no copy either, the read's error is thrown on with that explanation.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { oneLine } from '../faults/failures.ts';

interface Saved<T> {
  savedAt: string;
  value: T;
}

const NAME = /^[a-z0-9-]+$/;

function fileOf(name: string, dir: string): string {
  if (!NAME.test(name)) throw new Error(`last-good copy name "${name}" is not a plain name`);
  return path.join(dir, `${name}.json`);
}

async function save(file: string, value: unknown): Promise<void> {
  const saved: Saved<unknown> = { savedAt: new Date().toISOString(), value };
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify(saved));
}

function reason(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

/**
 * `read()`'s value, saved as the last good copy of `name`; when `read()` fails, the copy saved
 * by the last successful read (logged), else the failure. `dir` is the configured last-good
 * directory (`lastGoodDirectory()` of config.ts).
 */
export async function lastGoodCopy<T>(
  name: string,
  read: () => Promise<T>,
  dir: string,
): Promise<T> {
  const file = fileOf(name, dir);
  let value: T;
  try {
    value = await read();
  } catch (error) {
    let saved: Saved<T>;
    try {
      saved = JSON.parse(await readFile(file, 'utf8')) as Saved<T>;
    } catch {
      throw new Error(
        `[content] ${name}: the content service could not be read (${reason(error)}) and no earlier copy exists in ${dir}`,
        { cause: error },
      );
    }
    console.error(
      `[content] ${name}: the content service could not be read (${reason(error)}); using the last good copy of ${saved.savedAt}`,
    );
    return saved.value;
  }
  try {
    await save(file, value);
  } catch (error) {
    console.error(`[content] ${name}: could not save the last good copy (${reason(error)})`);
  }
  return value;
}
