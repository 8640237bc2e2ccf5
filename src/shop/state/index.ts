/**
 * The shop's shared state (README.md here): `createStore` picks Redis when
 * `REDIS_URL` is set (several server copies), else a SQLite file in the state directory (one
 * server, kept across restarts), or memory (tests, or `STATE_DIR=:memory:`).
 */
import { createFileStore } from './file.ts';
import { createMemoryStore } from './memory.ts';
import { createRedisStore } from './redis.ts';
import type { SharedStore } from './types.ts';

export type { SharedStore } from './types.ts';

/** The state directory when `STATE_DIR` is unset (relative to the server's working directory). */
export const DEFAULT_STATE_DIR = '.data';
/** `STATE_DIR` value keeping the state in process memory (lost at restart). */
export const MEMORY_STATE_DIR = ':memory:';

export interface StoreConfig {
  /** `REDIS_URL`: when set (non-blank), Redis. */
  redisUrl?: string | undefined;
  /** `STATE_DIR`: the file store's directory, or `:memory:`. */
  stateDir?: string | undefined;
}

/** The store the config asks for: Redis, else the file in the state directory, else memory. */
export function createStore(config: StoreConfig = {}): SharedStore {
  const redisUrl = config.redisUrl?.trim() ?? '';
  if (redisUrl !== '') return createRedisStore({ url: redisUrl });
  const stateDir = config.stateDir?.trim() ?? '';
  if (stateDir === MEMORY_STATE_DIR) return createMemoryStore();
  return createFileStore({ dir: stateDir === '' ? DEFAULT_STATE_DIR : stateDir });
}
