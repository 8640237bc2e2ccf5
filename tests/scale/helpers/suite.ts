/**
 * What every post-build scale test shares: the build `npm test` made (`DIST_DIR`) and the
 * sandbox port that build talks to (`SANDBOX_PORT`), both overridable to run a test by hand on
 * another build, and the check that the build is there.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { TEST_ENV } from '../../../scripts/lib/test-env.ts';

export const DIST_DIR = process.env.DIST_DIR ?? TEST_ENV.DIST_DIR;
export const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? TEST_ENV.SANDBOX_PORT);

/** Throws when there is no production build at `DIST_DIR`. */
export function requireBuild(): void {
  if (!existsSync(path.join(DIST_DIR, 'server', 'entry.mjs'))) {
    throw new Error(`No production build at ${DIST_DIR} (npm test builds it first)`);
  }
}
