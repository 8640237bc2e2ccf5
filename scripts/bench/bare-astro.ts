/**
 * The yardstick of `npm run bench:build`: a bare Astro project of N trivial pages (a title and
 * a paragraph each, one `getStaticPaths` route), generated in a folder of `.bench/` and built
 * with this repository's Astro and the same Node, in a child process as the shop is built
 * (scripts/lib/astro-build-child.ts). The folder sits inside the repository, so `astro`
 * resolves from its `node_modules` without an install.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { run } from '../lib/run.ts';

export interface BareBuild {
  pages: number;
  /** Wall time of the child process, start to exit (what `buildShop` measures for the shop). */
  seconds: number;
  /** Time inside `astro build`. */
  astroSeconds: number;
  /** CPU time of the child process, all its threads. */
  cpuSeconds: number;
  maxRssMb: number;
}

/** Writes the bare project for `pages` pages into `dir` (emptied first). */
export async function writeBareProject(dir: string, pages: number): Promise<void> {
  if (!Number.isInteger(pages) || pages < 1) throw new Error(`bad page count ${pages}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'src/pages'), { recursive: true });
  await writeFile(
    path.join(dir, 'astro.config.mjs'),
    [
      "import { defineConfig } from 'astro/config';",
      '',
      '// The shop builds static pages as files (`/c/x.html`): the same here.',
      "export default defineConfig({ output: 'static', build: { format: 'file' } });",
      '',
    ].join('\n'),
  );
  await writeFile(
    path.join(dir, 'src/pages/[n].astro'),
    [
      '---',
      'export function getStaticPaths() {',
      `  return Array.from({ length: ${pages} }, (_, i) => ({ params: { n: String(i + 1) } }));`,
      '}',
      'const { n } = Astro.params;',
      '---',
      '<html lang="fr">',
      '  <head><meta charset="utf-8" /><title>Page {n}</title></head>',
      '  <body><p>Paragraphe de la page {n}.</p></body>',
      '</html>',
      '',
    ].join('\n'),
  );
}

/** Generates and builds the bare project of `pages` pages in `dir` (output in `dir/dist`). */
export async function buildBareAstro(dir: string, pages: number): Promise<BareBuild> {
  await writeBareProject(dir, pages);
  const child = path.join(import.meta.dirname, '../lib/astro-build-child.ts');
  const env: NodeJS.ProcessEnv = { ...process.env };
  // The shop's profiling switch is not for the yardstick.
  delete env.BUILD_CPU_PROF;
  delete env.BUILD_CACHE_DIR;
  const started = performance.now();
  const { code, stdout } = await run(
    process.execPath,
    [child, path.join(dir, 'dist'), path.resolve(dir)],
    { env, capture: true },
  );
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`bare astro build failed with exit code ${code}`);
  const line = stdout.split('\n').find((l) => l.startsWith('ASTRO_BUILD_RESULT '));
  const result = JSON.parse(line?.slice('ASTRO_BUILD_RESULT '.length) ?? '{}') as {
    seconds?: number;
    cpuSeconds?: number;
    maxRssMb?: number;
  };
  return {
    pages,
    seconds,
    astroSeconds: result.seconds ?? Number.NaN,
    cpuSeconds: result.cpuSeconds ?? Number.NaN,
    maxRssMb: result.maxRssMb ?? Number.NaN,
  };
}
