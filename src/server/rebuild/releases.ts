/**
 * Releases on disk: each rebuild writes a new directory `{releasesDir}/{id}` (an Astro build:
 * `server/entry.mjs`, `client/index.html`...), its log in `{releasesDir}/logs/{id}.log`. The
 * pointer `current.json` names the release being served and how many publishes it has had
 * (its render cache generation), so a restarted server serves the newest complete one, and
 * other copies sharing the folder follow it (`watchReleasePointer`); `status.json` is what the
 * operator reads (and `GET /webhooks/status` answers; one per copy in `copies/` when several
 * share the folder). Both are written atomically (temporary file, then rename). Old releases
 * are deleted, keeping the current one, the previous one and any still in use.
 *
 * Several copies may share the folder (on purpose, or a test run's copy beside a shop): each
 * says which releases it serves, drains or builds in `serving/{copy}.json` (`createServingHeartbeat`),
 * rewritten every few seconds and at once when that changes. Whichever copy prunes keeps every
 * release a live copy names there, and the ones `current.json` and `next.json` name. A copy is
 * live while its file keeps changing: freshness is judged by this copy watching the file change
 * (a monotonic clock), never by comparing clocks, so a copy whose clock is off is still seen.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import os from 'node:os';
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
 * touched. `keep` may be asked for once the folder is listed (null: delete nothing): a copy
 * sharing the folder names a build before it starts it (`createServingHeartbeat`), so a
 * directory listed here is named by the time `keep` is read.
 */
export async function pruneReleases(
  releasesDir: string,
  keepOrRead: ReadonlySet<string> | (() => Promise<ReadonlySet<string> | null>),
): Promise<string[]> {
  const entries = await readdir(releasesDir, { withFileTypes: true }).catch(() => []);
  const ids = entries
    .filter((entry) => entry.isDirectory() && isReleaseId(entry.name))
    .map((entry) => entry.name);
  const keep = typeof keepOrRead === 'function' ? await keepOrRead() : keepOrRead;
  if (keep === null) return [];
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

/** The folder of the copies' heartbeats (`createServingHeartbeat`). */
export const SERVING_DIR = 'serving';

/** The heartbeat file of copy `copy` (named by `copyName`). */
export function servingFile(releasesDir: string, copy: string): string {
  return path.join(releasesDir, SERVING_DIR, `${copy}.json`);
}

const COPY_NAME = /^[A-Za-z0-9._-]{1,100}$/;

const heartbeatSchema = z.object({
  copy: z.string().regex(COPY_NAME),
  host: z.string().max(255),
  pid: z.number().int().positive(),
  /** Counts the writes: a live copy's file changes at each one. */
  beat: z.number().int().min(0),
  releases: z.array(z.string().max(100)).max(100),
  /** The writer's clock when written (for people: never compared with another clock). */
  at: z.number(),
});

/** One copy's heartbeat, as written in `serving/{copy}.json`. */
export type Heartbeat = z.infer<typeof heartbeatSchema>;

/** A heartbeat file's text, checked: null when it is not one. */
export function parseHeartbeat(text: string): Heartbeat | null {
  if (text.length > 20_000) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = heartbeatSchema.safeParse(json);
  if (!parsed.success) return null;
  return { ...parsed.data, releases: parsed.data.releases.filter((id) => isReleaseId(id)) };
}

/** Heartbeats read from the folder, and when this reader last saw each one change. */
export interface HeartbeatWatch {
  /**
   * Reads every heartbeat file now: the copies live at `now` (their file changed within
   * `staleMs` of this reader watching it; first seen counts as a change) and the stale ones.
   */
  scan(): Promise<{ live: Heartbeat[]; stale: string[] }>;
}

/**
 * Watches the heartbeats of `releasesDir` (`serving/`): `exclude` (this copy) is left out.
 * `monotonic` is a clock that only moves forward (default `performance.now`).
 */
export function watchHeartbeats(options: {
  releasesDir: string;
  exclude?: string;
  staleMs: number;
  monotonic?: () => number;
}): HeartbeatWatch {
  const monotonic = options.monotonic ?? (() => performance.now());
  const seen = new Map<string, { text: string; changedAt: number }>();
  const dir = path.join(options.releasesDir, SERVING_DIR);
  return {
    async scan() {
      const names = (await readdir(dir).catch(() => [] as string[]))
        .filter((name) => name.endsWith('.json'))
        .map((name) => name.slice(0, -'.json'.length))
        .filter((name) => COPY_NAME.test(name) && name !== options.exclude);
      const now = monotonic();
      const live: Heartbeat[] = [];
      const stale: string[] = [];
      for (const name of names) {
        const text = await readFile(path.join(dir, `${name}.json`), 'utf8').catch(() => null);
        if (text === null) continue; // gone meanwhile: its copy stopped
        const before = seen.get(name);
        if (before?.text !== text) seen.set(name, { text, changedAt: now });
        const changedAt = seen.get(name)?.changedAt ?? now;
        const heartbeat = parseHeartbeat(text);
        if (now - changedAt > options.staleMs) stale.push(name);
        else if (heartbeat !== null && heartbeat.copy === name) live.push(heartbeat);
      }
      for (const name of seen.keys()) if (!names.includes(name)) seen.delete(name);
      return { live, stale };
    },
  };
}

export interface ServingHeartbeat {
  /** Writes this copy's heartbeat now (also done every `everyMs`, and when `inUse` changes). */
  beat(): Promise<void>;
  /**
   * The releases live copies (this one included) name, and those `current.json` and `next.json`
   * name: what no copy may prune. Heartbeat files seen stale are removed.
   */
  inUse(): Promise<Set<string>>;
  /** Stops and removes this copy's file. */
  stop(): Promise<void>;
}

/** Heartbeats are rewritten this often (ms). */
export const HEARTBEAT_EVERY_MS = 2_000;
/** A heartbeat seen unchanged this long is stale: its copy is gone. */
export const HEARTBEAT_STALE_MS = 30_000;

/**
 * Says which releases this copy uses (`inUse`: what it serves, drains, builds) in
 * `serving/{copy}.json`: written at once, every `everyMs`, and within `checkEveryMs` of a change.
 */
export function createServingHeartbeat(options: {
  releasesDir: string;
  copy: string;
  inUse: () => Iterable<string>;
  everyMs?: number;
  checkEveryMs?: number;
  staleMs?: number;
  monotonic?: () => number;
  logError?: (line: string) => void;
}): ServingHeartbeat {
  const everyMs = options.everyMs ?? HEARTBEAT_EVERY_MS;
  const staleMs = options.staleMs ?? HEARTBEAT_STALE_MS;
  const monotonic = options.monotonic ?? (() => performance.now());
  const file = servingFile(options.releasesDir, options.copy);
  const watch = watchHeartbeats({
    releasesDir: options.releasesDir,
    exclude: options.copy,
    staleMs,
    monotonic,
  });
  const own = () => [...new Set(options.inUse())].filter((id) => isReleaseId(id)).sort();
  let beats = 0;
  let written = '';
  let writtenAt = -Infinity;
  let stopped = false;
  let failed = false;
  let writing: Promise<void> = Promise.resolve();
  const beat = (): Promise<void> => {
    writing = writing.then(async () => {
      if (stopped) return;
      const releases = own();
      beats += 1;
      const heartbeat: Heartbeat = {
        copy: options.copy,
        host: os.hostname(),
        pid: process.pid,
        beat: beats,
        releases,
        at: Date.now(),
      };
      try {
        await writeJsonAtomic(file, heartbeat);
        written = releases.join(' ');
        writtenAt = monotonic();
        failed = false;
      } catch (error) {
        if (!failed) options.logError?.(`[rebuild] could not write ${file}: ${String(error)}`);
        failed = true;
      }
    });
    return writing;
  };
  const check = () => {
    if (stopped) return;
    const due = monotonic() - writtenAt >= everyMs;
    if (due || own().join(' ') !== written) void beat();
  };
  const timer = setInterval(check, options.checkEveryMs ?? 250);
  timer.unref();
  void beat();
  return {
    beat,
    async inUse() {
      const keep = new Set(own());
      const { live, stale } = await watch.scan();
      for (const heartbeat of live) for (const id of heartbeat.releases) keep.add(id);
      for (const id of await pointedReleases(options.releasesDir)) keep.add(id);
      for (const name of stale) {
        await rm(servingFile(options.releasesDir, name), { force: true }).catch(() => undefined);
      }
      return keep;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await writing;
      await rm(file, { force: true }).catch(() => undefined);
    },
  };
}

/** The release ids `current.json` and `next.json` name (whether complete or not). */
export async function pointedReleases(releasesDir: string): Promise<string[]> {
  const ids: string[] = [];
  for (const name of [CURRENT_FILE, NEXT_FILE]) {
    const text = await readFile(path.join(releasesDir, name), 'utf8').catch(() => null);
    if (text === null) continue;
    try {
      const id = (JSON.parse(text) as { id?: unknown } | null)?.id;
      if (typeof id === 'string' && isReleaseId(id)) ids.push(id);
    } catch {
      // Not JSON: it names nothing.
    }
  }
  return ids;
}

/**
 * The copies sharing `releasesDir` that are live now, by their heartbeats: read, then read
 * again after `waitMs` (more than a heartbeat's period); a file that changed meanwhile is a
 * live copy's. For a copy's start, before it shares the folder (`exclude`: its own name).
 */
export async function liveCopies(
  releasesDir: string,
  options: { waitMs?: number; exclude?: string; wait?: (ms: number) => Promise<void> } = {},
): Promise<Heartbeat[]> {
  let clock = 0;
  const watch = watchHeartbeats({
    releasesDir,
    ...(options.exclude === undefined ? {} : { exclude: options.exclude }),
    staleMs: 1,
    monotonic: () => clock,
  });
  const first = await watch.scan();
  if (first.live.length === 0) return [];
  const wait =
    options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  await wait(options.waitMs ?? 2.5 * HEARTBEAT_EVERY_MS);
  clock = 2; // unchanged files are now older than staleMs: only changed ones are live
  return (await watch.scan()).live;
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
