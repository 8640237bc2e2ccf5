/**
 * Releases on disk: each rebuild writes a new directory `{releasesDir}/{id}` (an Astro build:
 * `server/entry.mjs`, `client/index.html`...), its log in `{releasesDir}/logs/{id}.log`. The
 * pointer `current.json` names the release being served, so a restarted server serves the
 * newest complete one; `status.json` is what the operator reads (and `GET /webhooks/status`
 * answers). Both are written atomically (temporary file, then rename). Old releases are
 * deleted, keeping the current one, the previous one and any still in use.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';

/** A release id: `r20251123-180102-1a2b` (UTC time, sortable, and a random suffix). */
const RELEASE_ID = /^r\d{8}-\d{6}-[0-9a-f]{4}$/;

export interface Release {
  id: string;
  /** Absolute path of the build (with `client/` and `server/`). */
  dir: string;
  /** When the build finished (ms since the epoch). */
  builtAt: number;
  /** The upstream it was built against (`{api url}/{store hash}`), when known. */
  target?: string | undefined;
}

const releaseSchema = z.object({
  id: z.string().max(100),
  dir: z.string().max(4096),
  builtAt: z.number(),
  target: z.string().max(2048).optional(),
});

export const CURRENT_FILE = 'current.json';
export const STATUS_FILE = 'status.json';

export function isReleaseId(id: string): boolean {
  return RELEASE_ID.test(id);
}

export function newReleaseId(now = Date.now()): string {
  const iso = new Date(now).toISOString(); // 2025-11-23T18:01:02.345Z
  const stamp = `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`;
  return `r${stamp}-${randomBytes(2).toString('hex')}`;
}

export function logFileOf(releasesDir: string, id: string): string {
  return path.join(releasesDir, 'logs', `${id}.log`);
}

/** The files a build must have to be served; the first one missing, or null when complete. */
export async function missingBuildFile(dir: string): Promise<string | null> {
  for (const file of ['server/entry.mjs', 'client/index.html']) {
    const found = await stat(path.join(dir, file)).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!found) return file;
  }
  return null;
}

/** Writes `value` as JSON to `file` atomically: readers see the old or the new file whole. */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o644 });
  await rename(temporary, file);
}

/** The release `current.json` names, when it is still complete on disk; else null. */
export async function readCurrentRelease(releasesDir: string): Promise<Release | null> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path.join(releasesDir, CURRENT_FILE), 'utf8'));
  } catch {
    return null;
  }
  const parsed = releaseSchema.safeParse(json);
  if (!parsed.success) return null;
  const release = parsed.data;
  // Only a directory of this releases folder (the file is ours, but check before serving it).
  const dir = path.resolve(releasesDir, release.id);
  if (!isReleaseId(release.id) || dir !== path.resolve(release.dir)) return null;
  if ((await missingBuildFile(dir)) !== null) return null;
  return { ...release, dir };
}

export async function writeCurrentRelease(releasesDir: string, release: Release): Promise<void> {
  await writeJsonAtomic(path.join(releasesDir, CURRENT_FILE), release);
}

/**
 * Deletes the release directories (and logs) of `releasesDir` but those in `keep` (the current
 * and previous releases, those workers still serve). Only names shaped like release ids are
 * touched.
 */
export async function pruneReleases(
  releasesDir: string,
  keep: ReadonlySet<string>,
): Promise<string[]> {
  const entries = await readdir(releasesDir, { withFileTypes: true }).catch(() => []);
  const ids = entries
    .filter((entry) => entry.isDirectory() && isReleaseId(entry.name))
    .map((entry) => entry.name);
  const removed: string[] = [];
  for (const id of ids) {
    if (keep.has(id)) continue;
    await rm(path.join(releasesDir, id), { recursive: true, force: true });
    await rm(logFileOf(releasesDir, id), { force: true });
    removed.push(id);
  }
  // Logs of failed builds (whose directory is gone) beyond the newest ten.
  const logs = await readdir(path.join(releasesDir, 'logs')).catch(() => []);
  const orphanLogs = logs
    .filter((name) => name.endsWith('.log') && isReleaseId(name.slice(0, -4)))
    .filter((name) => !existsSync(path.join(releasesDir, name.slice(0, -4))))
    .sort()
    .reverse();
  for (const name of orphanLogs.slice(10)) {
    await rm(path.join(releasesDir, 'logs', name), { force: true });
  }
  return removed;
}

/**
 * Makes the project's packages resolvable from builds in `releasesDir`: a build's server
 * bundle imports packages (`astro`, `react`...) the way Node resolves them, from the folders
 * above it. A releases folder outside the project gets a `node_modules` link to the project's.
 */
export async function linkProjectModules(releasesDir: string, nodeModules: string): Promise<void> {
  const projectRoot = path.dirname(path.resolve(nodeModules));
  const relative = path.relative(projectRoot, path.resolve(releasesDir));
  const inside = relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  if (inside) return;
  await mkdir(releasesDir, { recursive: true });
  const link = path.join(releasesDir, 'node_modules');
  if (existsSync(link)) return;
  await symlink(path.resolve(nodeModules), link, 'dir');
}
