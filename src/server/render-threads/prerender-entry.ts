/**
 * Where Astro's pre-render bundle starts: `prerender-entry.{hash}.mjs` in `{server}/.prerender/`
 * (deleted once the pages are written). The build's render threads import it
 * (parallel-prerender.ts), and so does the kept build that publishes edits
 * (src/server/publish/page-publisher.ts).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const PRERENDER_ENTRY = /^prerender-entry\.[\w-]+\.mjs$/;

/** The pre-render folder of a build whose server folder is `serverDir`. */
export function prerenderDir(serverDir: string): string {
  return path.join(serverDir, '.prerender');
}

/** The entry's file URL in `dir` (a pre-render folder); throws when there is none. */
export function prerenderEntry(dir: string): string {
  const entry = readdirSync(dir).find((name) => PRERENDER_ENTRY.test(name));
  if (entry === undefined) throw new Error(`no pre-render entry in ${dir}`);
  return pathToFileURL(path.join(dir, entry)).href;
}
