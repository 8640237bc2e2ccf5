import { existsSync } from 'node:fs';

/** Flags Chromium needs on this machine (no sandbox as root, no background network). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * The Chromium binary browser checks use: `CHROME_PATH`, else Debian's `/usr/bin/chromium`.
 * Returns null when none is installed.
 */
export function chromiumPath(): string | null {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p): p is string => Boolean(p && existsSync(p))) ?? null;
}
