/**
 * A chunk-load failure reloads the page, at most once per 60 seconds (spec §4, §9 chunk-reload
 * guard 60000 ms). After a new deployment, an open page still asks for the previous build's
 * chunks (the search panel, the newsletter form, the sidebars, an island), which are gone: a
 * reload fetches the new page and its chunks. The time of the last reload is kept in
 * `sessionStorage`, so a chunk that fails again right after the reload (the network is down)
 * does not reload the page over and over.
 *
 * No side effect on import: `chunk-reload-listener.ts` installs the listeners; a loader that
 * catches its own `import()` failure may call `reloadAfterChunkError` itself.
 */

/** spec §9: no second reload within this time of the last one. */
export const CHUNK_RELOAD_GUARD_MS = 60_000;

/** `sessionStorage` key of the last reload's time (ms since the epoch). */
export const CHUNK_RELOAD_KEY = 'literie:chunk-reload';

/**
 * A reload is allowed when none happened yet (or the stored time is unreadable) or the last
 * one is at least the guard away, in either direction (a clock put back does not block it).
 */
export function shouldReload(
  lastReloadAt: number | null,
  now: number,
  guardMs = CHUNK_RELOAD_GUARD_MS,
): boolean {
  if (lastReloadAt === null || !Number.isFinite(lastReloadAt)) return true;
  return Math.abs(now - lastReloadAt) >= guardMs;
}

/** The stored time, or null when absent or not a number. */
export function parseReloadTime(stored: string | null): number | null {
  if (stored === null || !/^\d+$/.test(stored)) return null;
  return Number(stored);
}

/**
 * The error says a module could not be fetched: the messages of Chromium, Firefox and Safari
 * for a failed dynamic `import()`, and Vite's for a stylesheet a chunk needed. Anything else
 * (a bug in the loaded code) is no reason to reload.
 */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return /dynamically imported module|importing a module script failed|unable to preload css/i.test(
    message,
  );
}

export interface ReloadEnvironment {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  now(): number;
  reload(): void;
}

const browser = (): ReloadEnvironment => {
  let storage: ReloadEnvironment['storage'] = null;
  try {
    storage = window.sessionStorage;
  } catch {
    // Storage blocked: no reload, it could not be guarded.
  }
  return {
    storage,
    now: () => Date.now(),
    reload: () => {
      window.location.reload();
    },
  };
};

/**
 * Reloads the page for a chunk-load `error` unless the guard forbids it; true when it did. No
 * reload without storage: nothing would stop a loop.
 */
export function reloadAfterChunkError(error: unknown, env: ReloadEnvironment = browser()): boolean {
  if (!isChunkLoadError(error) || env.storage === null) return false;
  const now = env.now();
  try {
    if (!shouldReload(parseReloadTime(env.storage.getItem(CHUNK_RELOAD_KEY)), now)) return false;
    env.storage.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    return false;
  }
  env.reload();
  return true;
}
