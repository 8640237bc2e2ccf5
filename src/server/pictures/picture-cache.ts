/**
 * The picture proxy's files (`image-proxy.ts`): each variant it encoded, kept in a folder as
 * `{dir}/{2 hex}/{sha-256 of the variant key}.{format}`, so a repeat is a file read, in this
 * server process, the others of the release and, when the folder is under a shared releases
 * folder, the other copies of the shop.
 *
 * - Written with write-file-atomic: a reader sees a whole file or none, whichever copy wrote.
 * - Bounded: past `maxBytes` (this process's count since its last look at the folder, or every
 *   `RESCAN_WRITES` writes) the folder is read again and the least recently used files are
 *   removed until it is back under 80 % of the bound. A hit refreshes its file's time. Several
 *   copies writing at once may pass the bound by what they wrote between two looks.
 * - A read or write that fails is a miss, told once to `warn`: the picture is encoded again.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, stat, unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/** Writes after which the folder is read again, whatever the count says. */
const RESCAN_WRITES = 256;
const FILE_NAME = /^[0-9a-f]{64}\.[a-z]{3,4}$/;

/** The folder's name under a releases folder or a build. */
export const PICTURE_CACHE_FOLDER = 'picture-cache';

const CACHE_DIR_KEY = Symbol.for('literie.pictureCacheDir');

/**
 * Names the folder of the picture files for this process (the storefront server, before it
 * loads the release's entry): the endpoint, bundled into the release, reads it back with
 * `namedPictureCacheDir`. A global, not a module variable: the server and the bundle each
 * have their own copy of this module.
 */
export function namePictureCacheDir(dir: string | null): void {
  (globalThis as Record<symbol, unknown>)[CACHE_DIR_KEY] = dir;
}

/** The folder the storefront server named, or null (`astro dev`). */
export function namedPictureCacheDir(): string | null {
  const dir = (globalThis as Record<symbol, unknown>)[CACHE_DIR_KEY];
  return typeof dir === 'string' && dir !== '' ? dir : null;
}

/**
 * Where a server worker keeps the proxy's variants: under the releases folder when the shop
 * rebuilds or serves a release of it (a folder directly inside it), so every release and every
 * copy sharing the folder reads the same files; else under the build it serves.
 */
export function pictureCacheDirOf(options: {
  releasesDir: string;
  rebuilds: boolean;
  distDir: string;
}): string {
  const releasesDir = path.resolve(options.releasesDir);
  const served = path.resolve(options.distDir);
  return options.rebuilds || path.dirname(served) === releasesDir
    ? path.join(releasesDir, PICTURE_CACHE_FOLDER)
    : path.join(served, PICTURE_CACHE_FOLDER);
}

export interface PictureCacheOptions {
  maxBytes: number;
  warn?: (message: string) => void;
}

export class PictureCache {
  readonly dir: string;
  readonly #maxBytes: number;
  readonly #warn: (message: string) => void;
  /** Bytes in the folder as last seen plus this process's writes since; null: not looked yet. */
  #bytes: number | null = null;
  #writes = 0;
  #pruning: Promise<void> | null = null;
  #warned = false;

  constructor(dir: string, options: PictureCacheOptions) {
    this.dir = path.resolve(dir);
    this.#maxBytes = options.maxBytes;
    this.#warn = options.warn ?? (() => undefined);
  }

  /** The file of a variant. */
  fileOf(key: string, format: string): string {
    const hash = createHash('sha256').update(key).digest('hex');
    return path.join(this.dir, hash.slice(0, 2), `${hash}.${format}`);
  }

  /** The kept bytes of a variant, or null. */
  async read(key: string, format: string): Promise<Uint8Array | null> {
    const file = this.fileOf(key, format);
    try {
      const data = await readFile(file);
      const now = new Date();
      utimes(file, now, now).catch(() => undefined);
      return data;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.#told(error);
      return null;
    }
  }

  /** Keeps a variant (atomically); a failure only warns. */
  async write(key: string, format: string, data: Uint8Array): Promise<void> {
    const file = this.fileOf(key, format);
    try {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomic(file, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    } catch (error) {
      this.#told(error);
      return;
    }
    this.#writes += 1;
    if (this.#bytes !== null) this.#bytes += data.byteLength;
    if (this.#bytes === null || this.#bytes > this.#maxBytes || this.#writes >= RESCAN_WRITES) {
      this.#pruning ??= this.prune().finally(() => {
        this.#pruning = null;
      });
      await this.#pruning;
    }
  }

  /** Reads the folder, and removes the least recently used files past the bound. */
  async prune(): Promise<void> {
    this.#writes = 0;
    const files: { file: string; size: number; time: number }[] = [];
    let shards: string[];
    try {
      shards = await readdir(this.dir);
    } catch (error) {
      this.#told(error);
      return;
    }
    for (const shard of shards) {
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      let names: string[];
      try {
        names = await readdir(path.join(this.dir, shard));
      } catch {
        continue;
      }
      for (const name of names) {
        if (!FILE_NAME.test(name)) continue;
        const file = path.join(this.dir, shard, name);
        try {
          const info = await stat(file);
          files.push({ file, size: info.size, time: info.mtimeMs });
        } catch {
          // Removed by another copy meanwhile.
        }
      }
    }
    let total = files.reduce((sum, entry) => sum + entry.size, 0);
    if (total > this.#maxBytes) {
      files.sort((a, b) => a.time - b.time);
      const target = this.#maxBytes * 0.8;
      for (const entry of files) {
        if (total <= target) break;
        try {
          await unlink(entry.file);
        } catch {
          // Already gone.
        }
        total -= entry.size;
      }
    }
    this.#bytes = total;
  }

  /** Bytes in the folder as this process counts them (null before its first look). */
  get bytes(): number | null {
    return this.#bytes;
  }

  #told(error: unknown): void {
    if (this.#warned) return;
    this.#warned = true;
    this.#warn(
      `[image] picture cache ${this.dir}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
