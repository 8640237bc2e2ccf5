/**
 * Releases on disk: each rebuild writes a new directory `{releasesDir}/{id}` (an Astro build:
 * `server/entry.mjs`, `client/index.html`...), its log in `{releasesDir}/logs/{id}.log`. The
 * pointer `current.json` names the release being served and how many publishes it has had
 * (its render cache generation), so a restarted server serves the newest complete one, and
 * other copies sharing the folder follow it (`watchReleasePointer`); `status.json` is what the
 * operator reads (and `GET /webhooks/status` answers; one per copy in `copies/` when several
 * share the folder). Both are written atomically (temporary file, then rename). Old releases
 * are deleted, keeping the current one, the previous one and any still in use.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
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

const pointerSchema = z.object({
  id: z.string().max(100),
  dir: z.string().max(4096),
  builtAt: z.number(),
  target: z.string().max(2048).optional(),
  /** Publishes into the release so far (absent in pointers written before publishes). */
  generation: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});

/** What `current.json` says: the release served and its count of publishes. */
export interface ReleasePointer {
  release: Release;
  generation: number;
}

export const CURRENT_FILE = 'current.json';
/**
 * The release the builder of several copies is about to point `current.json` to (written before
 * its own swap): the other copies start its workers ahead, so their switch is at once.
 */
export const NEXT_FILE = 'next.json';
export const STATUS_FILE = 'status.json';

/** The status file of one copy of several sharing `releasesDir` (named by `copyName`). */
export function copyStatusFile(releasesDir: string, copy: string): string {
  return path.join(releasesDir, 'copies', `${copy}.json`);
}

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
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o644 });
}

/**
 * What `current.json` (or `next.json`) says, checked: null when there is none, a problem (one
 * line) when it is not a complete release of this folder. The folder may be mounted elsewhere
 * on another machine: the release is found by its id here, whatever directory the writer saw.
 */
export async function readReleasePointer(
  releasesDir: string,
  file: typeof CURRENT_FILE | typeof NEXT_FILE = CURRENT_FILE,
): Promise<ReleasePointer | { problem: string } | null> {
  let text: string;
  try {
    text = await readFile(path.join(releasesDir, file), 'utf8');
  } catch {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: `${file} is not JSON` };
  }
  const parsed = pointerSchema.safeParse(json);
  if (!parsed.success) return { problem: `${file} is not a release pointer` };
  const { generation = 0, ...release } = parsed.data;
  // Only a directory of this releases folder, by a name no path can hide in.
  if (!isReleaseId(release.id)) return { problem: `${file} names no release id` };
  const dir = path.join(path.resolve(releasesDir), release.id);
  const missing = await missingBuildFile(dir);
  if (missing !== null) return { problem: `${file} names ${release.id}, which lacks ${missing}` };
  return { release: { ...release, dir }, generation };
}

/** The release `current.json` names, when it is still complete on disk; else null. */
export async function readCurrentRelease(releasesDir: string): Promise<Release | null> {
  const read = await readReleasePointer(releasesDir);
  return read === null || 'problem' in read ? null : read.release;
}

/** Points `current.json` at `release`, after `generation` publishes into it. */
export async function writeCurrentRelease(
  releasesDir: string,
  release: Release,
  generation = 0,
): Promise<void> {
  await writeJsonAtomic(path.join(releasesDir, CURRENT_FILE), { ...release, generation });
}

/** Says which release `current.json` is about to name (several copies: `NEXT_FILE`). */
export async function writeNextRelease(releasesDir: string, release: Release): Promise<void> {
  await writeJsonAtomic(path.join(releasesDir, NEXT_FILE), { ...release, generation: 0 });
}

/** Whether `release` is a release of `releasesDir` (one `current.json` can name). */
export function isSharedRelease(releasesDir: string, release: Release): boolean {
  return (
    isReleaseId(release.id) &&
    path.resolve(release.dir) === path.join(path.resolve(releasesDir), release.id)
  );
}

/**
 * Calls `onChange` when `current.json` or `next.json` may have changed: on the folder's change
 * events (fs.watch: at once on a local disk) and when a check every `pollMs` sees another file
 * there (a network folder may report nothing). May call it for no change; the caller reads the
 * pointers and compares. Returns the stop function.
 */
export function watchReleasePointer(
  releasesDir: string,
  onChange: () => void,
  pollMs = 1_000,
): () => void {
  const files = [CURRENT_FILE, NEXT_FILE];
  let seen: string | null = null;
  const check = async () => {
    const stats = await Promise.all(
      files.map((name) =>
        stat(path.join(releasesDir, name)).then(
          (s) => `${String(s.ino)} ${String(s.size)} ${String(s.mtimeMs)}`,
          () => 'none',
        ),
      ),
    );
    const signature = stats.join(' | ');
    if (signature === seen) return;
    seen = signature;
    onChange();
  };
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(releasesDir, { persistent: false }, (_event, name) => {
      if (name === null || files.includes(name)) onChange();
    });
    watcher.on('error', () => {
      watcher?.close();
      watcher = null;
    });
  } catch {
    // No change events here: the poll alone.
  }
  const timer = setInterval(() => void check(), pollMs);
  timer.unref();
  void check();
  return () => {
    clearInterval(timer);
    watcher?.close();
  };
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
  await symlink(path.resolve(nodeModules), link, 'dir').catch((error: unknown) => {
    // Another copy sharing the folder made it first.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
}
