/**
 * Writes `build-flags.json` beside the server bundle: the feature flags the build was made with
 * (spec §1, §6; fixed at build), for the storefront server (`src/server/serve.ts`), which runs
 * outside Astro: with the transactional flag off it hands no cart link (`?id&token`) to the
 * redirect-to-cart route, and the page asked for is served as it is.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

export const BUILD_FLAGS_FILE = 'build-flags.json';

export interface BuildFlags {
  transactional: boolean;
}

export function buildFlags(flags: BuildFlags): AstroIntegration {
  let serverDir = '';
  return {
    name: 'build-flags',
    hooks: {
      'astro:config:done': ({ config }) => {
        serverDir = fileURLToPath(config.build.server);
      },
      'astro:build:done': async () => {
        await writeFile(path.join(serverDir, BUILD_FLAGS_FILE), `${JSON.stringify(flags)}\n`);
      },
    },
  };
}

/** The flags of the build in `serverDir`; every feature on for a build without the file. */
export function readBuildFlags(serverDir: string): BuildFlags {
  try {
    const parsed = JSON.parse(readFileSync(path.join(serverDir, BUILD_FLAGS_FILE), 'utf8')) as {
      transactional?: unknown;
    };
    return { transactional: parsed.transactional !== false };
  } catch {
    return { transactional: true };
  }
}
